//! Importing Codex rollouts: a `$CODEX_HOME` written by the test as Codex
//! writes it (a current rollout with every trap, a zstd-compressed archived
//! one from the VS Code extension, a rollout from before the envelope),
//! imported through the built binary.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::get;
use crate::support::{self, Sandbox};

const A: &str = "0199a1b2-c3d4-7e5f-8a9b-00000000000a";
const B: &str = "0199a1b2-c3d4-7e5f-8a9b-00000000000b";
const C: &str = "0199a1b2-c3d4-7e5f-8a9b-00000000000c";

pub(super) fn line(at: &str, kind: &str, payload: Value) -> String {
    json!({"timestamp": at, "type": kind, "payload": payload}).to_string()
}

pub(super) fn item(at: &str, payload: Value) -> String {
    line(at, "response_item", payload)
}

pub(super) fn text(role: &str, kind: &str, text: &str) -> Value {
    json!({"type": "message", "role": role, "content": [{"type": kind, "text": text}]})
}

pub(super) fn meta(id: &str, cwd: &Path, originator: &str, source: &str) -> String {
    line(
        "2025-10-01T10:00:00.000Z",
        "session_meta",
        json!({"id": id, "timestamp": "2025-10-01T10:00:00.000Z", "cwd": cwd,
               "originator": originator, "cli_version": "0.46.0", "source": source,
               "model_provider": "openai", "git": {"branch": "main"}}),
    )
}

/// The harness's opening: permissions as a developer message, AGENTS.md
/// and the environment as user messages, then the turn's context.
fn opening(cwd: &Path, model: &str) -> Vec<String> {
    vec![
        item(
            "2025-10-01T10:00:00.100Z",
            text(
                "developer",
                "input_text",
                "<permissions instructions>workspace-write</permissions instructions>",
            ),
        ),
        item(
            "2025-10-01T10:00:00.200Z",
            text(
                "user",
                "input_text",
                "# AGENTS.md instructions for /x\n\n<INSTRUCTIONS>\nbe terse\n</INSTRUCTIONS>",
            ),
        ),
        item(
            "2025-10-01T10:00:00.300Z",
            text(
                "user",
                "input_text",
                &format!(
                    "<environment_context>\n  <cwd>{}</cwd>\n</environment_context>",
                    cwd.display()
                ),
            ),
        ),
        line(
            "2025-10-01T10:00:00.400Z",
            "turn_context",
            json!({"cwd": cwd, "model": model, "approval_policy": "on-request"}),
        ),
    ]
}

/// Session A: 4 messages (prompt, answer, compaction summary, prompt) and
/// 4 calls (shell, web search, apply_patch, an interrupted shell).
fn session_a(cwd: &Path) -> String {
    let mut lines = vec![meta(A, cwd, "codex_cli_rs", "cli")];
    lines.extend(opening(cwd, "gpt-5-codex"));
    lines.extend([
        item("2025-10-01T10:00:01.000Z", text("user", "input_text", "why is the build red?")),
        line("2025-10-01T10:00:01.100Z", "event_msg", json!({"type": "user_message", "message": "why is the build red?"})),
        item("2025-10-01T10:00:02.000Z", json!({"type": "reasoning", "summary": [{"type": "summary_text", "text": "pondering"}], "encrypted_content": "zz"})),
        item("2025-10-01T10:00:03.000Z", json!({"type": "function_call", "name": "shell",
            "arguments": "{\"command\":[\"cargo\",\"build\"],\"workdir\":\"/x\"}", "call_id": "call_shell"})),
        item("2025-10-01T10:00:04.000Z", json!({"type": "function_call_output", "call_id": "call_shell",
            "output": "{\"output\":\"error: marmalade-okapi is undefined\",\"metadata\":{\"exit_code\":101}}"})),
        item("2025-10-01T10:00:05.000Z", json!({"type": "web_search_call", "status": "completed",
            "action": {"type": "search", "query": "marmalade okapi"}})),
        item("2025-10-01T10:00:06.000Z", text("assistant", "output_text", "A symbol is missing.")),
        line("2025-10-01T10:00:06.100Z", "event_msg", json!({"type": "agent_message", "message": "A symbol is missing."})),
        line("2025-10-01T10:00:06.200Z", "event_msg", json!({"type": "token_count", "info": null})),
        line("2025-10-01T10:05:00.000Z", "compacted", json!({"message": "Summary: the build fails on a missing symbol.",
            "replacement_history": [text("user", "input_text", "why is the build red?"),
                                    text("user", "input_text", "Summary: the build fails on a missing symbol.")]})),
        line("2025-10-01T10:05:00.100Z", "event_msg", json!({"type": "context_compacted"})),
        item("2025-10-01T10:05:01.000Z", text("user", "input_text", "fix it")),
        item("2025-10-01T10:05:02.000Z", json!({"type": "custom_tool_call", "status": "completed", "call_id": "call_patch",
            "name": "apply_patch", "input": "*** Begin Patch\n*** Add File: a.rs\n+fn x() {}\n*** End Patch"})),
        item("2025-10-01T10:05:03.000Z", json!({"type": "custom_tool_call_output", "call_id": "call_patch",
            "output": "Success. Updated the following files:\nA a.rs"})),
        item("2025-10-01T10:05:04.000Z", json!({"type": "function_call", "name": "shell",
            "arguments": "{\"command\":[\"cargo\",\"test\"]}", "call_id": "call_cut"})),
        line("2025-10-01T10:05:05.000Z", "event_msg", json!({"type": "turn_aborted", "reason": "interrupted"})),
        line("2025-10-01T10:05:06.000Z", "event_msg", json!({"type": "thread_name_updated", "thread_id": A, "thread_name": "Red build"})),
    ]);
    lines.join("\n") + "\n"
}

/// Session B, from the VS Code extension: 2 messages, 1 failed call.
fn session_b(cwd: &Path) -> String {
    let mut lines = vec![meta(B, cwd, "codex_vscode", "vscode")];
    lines.extend(opening(cwd, "gpt-5"));
    lines.extend([
        item(
            "2025-10-02T08:00:01.000Z",
            text("user", "input_text", "delete the cache"),
        ),
        item(
            "2025-10-02T08:00:02.000Z",
            json!({"type": "function_call", "name": "shell",
            "arguments": "{\"command\":[\"rm\",\"-r\",\"/cache\"]}", "call_id": "call_rm"}),
        ),
        item(
            "2025-10-02T08:00:03.000Z",
            json!({"type": "function_call_output", "call_id": "call_rm",
            "output": {"content": "rm: permission denied", "success": false}}),
        ),
        item(
            "2025-10-02T08:00:04.000Z",
            text("assistant", "output_text", "I may not."),
        ),
    ]);
    lines.join("\n") + "\n"
}

/// Session C, before the `{timestamp,type,payload}` envelope: 2 messages.
fn session_c(cwd: &Path) -> String {
    [
        json!({"id": C, "timestamp": "2025-08-01T09:00:00.000Z", "instructions": null}),
        json!({"record_type": "state"}),
        text(
            "user",
            "input_text",
            &format!(
                "<environment_context>\n  <cwd>{}</cwd>\n</environment_context>",
                cwd.display()
            ),
        ),
        text("user", "input_text", "old question"),
        text("assistant", "output_text", "old answer"),
    ]
    .iter()
    .map(|v| format!("{v}\n"))
    .collect()
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

struct Fixture {
    codex_home: PathBuf,
    a: PathBuf,
    root: PathBuf,
    cwd: PathBuf,
}

fn fixture(sb: &Sandbox) -> Fixture {
    let root = sb.work.join("shop");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    let root = root.canonicalize().unwrap();
    let cwd = root.join("src");
    let codex_home = sb.home.join("codex-home");
    let a = codex_home.join(format!(
        "sessions/2025/10/01/rollout-2025-10-01T10-00-00-{A}.jsonl"
    ));
    write(&a, session_a(&cwd).as_bytes());
    let compressed = zstd::encode_all(session_b(&root).as_bytes(), 3).unwrap();
    write(
        &codex_home.join(format!(
            "archived_sessions/rollout-2025-10-02T08-00-00-{B}.jsonl.zst"
        )),
        &compressed,
    );
    write(
        &codex_home.join(format!(
            "sessions/2025/08/01/rollout-2025-08-01T09-00-00-{C}.jsonl"
        )),
        session_c(&sb.work.join("gone")).as_bytes(),
    );
    write(
        &codex_home.join("session_index.jsonl"),
        format!(
            "{}\n{}\n",
            json!({"id": B, "thread_name": "Cache cleanup", "updated_at": "2025-10-02T09:00:00Z"}),
            json!({"id": A, "thread_name": "overridden by the rollout", "updated_at": "2025-10-01T09:00:00Z"})
        )
        .as_bytes(),
    );
    // Codex's prompt history is not a session.
    write(
        &codex_home.join("history.jsonl"),
        b"{\"session_id\":\"x\",\"ts\":1,\"text\":\"hi\"}\n",
    );
    Fixture {
        codex_home,
        a,
        root,
        cwd,
    }
}

fn import(sb: &Sandbox, codex_home: &Path, args: &[&str]) -> (Vec<Value>, Value) {
    super::import_with(
        sb.cmd("ollm-session")
            .args(["import", "--from", "codex"])
            .args(args)
            .env("CODEX_HOME", codex_home),
    )
}

fn texts(session: &Value) -> Vec<(String, String)> {
    session["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["role"].as_str().unwrap().to_string(),
                m["parts"][0]["text"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_codex_home_is_imported_with_every_trap_once_and_left_as_it_was() {
    let sb = Sandbox::new();
    let fx = fixture(&sb);
    let before = support::tree(&fx.codex_home);

    // A dry run says what it would do and writes nothing.
    let home_before = support::tree(&sb.home);
    let (dry, _) = import(&sb, &fx.codex_home, &["--dry-run"]);
    assert!(dry.iter().all(|s| s["status"] == "wouldImport"), "{dry:?}");
    assert_eq!(support::tree(&sb.home), home_before);

    let (sessions, summary) = import(&sb, &fx.codex_home, &[]);
    let ids: Vec<&str> = sessions
        .iter()
        .map(|s| s["sourceId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [A, B, C], "{sessions:?}");
    assert_eq!(summary["imported"], 3, "{summary}");
    let counts: Vec<(i64, i64)> = sessions
        .iter()
        .map(|s| {
            (
                s["messages"].as_i64().unwrap(),
                s["toolCalls"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(counts, [(4, 4), (2, 1), (2, 0)]);
    for s in &sessions {
        assert_eq!(s["status"], "imported");
        assert_eq!(s["skipped"]["unknownKinds"], 0, "{s}");
    }

    // A: the conversation only, in order, calls paired with their results.
    let a = get(&sb, sessions[0]["sessionId"].as_str().unwrap());
    assert_eq!(
        texts(&a),
        [
            ("user".into(), "why is the build red?".into()),
            ("assistant".into(), "A symbol is missing.".into()),
            (
                "system".into(),
                "Summary: the build fails on a missing symbol.".into()
            ),
            ("user".into(), "fix it".into()),
        ]
    );
    let calls = a["toolCalls"].as_array().unwrap();
    let by_id = |id: &str| {
        calls
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("{id}: {a}"))
    };
    let shell = by_id("call_shell");
    assert_eq!(shell["name"], "shell");
    assert_eq!(
        shell["args"],
        json!({"command": ["cargo", "build"], "workdir": "/x"})
    );
    assert!(
        shell["result"]["llmContent"]
            .as_str()
            .unwrap()
            .contains("marmalade-okapi")
    );
    let patch = by_id("call_patch");
    assert_eq!(
        patch["args"]["input"].as_str().unwrap().lines().next(),
        Some("*** Begin Patch")
    );
    assert!(
        patch["result"]["llmContent"]
            .as_str()
            .unwrap()
            .starts_with("Success.")
    );
    assert_eq!(by_id("call_cut")["status"], "interrupted");
    let search = calls.iter().find(|c| c["name"] == "web_search").unwrap();
    assert_eq!(search["status"], "noOutputRecorded");
    assert_eq!(search["args"]["query"], "marmalade okapi");
    // Each call sits between the messages it came between.
    let at = |v: &Value| v["timestamp"].as_str().unwrap().to_string();
    let msgs = a["messages"].as_array().unwrap();
    assert!(at(&msgs[0]) < at(shell) && at(shell) < at(&msgs[1]));
    assert!(at(&msgs[3]) < at(patch) && at(patch) < at(by_id("call_cut")));

    assert_eq!(a["workspace"], json!(fx.root.display().to_string()));
    assert_eq!(a["title"], "Red build");
    assert_eq!(a["model"], "gpt-5-codex");
    assert_eq!(a["provider"], "openai");
    let from = &a["metadata"]["importedFrom"];
    assert_eq!(from["tool"], "codex");
    assert_eq!(from["source"], json!(fx.a.display().to_string()));
    assert_eq!(from["sourceSessionId"], A);

    // B: compressed, titled by the session index, its failure kept.
    let b = get(&sb, sessions[1]["sessionId"].as_str().unwrap());
    assert_eq!(b["title"], "Cache cleanup");
    assert_eq!(b["toolCalls"][0]["status"], "error");
    assert_eq!(
        b["toolCalls"][0]["result"]["llmContent"],
        "rm: permission denied"
    );
    assert_eq!(b["workspace"], json!(fx.root.display().to_string()));

    // C: the old format, its directory from the environment context.
    let c = get(&sb, sessions[2]["sessionId"].as_str().unwrap());
    assert_eq!(texts(&c)[0].1, "old question");
    assert_eq!(
        c["workspace"],
        json!(sb.work.join("gone").display().to_string())
    );

    // Found by what only a tool's output said, and in the project.
    let out = sb
        .cmd("ollm-session")
        .args(["search", "marmalade-okapi", "--format", "json"])
        .output()
        .unwrap();
    let hits = support::json(&out);
    assert_eq!(hits[0]["sessionId"], sessions[0]["sessionId"], "{hits}");
    let out = sb
        .cmd("ollm-session")
        .args(["list", "--here", "--format", "json"])
        .current_dir(&fx.cwd)
        .output()
        .unwrap();
    assert_eq!(support::json(&out).as_array().unwrap().len(), 2);

    // Again: nothing to add.
    let (again, summary) = import(&sb, &fx.codex_home, &[]);
    assert!(
        again
            .iter()
            .all(|s| s["status"] == "unchanged" && s["added"] == 0),
        "{again:?}"
    );
    assert_eq!(summary["added"], 0);

    // The sources were only read.
    assert_eq!(support::tree(&fx.codex_home), before);
}

#[test]
fn a_rollout_that_grew_adds_only_its_new_records() {
    let sb = Sandbox::new();
    let fx = fixture(&sb);
    let path = fx.a.display().to_string();
    let (first, _) = import(&sb, &fx.codex_home, &[&path]);
    assert_eq!(first.len(), 1);
    assert_eq!(first[0]["added"], 8);

    let mut grown = std::fs::read_to_string(&fx.a).unwrap();
    grown.push_str(&line(
        "2025-10-01T11:00:00.000Z",
        "turn_context",
        json!({"cwd": fx.cwd, "model": "gpt-5.1-codex"}),
    ));
    grown.push('\n');
    grown.push_str(&item(
        "2025-10-01T11:00:01.000Z",
        text("user", "input_text", "and the tests?"),
    ));
    grown.push('\n');
    grown.push_str(&line(
        "2025-10-01T11:00:01.100Z",
        "event_msg",
        json!({"type": "user_message", "message": "and the tests?"}),
    ));
    grown.push('\n');
    grown.push_str(&item(
        "2025-10-01T11:00:02.000Z",
        text("assistant", "output_text", "They pass."),
    ));
    grown.push('\n');
    std::fs::write(&fx.a, &grown).unwrap();
    let before = support::tree(&fx.codex_home);

    let (second, _) = import(&sb, &fx.codex_home, &[&path]);
    assert_eq!(second[0]["status"], "updated");
    assert_eq!(second[0]["added"], 2);
    assert_eq!(
        (
            second[0]["messages"].clone(),
            second[0]["toolCalls"].clone()
        ),
        (json!(6), json!(4))
    );
    let a = get(&sb, second[0]["sessionId"].as_str().unwrap());
    let all = texts(&a);
    assert_eq!(all.len(), 6);
    assert_eq!(all[4].1, "and the tests?");
    assert_eq!(all[5].1, "They pass.");
    assert_eq!(a["toolCalls"].as_array().unwrap().len(), 4);

    let (third, _) = import(&sb, &fx.codex_home, &[&path]);
    assert_eq!(
        (third[0]["status"].clone(), third[0]["added"].clone()),
        (json!("unchanged"), json!(0))
    );
    assert_eq!(support::tree(&fx.codex_home), before);
}

/// A rollout whose session id, fork origin and call ids are 1 MB each is
/// stored with every id bounded, and importing it again adds nothing.
#[test]
fn hostile_ids_are_stored_bounded_and_found_again() {
    let sb = Sandbox::new();
    let id = super::hostile_id("0199a1b2-", "");
    let call = super::hostile_id("call_", "");
    let mut meta_line: Value =
        serde_json::from_str(&meta(&id, &sb.work, "codex_cli_rs", "cli")).unwrap();
    meta_line["payload"]["forked_from_id"] = super::hostile_id("0199a1b3-", "").into();
    let lines = [
        meta_line.to_string(),
        item(
            "2025-10-01T10:00:01.000Z",
            text("user", "input_text", "run it"),
        ),
        item(
            "2025-10-01T10:00:02.000Z",
            json!({"type": "function_call", "name": "shell",
            "arguments": "{\"command\":[\"true\"]}", "call_id": call}),
        ),
        item(
            "2025-10-01T10:00:03.000Z",
            json!({"type": "function_call_output", "call_id": call,
            "output": "{\"output\":\"done\",\"metadata\":{\"exit_code\":0}}"}),
        ),
    ];
    let codex_home = sb.home.join("codex-home");
    write(
        &codex_home.join(format!(
            "sessions/2025/10/01/rollout-2025-10-01T10-00-00-{A}.jsonl"
        )),
        (lines.join("\n") + "\n").as_bytes(),
    );
    let (found, summary) = import(&sb, &codex_home, &[]);
    assert_eq!(summary["imported"], 1, "{summary}");
    super::assert_ids_bounded(&sb, &found[0], 4, || {
        import(&sb, &codex_home, &[]).0[0].clone()
    });
}

/// A rollout whose start time is a 1 MB string: the session's times come
/// from its records, and listings stay small.
#[test]
fn a_start_time_that_is_not_a_time_is_not_stored() {
    let sb = Sandbox::new();
    let mut meta_line: Value =
        serde_json::from_str(&meta(A, &sb.work, "codex_cli_rs", "cli")).unwrap();
    meta_line["payload"]["timestamp"] = "2025-10-01T10:00:00Z".repeat(50_000).into();
    let lines = [
        meta_line.to_string(),
        item(
            "2025-10-01T10:00:01.000Z",
            text("user", "input_text", "hello"),
        ),
    ];
    let codex_home = sb.home.join("codex-home");
    write(
        &codex_home.join(format!(
            "sessions/2025/10/01/rollout-2025-10-01T10-00-00-{A}.jsonl"
        )),
        (lines.join("\n") + "\n").as_bytes(),
    );
    let (found, _) = import(&sb, &codex_home, &[]);
    assert_eq!(
        found[0]["skipped"]["cutFields"], 1,
        "{}",
        found[0]["skipped"]
    );
    let session = super::get(&sb, found[0]["sessionId"].as_str().unwrap());
    assert_eq!(session["startTime"], "2025-10-01T10:00:01.000Z");
    let listed = sb.session_ok(&["list"]);
    assert!(
        listed.stdout.len() < 16 << 10,
        "list printed {} bytes",
        listed.stdout.len()
    );
}
