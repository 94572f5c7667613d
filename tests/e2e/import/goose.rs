//! Importing goose sessions (see mod.rs): a sessions directory with a live
//! `sessions.db` in WAL mode (rows not yet checkpointed) and the legacy
//! JSONL files goose left beside it.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, params};
use serde_json::{Value, json};

use super::{by_source, get, import, source_keys};
use crate::support::{self, Sandbox};

const T0: i64 = 1_767_225_600; // 2026-01-01T00:00:00Z, in seconds as goose keeps them

pub(super) const SCHEMA: &str = "
CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);
INSERT INTO schema_version (version) VALUES (13);
CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '',
  user_set_name BOOLEAN DEFAULT FALSE, session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL,
  created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
  extension_data TEXT DEFAULT '{}', total_tokens INTEGER, input_tokens INTEGER, output_tokens INTEGER,
  accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER,
  schedule_id TEXT, recipe_json TEXT, user_recipe_values_json TEXT, provider_name TEXT, model_config_json TEXT,
  goose_mode TEXT NOT NULL DEFAULT 'auto', thread_id TEXT, archived_at TIMESTAMP, project_id TEXT, accumulated_cost REAL);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
  role TEXT NOT NULL, content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL,
  timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, tokens INTEGER, metadata_json TEXT, message_id TEXT);
CREATE INDEX idx_messages_session ON messages(session_id);";

pub(super) fn text(t: &str) -> Value {
    json!({"type": "text", "text": t})
}

pub(super) fn request(id: &str, name: &str, args: Value) -> Value {
    json!({"type": "toolRequest", "id": id, "toolCall": {"status": "success", "value": {"name": name, "arguments": args}}})
}

pub(super) fn response(id: &str, result: Value) -> Value {
    json!({"type": "toolResponse", "id": id, "toolResult": result})
}

pub(super) fn ok(text: &str) -> Value {
    json!({"status": "success", "value": {"content": [{"type": "text", "text": text}], "isError": false}})
}

pub(super) struct Db(pub(super) Connection);

impl Db {
    pub(super) fn session(&self, id: &str, name: &str, cwd: &Path) {
        self.0
            .execute(
                "INSERT INTO sessions (id, name, description, working_dir, created_at, updated_at, provider_name, model_config_json)
                 VALUES (?1, ?2, '', ?3, '2026-01-01 00:00:00', '2026-01-01 00:30:00', 'anthropic', ?4)",
                params![id, name, cwd.display().to_string(), json!({"model_name": "claude-sonnet-4-5", "context_limit": 200000, "temperature": null}).to_string()],
            )
            .unwrap();
    }

    pub(super) fn message(
        &self,
        session: &str,
        id: &str,
        role: &str,
        at: i64,
        content: Value,
        user_visible: bool,
    ) {
        let metadata = json!({"userVisible": user_visible, "agentVisible": true});
        self.0
            .execute(
                "INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, metadata_json) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![id, session, role, content.to_string(), T0 + at, metadata.to_string()],
            )
            .unwrap();
    }
}

/// A session with parallel tool calls answered in one later message (one
/// of them an error, one a result marked `isError`), thinking, and a
/// compaction summary only the agent sees.
fn fill(db: &Db, id: &str, cwd: &Path) {
    db.session(id, "Offline queue for login", cwd);
    db.message(
        id,
        "msg_1",
        "user",
        0,
        json!([text("Add an offline queue for login")]),
        true,
    );
    db.message(id, "msg_2", "assistant", 5, json!([
        {"type": "thinking", "thinking": "secret plan", "signature": "s"},
        text("Looking at the login code."),
        request("toolu_ls", "developer__shell", json!({"command": "ls src"})),
        request("toolu_cat", "developer__text_editor", json!({"command": "view", "path": "src/login.rs"})),
        request("toolu_bad", "developer__shell", json!({"command": "cargo tset"})),
    ]), true);
    db.message(
        id,
        "msg_3",
        "user",
        6,
        json!([
            response("toolu_ls", ok("login.rs\nqueue.rs")),
            response("toolu_cat", ok("fn login() { /* wombat-sextant */ }")),
            response(
                "toolu_bad",
                json!({"status": "error", "error": "no such command: tset"})
            ),
        ]),
        true,
    );
    db.message(
        id,
        "msg_4",
        "assistant",
        7,
        json!([request(
            "toolu_test",
            "developer__shell",
            json!({"command": "cargo test"})
        ),]),
        true,
    );
    db.message(id, "msg_5", "user", 8, json!([
        response("toolu_test", json!({"status": "success", "value": {"content": [{"type": "text", "text": "2 tests failed"}], "isError": true}})),
    ]), true);
    db.message(
        id,
        "msg_6",
        "user",
        9,
        json!([text("SUMMARY: the user wants an offline queue")]),
        false,
    );
    db.message(
        id,
        "msg_7",
        "assistant",
        10,
        json!([text("The queue drains on reconnect.")]),
        true,
    );
}

fn jsonl(lines: &[Value]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

fn legacy(dir: &Path, stem: &str, cwd: &Path, description: &str) -> PathBuf {
    let path = dir.join(format!("{stem}.jsonl"));
    let body = jsonl(&[
        json!({"working_dir": cwd, "description": description, "schedule_id": null, "message_count": 3, "total_tokens": 120, "input_tokens": 100, "output_tokens": 20, "accumulated_total_tokens": 120, "accumulated_input_tokens": 100, "accumulated_output_tokens": 20}),
        json!({"role": "user", "created": T0 - 1000, "content": [text("Rename the binary")]}),
        json!({"role": "assistant", "created": T0 - 990, "content": [text("Renaming."), request("tc_mv", "developer__shell", json!({"command": "git mv a b"}))]}),
        json!({"role": "user", "created": T0 - 980, "content": [response("tc_mv", json!({"status": "success", "value": [{"type": "text", "text": "renamed"}]}))]}),
    ]);
    std::fs::write(&path, body).unwrap();
    path
}

#[test]
fn a_goose_store_is_imported_once_live_and_untouched() {
    let sb = Sandbox::new();
    let root = sb.work.join("app");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    let root = root.canonicalize().unwrap();

    let sessions = sb.home.join(".local/share/goose/sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    let db = Db(Connection::open(sessions.join("sessions.db")).unwrap());
    db.0.execute_batch("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;")
        .unwrap();
    db.0.execute_batch(SCHEMA).unwrap();
    fill(&db, "20260101_1", &root);
    // A legacy session goose copied into the database when it made it.
    db.0.execute(
        "INSERT INTO sessions (id, description, working_dir) VALUES ('20251201_093000', 'Rename the binary', ?1)",
        [root.display().to_string()],
    )
    .unwrap();
    db.message(
        "20251201_093000",
        "msg_m1",
        "user",
        -1000,
        json!([text("Rename the binary")]),
        true,
    );
    legacy(&sessions, "20251201_093000", &root, "Rename the binary");
    legacy(&sessions, "20251115_170000", &root, "Only in a file");
    assert!(
        std::fs::metadata(sessions.join("sessions.db-wal"))
            .unwrap()
            .len()
            > 0
    );

    let before = support::tree(&sessions);
    let (lines, summary) = import(&sb, &["--from", "goose", &sessions.display().to_string()]);
    assert_eq!(
        support::tree(&sessions),
        before,
        "the sessions directory was written to"
    );
    let ids: Vec<&str> = lines
        .iter()
        .map(|l| l["sourceId"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        ["20251115_170000", "20251201_093000", "20260101_1"],
        "each session once"
    );
    assert_eq!(summary["imported"], 3);
    let db_path = sessions.join("sessions.db").display().to_string();
    assert_eq!(
        by_source(&lines, "20251201_093000")["source"],
        format!("{db_path}#sessions/20251201_093000"),
        "the database wins"
    );

    let main = by_source(&lines, "20260101_1");
    assert_eq!(
        (main["messages"].clone(), main["toolCalls"].clone()),
        (json!(3), json!(4))
    );
    assert_eq!(main["title"], "Offline queue for login");
    let session = get(&sb, main["sessionId"].as_str().unwrap());
    assert_eq!(session["workspace"], json!(root.display().to_string()));
    assert_eq!(session["title"], "Offline queue for login");
    assert_eq!(session["model"], "claude-sonnet-4-5");
    assert_eq!(session["provider"], "anthropic");
    assert_eq!(session["metadata"]["importedFrom"]["tool"], "goose");
    assert_eq!(
        session["metadata"]["importedFrom"]["sourceSessionId"],
        "20260101_1"
    );
    assert_eq!(
        session["metadata"]["importedFrom"]["source"],
        format!("{db_path}#sessions/20260101_1")
    );
    assert_eq!(
        source_keys(&session),
        [
            "msg_1#0", "msg_2#1", "msg_2#2", "msg_2#3", "msg_2#4", "msg_4#0", "msg_7#0"
        ],
        "conversation order"
    );
    let calls = session["toolCalls"].as_array().unwrap();
    let paired: Vec<(&str, &str, Option<&str>)> = calls
        .iter()
        .map(|c| {
            (
                c["id"].as_str().unwrap(),
                c["result"]["llmContent"].as_str().unwrap(),
                c["status"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        paired,
        [
            ("toolu_ls", "login.rs\nqueue.rs", None),
            ("toolu_cat", "fn login() { /* wombat-sextant */ }", None),
            ("toolu_bad", "no such command: tset", Some("error")),
            ("toolu_test", "2 tests failed", Some("error")),
        ]
    );
    assert_eq!(
        calls[1]["args"],
        json!({"command": "view", "path": "src/login.rs"})
    );
    let all = session.to_string();
    assert!(
        !all.contains("SUMMARY"),
        "a summary not userVisible is not imported"
    );
    assert!(!all.contains("secret plan"), "thinking is not imported");

    let file_only = by_source(&lines, "20251115_170000");
    assert_eq!(
        file_only["source"],
        sessions.join("20251115_170000.jsonl").display().to_string()
    );
    assert_eq!(
        (
            file_only["messages"].clone(),
            file_only["toolCalls"].clone()
        ),
        (json!(2), json!(1))
    );
    assert_eq!(file_only["title"], "Only in a file");

    let out = sb
        .cmd("ollm-session")
        .args(["search", "wombat-sextant", "--format", "json"])
        .output()
        .unwrap();
    let hits = support::json(&out);
    assert_eq!(hits.as_array().unwrap().len(), 1, "{hits}");
    assert_eq!(hits[0]["sessionId"], main["sessionId"]);

    // Again, from the default location: nothing new.
    let (again, summary) = import(&sb, &["--from", "goose"]);
    assert_eq!(again.len(), 3);
    assert!(
        again
            .iter()
            .all(|l| l["status"] == "unchanged" && l["added"] == 0),
        "{again:?}"
    );
    assert_eq!(summary["added"], 0);

    // goose goes on: a new turn is added, nothing else.
    db.message(
        "20260101_1",
        "msg_8",
        "user",
        20,
        json!([text("Now add a retry limit")]),
        true,
    );
    db.message(
        "20260101_1",
        "msg_9",
        "assistant",
        21,
        json!([request(
            "toolu_edit",
            "developer__text_editor",
            json!({"command": "str_replace", "path": "src/queue.rs"})
        )]),
        true,
    );
    db.message(
        "20260101_1",
        "msg_10",
        "user",
        22,
        json!([response("toolu_edit", ok("edited"))]),
        true,
    );
    let before = support::tree(&sessions);
    let (grown, _) = import(&sb, &["--from", "goose", &sessions.display().to_string()]);
    assert_eq!(support::tree(&sessions), before);
    let main = by_source(&grown, "20260101_1");
    assert_eq!(
        (main["status"].clone(), main["added"].clone()),
        (json!("updated"), json!(2))
    );
    assert!(
        grown
            .iter()
            .filter(|l| l["sourceId"] != "20260101_1")
            .all(|l| l["status"] == "unchanged")
    );
    let session = get(&sb, main["sessionId"].as_str().unwrap());
    assert_eq!(session["toolCalls"][4]["result"]["llmContent"], "edited");
    drop(db);
}

#[test]
fn auto_finds_goose_in_its_data_directory_and_claims_nothing_else() {
    let sb = Sandbox::new();
    let data = sb.work.join("goose");
    let sessions = data.join("sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    legacy(&sessions, "20251115_170000", &sb.work, "Only in a file");
    std::fs::write(
        sessions.join("notes.jsonl"),
        "{\"type\":\"note\",\"text\":\"hi\"}\n",
    )
    .unwrap();
    let (lines, _) = import(&sb, &["--from", "auto", &data.display().to_string()]);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["tool"], "goose");
    assert_eq!(lines[0]["sourceId"], "20251115_170000");
}

/// A session whose id, message ids and tool request ids are 1 MB each is
/// stored with every id bounded, and importing it again adds nothing.
#[test]
fn hostile_ids_are_stored_bounded_and_found_again() {
    let sb = Sandbox::new();
    let sessions = sb.home.join(".local/share/goose/sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    let db = Db(Connection::open(sessions.join("sessions.db")).unwrap());
    db.0.execute_batch(SCHEMA).unwrap();
    let id = super::hostile_id("20260101_", "");
    let call = super::hostile_id("tc_", "");
    db.session(&id, "hostile ids", &sb.work);
    let message = |tail: &str| super::hostile_id("msg_", tail);
    db.message(
        &id,
        &message("1"),
        "user",
        0,
        json!([text("list it")]),
        true,
    );
    db.message(
        &id,
        &message("2"),
        "assistant",
        10,
        json!([request(&call, "developer__shell", json!({"command": "ls"}))]),
        true,
    );
    db.message(
        &id,
        &message("3"),
        "user",
        20,
        json!([response(
            &call,
            json!({"status": "success", "value": [{"type": "text", "text": "a b"}]})
        )]),
        true,
    );
    drop(db);
    let args = ["--from", "goose", &sessions.display().to_string()];
    let (found, summary) = import(&sb, &args);
    assert_eq!(summary["imported"], 1, "{summary}");
    super::assert_ids_bounded(&sb, &found[0], 3, || import(&sb, &args).0[0].clone());
}
