//! `ollm-session copy` between stores: the journal store, a directory
//! (of journals or the spec's plain `<id>.json` files) and PostgreSQL.

use std::path::Path;

use serde_json::Value;

use crate::on_each_store;
use crate::support::{Sandbox, SessionStore, json, stderr};

on_each_store!(copy_moves_sessions_with_branches_and_snapshots_idempotently);

const SPEC_ID: &str = "550e8400-e29b-41d4-a716-446655440000";

/// Runs `ollm-session` on `store` (`file`, a directory or a URL).
fn on(sb: &Sandbox, store: &str, args: &[&str]) -> Value {
    let mut cmd = sb.cmd("ollm-session");
    if store.contains("://") || store == "file" {
        cmd.args(["--store", store]);
    } else {
        cmd.args(["--store", "file", "--data-dir", store]);
    }
    let out = cmd.args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    json(&out)
}

fn sorted(value: &Value) -> Vec<String> {
    let mut ids: Vec<String> = value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    ids.sort();
    ids
}

fn copy_moves_sessions_with_branches_and_snapshots_idempotently(store: SessionStore) {
    let Some(sb) = Sandbox::on(store) else {
        return;
    };
    // The target: the sandbox's database, or a directory.
    let target = match &sb.pg {
        Some(pg) => pg.url.clone(),
        None => {
            std::fs::create_dir_all(sb.work.join("target")).unwrap();
            "target".to_string()
        }
    };
    let a = on(
        &sb,
        "file",
        &[
            "create",
            "--model",
            "m",
            "--provider",
            "p",
            "--title",
            "first",
        ],
    )["sessionId"]
        .as_str()
        .unwrap()
        .to_string();
    for (role, text) in [("user", "one"), ("assistant", "two"), ("user", "three")] {
        on(&sb, "file", &["record", &a, "--role", role, "--text", text]);
    }
    on(
        &sb,
        "file",
        &[
            "record",
            &a,
            "--tool",
            "read_file",
            "--args",
            "{\"path\":\"x\"}",
            "--result",
            "ok",
        ],
    );
    let b = on(&sb, "file", &["branch", &a, "--at", "2"])["sessionId"]
        .as_str()
        .unwrap()
        .to_string();
    on(&sb, "file", &["snapshot", "create", &a]);
    let mut both = vec![a.clone(), b.clone()];
    both.sort();

    let first = on(
        &sb,
        "file",
        &["copy", "--from", "file", "--to", &target, "--all"],
    );
    assert_eq!(sorted(&first["copied"]), both, "{first}");
    assert_eq!(sorted(&first["present"]), Vec::<String>::new());
    let again = on(
        &sb,
        "file",
        &["copy", "--from", "file", "--to", &target, "--all"],
    );
    assert_eq!(
        sorted(&again["copied"]),
        Vec::<String>::new(),
        "not idempotent: {again}"
    );
    assert_eq!(sorted(&again["present"]), both);

    for id in [&a, &b] {
        assert_eq!(
            on(&sb, &target, &["get", id]),
            on(&sb, "file", &["get", id])
        );
    }
    let list = on(&sb, &target, &["list"]);
    assert_eq!(list, on(&sb, "file", &["list"]), "the summaries differ");
    let branches = on(&sb, &target, &["branches", &a]);
    assert_eq!(branches[0]["sessionId"], b.as_str());
    assert_eq!(branches[0]["branchPoint"], 2);
    let snapshots = on(&sb, &target, &["snapshot", "list", &a]);
    assert_eq!(snapshots.as_array().unwrap().len(), 1);
    // Recording goes on in the copy.
    on(
        &sb,
        &target,
        &["record", &a, "--role", "assistant", "--text", "four"],
    );
    assert_eq!(
        on(&sb, &target, &["get", &a])["messages"]
            .as_array()
            .unwrap()
            .len(),
        4
    );

    // The spec's plain files import the same way.
    let plain = sb.work.join("plain");
    std::fs::create_dir_all(&plain).unwrap();
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spec-example-session.json");
    let original = std::fs::read_to_string(fixture).unwrap();
    std::fs::write(plain.join(format!("{SPEC_ID}.json")), &original).unwrap();
    let report = on(
        &sb,
        "file",
        &["copy", "--from", "plain", "--to", &target, SPEC_ID],
    );
    assert_eq!(sorted(&report["copied"]), [SPEC_ID]);
    let expected: Value = serde_json::from_str(&original).unwrap();
    assert_eq!(on(&sb, &target, &["get", SPEC_ID]), expected);

    // A session that is not there: reported, exit 3, nothing else changed.
    let missing = "00000000-0000-4000-8000-000000000000";
    let out = sb
        .cmd("ollm-session")
        .args([
            "--store", "file", "copy", "--from", "file", "--to", &target, missing,
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_eq!(json(&out)["failed"][0]["sessionId"], missing);
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
}

/// Records in the sessions `many_journals` writes: 1 to 4 each.
fn records_of(i: usize) -> usize {
    1 + i % 4
}

/// `count` sessions written as journals into `dir`, as the file store
/// writes them: session `i` holds `records_of(i)` messages "s{i} m{j}".
fn many_journals(dir: &Path, count: usize) {
    for i in 0..count {
        let id = format!("00000000-0000-4000-8000-{i:012}");
        let at = format!("2026-01-01T00:{:02}:{:02}.000Z", i / 60 % 60, i % 60);
        let mut journal = serde_json::json!({"type": "session", "format": 1, "session": {
            "sessionId": id, "startTime": at, "lastActivity": at, "model": "m",
            "provider": "p", "metadata": {"tokenCount": 0, "compressionCount": 0}}})
        .to_string();
        for j in 0..records_of(i) {
            let role = if j % 2 == 0 { "user" } else { "assistant" };
            let line = serde_json::json!({"type": "message", "at": at, "tokens": 3,
                "message": {"role": role, "parts": [{"type": "text", "text": format!("s{i} m{j}")}],
                            "timestamp": at}});
            journal.push('\n');
            journal.push_str(&line.to_string());
        }
        journal.push('\n');
        let session = dir.join(&id);
        std::fs::create_dir_all(&session).unwrap();
        std::fs::write(session.join("journal.ndjson"), journal).unwrap();
    }
}

/// For each session in the database: (its id, its records' texts in seq
/// order, whether its seq numbers are 1..=n, its message count).
fn stored(client: &mut postgres::Client) -> Vec<(String, Vec<String>, bool, i64)> {
    client
        .query(
            "SELECT s.id, coalesce(array_agg(r.body::json->'parts'->0->>'text' ORDER BY r.seq) \
                    FILTER (WHERE r.seq IS NOT NULL), '{}'), \
                    coalesce(bool_and(r.seq = r.n), true), s.message_count \
             FROM ollm_sessions s LEFT JOIN \
                  (SELECT *, row_number() OVER (PARTITION BY session_id ORDER BY seq) AS n \
                   FROM ollm_records) r ON r.session_id = s.id \
             GROUP BY s.id ORDER BY s.id",
            &[],
        )
        .unwrap()
        .iter()
        .map(|row| (row.get(0), row.get(1), row.get(2), row.get(3)))
        .collect()
}

/// Checks that every session in the database holds all its records, once,
/// in order.
fn assert_whole(sessions: &[(String, Vec<String>, bool, i64)]) {
    for (id, texts, numbered, count) in sessions {
        let i: usize = id[24..].parse().unwrap();
        let expected: Vec<String> = (0..records_of(i)).map(|j| format!("s{i} m{j}")).collect();
        assert_eq!(texts, &expected, "session {id}");
        assert!(numbered, "session {id}: its seq numbers have a gap");
        assert_eq!(*count, expected.len() as i64, "session {id}");
    }
}

/// More sessions than one transaction of a copy holds: a copy killed half
/// way has stored whole sessions, and the next one stores the rest, each
/// once, its records in order.
#[test]
fn a_killed_copy_of_many_sessions_resumes_and_keeps_every_record_once_in_order() {
    let Some(sb) = Sandbox::on(SessionStore::Postgres) else {
        return;
    };
    let pg = sb.pg.as_ref().unwrap();
    const COUNT: usize = 1_700;
    let source = sb.work.join("many");
    many_journals(&source, COUNT);
    let copy = |sb: &Sandbox| {
        let mut cmd = sb.std_cmd("ollm-session");
        cmd.args(["--store", "file", "--data-dir"])
            .arg(&source)
            .args(["copy", "--from"])
            .arg(&source)
            .args(["--to", &pg.url, "--all"]);
        cmd
    };
    let mut client = pg.client();
    // The schema, before the copy counts rows in it.
    on(&sb, &pg.url, &["list", "--limit", "1"]);
    let mut child = copy(&sb)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let count = |client: &mut postgres::Client| -> i64 {
        client
            .query_one("SELECT count(*) FROM ollm_sessions", &[])
            .unwrap()
            .get(0)
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while count(&mut client) == 0 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = stored(&mut client);
    assert!(
        !before.is_empty() && before.len() < COUNT,
        "the copy was not killed half way: {} sessions",
        before.len()
    );
    assert_whole(&before);

    let out = copy(&sb).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json(&out);
    let after = stored(&mut client);
    assert_eq!(after.len(), COUNT);
    assert_whole(&after);
    let present: Vec<String> = before.into_iter().map(|s| s.0).collect();
    assert_eq!(sorted(&report["present"]), present, "{report}");
    assert_eq!(
        report["copied"].as_array().unwrap().len(),
        COUNT - present.len()
    );
}
