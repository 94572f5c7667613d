//! What only the PostgreSQL store has: its schema's version, its
//! timeouts, how a server that cannot be used is reported, and listings
//! and name resolution answered in SQL, which must give exactly what
//! filtering a whole listing gives.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use ollm::session::model::Loaded;
use ollm::session::store::{ListQuery, Naming};
use ollm::session::{Entry, Session, SessionSummary, Store, StoreOptions};
use ollm::timestamp;
use serde_json::json;

use crate::pg::TestPg;
use crate::support::{Sandbox, assert_one_line_error, json, stderr};

fn pg_sandbox() -> Option<Sandbox> {
    let mut sb = Sandbox::new();
    sb.pg = Some(TestPg::new()?);
    Some(sb)
}

#[test]
fn a_newer_schema_is_refused_in_one_line_and_left_alone() {
    let Some(sb) = pg_sandbox() else { return };
    let id = sb.create_session();
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
    let id = sb.create_session();
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
    let id = sb.create_session();
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
    let id = sb.create_session();
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

const BASE: i64 = 1_700_000_000_000;
const MINUTE: i64 = 60_000;

/// The id of test session `i`: four share `abcdef0`, two more `abcd`, one
/// is written in capitals (`ABCDEF99`, which no lowercase prefix names),
/// the rest spread.
fn test_id(i: usize) -> String {
    let first = match i {
        0..4 => format!("abcdef0{i}"),
        4..6 => format!("abcd{i:04x}"),
        6 => "ABCDEF99".to_string(),
        _ => format!("{:08x}", (i as u32).wrapping_mul(0x9e37_79b1)),
    };
    format!("{first}-{i:04x}-4{i:03x}-8000-{i:012x}")
}

/// Test session `i`: three models, workspaces `/w/a`, `/w/b` or none,
/// titles shared (`alpha`, `beta`), unique, absent or like an id prefix
/// (`abcd`), `lastActivity` tied in threes (and `startTime` in twos, so
/// that the id decides), some written with an offset or without
/// milliseconds, one before 1970, one at the epoch, one that does not
/// parse; eight are branches.
fn test_session(i: usize) -> Session {
    let last = match i {
        7 => "not a time".to_string(),
        15 => String::new(),
        8 => "1970-01-01T00:00:00.000Z".to_string(),
        9 => "1969-12-31T23:59:59.000Z".to_string(),
        // The same instant as session 11's, written with an offset.
        10 => {
            let utc = timestamp::format_millis(BASE + 3 * MINUTE + 2 * 3_600_000);
            format!("{}+02:00", &utc[..23])
        }
        13 => format!("{}Z", &timestamp::format_millis(BASE + 4 * MINUTE)[..19]),
        _ => timestamp::format_millis(BASE + (i as i64 / 3) * MINUTE),
    };
    let start = match i {
        12 => "yesterday".to_string(),
        _ => timestamp::format_millis(BASE - (i as i64 % 2) * 1000 - MINUTE),
    };
    let title = match i % 5 {
        0 => Some("alpha".to_string()),
        1 => Some(format!("t{i}")),
        2 => None,
        3 => Some("abcd".to_string()),
        _ => Some("beta".to_string()),
    };
    let workspace = [Some("/w/a"), Some("/w/b"), None, Some("/w/a")][i % 4];
    let parent = match i {
        20..24 => Some(test_id(0)),
        24..28 => Some(test_id(1)),
        _ => None,
    };
    let model = ["llama", "qwen", "gpt"][i % 3];
    serde_json::from_value(json!({
        "sessionId": test_id(i),
        "startTime": start,
        "lastActivity": last,
        "model": model,
        "provider": "p",
        "title": title,
        "workspace": workspace,
        "parentSessionId": parent,
        "messages": [],
        "toolCalls": [],
        "metadata": {"tokenCount": 0, "compressionCount": 0},
    }))
    .unwrap()
}

/// 36 sessions of every kind above, copied into `pg`'s store, three of
/// them then recorded into (one moved to the top, one whose unreadable
/// time becomes readable, one stamped by a clock past the year 9999,
/// which writes a time that does not parse).
fn test_store(pg: &TestPg) -> Store {
    let clock = Arc::new(AtomicI64::new(BASE));
    let options = StoreOptions {
        max_sessions: 0,
        redaction: None,
        clock: {
            let clock = clock.clone();
            Arc::new(move || clock.load(Ordering::SeqCst))
        },
        ..StoreOptions::default()
    };
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&pg.url, dir.path(), options).unwrap();
    for i in 0..36 {
        assert!(
            store
                .import(&Loaded::from_session(test_session(i)))
                .unwrap()
        );
    }
    let message: Entry = Entry::Message(
        serde_json::from_value(json!({
            "role": "user",
            "parts": [{"type": "text", "text": "later"}],
            "timestamp": timestamp::format_millis(BASE),
        }))
        .unwrap(),
    );
    for (i, at) in [
        (3, BASE + 100 * MINUTE),
        (7, BASE + 5 * MINUTE),
        (14, timestamp::max_millis() + 1000),
    ] {
        clock.store(at, Ordering::SeqCst);
        store.record(&test_id(i), &message, None).unwrap();
    }
    store
}

fn ids(sessions: &[SessionSummary]) -> Vec<&str> {
    sessions.iter().map(|s| s.session_id.as_str()).collect()
}

/// Gives the sessions' text columns a collation other than the
/// database's, one where `ABCDEF99…` falls between `abcd` and `abce` and
/// ids do not sort byte by byte; `false` when the server has none (no ICU).
fn other_collation(pg: &TestPg) -> bool {
    let mut db = pg.client();
    let icu = db
        .query_opt(
            "SELECT 1 FROM pg_collation WHERE collname = 'en-US-x-icu'",
            &[],
        )
        .unwrap();
    if icu.is_none() {
        eprintln!("SKIPPED (in part): no ICU collation on this server");
        return false;
    }
    db.batch_execute(
        "ALTER TABLE ollm_sessions \
             ALTER COLUMN id TYPE text COLLATE \"en-US-x-icu\", \
             ALTER COLUMN title TYPE text COLLATE \"en-US-x-icu\", \
             ALTER COLUMN workspace TYPE text COLLATE \"en-US-x-icu\", \
             ALTER COLUMN model TYPE text COLLATE \"en-US-x-icu\"",
    )
    .unwrap();
    true
}

/// Every page `list_where` answers in SQL is the one the trait's default
/// cuts from a whole listing: the same sessions, in the same order, for
/// every filter, offset and limit, whatever times do not parse, under the
/// database's collation and another.
#[test]
fn every_page_of_a_listing_is_the_whole_listing_filtered_and_cut() {
    let Some(pg) = TestPg::new() else { return };
    let store = test_store(&pg);
    check_pages(&store);
    if other_collation(&pg) {
        check_pages(&store);
    }
}

fn check_pages(store: &Store) {
    let whole = store.list().unwrap();
    assert_eq!(whole.sessions.len(), 36);
    let unreadable: Vec<&str> = whole
        .sessions
        .iter()
        .filter(|s| timestamp::parse(&s.last_activity).is_none())
        .map(|s| s.session_id.as_str())
        .collect();
    assert_eq!(
        unreadable,
        [test_id(14), test_id(15)],
        "an empty time and one a clock past 9999 wrote"
    );
    let max = timestamp::max_millis();
    let mut pages = 0;
    for model in [None, Some("llama"), Some("gpt"), Some("none")] {
        for workspace in [None, Some("/w/a"), Some("/w/b"), Some("/nowhere")] {
            for since in [
                None,
                Some(i64::MIN),
                Some(-1000),
                Some(0),
                Some(1),
                Some(BASE + 3 * MINUTE),
                Some(BASE + 11 * MINUTE + 1),
                Some(max),
                Some(max + 1),
                Some(i64::MAX),
            ] {
                for offset in [0, 1, 3, 40] {
                    for limit in [None, Some(0), Some(1), Some(3)] {
                        let query = ListQuery {
                            model: model.map(str::to_string),
                            since,
                            workspace: workspace.map(str::to_string),
                            offset,
                            limit,
                        };
                        let expected = query.page(whole.clone()).sessions;
                        let got = store.list_where(&query).unwrap().sessions;
                        assert_eq!(ids(&got), ids(&expected), "{query:?}");
                        assert_eq!(got, expected, "{query:?}");
                        pages += usize::from(expected.len() > 1);
                    }
                }
            }
        }
    }
    assert!(pages > 200, "only {pages} pages of two or more sessions");
}

/// The sessions `named` finds for a title or an id prefix are those the
/// trait's default keeps, in the same order, and a session's branches too,
/// under the database's collation and another.
#[test]
fn a_title_or_prefix_finds_what_filtering_the_listing_finds() {
    let Some(pg) = TestPg::new() else { return };
    let store = test_store(&pg);
    check_names(&store);
    if other_collation(&pg) {
        check_names(&store);
    }
}

fn check_names(store: &Store) {
    let whole = store.list().unwrap().sessions;
    let full = test_id(9);
    let mut found = 0;
    for title in ["alpha", "abcd", "t1", "beta", "nope", "ABCDEF99"] {
        for prefix in [
            None,
            Some("abcd"),
            Some("abcdef0"),
            Some("abcdef01"),
            Some(full.as_str()),
            Some(""),
            Some("zzzz"),
        ] {
            for workspace in [None, Some("/w/a"), Some("/nowhere")] {
                let naming = Naming {
                    title,
                    prefix,
                    workspace,
                };
                let mut expected = whole.clone();
                expected.retain(|s| naming.keeps(s));
                let got = store.named(&naming).unwrap();
                assert_eq!(ids(&got), ids(&expected), "{naming:?}");
                assert_eq!(got, expected, "{naming:?}");
                found += usize::from(expected.len() > 1);
            }
        }
    }
    assert!(found > 50, "only {found} names of two or more sessions");
    for id in whole
        .iter()
        .map(|s| s.session_id.clone())
        .chain([test_id(99)])
    {
        let mut expected = whole.clone();
        expected.retain(|s| s.parent_session_id.as_deref() == Some(id.as_str()));
        assert_eq!(store.branches(&id).unwrap(), expected, "{id}");
    }
    assert_eq!(store.branches(&test_id(0)).unwrap().len(), 4);
}

/// `--here`, `--last`, a prefix and a title, through the program, against
/// PostgreSQL.
#[test]
fn the_latest_a_prefix_and_a_title_name_their_session_on_postgres() {
    let Some(sb) = pg_sandbox() else { return };
    let elsewhere = tempfile::tempdir().unwrap();
    let make = |title: &str, dir: &std::path::Path| -> String {
        let out = sb
            .cmd("ollm-session")
            .args([
                "create",
                "--model",
                "m",
                "--provider",
                "p",
                "--title",
                title,
            ])
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        json(&out)["sessionId"].as_str().unwrap().to_string()
    };
    let here_old = make("first here", &sb.work);
    let here_mid = make("twice", &sb.work);
    let other = make("twice", elsewhere.path());
    let here_new = make("latest here", &sb.work);
    let last = make("over there", elsewhere.path());
    // Recorded into, so that its activity is the newest whatever the clock.
    let out = sb
        .cmd("ollm-session")
        .args(["record", &here_old, "--role", "user", "--text", "again"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let listed = |args: &[&str]| -> Vec<String> {
        let out = sb.cmd("ollm-session").args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        crate::support::ids_of_listing(&out)
    };
    let everything = listed(&["list"]);
    assert_eq!(everything[0], here_old);
    let here: Vec<String> = listed(&["list", "--here"]);
    assert_eq!(here.len(), 3);
    assert_eq!(here[0], here_old);
    assert_eq!(listed(&["list", "--limit", "2", "--here"]), here[..2]);
    assert_eq!(listed(&["list", "--limit", "2"]), everything[..2]);
    assert_eq!(
        listed(&["list", "--offset", "1", "--limit", "2"]),
        everything[1..3]
    );
    let named = |args: &[&str]| -> std::process::Output {
        sb.cmd("ollm-session").args(args).output().unwrap()
    };
    let id_of = |args: &[&str]| -> String {
        let out = named(args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        json(&out)["sessionId"].as_str().unwrap().to_string()
    };
    assert_eq!(id_of(&["get", "--last"]), here_old);
    assert_eq!(id_of(&["get", "--here"]), here_old);
    assert_eq!(id_of(&["get", &last[..8]]), last);
    assert_eq!(id_of(&["get", &last[..8].to_uppercase()]), last);
    assert_eq!(id_of(&["get", "latest here"]), here_new);
    assert_eq!(id_of(&["get", "over there"]), last);
    assert_eq!(id_of(&["get", "twice", "--here"]), here_mid);
    // Two sessions titled alike: both named, neither chosen.
    let out = named(&["get", "twice"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-session");
    assert!(
        stderr(&out).contains(&here_mid) && stderr(&out).contains(&other),
        "{}",
        stderr(&out)
    );
    let out = named(&["get", "no such title"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
}

/// Search finds titles in the sessions table, not in a listing of every
/// session: the title hits are exactly the sessions whose title the
/// pattern matches, for substrings, either case and regexes (with and
/// without a literal), and none when another role is asked for.
#[test]
fn search_finds_exactly_the_titles_that_match() {
    use ollm::session::query::Query;
    let Some(pg) = TestPg::new() else { return };
    let store = test_store(&pg);
    let whole = store.list().unwrap().sessions;
    let mut titled = 0;
    for (pattern, regex, ignore_case) in [
        ("alpha", false, false),
        ("ALPHA", false, true),
        ("ALPHA", false, false),
        ("t1", false, false),
        ("a", false, false),
        ("B", false, true),
        (r"^t\d$", true, false),
        ("b.t", true, false),
        ("(?i)ABC", true, false),
        (".*", true, false),
        ("later", false, false),
    ] {
        for role in [None, Some("title"), Some("user")] {
            let query = Query {
                pattern: pattern.to_string(),
                regex,
                ignore_case,
                role: role.map(str::to_string),
            };
            let source = if regex {
                pattern.to_string()
            } else {
                regex::escape(pattern)
            };
            let re = regex::RegexBuilder::new(&source)
                .case_insensitive(ignore_case)
                .build()
                .unwrap();
            let titles_asked = role.is_none_or(|r| r == "title");
            let mut expected: Vec<(String, String)> = whole
                .iter()
                .filter(|_| titles_asked)
                .filter(|s| s.title.as_deref().is_some_and(|t| re.is_match(t)))
                .map(|s| (s.session_id.clone(), s.last_activity.clone()))
                .collect();
            let found = store.search(&query).unwrap();
            let mut got: Vec<(String, String)> = found
                .hits
                .iter()
                .filter(|h| h.role == "title")
                .map(|h| (h.session_id.to_string(), h.timestamp.to_string()))
                .collect();
            expected.sort();
            got.sort();
            assert_eq!(got, expected, "{query:?}");
            titled += expected.len();
            let records = found.hits.iter().filter(|h| h.role != "title").count();
            // Three sessions hold one user message, "later".
            let recorded = if re.is_match("later") && role != Some("title") {
                3
            } else {
                0
            };
            assert_eq!(records, recorded, "{query:?}");
        }
    }
    assert!(titled > 100, "only {titled} title hits");
}
