//! What only the PostgreSQL store has: its schema's version, its
//! timeouts, and how a server that cannot be used is reported.

use crate::pg::TestPg;
use crate::support::{Sandbox, assert_one_line_error, json, stderr};

fn pg_sandbox() -> Option<Sandbox> {
    let mut sb = Sandbox::new();
    sb.pg = Some(TestPg::new()?);
    Some(sb)
}

fn create(sb: &Sandbox) -> String {
    let out = sb
        .cmd("ollm-session")
        .args(["create", "--model", "m", "--provider", "p"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    json(&out)["sessionId"].as_str().unwrap().to_string()
}

#[test]
fn a_newer_schema_is_refused_in_one_line_and_left_alone() {
    let Some(sb) = pg_sandbox() else { return };
    let id = create(&sb);
    let mut db = sb.pg.as_ref().unwrap().client();
    db.batch_execute("UPDATE ollm_schema SET version = version + 1")
        .unwrap();
    for args in [
        &["list"][..],
        &["record", &id, "--role", "user", "--text", "x"],
    ] {
        let out = sb.cmd("ollm-session").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(4), "{args:?}");
        assert_one_line_error(&out, "ollm-session");
        assert!(stderr(&out).contains("newer ollm"), "{}", stderr(&out));
    }
    let records: i64 = db
        .query_one("SELECT count(*) FROM ollm_records", &[])
        .unwrap()
        .get(0);
    assert_eq!(records, 0, "an older program wrote into a newer schema");
}

#[test]
fn a_writer_kept_waiting_past_statement_timeout_gives_up_in_one_line() {
    let Some(sb) = pg_sandbox() else { return };
    let id = create(&sb);
    let url = format!("{}&statement_timeout=300", sb.pg.as_ref().unwrap().url);
    // Another writer holds the session's row.
    let mut db = sb.pg.as_ref().unwrap().client();
    let mut tx = db.transaction().unwrap();
    tx.execute(
        "SELECT 1 FROM ollm_sessions WHERE id = $1 FOR UPDATE",
        &[&id],
    )
    .unwrap();
    let out = sb
        .cmd("ollm-session")
        .args([
            "--store", &url, "record", &id, "--role", "user", "--text", "x",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4));
    assert_one_line_error(&out, "ollm-session");
    assert!(
        stderr(&out).contains("statement_timeout"),
        "{}",
        stderr(&out)
    );
    tx.rollback().unwrap();
    // Nothing half-written: the record was never acknowledged, and is not there.
    let session = json(&sb.cmd("ollm-session").args(["get", &id]).output().unwrap());
    assert_eq!(session["messages"].as_array().unwrap().len(), 0);
}

#[test]
fn an_unreachable_server_is_one_line_with_the_password_hidden() {
    let sb = Sandbox::new();
    for url in [
        "postgres://ollm:hunter2-secret@127.0.0.1:1/ollm?connect_timeout=2",
        "postgresql:///ollm?host=/nonexistent-socket-dir&password=hunter2-secret",
    ] {
        let out = sb
            .cmd("ollm-session")
            .args(["--store", url, "list"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(4), "{url}: {}", stderr(&out));
        assert_one_line_error(&out, "ollm-session");
        assert!(!stderr(&out).contains("hunter2"), "{}", stderr(&out));
        for args in [&["config"][..], &["config", "--show-origin"]] {
            let out = sb
                .cmd("ollm-session")
                .args(["--store", url])
                .args(args)
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", stderr(&out));
            let shown = String::from_utf8_lossy(&out.stdout);
            assert!(
                shown.contains("services") && !shown.contains("hunter2"),
                "{shown}"
            );
        }
    }
    // Not a store at all: a usage error (a bad flag value) naming the key.
    let out = sb
        .cmd("ollm-session")
        .args(["--store", "mysql://x", "list"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("services.session.store"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_read_only_server_is_one_line_and_reads_still_work() {
    let Some(sb) = pg_sandbox() else { return };
    let id = create(&sb);
    // What a replica answers: every transaction read-only.
    let replica = format!(
        "{}%20-cdefault_transaction_read_only%3Don",
        sb.pg.as_ref().unwrap().url
    );
    let out = sb
        .cmd("ollm-session")
        .args([
            "--store", &replica, "record", &id, "--role", "user", "--text", "x",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-session");
    assert!(stderr(&out).contains("read-only"), "{}", stderr(&out));
    let out = sb
        .cmd("ollm-session")
        .args(["--store", &replica, "get", &id])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_record_that_cannot_be_read_is_reported_never_dropped_silently() {
    let Some(sb) = pg_sandbox() else { return };
    let id = create(&sb);
    for text in ["kept zebra", "broken zebra"] {
        let out = sb
            .cmd("ollm-session")
            .args(["record", &id, "--role", "user", "--text", text])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
    // Damage written by something other than ollm.
    sb.pg
        .as_ref()
        .unwrap()
        .client()
        .execute(
            "UPDATE ollm_records SET body = '{not json' WHERE search_text = 'broken zebra'",
            &[],
        )
        .unwrap();
    let out = sb.cmd("ollm-session").args(["get", &id]).output().unwrap();
    assert_eq!(out.status.code(), Some(6), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-session");
    let out = sb
        .cmd("ollm-session")
        .args(["search", "zebra"])
        .output()
        .unwrap();
    assert_eq!(json(&out).as_array().unwrap().len(), 1, "the good record");
    assert!(stderr(&out).contains(&id), "{}", stderr(&out));
    let out = sb.cmd("ollm-session").arg("list").output().unwrap();
    assert_eq!(json(&out)[0]["messageCount"], 2);
}
