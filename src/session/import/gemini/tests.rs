use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde_json::{Value, json};

use super::*;
use crate::session::import::{Body, Call, Outcome, Role};

const SID: &str = "5c3e8f2a-1b4d-4e6f-9a0b-7c8d9e0f1a2b";

fn header(project: &Path) -> Value {
    json!({"sessionId": SID, "projectHash": project::hash_of(project),
           "startTime": "2026-05-01T09:00:00.000Z", "lastUpdated": "2026-05-01T09:00:00.000Z"})
}

fn user(id: &str, text: &str) -> Value {
    json!({"id": id, "timestamp": "2026-05-01T09:00:01.000Z", "type": "user",
           "content": [{"text": text}]})
}

fn gemini(id: &str, text: &str, calls: Value) -> Value {
    json!({"id": id, "timestamp": "2026-05-01T09:00:02.000Z", "type": "gemini",
           "content": text, "model": "gemini-2.5-pro", "toolCalls": calls,
           "thoughts": [{"subject": "Plan", "description": "secret plan", "timestamp": "2026-05-01T09:00:01.500Z"}],
           "tokens": {"input": 10, "output": 5, "cached": 0, "total": 15}})
}

fn tool(id: &str, status: &str, output: Option<&str>) -> Value {
    let result = output.map_or(Value::Null, |out| {
        json!([{"functionResponse": {"id": id, "name": "run_shell_command",
                 "response": {"output": out}}}])
    });
    json!({"id": id, "name": "run_shell_command", "args": {"command": "ls"},
           "result": result, "status": status, "timestamp": "2026-05-01T09:00:03.000Z",
           "resultDisplay": "ui only"})
}

fn write_lines(path: &Path, records: &[Value]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let text: String = records.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(path, text).unwrap();
}

fn read_path(path: &Path) -> Transcript {
    let found = Gemini.sources(path).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    read_source(&found[0])
}

/// The session of `source`, read three ways that must agree: whole in
/// memory as the reader did before it read in two passes (the reference),
/// in two passes, and in two passes handed over in parts of 1, 2, 3 items
/// and of all of them.
fn read_source(source: &Source) -> Transcript {
    let mut out = Vec::new();
    Gemini
        .read(source, &mut |t| {
            out.push(t);
            Ok(())
        })
        .unwrap();
    assert_eq!(out.len(), 1);
    let before = read_whole(source).unwrap();
    assert_eq!(
        out[0], before,
        "the two-pass reader differs from the whole one"
    );
    for size in [1, 2, 3, before.items.len().max(1)] {
        let mut parts = Vec::new();
        Gemini
            .read_parts(source, size, &mut |part| {
                assert!(part.transcript.items.len() <= size);
                parts.push(part);
                Ok(())
            })
            .unwrap();
        let firsts = parts.iter().filter(|p| p.first).count();
        let lasts = parts.iter().filter(|p| p.last).count();
        assert_eq!((firsts, lasts), (1, 1), "size {size}");
        assert_eq!(
            crate::session::import::parts::whole(parts),
            vec![before.clone()],
            "parts of {size} items differ"
        );
    }
    out.remove(0)
}

fn messages(t: &Transcript) -> Vec<(Role, String)> {
    t.items
        .iter()
        .filter_map(|i| match &i.body {
            Body::Message { role, text, .. } => Some((*role, text.clone())),
            Body::ToolCall(_) => None,
        })
        .collect()
}

fn calls(t: &Transcript) -> Vec<&Call> {
    t.items
        .iter()
        .filter_map(|i| match &i.body {
            Body::ToolCall(c) => Some(c),
            Body::Message { .. } => None,
        })
        .collect()
}

/// `~/.gemini` under a temp home, and a project directory in the home.
fn gemini_home() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = home.join("code").join("app");
    std::fs::create_dir_all(&project).unwrap();
    let gemini = home.join(".gemini");
    (dir, gemini, project)
}

#[test]
fn the_log_replays_replacements_metadata_and_rewinds() {
    let (_d, gemini_dir, project) = gemini_home();
    let path = gemini_dir.join("tmp/app/chats/session-2026-05-01T09-00-5c3e8f2a.jsonl");
    write_lines(
        &path,
        &[
            header(&project),
            user("m1", "first question"),
            gemini("m2", "", json!([tool("c1", "executing", None)])),
            // The same message again, its call now done: replaces it in place.
            gemini(
                "m2",
                "Let me look.",
                json!([tool("c1", "success", Some("a.txt"))]),
            ),
            user("m3", "a question rewound away"),
            gemini("m4", "an answer rewound away", json!([])),
            json!({"$rewindTo": "m3"}),
            user("m5", "second question"),
            json!({"$set": {"summary": "Listing the files", "lastUpdated": "2026-05-01T10:00:00.000Z"}}),
            gemini("m6", "Done.", json!([])),
        ],
    );
    std::fs::write(
        gemini_dir.join("tmp/app/.project_root"),
        project.display().to_string(),
    )
    .unwrap();
    let t = read_path(&path);
    assert_eq!(
        messages(&t),
        vec![
            (Role::User, "first question".into()),
            (Role::Assistant, "Let me look.".into()),
            (Role::User, "second question".into()),
            (Role::Assistant, "Done.".into()),
        ]
    );
    let keys: Vec<&str> = t.items.iter().map(|i| i.key.as_str()).collect();
    assert_eq!(keys, vec!["m1", "m2", "m2:c1", "m5", "m6"]);
    assert_eq!(calls(&t)[0].outcome, Outcome::Done("a.txt".into()));
    assert_eq!(t.title.as_deref(), Some("Listing the files"));
    assert_eq!(t.updated.as_deref(), Some("2026-05-01T10:00:00.000Z"));
    assert_eq!(t.started.as_deref(), Some("2026-05-01T09:00:00.000Z"));
    assert_eq!(t.source_id, SID);
    assert_eq!(t.model.as_deref(), Some("gemini-2.5-pro"));
    assert_eq!(t.provider.as_deref(), Some("google"));
    assert_eq!(t.cwd.as_deref(), Some(project.as_path()));
}

#[test]
fn a_set_messages_checkpoint_wins_over_earlier_lines() {
    let (_d, gemini_dir, project) = gemini_home();
    let path = gemini_dir.join("tmp/app/chats/session-x.jsonl");
    write_lines(
        &path,
        &[
            header(&project),
            user("m1", "old one"),
            gemini("m2", "old two", json!([])),
            json!({"$set": {"messages": [user("k1", "kept question"), gemini("k2", "kept answer", json!([]))]}}),
            user("m3", "after the checkpoint"),
        ],
    );
    let t = read_path(&path);
    assert_eq!(
        messages(&t),
        vec![
            (Role::User, "kept question".into()),
            (Role::Assistant, "kept answer".into()),
            (Role::User, "after the checkpoint".into()),
        ]
    );
}

#[test]
fn replacements_rewinds_and_checkpoints_mixed_read_alike_in_two_passes() {
    let (_d, gemini_dir, project) = gemini_home();
    let path = gemini_dir.join("tmp/app/chats/session-mixed.jsonl");
    let uuid = |n: u8| format!("00000000-0000-4000-8000-0000000000{n:02}");
    let mut first = header(&project);
    first["messages"] = json!([
        user("h1", "from the first line"),
        user("h2", "replaced later")
    ]);
    let records = [
        first,
        json!([1, 2]),
        json!({"kind": "not gemini-cli's"}),
        user("h2", "h2 replaced by a line"),
        json!({"$set": {"summary": "Mixed", "messages": [
            user(&uuid(1), "checkpoint one"),
            gemini(&uuid(2), "checkpoint two", json!([tool("c1", "success", Some("out"))])),
            user(&uuid(3), "checkpoint three, replaced"),
            user(&uuid(1), "checkpoint one, repeated in the list"),
            "not a message",
        ]}}),
        user(&uuid(3), "three, replaced by a line"),
        gemini("g4", "four", json!([])),
        user("u5", "rewound away"),
        json!({"$rewindTo": "u5"}),
        gemini(&uuid(2), "two, replaced after the checkpoint", json!([])),
        json!({"$set": {"lastUpdated": "2026-05-01T11:00:00.000Z", "messages": "not a list"}}),
        user("u6", "last"),
    ];
    let mut text = b"\xEF\xBB\xBF".to_vec();
    for record in &records {
        text.extend(
            record
                .to_string()
                .replace("checkpoint", "check\0point")
                .bytes(),
        );
        text.push(b'\n');
    }
    text.extend(br#"{"id":"u7","type":"us"#);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    let t = read_path(&path);
    assert_eq!(
        messages(&t),
        vec![
            (Role::User, "checkpoint one, repeated in the list".into()),
            (Role::Assistant, "two, replaced after the checkpoint".into()),
            (Role::User, "three, replaced by a line".into()),
            (Role::Assistant, "four".into()),
            (Role::User, "last".into()),
        ]
    );
    assert!(calls(&t).is_empty(), "the replacing line has no calls");
    assert_eq!(t.title.as_deref(), Some("Mixed"));
    assert_eq!(t.updated.as_deref(), Some("2026-05-01T11:00:00.000Z"));
    assert_eq!(t.skipped.byte_order_marks, 1);
    assert_eq!(t.skipped.torn_lines, 1);
    assert_eq!(t.skipped.unknown_kinds, 2);
    assert!(t.skipped.nul_bytes >= 4, "{:?}", t.skipped);

    // A rewind to an id not in the conversation empties it.
    let mut more = std::fs::read(&path).unwrap();
    more.extend(b"\n");
    more.extend(json!({"$rewindTo": "nowhere"}).to_string().bytes());
    more.extend(b"\n");
    more.extend(user("u8", "after everything").to_string().bytes());
    more.extend(b"\n");
    std::fs::write(&path, more).unwrap();
    assert_eq!(
        messages(&read_path(&path)),
        vec![(Role::User, "after everything".into())]
    );
}

#[test]
fn tool_calls_in_the_model_message_are_paired_with_their_results() {
    let (_d, gemini_dir, project) = gemini_home();
    let path = gemini_dir.join("tmp/app/chats/session-x.jsonl");
    let string_result = json!({"id": "c5", "name": "read_file", "args": {"path": "a"},
        "result": "plain text result", "status": "success", "timestamp": "2026-05-01T09:00:04.000Z"});
    let mut with_call_part = gemini("m3", "", json!([]));
    with_call_part["content"] = json!([
        {"text": "hidden", "thought": true},
        {"functionCall": {"id": "c6", "name": "glob", "args": {"pattern": "*"}}}
    ]);
    write_lines(
        &path,
        &[
            header(&project),
            user("m1", "go"),
            gemini(
                "m2",
                "Running.",
                json!([
                    tool("c1", "success", Some("ok")),
                    {"id": "c2", "name": "write_file", "args": {"path": "/x"}, "status": "error",
                     "timestamp": "2026-05-01T09:00:03.000Z",
                     "result": [{"functionResponse": {"id": "c2", "name": "write_file", "response": {"error": "denied"}}}]},
                    tool("c3", "cancelled", None),
                    tool("c4", "awaiting_approval", None),
                    string_result,
                ]),
            ),
            with_call_part,
        ],
    );
    let t = read_path(&path);
    let got: Vec<(&str, &Outcome)> = calls(&t)
        .iter()
        .map(|c| (c.call_id.as_str(), &c.outcome))
        .collect();
    assert_eq!(
        got,
        vec![
            ("c1", &Outcome::Done("ok".into())),
            ("c2", &Outcome::Failed("denied".into())),
            ("c3", &Outcome::NoResult("cancelled")),
            ("c4", &Outcome::NoResult("interrupted")),
            ("c5", &Outcome::Done("plain text result".into())),
            ("c6", &Outcome::NoResult("interrupted")),
        ]
    );
    assert_eq!(calls(&t)[0].args, json!({"command": "ls"}));
    assert_eq!(calls(&t)[0].name, "run_shell_command");
    // The message's text, then its calls.
    assert_eq!(t.items[1].key, "m2");
    assert_eq!(t.items[2].key, "m2:c1");
    assert!(
        messages(&t)
            .iter()
            .all(|(_, text)| !text.contains("secret plan") && !text.contains("hidden"))
    );
}

#[test]
fn ui_messages_and_commands_are_not_imported() {
    let (_d, gemini_dir, project) = gemini_home();
    let path = gemini_dir.join("tmp/app/chats/session-x.jsonl");
    write_lines(
        &path,
        &[
            header(&project),
            user("m0", "/model"),
            json!({"id": "i1", "timestamp": "2026-05-01T09:00:01.000Z", "type": "info", "content": "Model set."}),
            user("m1", "<session_context>\nrepo state\n</session_context>"),
            user("m2", "real prompt"),
            json!({"id": "e1", "timestamp": "2026-05-01T09:00:01.000Z", "type": "error", "content": "quota"}),
            json!({"something": "else"}),
        ],
    );
    let t = read_path(&path);
    assert_eq!(messages(&t), vec![(Role::User, "real prompt".into())]);
    assert_eq!(t.skipped.unknown_kinds, 1);
    // Left out as gemini-cli's resume leaves them out, and counted.
    assert_eq!(t.skipped.commands, 1);
    assert_eq!(t.skipped.not_typed, 1);
}

#[test]
fn a_hash_directory_is_matched_through_directories_the_registry_or_the_home() {
    let (_d, gemini_dir, project) = gemini_home();
    let hash = project::hash_of(&project);
    let chats = gemini_dir.join("tmp").join(&hash).join("chats");

    // Through the record's directories.
    let path = chats.join("session-a.jsonl");
    let mut head = header(&project);
    head["directories"] = json!(["/somewhere/else", project]);
    write_lines(&path, &[head, user("m1", "hi")]);
    assert_eq!(read_path(&path).cwd.as_deref(), Some(project.as_path()));

    // Through the home's subdirectories.
    let path = chats.join("session-b.jsonl");
    write_lines(
        &path,
        &[
            json!({"sessionId": "other-b", "projectHash": hash}),
            user("m1", "hi"),
        ],
    );
    assert_eq!(read_path(&path).cwd.as_deref(), Some(project.as_path()));

    // Through projects.json, for a project outside the home.
    let outside = _d.path().join("elsewhere/deep/down/proj");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(
        gemini_dir.join("projects.json"),
        json!({"projects": {outside.display().to_string(): "proj"}}).to_string(),
    )
    .unwrap();
    let path = chats.join("session-c.jsonl");
    write_lines(
        &path,
        &[
            json!({"sessionId": "other-c", "projectHash": project::hash_of(&outside)}),
            user("m1", "hi"),
        ],
    );
    assert_eq!(read_path(&path).cwd.as_deref(), Some(outside.as_path()));

    // Nothing matches: no directory rather than a wrong one.
    let path = chats.join("session-d.jsonl");
    write_lines(
        &path,
        &[
            json!({"sessionId": "other-d", "projectHash": "ab".repeat(32)}),
            user("m1", "hi"),
        ],
    );
    assert_eq!(read_path(&path).cwd, None);
}

#[test]
fn the_legacy_document_is_read_and_its_directory_recovered_from_the_hash() {
    let (_d, gemini_dir, project) = gemini_home();
    let hash = project::hash_of(&project);
    let path = gemini_dir.join(format!(
        "tmp/{hash}/chats/session-2025-11-02T08-00-5c3e8f2a.json"
    ));
    let mut doc = header(&project);
    doc["summary"] = json!("Old chat");
    doc["messages"] = json!([
        user("m1", "legacy prompt"),
        gemini(
            "m2",
            "legacy answer",
            json!([tool("c1", "success", Some("out"))])
        )
    ]);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let t = read_path(&path);
    assert_eq!(t.source_id, SID);
    assert_eq!(t.title.as_deref(), Some("Old chat"));
    assert_eq!(messages(&t).len(), 2);
    assert_eq!(calls(&t).len(), 1);
    assert_eq!(t.cwd.as_deref(), Some(project.as_path()));
    assert_eq!(found_kind(&path), "legacy-json");

    // Copied out of its project directory, it names none.
    let copy = _d.path().join("loose/session-copy.json");
    std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
    std::fs::copy(&path, &copy).unwrap();
    assert_eq!(read_path(&copy).cwd, None);
}

fn found_kind(path: &Path) -> &'static str {
    Gemini.sources(path).unwrap()[0].kind
}

fn set_mtime(path: &Path, secs: u64) {
    let file = std::fs::File::options().write(true).open(path).unwrap();
    file.set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(secs))
        .unwrap();
}

#[test]
fn a_resumed_session_left_in_two_files_is_imported_once_from_the_newer() {
    let (_d, gemini_dir, project) = gemini_home();
    let chats = gemini_dir.join("tmp/app/chats");
    // A legacy .json resumed: the .jsonl beside it holds it all and more.
    let json_path = chats.join("session-2026-03-01T10-00-5c3e8f2a.json");
    let mut doc = header(&project);
    doc["messages"] = json!([user("m1", "hi")]);
    std::fs::create_dir_all(&chats).unwrap();
    std::fs::write(&json_path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let jsonl_path = chats.join("session-2026-03-01T10-00-5c3e8f2a.jsonl");
    write_lines(
        &jsonl_path,
        &[header(&project), user("m1", "hi"), user("m2", "more")],
    );
    set_mtime(&json_path, 1_000);
    set_mtime(&jsonl_path, 2_000);
    // Two JSONL files of one session: the one written last is read.
    let other = |name: &str| chats.join(name);
    let head = json!({"sessionId": "dup", "projectHash": "0".repeat(64)});
    write_lines(
        &other("session-2026-04-01T10-00-dup00001.jsonl"),
        &[head.clone(), user("x1", "old")],
    );
    write_lines(
        &other("session-2026-04-02T10-00-dup00001.jsonl"),
        &[head, user("x1", "old"), user("x2", "new")],
    );
    set_mtime(&other("session-2026-04-01T10-00-dup00001.jsonl"), 5_000);
    set_mtime(&other("session-2026-04-02T10-00-dup00001.jsonl"), 3_000);

    let found = Gemini.sources(&gemini_dir).unwrap();
    let read: Vec<usize> = found.iter().map(|s| read_source(s).items.len()).collect();
    assert_eq!(read, vec![2, 1]);
    let names: Vec<String> = found
        .iter()
        .map(|s| s.path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        vec![
            "session-2026-03-01T10-00-5c3e8f2a.jsonl",
            "session-2026-04-01T10-00-dup00001.jsonl",
        ]
    );
}

#[test]
fn other_tools_files_are_not_claimed_and_sub_agents_name_their_parent() {
    let (_d, gemini_dir, project) = gemini_home();
    let tmp = gemini_dir.join("tmp/app");
    write_lines(
        &tmp.join("chats/session-main.jsonl"),
        &[header(&project), user("m1", "hi")],
    );
    let sub = tmp.join(format!(
        "chats/{SID}/0f0e0d0c-aaaa-bbbb-cccc-000000000001.jsonl"
    ));
    write_lines(
        &sub,
        &[
            json!({"sessionId": "0f0e0d0c-aaaa-bbbb-cccc-000000000001", "projectHash": project::hash_of(&project),
               "kind": "subagent", "directories": [project]}),
            user("s1", "sub task"),
        ],
    );
    // A Claude Code session, a Codex rollout, gemini-cli's other files.
    write_lines(
        &tmp.join("chats/11111111-2222-3333-4444-555555555555.jsonl"),
        &[
            json!({"type": "user", "sessionId": "x", "uuid": "u", "message": {"role": "user", "content": "hi"}}),
        ],
    );
    write_lines(
        &gemini_dir.join("rollout-2025-10-01T10-00-00-x.jsonl"),
        &[json!({"timestamp": "t", "type": "session_meta", "payload": {"id": "x"}})],
    );
    std::fs::write(tmp.join("logs.json"), "[]").unwrap();
    std::fs::write(tmp.join("checkpoint-tag.json"), "[]").unwrap();
    std::fs::write(tmp.join("chats/session-broken.json"), "not json").unwrap();

    let found = Gemini.sources(&gemini_dir).unwrap();
    assert_eq!(found.len(), 2, "{found:?}");
    let t = read_path(&sub);
    assert_eq!(t.parent_source_id.as_deref(), Some(SID));
    assert_eq!(t.cwd.as_deref(), Some(project.as_path()));
    assert_eq!(
        read_path(&tmp.join("chats/session-main.jsonl")).parent_source_id,
        None
    );
}

#[test]
fn a_whole_record_on_one_long_first_line_is_still_found() {
    let (_d, gemini_dir, project) = gemini_home();
    let path = gemini_dir.join("tmp/app/chats/session-long.jsonl");
    let mut record = header(&project);
    let long = "x".repeat(100_000);
    record["messages"] = json!([user("m1", &long), gemini("m2", "short", json!([]))]);
    write_lines(&path, &[record, user("m3", "next")]);
    let t = read_path(&path);
    assert_eq!(t.source_id, SID);
    assert_eq!(messages(&t).len(), 3);
}

#[test]
fn keys_stay_put_as_the_log_grows_and_a_torn_line_is_counted() {
    let (_d, gemini_dir, project) = gemini_home();
    let path = gemini_dir.join("tmp/app/chats/session-x.jsonl");
    write_lines(
        &path,
        &[
            header(&project),
            user("m1", "one"),
            gemini("m2", "two", json!([])),
        ],
    );
    let before = read_path(&path).items;
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(&format!(
        "{}\n{{\"id\":\"m4\",\"type\":\"gem",
        user("m3", "three")
    ));
    std::fs::write(&path, text).unwrap();
    let after = read_path(&path);
    assert_eq!(&after.items[..before.len()], &before[..]);
    assert_eq!(after.items.len(), 3);
    assert_eq!(after.skipped.torn_lines, 1);
}

#[test]
fn default_roots_are_the_gemini_tmp_directory_of_gemini_cli_home_else_home() {
    let (_d, gemini_dir, _project) = gemini_home();
    let homes = Homes::at(gemini_dir.parent().map(Path::to_path_buf));
    assert!(roots(None, &homes).is_empty());
    std::fs::create_dir_all(gemini_dir.join("tmp")).unwrap();
    assert_eq!(roots(None, &homes), vec![gemini_dir.join("tmp")]);
    let moved = _d.path().join("cli-home");
    std::fs::create_dir_all(moved.join(".gemini/tmp")).unwrap();
    assert_eq!(
        roots(Some(moved.clone()), &homes),
        vec![moved.join(".gemini/tmp")]
    );
}

#[test]
fn inline_images_are_kept_and_other_inline_data_left_out() {
    const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    let (_d, gemini_dir, project) = gemini_home();
    let path = gemini_dir.join("tmp/app/chats/session-x.jsonl");
    let inline = |mime: &str, data: &str| json!({"inlineData": {"mimeType": mime, "data": data}});
    write_lines(
        &path,
        &[
            header(&project),
            json!({"id": "m1", "timestamp": "2026-05-01T09:00:01.000Z", "type": "user",
                   "content": [{"text": "what is this?"}, inline("image/png", PNG),
                               inline("application/pdf", "JVBERi0=")]}),
            // An image alone is a message; one not base64 is noted.
            json!({"id": "m2", "timestamp": "2026-05-01T09:00:02.000Z", "type": "user",
                   "content": [inline("image/png", "not base64!")]}),
            json!({"id": "m3", "timestamp": "2026-05-01T09:00:03.000Z", "type": "user",
                   "content": [{"fileData": {"mimeType": "image/jpeg", "fileUri": "https://example.com/a.jpg"}}]}),
            // A command's image goes with its text.
            json!({"id": "m4", "timestamp": "2026-05-01T09:00:04.000Z", "type": "user",
                   "content": [{"text": "/paste"}, inline("image/png", PNG)]}),
        ],
    );
    let t = read_path(&path);
    assert_eq!(
        crate::session::import::parts::message_images(&t),
        [
            (
                "m1",
                &[json!({"type": "image", "mimeType": "image/png", "data": PNG})][..]
            ),
            (
                "m2",
                &[json!({"type": "text", "text": "[image: image/png, 11 bytes, not kept]"})][..]
            ),
            (
                "m3",
                &[json!({"type": "text", "text": "[image: https://example.com/a.jpg]"})][..]
            ),
        ]
    );
    assert_eq!(messages(&t)[0], (Role::User, "what is this?".into()));
    assert_eq!(t.skipped.commands, 1);
}
