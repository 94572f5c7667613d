use std::path::{Path, PathBuf};

use rusqlite::{Connection, params};
use serde_json::{Value, json};

use super::*;
use crate::session::import::{Body, Outcome, Role};

/// The schema as goose's migrations leave it (version 13, trimmed of the
/// columns this reader does not look at).
const SCHEMA: &str = "
CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '',
  user_set_name BOOLEAN DEFAULT FALSE, session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL,
  created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
  extension_data TEXT DEFAULT '{}', provider_name TEXT, model_config_json TEXT, parent_session_id TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, message_id TEXT, session_id TEXT NOT NULL REFERENCES sessions(id),
  role TEXT NOT NULL, content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL,
  timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, tokens INTEGER, metadata_json TEXT);";

/// Version 0: no message ids, names, providers or message metadata.
const SCHEMA_V0: &str = "
CREATE TABLE sessions (id TEXT PRIMARY KEY, description TEXT NOT NULL DEFAULT '', working_dir TEXT NOT NULL,
  created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,
  content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL, timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP);";

const T0: i64 = 1_767_225_600; // 2026-01-01T00:00:00Z, in seconds as goose keeps them

fn text(t: &str) -> Value {
    json!({"type": "text", "text": t})
}

fn request(id: &str, name: &str, args: Value) -> Value {
    json!({"type": "toolRequest", "id": id, "toolCall": {"status": "success", "value": {"name": name, "arguments": args}}})
}

fn response(id: &str, result: Value) -> Value {
    json!({"type": "toolResponse", "id": id, "toolResult": result})
}

fn visible() -> Value {
    json!({"userVisible": true, "agentVisible": true})
}

fn add(
    conn: &Connection,
    session: &str,
    id: &str,
    role: &str,
    at: i64,
    content: Value,
    metadata: Value,
) {
    conn.execute(
        "INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, metadata_json) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![id, session, role, content.to_string(), T0 + at, metadata.to_string()],
    )
    .unwrap();
}

fn fill(conn: &Connection) {
    conn.execute(
        "INSERT INTO sessions (id, name, description, working_dir, created_at, updated_at, provider_name, model_config_json)
         VALUES ('20260101_1', 'Offline queue', 'old description', '/work/app', '2026-01-01 00:00:00', '2026-01-01 00:10:00', 'anthropic', ?1)",
        [json!({"model_name": "claude-sonnet-4-5", "context_limit": 200000}).to_string()],
    )
    .unwrap();
    conn.execute(
        "INSERT INTO sessions (id, description, working_dir) VALUES ('20260101_2', 'Never used', '/work/app')",
        [],
    )
    .unwrap();
    let s = "20260101_1";
    add(
        conn,
        s,
        "msg_u1",
        "user",
        0,
        json!([text("Add an offline queue")]),
        visible(),
    );
    add(
        conn,
        s,
        "msg_a1",
        "assistant",
        10,
        json!([
            {"type": "thinking", "thinking": "plan", "signature": "sig"},
            text("Looking at the code."),
            request("call_ok", "developer__shell", json!({"command": "ls"})),
            request("call_legacy", "developer__text_editor", json!({"command": "view", "path": "a.rs"})),
            request("call_err", "developer__shell", json!({"command": "false"})),
            request("call_is_error", "developer__shell", json!({"command": "boom"})),
            request("call_open", "developer__shell", json!({"command": "sleep 9"})),
            {"type": "mysteryBlock"}
        ]),
        visible(),
    );
    add(
        conn,
        s,
        "msg_u2",
        "user",
        20,
        json!([
            response(
                "call_ok",
                json!({"status": "success", "value": {"content": [{"type": "text", "text": "queue.rs"}], "isError": false}})
            ),
            response(
                "call_legacy",
                json!({"status": "success", "value": [{"type": "text", "text": "fn main() {}"}]})
            ),
            response(
                "call_err",
                json!({"status": "error", "error": "Execution failed: exit 1"})
            ),
            response(
                "call_is_error",
                json!({"status": "success", "value": {"content": [{"type": "text", "text": "boom: not found"}], "isError": true}})
            )
        ]),
        visible(),
    );
    add(
        conn,
        s,
        "msg_sum",
        "assistant",
        30,
        json!([text("SUMMARY of everything so far")]),
        json!({"userVisible": false, "agentVisible": true}),
    );
    add(
        conn,
        s,
        "msg_a2",
        "assistant",
        40,
        json!([text("The queue drains on reconnect.")]),
        json!({"userVisible": true, "agentVisible": false, "inference": {"provider": "anthropic", "requestedModel": "claude-sonnet-4-5", "resolvedModel": "claude-sonnet-4-5-20250929"}}),
    );
}

/// The sessions of `source`, read whole and in parts of 1, 2, 3 items
/// and of all of them, which must agree.
fn read_all(source: &Source) -> Vec<Transcript> {
    let mut out = Vec::new();
    Goose
        .read(source, &mut |t| {
            out.push(t);
            Ok(())
        })
        .unwrap();
    if source.kind == SQLITE {
        let whole = db::read_whole(source).unwrap();
        assert_eq!(out, whole, "read in two passes differs from read whole");
    }
    crate::session::import::parts::assert_parts_agree(&out, |size, each| {
        Goose.read_parts(source, size, each)
    });
    out
}

fn texts(t: &Transcript) -> Vec<(&str, Role, &str)> {
    t.items
        .iter()
        .filter_map(|i| match &i.body {
            Body::Message { role, text, .. } => Some((i.key.as_str(), *role, text.as_str())),
            _ => None,
        })
        .collect()
}

fn calls(t: &Transcript) -> Vec<(&str, &str, &str, &Outcome)> {
    t.items
        .iter()
        .filter_map(|i| match &i.body {
            Body::ToolCall(c) => Some((
                i.key.as_str(),
                c.call_id.as_str(),
                c.name.as_str(),
                &c.outcome,
            )),
            _ => None,
        })
        .collect()
}

#[test]
fn a_database_session_pairs_requests_with_responses_and_skips_summaries() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sessions.db");
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(SCHEMA).unwrap();
    fill(&conn);
    drop(conn);

    let found = Goose.sources(dir.path()).unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].kind, "sqlite");
    let all = read_all(&found[0]);
    assert_eq!(all.len(), 1, "a session with no messages is not imported");
    let t = &all[0];
    assert_eq!(t.source_id, "20260101_1");
    assert_eq!(t.source, format!("{}#sessions/20260101_1", path.display()));
    assert_eq!(t.title.as_deref(), Some("Offline queue"));
    assert_eq!(t.cwd, Some(PathBuf::from("/work/app")));
    assert_eq!(t.model.as_deref(), Some("claude-sonnet-4-5"));
    assert_eq!(t.provider.as_deref(), Some("anthropic"));
    assert_eq!(t.started.as_deref(), Some("2026-01-01T00:00:00.000Z"));
    assert_eq!(t.updated.as_deref(), Some("2026-01-01T00:10:00.000Z"));
    assert_eq!(
        texts(t),
        vec![
            ("msg_u1#0", Role::User, "Add an offline queue"),
            ("msg_a1#1", Role::Assistant, "Looking at the code."),
            (
                "msg_a2#0",
                Role::Assistant,
                "The queue drains on reconnect."
            ),
        ]
    );
    assert_eq!(
        calls(t),
        vec![
            (
                "msg_a1#2",
                "call_ok",
                "developer__shell",
                &Outcome::Done("queue.rs".into())
            ),
            (
                "msg_a1#3",
                "call_legacy",
                "developer__text_editor",
                &Outcome::Done("fn main() {}".into())
            ),
            (
                "msg_a1#4",
                "call_err",
                "developer__shell",
                &Outcome::Failed("Execution failed: exit 1".into())
            ),
            (
                "msg_a1#5",
                "call_is_error",
                "developer__shell",
                &Outcome::Failed("boom: not found".into())
            ),
            (
                "msg_a1#6",
                "call_open",
                "developer__shell",
                &Outcome::NoResult("interrupted")
            ),
        ]
    );
    let keys: Vec<&str> = t.items.iter().map(|i| i.key.as_str()).collect();
    assert_eq!(
        keys[..3],
        ["msg_u1#0", "msg_a1#1", "msg_a1#2"],
        "conversation order"
    );
    assert_eq!(
        t.items[0].timestamp.as_deref(),
        Some("2026-01-01T00:00:00.000Z")
    );
    let Body::ToolCall(call) = &t.items[2].body else {
        panic!()
    };
    assert_eq!(call.args, json!({"command": "ls"}));
    assert_eq!(t.skipped.unknown_kinds, 1, "the mystery block");
}

#[test]
fn an_old_database_without_message_ids_keys_by_row_and_titles_by_description() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sessions.db");
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(SCHEMA_V0).unwrap();
    conn.execute(
        "INSERT INTO sessions (id, description, working_dir) VALUES ('s1', 'Fix CI', '/w')",
        [],
    )
    .unwrap();
    for (role, content) in [
        ("user", json!([text("fix it")])),
        (
            "assistant",
            json!([request("t1", "shell", json!({"command": "make"}))]),
        ),
        (
            "user",
            json!([response(
                "t1",
                json!({"status": "success", "value": [{"type": "text", "text": "ok"}]})
            )]),
        ),
        ("system", json!([text("?")])),
        ("assistant", "not json".into()),
    ] {
        let content = match content {
            Value::String(s) => s,
            other => other.to_string(),
        };
        conn.execute(
            "INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES ('s1', ?1, ?2, ?3)",
            params![role, content, T0],
        )
        .unwrap();
    }
    drop(conn);
    let t = read_all(&Goose.sources(&path).unwrap()[0]).remove(0);
    assert_eq!(t.title.as_deref(), Some("Fix CI"));
    assert_eq!(t.model, None);
    assert_eq!(texts(&t), vec![("row1#0", Role::User, "fix it")]);
    assert_eq!(
        calls(&t),
        vec![("row2#0", "t1", "shell", &Outcome::Done("ok".into()))]
    );
    assert_eq!(t.skipped.unknown_kinds, 1, "the system row");
    assert_eq!(t.skipped.unreadable, 1, "the row that is not JSON");
}

fn jsonl(lines: &[Value]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

#[test]
fn legacy_jsonl_files_are_read_and_one_the_database_holds_is_left_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let sessions = dir.path().join("goose/sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    let conn = Connection::open(sessions.join("sessions.db")).unwrap();
    conn.execute_batch(SCHEMA).unwrap();
    fill(&conn);
    conn.execute("INSERT INTO sessions (id, description, working_dir) VALUES ('20250101_120000', 'migrated', '/w')", []).unwrap();
    add(
        &conn,
        "20250101_120000",
        "m1",
        "user",
        0,
        json!([text("migrated copy")]),
        visible(),
    );
    drop(conn);
    let meta = json!({"working_dir": "/legacy/app", "description": "Legacy work", "schedule_id": null, "message_count": 3, "total_tokens": 10});
    let body = jsonl(&[
        meta.clone(),
        json!({"role": "user", "created": T0, "content": [text("list the files")]}),
        json!({"role": "assistant", "created": T0 + 5, "content": [request("tc", "developer__shell", json!({"command": "ls"}))]}),
        json!({"role": "user", "created": T0 + 6, "content": [response("tc", json!({"status": "success", "value": [{"type": "text", "text": "a.txt"}]}))]}),
    ]);
    // A BOM, and a torn last line left by a goose that was killed.
    std::fs::write(
        sessions.join("20250202_090000.jsonl"),
        format!("\u{FEFF}{body}{{\"role\":\"assi"),
    )
    .unwrap();
    std::fs::write(sessions.join("20250101_120000.jsonl"), jsonl(&[meta])).unwrap();
    std::fs::write(
        sessions.join("claude.jsonl"),
        "{\"type\":\"user\",\"uuid\":\"u1\",\"message\":{}}\n",
    )
    .unwrap();

    // The data directory finds the sessions directory in it.
    let found = Goose.sources(&dir.path().join("goose")).unwrap();
    let names: Vec<(&str, String)> = found
        .iter()
        .map(|s| {
            (
                s.kind,
                s.path.file_name().unwrap().to_string_lossy().into_owned(),
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            ("sqlite", "sessions.db".to_string()),
            ("jsonl", "20250202_090000.jsonl".to_string())
        ]
    );
    let t = read_all(&found[1]).remove(0);
    assert_eq!(t.source_id, "20250202_090000");
    assert_eq!(t.title.as_deref(), Some("Legacy work"));
    assert_eq!(t.cwd, Some(PathBuf::from("/legacy/app")));
    assert_eq!(texts(&t), vec![("line2#0", Role::User, "list the files")]);
    assert_eq!(
        calls(&t),
        vec![(
            "line3#0",
            "tc",
            "developer__shell",
            &Outcome::Done("a.txt".into())
        )]
    );
    assert_eq!(t.skipped.byte_order_marks, 1);
    assert_eq!(t.skipped.torn_lines, 1);
    assert!(
        Goose
            .sources(&sessions.join("claude.jsonl"))
            .unwrap()
            .is_empty()
    );
}

fn listing(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| (e.path(), std::fs::read(e.path()).unwrap()))
        .collect();
    out.sort();
    out
}

#[test]
fn a_live_wal_database_is_read_whole_and_left_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sessions.db");
    let writer = Connection::open(&path).unwrap();
    writer
        .execute_batch("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;")
        .unwrap();
    writer.execute_batch(SCHEMA).unwrap();
    fill(&writer);
    let before = listing(dir.path());
    let found = Goose.sources(dir.path()).unwrap();
    assert_eq!(found.len(), 1);
    let all = read_all(&found[0]);
    assert_eq!(all[0].items.len(), 8);
    assert_eq!(listing(dir.path()), before);
    drop(writer);
}

#[test]
fn the_default_root_is_the_xdg_data_sessions_directory() {
    let homes = Homes::at(Some("/h".into()));
    assert_eq!(
        Goose.default_roots(&homes),
        [PathBuf::from("/h/.local/share/goose/sessions")]
    );
}

#[test]
fn a_newer_schema_is_read_with_a_warning_and_a_renamed_column_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sessions.db");
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(SCHEMA).unwrap();
    fill(&conn);
    conn.execute(
        "INSERT INTO schema_version (version) VALUES (?1)",
        [db::KNOWN_SCHEMA + 1],
    )
    .unwrap();
    let found = Goose.sources(dir.path()).unwrap();
    assert_eq!(found.len(), 1);
    let warning = notice(&found[0]).expect("a warning");
    let newer = format!("schema version {}", db::KNOWN_SCHEMA + 1);
    assert!(
        warning.contains("sessions.db") && warning.contains(&newer),
        "{warning}"
    );
    assert!(
        !read_all(&found[0]).is_empty(),
        "read as far as it is known"
    );

    conn.execute_batch("ALTER TABLE messages RENAME COLUMN content_json TO content;")
        .unwrap();
    drop(conn);
    let found = Goose.sources(dir.path()).unwrap();
    assert_eq!(found.len(), 1, "still goose's database: {found:?}");
    let err = Goose
        .read(&found[0], &mut |_| Ok(()))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("sessions.db") && err.contains("no messages.content_json"),
        "{err}"
    );
}

#[test]
fn a_file_that_is_not_a_database_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sessions.db");
    std::fs::write(&path, "hello").unwrap();
    assert!(Goose.sources(dir.path()).unwrap().is_empty());
    let source = Source {
        tool: Tool::new(&crate::session::import::goose::Goose),
        path: path.clone(),
        kind: "sqlite",
        bytes: 5,
    };
    let err = Goose
        .read(&source, &mut |_| Ok(()))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("sessions.db") && err.contains("not a SQLite database"),
        "{err}"
    );
}

#[test]
fn image_content_is_kept_with_the_text_of_its_message() {
    const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    let dir = tempfile::tempdir().unwrap();
    let sessions = dir.path().join("sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    let meta = json!({"working_dir": "/app", "description": "Pictures"});
    let image = |mime: &str, data: &str| json!({"type": "image", "mimeType": mime, "data": data});
    let body = jsonl(&[
        meta,
        json!({"role": "user", "created": T0, "content": [image("image/png", PNG), text("what is it")]}),
        json!({"role": "assistant", "created": T0 + 1, "content": [text("a dot")]}),
        json!({"role": "user", "created": T0 + 2, "content": [image("image/tiff", "SUkqAA==")]}),
    ]);
    std::fs::write(sessions.join("20250303_100000.jsonl"), body).unwrap();
    let found = Goose.sources(&sessions).unwrap();
    let t = read_all(&found[0]).remove(0);
    assert_eq!(
        texts(&t),
        vec![
            ("line2#1", Role::User, "what is it"),
            ("line3#0", Role::Assistant, "a dot"),
            ("line4#0", Role::User, ""),
        ]
    );
    let images = crate::session::import::parts::message_images(&t);
    assert_eq!(
        images[0].1,
        [json!({"type": "image", "mimeType": "image/png", "data": PNG})]
    );
    assert!(images[1].1.is_empty());
    assert_eq!(
        images[2].1,
        [json!({"type": "text", "text": "[image: image/tiff, 4 bytes, not kept]"})]
    );
}
