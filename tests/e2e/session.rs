//! `ollm-session` end to end: the format contract, a whole conversation,
//! the sessions document's command lines, durability under SIGKILL,
//! parallel writers, corruption and bad input.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};

use crate::on_each_store;
use crate::support::{Sandbox, SessionStore, assert_one_line_error, json, stderr, stdout};

on_each_store!(
    a_whole_conversation_through_the_cli,
    the_sessions_document_command_lines_work,
    parallel_writers_lose_nothing,
    killed_writers_lose_no_acknowledged_record,
    bad_ids_and_bad_records_get_one_line_and_lose_nothing,
    max_sessions_comes_from_the_configuration,
    parallel_creates_keep_exactly_max_sessions,
    a_session_deleted_while_records_stream_in_is_not_found_and_stays_gone,
    record_into_a_missing_id_fails_before_reading_its_input,
);

const SPEC_ID: &str = "550e8400-e29b-41d4-a716-446655440000";

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn get(sb: &Sandbox, id: &str) -> Value {
    let out = sb.cmd("ollm-session").args(["get", id]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    json(&out)
}

fn text_message(role: &str, text: &str) -> String {
    json!({"role": role, "parts": [{"type": "text", "text": text}]}).to_string()
}

/// Every field of the spec's schema (Requirement 2), nested ones included.
fn assert_spec_fields(session: &Value) {
    for key in [
        "sessionId",
        "startTime",
        "lastActivity",
        "model",
        "provider",
        "messages",
        "toolCalls",
        "metadata",
    ] {
        assert!(session.get(key).is_some(), "missing {key}: {session}");
    }
    assert!(session["metadata"]["tokenCount"].is_u64());
    assert!(session["metadata"]["compressionCount"].is_u64());
    for m in session["messages"].as_array().unwrap() {
        assert!(m["role"].is_string() && m["parts"].is_array() && m["timestamp"].is_string());
    }
    for t in session["toolCalls"].as_array().unwrap() {
        for key in ["id", "name", "args", "result", "timestamp"] {
            assert!(t.get(key).is_some(), "tool call missing {key}");
        }
        assert!(t["result"]["llmContent"].is_string());
    }
}

#[test]
fn the_spec_example_session_loads_unchanged() {
    for name in ["spec-example-session.json", "doc003-example-session.json"] {
        let sb = Sandbox::new();
        std::fs::create_dir_all(sb.sessions_dir()).unwrap();
        let original = std::fs::read_to_string(fixture(name)).unwrap();
        std::fs::write(sb.sessions_dir().join(format!("{SPEC_ID}.json")), &original).unwrap();
        let out = sb
            .cmd("ollm-session")
            .args(["get", SPEC_ID])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let expected: Value = serde_json::from_str(&original).unwrap();
        assert_eq!(json(&out), expected, "{name}: get changed the session");
        if name == "spec-example-session.json" {
            // Written as the spec writes it, it comes back byte for byte.
            assert_eq!(stdout(&out), original);
        }
        let out = sb
            .cmd("ollm-session")
            .args(["export", SPEC_ID, "--format", "json"])
            .output()
            .unwrap();
        assert_eq!(json(&out), expected, "{name}: export changed the session");
        assert_spec_fields(&json(&out));
        let list = json(&sb.cmd("ollm-session").arg("list").output().unwrap());
        assert_eq!(list[0]["sessionId"], SPEC_ID);
        assert_eq!(list[0]["messageCount"], 2);
        assert_eq!(list[0]["tokenCount"], expected["metadata"]["tokenCount"]);
        // Recording into it keeps every field and adds the record.
        let out = sb
            .cmd("ollm-session")
            .args(["record", SPEC_ID, "--role", "user", "--text", "thanks"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let after = get(&sb, SPEC_ID);
        assert_spec_fields(&after);
        assert_eq!(after["messages"].as_array().unwrap().len(), 3);
        assert_eq!(after["messages"][0], expected["messages"][0]);
        assert_eq!(after["toolCalls"], expected["toolCalls"]);
        assert_eq!(
            after["metadata"]["compressionCount"],
            expected["metadata"]["compressionCount"]
        );
        if let Some(history) = expected["metadata"].get("modeHistory") {
            assert_eq!(&after["metadata"]["modeHistory"], history);
        }
    }
}

fn a_whole_conversation_through_the_cli(store: SessionStore) {
    let Some(sb) = Sandbox::on(store) else {
        return;
    };
    let id = sb.create_session();
    let session = |args: &[&str]| {
        let out = sb.cmd("ollm-session").args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        out
    };
    session(&[
        "record",
        &id,
        "--role",
        "system",
        "--text",
        "You are terse.",
    ]);
    session(&[
        "record",
        &id,
        "--role",
        "user",
        "--text",
        "Read the README please",
    ]);
    let out = sb
        .cmd("ollm-session")
        .args(["record", &id])
        .write_stdin(text_message("assistant", "Reading it now."))
        .output()
        .unwrap();
    assert_eq!(json(&out)["index"], 2);
    session(&[
        "record",
        &id,
        "--tool",
        "read_file",
        "--args",
        r#"{"path":"README.md"}"#,
        "--result",
        "# Project\nA tool with a zebra.",
        "--display",
        "Read 30 bytes",
    ]);
    let pretty = serde_json::to_string_pretty(&json!([
        {"role": "assistant", "parts": [{"type": "text", "text": "It mentions a zebra."}]},
        {"role": "user", "parts": [{"type": "text", "text": "Thanks"}], "timestamp": "2030-01-01T00:00:00+02:00"}
    ]))
    .unwrap();
    let out = sb
        .cmd("ollm-session")
        .args(["record", &id, "-"])
        .write_stdin(pretty)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 2, "one ack per record");

    let whole = get(&sb, &id);
    assert_spec_fields(&whole);
    assert_eq!(whole["messages"].as_array().unwrap().len(), 5);
    assert_eq!(whole["toolCalls"][0]["name"], "read_file");
    assert_eq!(
        whole["messages"][4]["timestamp"],
        "2030-01-01T00:00:00+02:00"
    );

    let list = json(&session(&["list"]));
    assert_eq!(list[0]["sessionId"], id.as_str());
    assert_eq!(list[0]["messageCount"], 5);

    let hits = json(&session(&["search", "zebra"]));
    assert_eq!(hits.as_array().unwrap().len(), 2, "{hits}");
    assert!(
        hits.as_array()
            .unwrap()
            .iter()
            .any(|h| h["messageIndex"] == 3
                && h["role"] == "assistant"
                && h["snippet"].as_str().unwrap().contains("zebra"))
    );
    let hits = json(&session(&["search", "ZEBRA", "-i", "--role", "tool"]));
    assert_eq!(hits[0]["toolCallIndex"], 0);
    let hits = json(&session(&["search", "--regex", "Read(ing)? (the|it)"]));
    assert_eq!(hits.as_array().unwrap().len(), 2, "{hits}");

    let md = stdout(&session(&["export", &id, "--format", "markdown"]));
    assert!(
        md.contains("## User") && md.contains("### Tool call `read_file`"),
        "{md}"
    );
    assert!(md.contains("A tool with a zebra.") && md.contains("> Read 30 bytes"));

    let branch = json(&session(&["branch", &id, "--at", "3"]));
    let branch_id = branch["sessionId"].as_str().unwrap().to_string();
    let branched = get(&sb, &branch_id);
    assert_eq!(branched["parentSessionId"], id.as_str());
    assert_eq!(branched["branchPoint"], 3);
    assert_eq!(branched["messages"].as_array().unwrap().len(), 3);
    assert_eq!(
        branched["toolCalls"].as_array().unwrap().len(),
        1,
        "the tool call belongs to message 2's turn"
    );
    let earlier = json(&session(&["branch", &id, "--at", "2"]));
    let earlier = get(&sb, earlier["sessionId"].as_str().unwrap());
    assert_eq!(earlier["toolCalls"], json!([]));
    let branches = json(&session(&["branches", &id]));
    assert_eq!(branches.as_array().unwrap().len(), 2);
    assert!(
        branches
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["sessionId"] == branch_id.as_str())
    );
    let out = sb
        .cmd("ollm-session")
        .args(["branch", &id, "--at", "9"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_one_line_error(&out, "ollm-session");
    assert!(stderr(&out).contains("out of range"));

    let snap = json(&session(&[
        "snapshot",
        "create",
        &id,
        "--summary",
        "before",
    ]));
    let snap_id = snap["id"].as_str().unwrap().to_string();
    let snaps = json(&session(&["snapshot", "list", &id]));
    assert_eq!(snaps[0]["id"], snap_id.as_str());
    let restored = json(&session(&["snapshot", "restore", &snap_id]));
    assert_eq!(restored["messages"], whole["messages"]);
    let restored = json(&session(&["snapshot", "restore", &snap_id, "--as-session"]));
    let copy = get(&sb, restored["sessionId"].as_str().unwrap());
    assert_eq!(copy["messages"], whole["messages"]);
    // The file store's layout; PostgreSQL keeps them in its database.
    assert_eq!(
        sb.ollm_home
            .join("context-snapshots")
            .join(&id)
            .join("snapshots/snapshots-index.json")
            .is_file(),
        store == SessionStore::File
    );

    let messages = json(&session(&["get", "--last", "--messages"]));
    assert!(messages.is_array());

    let report = json(&session(&["cleanup", "--keep", "1"]));
    assert_eq!(report["deleted"].as_array().unwrap().len(), 3);
    assert_eq!(json(&session(&["list"])).as_array().unwrap().len(), 1);
}

fn the_sessions_document_command_lines_work(store: SessionStore) {
    let Some(sb) = Sandbox::on(store) else {
        return;
    };
    let id = sb.create_session();
    let ollm = |args: &[&str]| sb.cmd("ollm").args(args).output().unwrap();
    let out = ollm(&["sessions", "list"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)[0]["sessionId"], id.as_str());
    let out = ollm(&["sessions", "view", &id]);
    assert_eq!(json(&out)["sessionId"], id.as_str());
    let out = ollm(&["sessions", "export", &id, "--output", "chat-history.json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let exported: Value =
        serde_json::from_str(&std::fs::read_to_string(sb.work.join("chat-history.json")).unwrap())
            .unwrap();
    assert_spec_fields(&exported);
    let out = ollm(&["sessions", "search", "keyword"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out), json!([]));
    let out = ollm(&["sessions", "cleanup", "--keep", "10"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = ollm(&["sessions", "delete", &id]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&ollm(&["sessions", "list"])), json!([]));
    sb.create_session();
    // Not at a terminal: `clear --all` asks for --yes instead of deleting.
    let out = ollm(&["sessions", "clear", "--all"]);
    assert_eq!(out.status.code(), Some(2));
    assert_one_line_error(&out, "ollm-session");
    assert_eq!(
        json(&ollm(&["sessions", "list"])).as_array().unwrap().len(),
        1
    );
    let out = ollm(&["sessions", "clear", "--all", "--yes"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&ollm(&["sessions", "list"])), json!([]));
}

fn parallel_writers_lose_nothing(store: SessionStore) {
    const WRITERS: usize = 8;
    const EACH: usize = 60;
    let Some(sb) = Sandbox::on(store) else {
        return;
    };
    let id = sb.create_session();
    let children: Vec<_> = (0..WRITERS)
        .map(|w| {
            let mut child = sb.spawn_session(&["record", &id]);
            let mut input = child.stdin.take().unwrap();
            let lines: String = (0..EACH)
                .map(|n| text_message("user", &format!("w{w}-{n}")) + "\n")
                .collect();
            std::thread::spawn(move || input.write_all(lines.as_bytes()));
            child
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out).lines().count(), EACH);
    }
    let session = get(&sb, &id);
    let texts: std::collections::HashSet<String> = session["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["parts"][0]["text"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        session["messages"].as_array().unwrap().len(),
        WRITERS * EACH
    );
    assert_eq!(texts.len(), WRITERS * EACH);
    let list = json(&sb.cmd("ollm-session").arg("list").output().unwrap());
    assert_eq!(list[0]["messageCount"], WRITERS * EACH);
}

/// A tiny deterministic generator (no rand dependency for one test).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % below
    }
}

fn killed_writers_lose_no_acknowledged_record(store: SessionStore) {
    let Some(sb) = Sandbox::on(store) else {
        return;
    };
    // Both formats: journals appended to, and OLLM CLI documents rewritten whole.
    let ids: Vec<String> = vec![
        sb.create_journal_session(),
        sb.create_session(),
        sb.create_session(),
    ];
    let mut rng = Lcg(0x5eed);
    let mut acknowledged: Vec<(String, String)> = Vec::new();
    let mut torn = 0;
    for round in 0..24 {
        // Two writers at once into sessions picked at random, killed at a
        // random moment while they are streaming records of random sizes.
        let mut running = Vec::new();
        for w in 0..2 {
            let id = ids[rng.next(ids.len() as u64) as usize].clone();
            let mut child = sb
                .std_cmd("ollm-session")
                .args(["record", &id])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let mut input = child.stdin.take().unwrap();
            // Mostly small records, some of several MiB: a kill can cut
            // the write(2) of a big one short, leaving a torn tail.
            let sizes: Vec<usize> = (0..400)
                .map(|_| match rng.next(8) {
                    0 => 2_000_000 + rng.next(6_000_000) as usize,
                    _ => 1 + rng.next(20_000) as usize,
                })
                .collect();
            let texts: Vec<String> = (0..400).map(|n| format!("r{round}-w{w}-{n}")).collect();
            let fed = texts.clone();
            std::thread::spawn(move || {
                for (text, size) in fed.iter().zip(sizes) {
                    let body = format!("{text} {}", "x".repeat(size));
                    if input
                        .write_all((text_message("user", &body) + "\n").as_bytes())
                        .is_err()
                    {
                        break;
                    }
                }
            });
            let reader = BufReader::new(child.stdout.take().unwrap());
            let (told, first_ack) = std::sync::mpsc::channel();
            let acks = std::thread::spawn(move || {
                reader
                    .lines()
                    .map_while(std::result::Result::ok)
                    .inspect(|_| {
                        let _ = told.send(());
                    })
                    .count()
            });
            running.push((child, acks, id, texts, first_ack));
        }
        // Killed at a random moment once writing is under way, however
        // slowly a loaded machine starts the writers.
        for (.., first_ack) in &running {
            let _ = first_ack.recv_timeout(Duration::from_secs(60));
        }
        std::thread::sleep(Duration::from_millis(rng.next(120)));
        for (mut child, acks, id, texts, _) in running {
            let _ = child.kill(); // SIGKILL
            let _ = child.wait();
            let count = acks.join().unwrap();
            acknowledged.extend(texts.into_iter().take(count).map(|t| (id.clone(), t)));
        }
        for id in ids.iter().take(1).filter(|_| sb.pg.is_none()) {
            let journal = std::fs::read(sb.sessions_dir().join(id).join("journal.ndjson")).unwrap();
            if !journal.ends_with(b"\n") {
                torn += 1;
            }
        }
    }
    eprintln!(
        "killed writers: {} acknowledged records, {torn} torn tails seen",
        acknowledged.len()
    );
    assert!(
        acknowledged.len() > 20,
        "too few acknowledged records to prove anything"
    );
    let list = sb.cmd("ollm-session").arg("list").output().unwrap();
    assert!(stderr(&list).is_empty(), "{}", stderr(&list));
    assert_eq!(json(&list).as_array().unwrap().len(), ids.len());
    for id in &ids {
        let session = get(&sb, id);
        let present: std::collections::HashSet<String> = session["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                let text = m["parts"][0]["text"].as_str().unwrap();
                text.split(' ').next().unwrap().to_string()
            })
            .collect();
        for (owner, text) in &acknowledged {
            if owner == id {
                assert!(present.contains(text), "acknowledged {text} lost from {id}");
            }
        }
        // And the session still takes records.
        let out = sb
            .cmd("ollm-session")
            .args(["record", id, "--role", "user", "--text", "after"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
}

#[test]
fn a_corrupt_session_is_reported_by_list_and_get_and_left_in_place() {
    let sb = Sandbox::new();
    let good = sb.create_session();
    let bad = sb.create_journal_session();
    let journal = sb.sessions_dir().join(&bad).join("journal.ndjson");
    let mut text = std::fs::read_to_string(&journal).unwrap();
    text.push_str("not json\n");
    text.push_str(&format!(
        "{}\n",
        json!({"type": "message", "at": "2024-01-01T00:00:00Z", "tokens": 1,
               "message": {"role": "user", "parts": [], "timestamp": "2024-01-01T00:00:00Z"}})
    ));
    std::fs::write(&journal, &text).unwrap();
    std::fs::remove_file(sb.sessions_dir().join(&bad).join("summary.json")).unwrap();
    let plain = "6ba7b810-9dad-41d1-80b4-00c04fd430c8";
    std::fs::write(
        sb.sessions_dir().join(format!("{plain}.json")),
        "{\"sessionId\": 1",
    )
    .unwrap();

    let out = sb.cmd("ollm-session").arg("list").output().unwrap();
    assert!(out.status.success());
    let list = json(&out);
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["sessionId"], good.as_str());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(err.contains(&bad) && err.contains(plain) && err.contains("left as it is"));
    assert_eq!(
        std::fs::read_to_string(&journal).unwrap(),
        text,
        "the corrupt journal was changed"
    );
    assert_eq!(
        std::fs::read(sb.sessions_dir().join(format!("{plain}.json"))).unwrap(),
        b"{\"sessionId\": 1"
    );
    // A writer sets our own journal aside, and refuses the CLI's file.
    let out = sb
        .cmd("ollm-session")
        .args(["record", &bad, "--role", "user", "--text", "x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(6), "{}", stderr(&out));
    assert!(stderr(&out).contains("moved aside"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(
            sb.sessions_dir()
                .join(format!("{bad}.corrupt/journal.ndjson"))
        )
        .unwrap(),
        text
    );
    let out = sb
        .cmd("ollm-session")
        .args(["record", plain, "--role", "user", "--text", "x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(6), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-session");
    assert_eq!(
        std::fs::read(sb.sessions_dir().join(format!("{plain}.json"))).unwrap(),
        b"{\"sessionId\": 1"
    );

    // get of a corrupt session: exit 6 and one line.
    let other = sb.create_journal_session();
    let journal = sb.sessions_dir().join(&other).join("journal.ndjson");
    std::fs::write(&journal, "{\"type\":\"session\"\n{}\n").unwrap();
    let out = sb
        .cmd("ollm-session")
        .args(["get", &other])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(6));
    assert_one_line_error(&out, "ollm-session");
}

fn bad_ids_and_bad_records_get_one_line_and_lose_nothing(store: SessionStore) {
    let Some(sb) = Sandbox::on(store) else {
        return;
    };
    let id = sb.create_session();
    // What is not a whole id is looked up as an id prefix or a title among
    // the listed sessions, so it never names a path: not found (3).
    for bad in ["../../etc/passwd", "/tmp/x", "not-a-uuid"] {
        for sub in [&["get", bad][..], &["delete", bad], &["export", bad]] {
            let out = sb.cmd("ollm-session").args(sub).output().unwrap();
            assert_eq!(out.status.code(), Some(3), "{sub:?}");
            assert_one_line_error(&out, "ollm-session");
        }
    }
    let missing = "6ba7b810-9dad-41d1-80b4-00c04fd430c8";
    let out = sb
        .cmd("ollm-session")
        .args(["get", missing])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_one_line_error(&out, "ollm-session");

    let stream = format!(
        "{}\n{{\"role\": \"user\", \"parts\": [\n{}\n",
        text_message("user", "kept"),
        text_message("user", "never")
    );
    let out = sb
        .cmd("ollm-session")
        .args(["record", &id])
        .write_stdin(stream)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_one_line_error(&out, "ollm-session");
    assert!(stderr(&out).contains("line 2"), "{}", stderr(&out));
    for bad in [
        "[1, 2]",
        "{\"role\": \"robot\", \"parts\": []}",
        "{\"role\": \"user\", \"parts\": [], \"timestamp\": \"noon\"}",
        "",
        "\u{0}",
    ] {
        let out = sb
            .cmd("ollm-session")
            .args(["record", &id])
            .write_stdin(bad)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", stderr(&out));
        assert_one_line_error(&out, "ollm-session");
    }
    let session = get(&sb, &id);
    assert_eq!(session["messages"].as_array().unwrap().len(), 1);
    assert_eq!(session["messages"][0]["parts"][0]["text"], "kept");
}

fn max_sessions_comes_from_the_configuration(store: SessionStore) {
    let Some(sb) = Sandbox::on(store) else {
        return;
    };
    let first = sb.create_session();
    // The workspace's configuration sets the limit (a retention limit
    // deletes sessions, so only once the workspace is trusted).
    sb.write(
        ".ollm/config.yaml",
        "services:\n  session:\n    maxSessions: 2\n",
    );
    sb.cmd("ollm").arg("trust").assert().success();
    let second = sb.create_session();
    let third = sb.create_session();
    let list = json(&sb.cmd("ollm-session").arg("list").output().unwrap());
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["sessionId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [third.as_str(), second.as_str()]);
    let gone = sb
        .cmd("ollm-session")
        .args(["get", &first])
        .output()
        .unwrap();
    assert_eq!(gone.status.code(), Some(3), "{}", stderr(&gone));
    if sb.pg.is_none() {
        assert!(!sb.sessions_dir().join(&first).exists());
    }
}

fn parallel_creates_keep_exactly_max_sessions(store: SessionStore) {
    let Some(sb) = Sandbox::on(store) else {
        return;
    };
    let children: Vec<_> = (0..6)
        .map(|_| {
            sb.std_cmd("ollm-session")
                .args([
                    "create",
                    "--model",
                    "m",
                    "--provider",
                    "p",
                    "--max-sessions",
                    "5",
                ])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut more = Vec::new();
    for _ in 0..4 {
        more.push(
            sb.std_cmd("ollm-session")
                .args([
                    "create",
                    "--model",
                    "m",
                    "--provider",
                    "p",
                    "--max-sessions",
                    "5",
                ])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap(),
        );
    }
    for child in children.into_iter().chain(more) {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let list = json(&sb.cmd("ollm-session").arg("list").output().unwrap());
    assert_eq!(list.as_array().unwrap().len(), 5);
    if sb.pg.is_some() {
        return;
    }
    let dirs = std::fs::read_dir(sb.sessions_dir())
        .unwrap()
        .filter(|e| {
            !e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with('.')
        })
        .count();
    assert_eq!(dirs, 5, "leftover session directories");
}

#[test]
fn programs_that_resume_exec_runs_warn_of_nothing() {
    let sb = Sandbox::new();
    let id = sb.create_session();
    // Every program reads its configuration from OLLM_* variables; the one
    // resume sets for its command is not one of them, and says nothing.
    let command = "ollm-session get \"$OLLM_SESSION_ID\" >/dev/null && \
                   ollm-context list >/dev/null && ollm config >/dev/null && echo ran on";
    let out = sb
        .cmd("ollm-session")
        .args(["resume", &id, "--exec", command])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), format!("ran on {id}"));
    assert_eq!(stderr(&out), "", "no warning about OLLM_SESSION_ID");
}

#[test]
fn an_id_given_in_capitals_names_the_same_session() {
    let sb = Sandbox::new();
    let id = sb.create_session();
    let upper = id.to_ascii_uppercase();
    let out = sb
        .cmd("ollm-session")
        .args(["record", &upper])
        .write_stdin(text_message("user", "in capitals"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let got = json(
        &sb.cmd("ollm-session")
            .args(["get", &upper])
            .output()
            .unwrap(),
    );
    assert_eq!(got["sessionId"], id.as_str());
    assert_eq!(got["messages"][0]["parts"][0]["text"], "in capitals");
}

/// `record` by a prefix (or a title, or `--last`) looks the session up once;
/// one deleted after that, while its records stream in, fails the next
/// record as not found (3), and the record does not bring it back.
fn a_session_deleted_while_records_stream_in_is_not_found_and_stays_gone(store: SessionStore) {
    let Some(sb) = Sandbox::on(store) else {
        return;
    };
    let id = sb.create_session();
    let mut child = sb.spawn_session(&["record", &id[..8]]);
    let mut input = child.stdin.take().unwrap();
    let mut acks = BufReader::new(child.stdout.take().unwrap());
    writeln!(input, "{}", text_message("user", "kept")).unwrap();
    let mut ack = String::new();
    acks.read_line(&mut ack).unwrap();
    assert!(ack.contains(&id), "{ack:?}");
    sb.session_ok(&["delete", &id]);
    writeln!(input, "{}", text_message("user", "into nothing")).unwrap();
    drop(input);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut acks, &mut rest).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-session");
    assert!(stderr(&out).contains(&id), "{}", stderr(&out));
    assert_eq!(rest, "", "no acknowledgement after the delete");
    let out = sb.session(&["get", &id]);
    assert_eq!(out.status.code(), Some(3), "{}", stdout(&out));
    let listed = stdout(&sb.session_ok(&["list", "--format", "ndjson"]));
    assert!(!listed.contains(&id), "{listed}");
}

/// A whole id that names no session is not found (3) before the input is
/// read: the command does not wait on a stdin that never ends.
fn record_into_a_missing_id_fails_before_reading_its_input(store: SessionStore) {
    let Some(sb) = Sandbox::on(store) else {
        return;
    };
    sb.create_session();
    let missing = "6ba7b810-9dad-41d1-80b4-00c04fd430c8";
    let mut child = sb
        .std_cmd("ollm-session")
        .args(["record", missing])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Held open, never written: a record waiting for input would wait on.
    let input = child.stdin.take();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("record of a missing session waited for its input");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(input);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-session");
    assert!(stderr(&out).contains(missing), "{}", stderr(&out));
}
