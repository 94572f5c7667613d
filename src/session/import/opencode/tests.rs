use std::path::{Path, PathBuf};

use rusqlite::{Connection, params};
use serde_json::{Value, json};

use super::*;
use crate::session::import::{Body, Outcome, Role};

const V1: &str = "
CREATE TABLE project (id TEXT PRIMARY KEY, worktree TEXT NOT NULL);
CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT,
  slug TEXT NOT NULL, directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL,
  time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL,
  time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL,
  time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);";

const V2: &str = "
CREATE TABLE session_v2 (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT,
  slug TEXT NOT NULL, directory TEXT NOT NULL, title TEXT, version TEXT NOT NULL, model TEXT,
  time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
CREATE TABLE session_message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, type TEXT NOT NULL,
  seq INTEGER NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);";

const T0: i64 = 1_767_225_600_000; // 2026-01-01T00:00:00Z

fn session_v1(conn: &Connection, id: &str, dir: &str, title: &str) {
    conn.execute(
        "INSERT INTO session VALUES (?1, 'p1', NULL, 'slug', ?2, ?3, '1.0.0', ?4, ?5)",
        params![id, dir, title, T0, T0 + 9_000],
    )
    .unwrap();
}

fn message_v1(conn: &Connection, session: &str, id: &str, at: i64, data: Value) {
    conn.execute(
        "INSERT INTO message VALUES (?1, ?2, ?3, ?3, ?4)",
        params![id, session, T0 + at, data.to_string()],
    )
    .unwrap();
}

fn part_v1(conn: &Connection, session: &str, message: &str, id: &str, data: Value) {
    conn.execute(
        "INSERT INTO part VALUES (?1, ?2, ?3, ?4, ?4, ?5)",
        params![id, message, session, T0, data.to_string()],
    )
    .unwrap();
}

/// A 1.x session with every kind of part: text (two in a row), reasoning,
/// tools completed / running / failed, a synthetic text, a step, a part of
/// an unknown kind.
fn fill_v1(conn: &Connection, id: &str) {
    session_v1(conn, id, "/work/proj", "Fix the parser");
    message_v1(
        conn,
        id,
        "msg_01",
        0,
        json!({"role": "user", "time": {"created": T0}, "agent": "build", "model": {"providerID": "openai", "modelID": "gpt-x"}}),
    );
    part_v1(
        conn,
        id,
        "msg_01",
        "prt_01a",
        json!({"type": "text", "text": "Why does the parser fail?"}),
    );
    part_v1(
        conn,
        id,
        "msg_01",
        "prt_01b",
        json!({"type": "text", "text": "<file contents>", "synthetic": true}),
    );
    message_v1(
        conn,
        id,
        "msg_02",
        1000,
        json!({"role": "assistant", "time": {"created": T0 + 1000, "completed": T0 + 5000}, "modelID": "claude-sonnet-4", "providerID": "anthropic", "path": {"cwd": "/work/proj", "root": "/work/proj"}}),
    );
    part_v1(conn, id, "msg_02", "prt_02a", json!({"type": "step-start"}));
    part_v1(
        conn,
        id,
        "msg_02",
        "prt_02b",
        json!({"type": "reasoning", "text": "thinking hard"}),
    );
    part_v1(
        conn,
        id,
        "msg_02",
        "prt_02c",
        json!({"type": "text", "text": "Let me look."}),
    );
    part_v1(
        conn,
        id,
        "msg_02",
        "prt_02d",
        json!({"type": "text", "text": "Reading it now."}),
    );
    part_v1(
        conn,
        id,
        "msg_02",
        "prt_02e",
        json!({"type": "tool", "callID": "call_1", "tool": "read", "state": {"status": "completed", "input": {"filePath": "/work/proj/parse.rs"}, "output": "fn parse() {}", "title": "parse.rs", "time": {"start": T0 + 2000, "end": T0 + 2100}}}),
    );
    part_v1(
        conn,
        id,
        "msg_02",
        "prt_02f",
        json!({"type": "tool", "callID": "call_2", "tool": "bash", "state": {"status": "error", "input": {"command": "cargo test"}, "error": "exit status 101", "time": {"start": T0 + 3000, "end": T0 + 3100}}}),
    );
    part_v1(
        conn,
        id,
        "msg_02",
        "prt_02g",
        json!({"type": "tool", "callID": "call_3", "tool": "bash", "state": {"status": "running", "input": {"command": "sleep 100"}, "time": {"start": T0 + 4000}}}),
    );
    part_v1(
        conn,
        id,
        "msg_02",
        "prt_02h",
        json!({"type": "hologram", "x": 1}),
    );
    part_v1(
        conn,
        id,
        "msg_02",
        "prt_02i",
        json!({"type": "text", "text": "The parser chokes on tabs."}),
    );
    part_v1(
        conn,
        id,
        "msg_02",
        "prt_02j",
        json!({"type": "step-finish", "reason": "stop"}),
    );
}

/// The sessions of `source`, read whole and in parts of 1, 2, 3 items
/// and of all of them, which must agree.
fn read_all(source: &Source) -> Vec<Transcript> {
    let mut out = Vec::new();
    Opencode
        .read(source, &mut |t| {
            out.push(t);
            Ok(())
        })
        .unwrap();
    crate::session::import::parts::assert_parts_agree(&out, |size, each| {
        Opencode.read_parts(source, size, each)
    });
    out
}

fn db_source(path: &Path) -> Source {
    let mut found = Opencode.sources(path).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    found.remove(0)
}

fn calls(t: &Transcript) -> Vec<(&str, &str, &Outcome)> {
    t.items
        .iter()
        .filter_map(|i| match &i.body {
            Body::ToolCall(c) => Some((i.key.as_str(), c.call_id.as_str(), &c.outcome)),
            _ => None,
        })
        .collect()
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

#[test]
fn a_1x_session_reads_messages_and_tool_parts_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("opencode.db");
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(V1).unwrap();
    fill_v1(&conn, "ses_a");
    drop(conn);

    let all = read_all(&db_source(&path));
    assert_eq!(all.len(), 1);
    let t = &all[0];
    assert_eq!(t.source_id, "ses_a");
    assert_eq!(t.source, format!("{}#session/ses_a", path.display()));
    assert_eq!(t.title.as_deref(), Some("Fix the parser"));
    assert_eq!(t.cwd, Some(PathBuf::from("/work/proj")));
    assert_eq!(t.model.as_deref(), Some("claude-sonnet-4"));
    assert_eq!(t.provider.as_deref(), Some("anthropic"));
    assert_eq!(t.started.as_deref(), Some("2026-01-01T00:00:00.000Z"));
    assert_eq!(t.updated.as_deref(), Some("2026-01-01T00:00:09.000Z"));
    assert_eq!(
        texts(t),
        vec![
            ("prt_01a", Role::User, "Why does the parser fail?"),
            (
                "prt_02c",
                Role::Assistant,
                "Let me look.\n\nReading it now."
            ),
            ("prt_02i", Role::Assistant, "The parser chokes on tabs."),
        ]
    );
    assert_eq!(
        calls(t),
        vec![
            ("prt_02e", "call_1", &Outcome::Done("fn parse() {}".into())),
            (
                "prt_02f",
                "call_2",
                &Outcome::Failed("exit status 101".into())
            ),
            ("prt_02g", "call_3", &Outcome::NoResult("running")),
        ]
    );
    let keys: Vec<&str> = t.items.iter().map(|i| i.key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "prt_01a", "prt_02c", "prt_02e", "prt_02f", "prt_02g", "prt_02i"
        ]
    );
    let Body::ToolCall(read_call) = &t.items[2].body else {
        panic!()
    };
    assert_eq!(read_call.name, "read");
    assert_eq!(read_call.args, json!({"filePath": "/work/proj/parse.rs"}));
    assert_eq!(
        t.items[2].timestamp.as_deref(),
        Some("2026-01-01T00:00:02.000Z")
    );
    assert_eq!(t.skipped.unknown_kinds, 1, "the hologram part");
}

#[test]
fn rows_that_are_not_json_are_counted_not_fatal() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("opencode.db");
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(V1).unwrap();
    session_v1(&conn, "ses_b", "/w", "t");
    conn.execute(
        "INSERT INTO message VALUES ('msg_1', 'ses_b', 1, 1, 'not json')",
        [],
    )
    .unwrap();
    message_v1(&conn, "ses_b", "msg_2", 5, json!({"role": "user"}));
    conn.execute(
        "INSERT INTO part VALUES ('prt_1', 'msg_2', 'ses_b', 1, 1, '{torn')",
        [],
    )
    .unwrap();
    part_v1(
        &conn,
        "ses_b",
        "msg_2",
        "prt_2",
        json!({"type": "text", "text": "still here"}),
    );
    message_v1(&conn, "ses_b", "msg_3", 6, json!({"role": "robot"}));
    drop(conn);
    let all = read_all(&db_source(&path));
    assert_eq!(texts(&all[0]), vec![("prt_2", Role::User, "still here")]);
    assert_eq!(all[0].skipped.unreadable, 2);
    assert_eq!(all[0].skipped.unknown_kinds, 1);
}

fn v2_message(conn: &Connection, session: &str, id: &str, kind: &str, seq: i64, data: Value) {
    conn.execute(
        "INSERT INTO session_message VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6)",
        params![id, session, kind, seq, T0 + seq * 1000, data.to_string()],
    )
    .unwrap();
}

#[test]
fn a_2x_session_wins_over_its_1x_copy_and_reads_content_items() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("opencode.db");
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(V1).unwrap();
    conn.execute_batch(V2).unwrap();
    // A 1.x session 2.x copied into session_v2 under the same id.
    session_v1(&conn, "ses_both", "/old", "old copy");
    message_v1(&conn, "ses_both", "msg_old", 0, json!({"role": "user"}));
    part_v1(
        &conn,
        "ses_both",
        "msg_old",
        "prt_old",
        json!({"type": "text", "text": "LEGACY COPY"}),
    );
    // And one only in 1.x.
    fill_v1(&conn, "ses_only_v1");
    conn.execute(
        "INSERT INTO session_v2 VALUES ('ses_both', 'p1', NULL, 's', '/new', 'Wire it up', '2.0.0', ?1, ?2, ?3)",
        params![json!({"id": "m-session", "providerID": "p-session"}).to_string(), T0, T0 + 60_000],
    )
    .unwrap();
    conn.execute(
        "INSERT INTO session_v2 VALUES ('ses_child', 'p1', 'ses_both', 's', '/new', NULL, '2.0.0', NULL, ?1, ?1)",
        params![T0],
    )
    .unwrap();
    v2_message(
        &conn,
        "ses_both",
        "msg_u",
        "user",
        1,
        json!({"text": "Add a README", "time": {"created": T0 + 1000}}),
    );
    v2_message(
        &conn,
        "ses_both",
        "msg_sys",
        "system",
        2,
        json!({"text": "harness"}),
    );
    v2_message(
        &conn,
        "ses_both",
        "msg_a",
        "assistant",
        3,
        json!({
            "time": {"created": T0 + 3000, "completed": T0 + 4000},
            "model": {"id": "gpt-5.2", "providerID": "openai"},
            "content": [
                {"type": "reasoning", "text": "need a file"},
                {"type": "text", "text": "Writing it."},
                {"type": "tool", "id": "t1", "name": "write", "state": {"status": "completed", "input": {"filePath": "/new/README.md"}, "content": [{"type": "text", "text": "Wrote file"}]}},
                {"type": "tool", "id": "t2", "name": "bash", "state": {"status": "error", "input": {"command": "false"}, "error": {"type": "unknown", "message": "exit 1"}}},
                {"type": "tool", "id": "t3", "name": "bash", "state": {"status": "running", "input": {"command": "sleep 9"}}},
                {"type": "text", "text": "README added."}
            ]
        }),
    );
    v2_message(
        &conn,
        "ses_both",
        "msg_sh",
        "shell",
        4,
        json!({"shellID": "sh1", "command": "ls", "status": "completed", "exit": 0, "output": {"output": "README.md\n"}}),
    );
    v2_message(
        &conn,
        "ses_both",
        "msg_idle",
        "idle",
        5,
        json!({"outcome": "completed"}),
    );
    v2_message(&conn, "ses_both", "msg_new", "teleport", 6, json!({}));
    v2_message(
        &conn,
        "ses_both",
        "msg_sh2",
        "shell",
        7,
        json!({"shellID": "sh2", "command": "false", "status": "completed", "exit": 1, "output": {"output": "boom"}}),
    );
    drop(conn);

    let all = read_all(&db_source(&path));
    let ids: Vec<&str> = all.iter().map(|t| t.source_id.as_str()).collect();
    assert_eq!(ids, ["ses_both", "ses_child", "ses_only_v1"]);
    let t = &all[0];
    assert_eq!(t.source, format!("{}#session_v2/ses_both", path.display()));
    assert_eq!(t.title.as_deref(), Some("Wire it up"));
    assert_eq!(t.cwd, Some(PathBuf::from("/new")));
    assert_eq!(t.model.as_deref(), Some("gpt-5.2"));
    assert_eq!(t.provider.as_deref(), Some("openai"));
    assert_eq!(
        texts(t),
        vec![
            ("msg_u", Role::User, "Add a README"),
            ("msg_a#1", Role::Assistant, "Writing it."),
            ("msg_a#5", Role::Assistant, "README added."),
        ]
    );
    assert_eq!(
        calls(t),
        vec![
            ("msg_a#2", "t1", &Outcome::Done("Wrote file".into())),
            ("msg_a#3", "t2", &Outcome::Failed("exit 1".into())),
            ("msg_a#4", "t3", &Outcome::NoResult("running")),
            ("msg_sh", "sh1", &Outcome::Done("README.md\n".into())),
            ("msg_sh2", "sh2", &Outcome::Failed("boom".into())),
        ]
    );
    assert_eq!(t.skipped.unknown_kinds, 1, "the teleport row");
    assert!(!texts(t).iter().any(|(_, _, text)| text.contains("LEGACY")));
    let child = &all[1];
    assert_eq!(child.parent_source_id.as_deref(), Some("ses_both"));
    assert_eq!(child.title, None);
}

fn write_json(path: &Path, value: Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec_pretty(&value).unwrap()).unwrap();
}

/// The 1.x JSON tree: `session/<project>/<id>.json`, `message/<sid>/`,
/// `part/<mid>/`.
fn legacy_session(storage: &Path, id: &str, title: &str) {
    write_json(
        &storage.join(format!("session/proj1/{id}.json")),
        json!({"id": id, "projectID": "proj1", "directory": "/legacy/proj", "title": title, "version": "0.9", "time": {"created": T0, "updated": T0 + 5000}}),
    );
    let msg = format!("msg_{id}_1");
    write_json(
        &storage.join(format!("message/{id}/{msg}.json")),
        json!({"id": msg, "sessionID": id, "role": "user", "time": {"created": T0 + 10}}),
    );
    write_json(
        &storage.join(format!("part/{msg}/prt_{id}_1.json")),
        json!({"id": format!("prt_{id}_1"), "sessionID": id, "messageID": msg, "type": "text", "text": format!("hello from {id}")}),
    );
    let reply = format!("msg_{id}_2");
    write_json(
        &storage.join(format!("message/{id}/{reply}.json")),
        json!({"id": reply, "sessionID": id, "role": "assistant", "time": {"created": T0 + 20}, "modelID": "qwen3", "providerID": "ollama"}),
    );
    write_json(
        &storage.join(format!("part/{reply}/prt_{id}_2.json")),
        json!({"id": format!("prt_{id}_2"), "type": "tool", "callID": "c1", "tool": "grep", "state": {"status": "completed", "input": {"pattern": "x"}, "output": "found x"}}),
    );
}

#[test]
fn the_legacy_json_tree_is_read_and_a_session_the_database_holds_is_left_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("opencode");
    let storage = data.join("storage");
    legacy_session(&storage, "ses_json_only", "From JSON");
    legacy_session(&storage, "ses_a", "Also in the database");
    std::fs::write(storage.join("migration"), "2").unwrap();
    let conn = Connection::open(data.join("opencode.db")).unwrap();
    conn.execute_batch(V1).unwrap();
    fill_v1(&conn, "ses_a");
    drop(conn);

    let found = Opencode.sources(&data).unwrap();
    let kinds: Vec<(&str, String)> = found
        .iter()
        .map(|s| {
            (
                s.kind,
                s.path.file_name().unwrap().to_string_lossy().into_owned(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("sqlite", "opencode.db".to_string()),
            ("legacy-json", "ses_json_only.json".to_string())
        ]
    );
    // The storage directory alone still finds the database beside it.
    assert_eq!(Opencode.sources(&storage).unwrap().len(), 1);

    let t = read_all(&found[1]).remove(0);
    assert_eq!(t.source_id, "ses_json_only");
    assert_eq!(t.source, found[1].path.display().to_string());
    assert_eq!(t.title.as_deref(), Some("From JSON"));
    assert_eq!(t.cwd, Some(PathBuf::from("/legacy/proj")));
    assert_eq!(t.model.as_deref(), Some("qwen3"));
    assert_eq!(t.provider.as_deref(), Some("ollama"));
    assert_eq!(
        texts(&t),
        vec![(
            "prt_ses_json_only_1",
            Role::User,
            "hello from ses_json_only"
        )]
    );
    assert_eq!(
        calls(&t),
        vec![(
            "prt_ses_json_only_2",
            "c1",
            &Outcome::Done("found x".into())
        )]
    );
}

#[test]
fn the_oldest_layout_with_parts_inline_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let storage = dir.path().join("storage");
    write_json(
        &storage.join("session/info/ses_old.json"),
        json!({"id": "ses_old", "title": "Old times", "time": {"created": T0, "updated": T0}}),
    );
    write_json(
        &storage.join("session/message/ses_old/msg_1.json"),
        json!({"id": "msg_1", "role": "user", "parts": [{"type": "text", "text": "list files"}], "metadata": {"time": {"created": T0 + 1}, "sessionID": "ses_old"}}),
    );
    write_json(
        &storage.join("session/message/ses_old/msg_2.json"),
        json!({"id": "msg_2", "role": "assistant", "parts": [
            {"type": "step-start"},
            {"type": "tool-invocation", "toolInvocation": {"state": "result", "toolCallId": "tc1", "toolName": "list", "args": {"path": "."}, "result": "a.txt"}},
            {"type": "text", "text": "One file."}
        ], "metadata": {"time": {"created": T0 + 2}, "assistant": {"modelID": "gpt-4.1", "providerID": "openai", "path": {"cwd": "/old/proj", "root": "/old/proj"}}}}),
    );
    let found = Opencode.sources(&storage).unwrap();
    assert_eq!(found.len(), 1);
    let t = read_all(&found[0]).remove(0);
    assert_eq!(t.cwd, Some(PathBuf::from("/old/proj")));
    assert_eq!(t.model.as_deref(), Some("gpt-4.1"));
    assert_eq!(
        texts(&t),
        vec![
            ("msg_1#0", Role::User, "list files"),
            ("msg_2#2", Role::Assistant, "One file.")
        ]
    );
    assert_eq!(
        calls(&t),
        vec![("msg_2#1", "tc1", &Outcome::Done("a.txt".into()))]
    );
}

fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
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
    let path = dir.path().join("opencode.db");
    let writer = Connection::open(&path).unwrap();
    writer
        .execute_batch("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;")
        .unwrap();
    writer.execute_batch(V1).unwrap();
    fill_v1(&writer, "ses_wal");
    assert!(dir.path().join("opencode.db-wal").metadata().unwrap().len() > 0);
    let before = snapshot(dir.path());

    let all = read_all(&db_source(&path));
    assert_eq!(all.len(), 1, "rows only in the WAL are read");
    assert_eq!(all[0].items.len(), 6);
    assert_eq!(snapshot(dir.path()), before, "nothing written or added");
    drop(writer);
}

#[test]
fn what_is_not_opencode_is_not_claimed_and_a_bad_database_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("other.db");
    Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE sessions (id TEXT, working_dir TEXT);")
        .unwrap();
    std::fs::write(dir.path().join("notes.json"), "{}").unwrap();
    assert!(Opencode.sources(dir.path()).unwrap().is_empty());
    assert!(Opencode.sources(&other).unwrap().is_empty());
    assert!(
        Opencode
            .sources(&dir.path().join("missing"))
            .unwrap()
            .is_empty()
    );

    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, b"SQLite format 3\0 but then garbage").unwrap();
    let source = Source {
        tool: Tool::new(&crate::session::import::opencode::Opencode),
        path: junk.clone(),
        kind: "sqlite",
        bytes: 0,
    };
    let err = Opencode
        .read(&source, &mut |_| Ok(()))
        .unwrap_err()
        .to_string();
    assert!(err.contains("junk.db"), "{err}");
    assert!(!err.contains('\n'));
}

#[test]
fn a_database_whose_tables_were_renamed_is_claimed_and_says_what_it_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("opencode.db");
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(V1).unwrap();
    fill_v1(&conn, "ses_renamed");
    conn.execute_batch("ALTER TABLE part RENAME COLUMN data TO body;")
        .unwrap();
    drop(conn);
    let found = Opencode.sources(dir.path()).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    let err = Opencode
        .read(&found[0], &mut |_| Ok(()))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("opencode.db") && err.contains("no part.data") && !err.contains('\n'),
        "{err}"
    );
}

#[test]
fn the_default_root_follows_xdg_data_home() {
    let homes = Homes::at(Some("/h".into()));
    assert_eq!(
        Opencode.default_roots(&homes),
        [PathBuf::from("/h/.local/share/opencode")]
    );
    let homes = Homes::at(Some("/h".into())).with_var("XDG_DATA_HOME", "/x");
    assert_eq!(
        Opencode.default_roots(&homes),
        [PathBuf::from("/x/opencode")]
    );
}

#[test]
fn a_placeholder_title_is_no_title_and_a_share_record_is_not_a_session() {
    assert!(db::is_placeholder("New session - 2026-01-01T00:00:00.000Z"));
    assert!(db::is_placeholder(
        "Child session - 2026-01-01T00:00:00.000Z"
    ));
    assert!(!db::is_placeholder("New session - of the parser"));
    assert!(!db::is_placeholder("Fix the parser"));

    let dir = tempfile::tempdir().unwrap();
    let storage = dir.path().join("storage");
    legacy_session(
        &storage,
        "ses_real",
        "New session - 2026-01-01T00:00:00.000Z",
    );
    write_json(
        &storage.join("session/share/ses_real.json"),
        json!({"secret": "s3cr3t", "url": "https://opncd.ai/s/abc"}),
    );
    let found = Opencode.sources(dir.path()).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    let t = read_all(&found[0]).remove(0);
    assert_eq!(t.title, None);

    let share = Source {
        tool: Tool::new(&crate::session::import::opencode::Opencode),
        path: storage.join("session/share/ses_real.json"),
        kind: "legacy-json",
        bytes: 0,
    };
    assert!(Opencode.read(&share, &mut |_| Ok(())).is_err());
}

#[test]
fn a_session_row_without_a_directory_takes_its_project_work_tree() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("opencode.db");
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(
        "CREATE TABLE project (id TEXT PRIMARY KEY, worktree TEXT NOT NULL);
         CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, title TEXT NOT NULL,
           time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
         CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL,
           time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
         CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL,
           time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
         INSERT INTO project VALUES ('p1', '/repo');
         INSERT INTO session VALUES ('ses_x', 'p1', 'No directory', 1, 2);",
    )
    .unwrap();
    message_v1(&conn, "ses_x", "msg_1", 0, json!({"role": "user"}));
    part_v1(
        &conn,
        "ses_x",
        "msg_1",
        "prt_1",
        json!({"type": "text", "text": "hi"}),
    );
    drop(conn);
    let t = read_all(&db_source(&path)).remove(0);
    assert_eq!(t.cwd, Some(PathBuf::from("/repo")));
    assert_eq!(t.parent_source_id, None);
}

#[test]
fn a_database_a_killed_writer_left_with_its_wal_is_read_without_making_a_shm() {
    let live = tempfile::tempdir().unwrap();
    let left = tempfile::tempdir().unwrap();
    let writer = Connection::open(live.path().join("opencode.db")).unwrap();
    writer
        .execute_batch("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;")
        .unwrap();
    writer.execute_batch(V1).unwrap();
    fill_v1(&writer, "ses_killed");
    // What a killed opencode leaves: the database and its WAL, no -shm.
    for name in ["opencode.db", "opencode.db-wal"] {
        std::fs::copy(live.path().join(name), left.path().join(name)).unwrap();
    }
    drop(writer);
    let before = snapshot(left.path());

    let all = read_all(&db_source(&left.path().join("opencode.db")));
    assert_eq!(all[0].source_id, "ses_killed");
    assert_eq!(all[0].items.len(), 6);
    assert_eq!(
        snapshot(left.path()),
        before,
        "no -shm made, nothing checkpointed"
    );
}

#[test]
fn a_pasted_image_is_kept_with_its_prompt_and_other_files_left_out() {
    const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("opencode.db");
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(V1).unwrap();
    session_v1(&conn, "ses_i", "/work/proj", "Pictures");
    let user = json!({"role": "user", "time": {"created": T0}});
    message_v1(&conn, "ses_i", "msg_1", 0, user.clone());
    let file = |mime: &str, url: &str| json!({"type": "file", "mime": mime, "url": url});
    // The image comes first: the message keeps its text's key.
    let png = format!("data:image/png;base64,{PNG}");
    part_v1(&conn, "ses_i", "msg_1", "prt_1a", file("image/png", &png));
    part_v1(
        &conn,
        "ses_i",
        "msg_1",
        "prt_1b",
        json!({"type": "text", "text": "what is it"}),
    );
    let source = file("text/plain", "file:///work/proj/notes.txt");
    part_v1(&conn, "ses_i", "msg_1", "prt_1c", source);
    message_v1(&conn, "ses_i", "msg_2", 1, user);
    let remote = file("image/jpeg", "https://example.com/a.jpg");
    part_v1(&conn, "ses_i", "msg_2", "prt_2a", remote);
    drop(conn);

    let all = read_all(&db_source(&path));
    let t = &all[0];
    assert_eq!(
        texts(t),
        vec![
            ("prt_1b", Role::User, "what is it"),
            ("prt_2a", Role::User, "")
        ]
    );
    let images = crate::session::import::parts::message_images(t);
    assert_eq!(
        images,
        [
            (
                "prt_1b",
                &[json!({"type": "image", "mimeType": "image/png", "data": PNG})][..]
            ),
            (
                "prt_2a",
                &[json!({"type": "text", "text": "[image: https://example.com/a.jpg]"})][..]
            ),
        ]
    );
    assert_eq!(t.skipped.unknown_kinds, 0);
}
