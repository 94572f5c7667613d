//! The memory store, opened through the table of kinds by its name, runs
//! the session operations every store offers through [`Store`].

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use serde_json::json;

use crate::session::Snapshots;
use crate::session::model::{Entry, Message};
use crate::session::query::Query;
use crate::session::store::{NewSession, Store, StoreOptions};

/// A store whose clock moves a second at each reading, so that each
/// write is later than the one before.
fn store() -> Store {
    assert!(Store::names_a_store(super::KIND.name));
    let now = Arc::new(AtomicI64::new(1_700_000_000_000));
    let options = StoreOptions {
        clock: Arc::new(move || now.fetch_add(1000, Ordering::SeqCst)),
        ..StoreOptions::default()
    };
    Store::open(super::KIND.name, "unused", options).unwrap()
}

fn record(store: &Store, id: &str, record: serde_json::Value) {
    let entry = Entry::from_input(record, "2026-01-01T00:00:00.000Z").unwrap();
    store.record(id, &entry, None).unwrap();
}

fn new(title: &str) -> NewSession {
    NewSession {
        model: "m".into(),
        provider: "p".into(),
        title: Some(title.into()),
        workspace: None,
    }
}

#[test]
fn sessions_are_created_recorded_listed_read_searched_branched_and_deleted() {
    let store = store();
    assert_eq!(store.location(), super::KIND.name);
    let id = store.create(&new("plans")).unwrap().session_id;
    let other = store.create(&new("other")).unwrap().session_id;
    record(
        &store,
        &id,
        json!({"role": "user", "parts": [{"text": "where is the lighthouse"}]}),
    );
    record(
        &store,
        &id,
        json!({"id": "c1", "name": "look", "args": {}, "result": {"llmContent": "north"}}),
    );
    record(
        &store,
        &id,
        json!({"role": "assistant", "parts": [{"text": "to the north"}]}),
    );

    let session = store.get(&id).unwrap();
    let texts: Vec<String> = session.messages.iter().map(Message::text_content).collect();
    assert_eq!(texts, ["where is the lighthouse", "to the north"]);
    assert_eq!(session.tool_calls.len(), 1);
    assert_eq!(store.load(&id).unwrap().order.len(), 3);

    // The session recorded last is the newest.
    let listed: Vec<String> = store
        .list()
        .unwrap()
        .sessions
        .into_iter()
        .map(|s| s.session_id)
        .collect();
    assert_eq!(listed, [id.clone(), other.clone()]);
    assert_eq!(store.last().unwrap(), id);

    let query = Query {
        pattern: "lighthouse".into(),
        ..Query::default()
    };
    let hits = store.search(&query).unwrap().hits;
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!(
        (hits[0].session_id.as_ref(), hits[0].message_index),
        (id.as_str(), Some(0))
    );
    let titled = Query {
        pattern: "other".into(),
        ..Query::default()
    };
    assert_eq!(store.search(&titled).unwrap().hits[0].role, "title");

    let branch = store.branch(&id, 1, None).unwrap();
    let branched = store.get(&branch.session_id).unwrap();
    assert_eq!(branched.title.as_deref(), Some("plans (branch)"));
    assert_eq!(branched.messages.len(), 1);
    assert_eq!(branched.tool_calls.len(), 1, "the turn's tool call stays");
    assert_eq!(
        store.branches(&id).unwrap()[0].session_id,
        branch.session_id
    );

    store.rename(&other, Some("renamed")).unwrap();
    assert_eq!(store.get(&other).unwrap().title.as_deref(), Some("renamed"));
    store.delete(&other).unwrap();
    assert!(matches!(
        store.get(&other),
        Err(crate::error::Error::NotFound(_))
    ));
    assert_eq!(store.count().unwrap(), 2);
}

#[test]
fn credentials_are_replaced_before_they_are_kept() {
    let store = store();
    let id = store.create(&new("keys")).unwrap().session_id;
    let key = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
    record(
        &store,
        &id,
        json!({"role": "user", "parts": [{"text": format!("token {key}")}]}),
    );
    let text = store.get(&id).unwrap().messages[0].text_content();
    assert!(!text.contains(key), "{text}");
    assert!(text.contains("[REDACTED"), "{text}");
}

#[test]
fn snapshots_of_its_sessions_live_in_the_directory_and_restore() {
    let store = store();
    let dir = tempfile::tempdir().unwrap();
    let snapshots = Snapshots::new(dir.path(), 5);
    let id = store.create(&new("snap")).unwrap().session_id;
    record(
        &store,
        &id,
        json!({"role": "user", "parts": [{"text": "keep this"}]}),
    );
    let created = snapshots.create(&store, &id, None, None).unwrap();
    assert!(created.path.is_some_and(|p| p.starts_with(dir.path())));
    assert_eq!(snapshots.list(&store, &id).unwrap()[0].id, created.info.id);
    let restored = snapshots
        .restore_as_session(&store, &created.info.id, None)
        .unwrap();
    let session = store.get(&restored.session_id).unwrap();
    assert_eq!(session.messages[0].text_content(), "keep this");
    assert_eq!(session.parent_session_id.as_deref(), Some(id.as_str()));
}
