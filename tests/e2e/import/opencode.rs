//! Importing opencode sessions (see mod.rs): a data directory with a live
//! `opencode.db` in WAL mode (1.x and 2.x tables, rows not yet
//! checkpointed) and the legacy JSON storage beside it.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, params};
use serde_json::{Value, json};

use super::{by_source, get, import, source_keys};
use crate::support::{self, Sandbox};

pub(super) const T0: i64 = 1_767_225_600_000; // 2026-01-01T00:00:00Z

pub(super) const SCHEMA: &str = "
CREATE TABLE project (id TEXT PRIMARY KEY, worktree TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT NOT NULL,
  directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, share_url TEXT,
  time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, time_compacting INTEGER, time_archived INTEGER);
CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL,
  time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL,
  time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE INDEX part_message_id_id_idx ON part (message_id, id);
CREATE TABLE session_v2 (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, workspace_id TEXT, parent_id TEXT,
  slug TEXT NOT NULL, directory TEXT NOT NULL, path TEXT, title TEXT, version TEXT NOT NULL, agent TEXT, model TEXT,
  time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, time_archived INTEGER);
CREATE TABLE session_message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, type TEXT NOT NULL, seq INTEGER NOT NULL,
  time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);";

pub(super) struct Db(pub(super) Connection);

impl Db {
    pub(super) fn session(&self, id: &str, dir: &Path, title: &str) {
        self.0
            .execute(
                "INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated)
                 VALUES (?1, 'p1', 'slug', ?2, ?3, '1.0.0', ?4, ?5)",
                params![id, dir.display().to_string(), title, T0, T0 + 60_000],
            )
            .unwrap();
    }

    pub(super) fn message(&self, session: &str, id: &str, at: i64, data: Value) {
        self.0
            .execute(
                "INSERT INTO message VALUES (?1, ?2, ?3, ?3, ?4)",
                params![id, session, T0 + at, data.to_string()],
            )
            .unwrap();
    }

    pub(super) fn part(&self, session: &str, message: &str, id: &str, data: Value) {
        self.0
            .execute(
                "INSERT INTO part VALUES (?1, ?2, ?3, ?4, ?4, ?5)",
                params![id, message, session, T0, data.to_string()],
            )
            .unwrap();
    }

    fn v2(&self, session: &str, id: &str, kind: &str, seq: i64, data: Value) {
        self.0
            .execute(
                "INSERT INTO session_message VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6)",
                params![id, session, kind, seq, T0 + seq * 1000, data.to_string()],
            )
            .unwrap();
    }
}

pub(super) fn tool(call: &str, name: &str, state: Value) -> Value {
    json!({"type": "tool", "callID": call, "tool": name, "state": state})
}

/// A 1.x session: a prompt (with a synthetic part opencode added), an
/// answer in steps with reasoning, two text parts, a read that completed,
/// a test run that failed and a command still running.
fn fill_v1(db: &Db, id: &str, cwd: &Path) {
    db.session(id, cwd, "Fix the flaky retry test");
    db.message(id, "msg_0001", 0, json!({"role": "user", "time": {"created": T0}, "agent": "build", "model": {"providerID": "anthropic", "modelID": "claude-sonnet-4-5"}}));
    db.part(
        id,
        "msg_0001",
        "prt_0001",
        json!({"type": "text", "text": "Why does the retry test fail?"}),
    );
    db.part(id, "msg_0001", "prt_0002", json!({"type": "text", "synthetic": true, "text": "Called the Read tool with the following input: {}"}));
    db.message(id, "msg_0002", 1000, json!({"role": "assistant", "time": {"created": T0 + 1000, "completed": T0 + 9000}, "parentID": "msg_0001", "modelID": "claude-sonnet-4-5", "providerID": "anthropic", "mode": "build", "path": {"cwd": cwd, "root": cwd}, "cost": 0.01, "tokens": {"input": 10, "output": 20, "reasoning": 0, "cache": {"read": 0, "write": 0}}}));
    db.part(
        id,
        "msg_0002",
        "prt_0003",
        json!({"type": "step-start", "snapshot": "abc"}),
    );
    db.part(
        id,
        "msg_0002",
        "prt_0004",
        json!({"type": "reasoning", "text": "secret thoughts", "time": {"start": T0 + 1000}}),
    );
    db.part(
        id,
        "msg_0002",
        "prt_0005",
        json!({"type": "text", "text": "Let me read the test."}),
    );
    db.part(id, "msg_0002", "prt_0006", tool("call_read", "read", json!({"status": "completed", "input": {"filePath": "src/retry.rs"}, "output": "thread 'retry' panicked: zanzibar-quokka", "title": "src/retry.rs", "metadata": {}, "time": {"start": T0 + 2000, "end": T0 + 2100}})));
    db.part(id, "msg_0002", "prt_0007", tool("call_test", "bash", json!({"status": "error", "input": {"command": "cargo test retry"}, "error": "Command failed with exit code 101", "metadata": {}, "time": {"start": T0 + 3000, "end": T0 + 3500}})));
    db.part(id, "msg_0002", "prt_0008", tool("call_watch", "bash", json!({"status": "running", "input": {"command": "cargo watch"}, "title": "cargo watch", "metadata": {}, "time": {"start": T0 + 4000}})));
    db.part(
        id,
        "msg_0002",
        "prt_0009",
        json!({"type": "text", "text": "The retry test races the timer."}),
    );
    db.part(
        id,
        "msg_0002",
        "prt_0010",
        json!({"type": "step-finish", "reason": "tool-calls", "cost": 0, "tokens": {}}),
    );
}

/// A session 2.x copied into `session_v2` (its 1.x rows still there), and
/// continued there.
fn fill_v2(db: &Db, id: &str, cwd: &Path) {
    db.session(id, cwd, "stale 1.x copy");
    db.message(id, "msg_old", 0, json!({"role": "user"}));
    db.part(
        id,
        "msg_old",
        "prt_old",
        json!({"type": "text", "text": "STALE COPY"}),
    );
    db.0.execute(
        "INSERT INTO session_v2 (id, project_id, slug, directory, title, version, model, time_created, time_updated)
         VALUES (?1, 'p1', 's', ?2, 'Add a README', '2.0.25', ?3, ?4, ?5)",
        params![id, cwd.display().to_string(), json!({"id": "gpt-5.2", "providerID": "openai"}).to_string(), T0 + 100_000, T0 + 200_000],
    )
    .unwrap();
    db.v2(
        id,
        "msg_v2_1",
        "user",
        101,
        json!({"text": "Add a README", "time": {"created": T0 + 101_000}}),
    );
    db.v2(
        id,
        "msg_v2_2",
        "system",
        102,
        json!({"text": "harness text"}),
    );
    db.v2(id, "msg_v2_3", "assistant", 103, json!({"time": {"created": T0 + 103_000, "completed": T0 + 104_000}, "agent": "build", "model": {"id": "gpt-5.2", "providerID": "openai"},
        "content": [{"type": "reasoning", "text": "need a file"}, {"type": "text", "text": "Writing it."},
            {"type": "tool", "id": "oc_t1", "name": "write", "state": {"status": "completed", "input": {"filePath": "README.md", "content": "# shop\n"}, "content": [{"type": "text", "text": "Wrote file"}]}},
            {"type": "text", "text": "README added."}]}));
    db.v2(id, "msg_v2_4", "shell", 105, json!({"shellID": "sh_1", "command": "ls", "status": "completed", "exit": 0, "output": {"output": "README.md\n"}}));
    db.v2(id, "msg_v2_5", "idle", 106, json!({"outcome": "completed"}));
}

fn write_json(path: &Path, value: Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec(&value).unwrap()).unwrap();
}

/// A session in the legacy JSON storage.
fn legacy(storage: &Path, id: &str, cwd: &Path, title: &str) {
    write_json(
        &storage.join(format!("session/proj1/{id}.json")),
        json!({"id": id, "projectID": "proj1", "directory": cwd, "title": title, "version": "0.15.0", "time": {"created": T0 + 300_000, "updated": T0 + 301_000}}),
    );
    write_json(
        &storage.join(format!("message/{id}/msg_{id}_1.json")),
        json!({"id": format!("msg_{id}_1"), "sessionID": id, "role": "user", "time": {"created": T0 + 300_000}}),
    );
    write_json(
        &storage.join(format!("part/msg_{id}_1/prt_{id}_1.json")),
        json!({"id": format!("prt_{id}_1"), "sessionID": id, "messageID": format!("msg_{id}_1"), "type": "text", "text": "Rename the crate"}),
    );
    write_json(
        &storage.join(format!("message/{id}/msg_{id}_2.json")),
        json!({"id": format!("msg_{id}_2"), "sessionID": id, "role": "assistant", "time": {"created": T0 + 300_500}, "modelID": "qwen3-coder", "providerID": "ollama"}),
    );
    write_json(
        &storage.join(format!("part/msg_{id}_2/prt_{id}_2.json")),
        json!({"id": format!("prt_{id}_2"), "type": "tool", "callID": "c_mv", "tool": "bash", "state": {"status": "completed", "input": {"command": "git mv a b"}, "output": ""}}),
    );
    write_json(
        &storage.join(format!("part/msg_{id}_2/prt_{id}_3.json")),
        json!({"id": format!("prt_{id}_3"), "type": "text", "text": "Renamed."}),
    );
}

#[test]
fn an_opencode_store_is_imported_once_live_and_untouched() {
    let sb = Sandbox::new();
    let root = sb.work.join("shop");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    let root = root.canonicalize().unwrap();
    let cwd = root.join("src");

    let data: PathBuf = sb.home.join(".local/share/opencode");
    std::fs::create_dir_all(&data).unwrap();
    let db = Db(Connection::open(data.join("opencode.db")).unwrap());
    // opencode's own settings; the writer stays open and never checkpoints,
    // so every row below is only in the WAL.
    db.0.execute_batch("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;")
        .unwrap();
    db.0.execute_batch(SCHEMA).unwrap();
    fill_v1(&db, "ses_v1", &cwd);
    fill_v2(&db, "ses_both", &root);
    let storage = data.join("storage");
    legacy(&storage, "ses_json", &root, "Rename the crate");
    // The 1.x copy of a session the database holds.
    legacy(&storage, "ses_v1", &cwd, "legacy copy of ses_v1");
    assert!(
        std::fs::metadata(data.join("opencode.db-wal"))
            .unwrap()
            .len()
            > 0
    );

    let before = support::tree(&data);
    let (lines, summary) = import(&sb, &["--from", "opencode", &data.display().to_string()]);
    assert_eq!(support::tree(&data), before, "the store was written to");
    let ids: Vec<&str> = lines
        .iter()
        .map(|l| l["sourceId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["ses_both", "ses_json", "ses_v1"], "each session once");
    assert_eq!(summary["imported"], 3);

    // The 1.x session: 3 messages (two text parts joined), 3 calls.
    let v1 = by_source(&lines, "ses_v1");
    assert_eq!(
        (v1["messages"].clone(), v1["toolCalls"].clone()),
        (json!(3), json!(3))
    );
    assert_eq!(v1["title"], "Fix the flaky retry test");
    let db_path = data.join("opencode.db").display().to_string();
    assert_eq!(v1["source"], format!("{db_path}#session/ses_v1"));
    let session = get(&sb, v1["sessionId"].as_str().unwrap());
    assert_eq!(session["workspace"], json!(root.display().to_string()));
    assert_eq!(session["metadata"]["importedFrom"]["tool"], "opencode");
    assert_eq!(
        session["metadata"]["importedFrom"]["sourceSessionId"],
        "ses_v1"
    );
    assert_eq!(
        session["metadata"]["importedFrom"]["source"],
        format!("{db_path}#session/ses_v1")
    );
    assert_eq!(session["title"], "Fix the flaky retry test");
    assert_eq!(session["model"], "claude-sonnet-4-5");
    assert_eq!(session["provider"], "anthropic");
    assert_eq!(
        source_keys(&session),
        [
            "prt_0001",
            "prt_0005",
            "prt_0006",
            "prt_0007",
            // Still running: stored under a key of its own, so its result
            // is added once a later import finds it.
            "prt_0008#no-result",
            "prt_0009"
        ],
        "conversation order"
    );
    let texts: Vec<&str> = session["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["parts"][0]["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        [
            "Why does the retry test fail?",
            "Let me read the test.",
            "The retry test races the timer."
        ]
    );
    let calls = session["toolCalls"].as_array().unwrap();
    assert_eq!(calls[0]["id"], "call_read");
    assert_eq!(calls[0]["args"], json!({"filePath": "src/retry.rs"}));
    assert_eq!(
        calls[0]["result"]["llmContent"],
        "thread 'retry' panicked: zanzibar-quokka"
    );
    assert_eq!(calls[1]["status"], "error");
    assert_eq!(
        calls[1]["result"]["llmContent"],
        "Command failed with exit code 101"
    );
    assert_eq!(calls[2]["status"], "running");
    assert!(
        !session.to_string().contains("secret thoughts"),
        "reasoning is not imported"
    );

    // The session 2.x took over: read from session_v2 only.
    let both = by_source(&lines, "ses_both");
    assert_eq!(both["source"], format!("{db_path}#session_v2/ses_both"));
    assert_eq!(
        (both["messages"].clone(), both["toolCalls"].clone()),
        (json!(3), json!(2))
    );
    let session = get(&sb, both["sessionId"].as_str().unwrap());
    assert!(!session.to_string().contains("STALE COPY"));
    assert_eq!(
        session["toolCalls"][0]["result"]["llmContent"],
        "Wrote file"
    );
    assert_eq!(session["toolCalls"][1]["name"], "shell");
    assert_eq!(session["workspace"], json!(root.display().to_string()));
    assert_eq!(session["model"], "gpt-5.2");

    // The legacy JSON session.
    let legacy_line = by_source(&lines, "ses_json");
    assert_eq!(
        (
            legacy_line["messages"].clone(),
            legacy_line["toolCalls"].clone()
        ),
        (json!(2), json!(1))
    );
    assert_eq!(legacy_line["title"], "Rename the crate");

    // Text only a tool returned is found.
    let out = sb
        .cmd("ollm-session")
        .args(["search", "zanzibar-quokka", "--format", "json"])
        .output()
        .unwrap();
    let hits = support::json(&out);
    assert_eq!(hits.as_array().unwrap().len(), 1, "{hits}");
    assert_eq!(hits[0]["sessionId"], v1["sessionId"]);

    // Again, from the default location: nothing new.
    let (again, summary) = import(&sb, &["--from", "opencode"]);
    assert_eq!(again.len(), 3);
    assert!(
        again
            .iter()
            .all(|l| l["status"] == "unchanged" && l["added"] == 0),
        "{again:?}"
    );
    assert_eq!(summary["added"], 0);

    // The session goes on: only the new rows are added.
    db.message(
        "ses_v1",
        "msg_0003",
        20_000,
        json!({"role": "user", "time": {"created": T0 + 20_000}}),
    );
    db.part(
        "ses_v1",
        "msg_0003",
        "prt_0011",
        json!({"type": "text", "text": "Fix it then."}),
    );
    db.message("ses_v1", "msg_0004", 21_000, json!({"role": "assistant", "time": {"created": T0 + 21_000}, "modelID": "claude-opus-4-1", "providerID": "anthropic"}));
    db.part("ses_v1", "msg_0004", "prt_0012", tool("call_edit", "edit", json!({"status": "completed", "input": {"filePath": "src/retry.rs"}, "output": "Edited"})));
    db.part(
        "ses_v1",
        "msg_0004",
        "prt_0013",
        json!({"type": "text", "text": "Fixed."}),
    );
    let before = support::tree(&data);
    let (grown, _) = import(&sb, &["--from", "opencode", &data.display().to_string()]);
    assert_eq!(support::tree(&data), before);
    let v1 = by_source(&grown, "ses_v1");
    assert_eq!(
        (v1["status"].clone(), v1["added"].clone()),
        (json!("updated"), json!(3))
    );
    assert!(
        grown
            .iter()
            .filter(|l| l["sourceId"] != "ses_v1")
            .all(|l| l["status"] == "unchanged")
    );
    let session = get(&sb, v1["sessionId"].as_str().unwrap());
    assert_eq!(
        source_keys(&session)[6..],
        ["prt_0011", "prt_0012", "prt_0013"]
    );
    drop(db);
}

#[test]
fn a_single_legacy_session_file_and_a_database_file_can_be_named() {
    let sb = Sandbox::new();
    let data = sb.work.join("opencode");
    let storage = data.join("storage");
    legacy(&storage, "ses_json", &sb.work, "Rename the crate");
    let file = storage.join("session/proj1/ses_json.json");
    let (lines, _) = import(&sb, &[&file.display().to_string()]);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["tool"], "opencode");
    assert_eq!(lines[0]["source"], file.display().to_string());

    let db = Db(Connection::open(data.join("opencode.db")).unwrap());
    db.0.execute_batch(SCHEMA).unwrap();
    fill_v1(&db, "ses_named", &sb.work);
    drop(db);
    let (lines, _) = import(
        &sb,
        &[
            "--from",
            "auto",
            &data.join("opencode.db").display().to_string(),
        ],
    );
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["sourceId"], "ses_named");
}

/// One hostile row: a session whose title and directory are 20 MB each,
/// answered by a model with a 100 KB name.
#[test]
fn a_hostile_title_and_directory_are_stored_cut_and_listings_stay_small() {
    const HUGE: usize = 20 << 20;
    let sb = Sandbox::new();
    let path = sb.work.join("opencode.db");
    let db = Db(Connection::open(&path).unwrap());
    db.0.execute_batch(SCHEMA).unwrap();
    let title = "T".repeat(HUGE);
    let dir = PathBuf::from(format!("/{}", "d".repeat(HUGE)));
    db.session("ses_huge", &dir, &title);
    let model = "m".repeat(100 << 10);
    db.message(
        "ses_huge",
        "msg_0001",
        0,
        json!({"role": "user", "time": {"created": T0}}),
    );
    db.part(
        "ses_huge",
        "msg_0001",
        "prt_0001",
        json!({"type": "text", "text": "hello"}),
    );
    db.message("ses_huge", "msg_0002", 1000, json!({"role": "assistant", "time": {"created": T0 + 1000}, "modelID": model, "providerID": "anthropic"}));
    db.part(
        "ses_huge",
        "msg_0002",
        "prt_0002",
        json!({"type": "text", "text": "hi"}),
    );
    drop(db);

    let (lines, summary) = import(&sb, &["--from", "opencode", &path.display().to_string()]);
    assert_eq!(summary["imported"], 1, "{summary}");
    let line = by_source(&lines, "ses_huge");
    assert_eq!(
        line["skipped"]["cutFields"],
        3,
        "{} bytes of title reported",
        line["title"].as_str().map_or(0, str::len)
    );
    assert_eq!(summary["skipped"]["cutFields"], 3, "{summary}");
    let stored = get(&sb, line["sessionId"].as_str().unwrap());
    let cut = |field: &str, max: usize| {
        let text = stored[field].as_str().unwrap_or_else(|| panic!("{field}"));
        assert!(
            text.len() <= max && text.ends_with(" …[cut]"),
            "{field}: {} bytes",
            text.len()
        );
        assert!(text.len() > max / 2, "{field} cut too short");
    };
    cut("title", 1024);
    cut("workspace", 4096);
    cut("model", 256);
    // The messages are whole.
    assert_eq!(stored["messages"].as_array().map(Vec::len), Some(2));
    let listed = sb.session_ok(&["list"]);
    assert!(
        listed.stdout.len() < 16 << 10,
        "list printed {} bytes",
        listed.stdout.len()
    );
}

/// Hostile ids: two sessions whose 1 MB ids differ only at their end, the
/// second a child of the first, with 1 MB message, part and call ids. Each
/// is stored apart with every id bounded, and importing again adds nothing.
#[test]
fn hostile_ids_are_stored_bounded_apart_and_found_again() {
    let sb = Sandbox::new();
    let path = sb.work.join("opencode.db");
    let db = Db(Connection::open(&path).unwrap());
    db.0.execute_batch(SCHEMA).unwrap();
    let ids = [
        super::hostile_id("ses_", "1"),
        super::hostile_id("ses_", "2"),
    ];
    for (n, id) in ids.iter().enumerate() {
        db.session(id, &sb.work, "hostile ids");
        let user = super::hostile_id("msg_", &format!("{n}u"));
        let answer = super::hostile_id("msg_", &format!("{n}a"));
        db.message(
            id,
            &user,
            0,
            json!({"role": "user", "time": {"created": T0}}),
        );
        db.part(
            id,
            &user,
            &super::hostile_id("prt_", &format!("{n}1")),
            json!({"type": "text", "text": "hello"}),
        );
        db.message(id, &answer, 1000, json!({"role": "assistant", "time": {"created": T0 + 1000}, "modelID": "m", "providerID": "p"}));
        let done = super::hostile_id("call_", "done");
        let running = super::hostile_id("call_", "running");
        db.part(id, &answer, &super::hostile_id("prt_", &format!("{n}2")), tool(&done, "read", json!({"status": "completed", "input": {}, "output": "ok", "metadata": {}, "time": {"start": T0 + 2000, "end": T0 + 2100}})));
        db.part(id, &answer, &super::hostile_id("prt_", &format!("{n}3")), tool(&running, "bash", json!({"status": "running", "input": {}, "metadata": {}, "time": {"start": T0 + 3000}})));
    }
    db.0.execute(
        "UPDATE session SET parent_id = ?1 WHERE id = ?2",
        params![ids[0], ids[1]],
    )
    .unwrap();
    drop(db);

    let args = ["--from", "opencode", &path.display().to_string()];
    let (lines, summary) = import(&sb, &args);
    assert_eq!(summary["imported"], 2, "{summary}");
    assert_ne!(lines[0]["sessionId"], lines[1]["sessionId"]);
    assert_ne!(lines[0]["sourceId"], lines[1]["sourceId"]);
    let (again, _) = import(&sb, &args);
    for (line, again) in lines.iter().zip(&again) {
        super::assert_ids_bounded(&sb, line, 3, || again.clone());
    }
    let parents: Vec<Value> = lines
        .iter()
        .map(|line| {
            let session = get(&sb, line["sessionId"].as_str().unwrap());
            session["metadata"]["importedFrom"]["parentSourceSessionId"].clone()
        })
        .collect();
    assert!(
        parents == [Value::Null, lines[0]["sourceId"].clone()]
            || parents == [lines[1]["sourceId"].clone(), Value::Null],
        "the child names its parent by its bounded id: {parents:?}"
    );
}
