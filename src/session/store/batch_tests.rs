//! `record_many` and `record_keys`, the same on every store: the file
//! store's journal and plain format, and PostgreSQL (skipped, with a
//! SKIPPED line, when no server answers; failing under `CI=true`).

use std::sync::Arc;

use serde_json::json;

use super::{NewFormat, NewSession, Store, StoreOptions};
use crate::error::Error;
use crate::session::model::{Entry, Message};
use crate::timestamp;

use super::test_pg as pg;

const SECRET: &str = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
const START: i64 = 1_700_000_000_000;

fn options(format: NewFormat) -> StoreOptions {
    StoreOptions {
        max_sessions: 0,
        format,
        clock: Arc::new(|| START),
        ..StoreOptions::default()
    }
}

fn keyed(role: &str, text: &str, key: &str, at: &str) -> Entry {
    Entry::from_input(
        json!({"role": role, "parts": [{"type": "text", "text": text}], "timestamp": at, "sourceKey": key}),
        at,
    )
    .unwrap()
}

fn keyed_call(key: &str, at: &str) -> Entry {
    Entry::from_input(
        json!({"id": key, "name": "Bash", "args": {"command": "ls"}, "result": {"llmContent": SECRET},
               "timestamp": at, "sourceKey": key}),
        at,
    )
    .unwrap()
}

/// Appends three records in one call to a session holding one, and checks
/// what every store must give back.
fn batch_append_holds(store: &Store) {
    let id = store
        .create_from(
            &NewSession {
                model: "m".into(),
                provider: "p".into(),
                ..NewSession::default()
            },
            None,
            &[keyed("user", "first", "k1", "2026-01-01T00:00:00.000Z")],
        )
        .unwrap()
        .session_id;
    let batch = [
        keyed(
            "assistant",
            &format!("the token is {SECRET}"),
            "k2",
            "2026-01-01T00:00:01.000Z",
        ),
        keyed_call("k3", "2026-01-01T00:00:02.000Z"),
        keyed("user", "last", "k4", "2026-01-01T00:00:03.000Z"),
    ];
    let later = START + 86_400_000;
    let (redacted, summary) = store.record_many(&id, &batch, Some(later)).unwrap();
    assert_eq!(redacted, 2, "both credentials are replaced");
    assert_eq!((summary.message_count, summary.tool_call_count), (3, 1));
    assert_eq!(summary.last_activity, timestamp::format_millis(later));
    assert_eq!(store.summary(&id).unwrap().message_count, 3);

    let loaded = store.load(&id).unwrap();
    let texts: Vec<String> = loaded
        .session
        .messages
        .iter()
        .map(Message::text_content)
        .collect();
    assert_eq!(texts[0], "first");
    assert!(!texts[1].contains(SECRET), "{}", texts[1]);
    assert_eq!(texts[2], "last");
    let call = serde_json::to_string(&loaded.session.tool_calls[0]).unwrap();
    assert!(!call.contains(SECRET), "{call}");
    let tokens: u64 = batch.iter().map(Entry::estimated_tokens).sum::<u64>()
        + keyed("user", "first", "k1", "2026-01-01T00:00:00.000Z").estimated_tokens();
    assert_eq!(summary.token_count, tokens);

    // A lastActivity never goes back: an earlier `not_before` keeps it.
    let (_, again) = store
        .record_many(
            &id,
            &[keyed("user", "more", "k5", "2026-01-01T00:00:04.000Z")],
            Some(START),
        )
        .unwrap();
    assert_eq!(again.last_activity, timestamp::format_millis(later));
    assert_eq!(again.message_count, 4);
    // Nothing to append changes nothing.
    let (_, same) = store.record_many(&id, &[], None).unwrap();
    assert_eq!(same.message_count, 4);

    let keys = store.record_keys(&id, "sourceKey").unwrap();
    let mut found: Vec<&str> = keys.keys.iter().map(String::as_str).collect();
    found.sort_unstable();
    assert_eq!(found, ["k1", "k2", "k3", "k4", "k5"]);
    assert_eq!(keys.latest, timestamp::parse("2026-01-01T00:00:04.000Z"));

    let missing = "00000000-0000-4000-8000-000000000000";
    assert!(matches!(
        store.record_many(missing, &batch, None),
        Err(Error::NotFound(_))
    ));
    assert!(matches!(
        store.record_keys(missing, "sourceKey"),
        Err(Error::NotFound(_))
    ));
}

#[test]
fn many_records_are_appended_at_once_to_a_journal() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::new(dir.path(), options(NewFormat::Journal));
    batch_append_holds(&store);
}

#[test]
fn many_records_are_appended_at_once_to_a_plain_file() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::new(dir.path(), options(NewFormat::Cli));
    batch_append_holds(&store);
}

#[test]
fn many_records_are_appended_in_one_postgresql_transaction() {
    let Some(db) = pg::TestPg::new() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&db.url, dir.path(), options(NewFormat::Journal)).unwrap();
    batch_append_holds(&store);
}

#[test]
fn a_torn_journal_tail_is_not_a_key_and_a_bad_line_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::new(dir.path(), options(NewFormat::Journal));
    let id = store
        .create_from(
            &NewSession::default(),
            None,
            &[keyed("user", "first", "k1", "2026-01-01T00:00:00.000Z")],
        )
        .unwrap()
        .session_id;
    let journal = store
        .as_file()
        .unwrap()
        .session_dir(&id)
        .join(super::JOURNAL);
    let mut bytes = std::fs::read(&journal).unwrap();
    bytes.extend_from_slice(br#"{"type":"message","at":"x","message":{"sourceKey":"torn"#);
    std::fs::write(&journal, &bytes).unwrap();
    let keys = store.record_keys(&id, "sourceKey").unwrap();
    assert_eq!(keys.keys.len(), 1);
    assert!(keys.keys.contains("k1"));
    bytes.extend_from_slice(b"\n{\"type\":\"message\"}\n");
    std::fs::write(&journal, &bytes).unwrap();
    assert!(store.record_keys(&id, "sourceKey").is_err());
}
