//! Unit tests of the store, branching, compression notes and snapshots.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use serde_json::{Map, json};

use super::model::{Entry, Message};
use super::snapshot::Snapshots;
use super::store::file::{SUMMARY_LAG, summary_json};
use super::store::{JOURNAL, NewFormat, NewSession, SUMMARY, Store, StoreOptions};
use crate::error::Error;
use crate::fs::lock::Lock;

struct Fixture {
    _dir: tempfile::TempDir,
    store: Store,
    snapshots: Snapshots,
    clock: Arc<AtomicI64>,
}

/// A store writing new sessions as journals (most tests here are about them).
fn fixture(max_sessions: u64) -> Fixture {
    fixture_in(max_sessions, NewFormat::Journal)
}

fn fixture_in(max_sessions: u64, format: NewFormat) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(AtomicI64::new(1_700_000_000_000));
    let tick = clock.clone();
    let store = Store::new(
        dir.path().join("data"),
        StoreOptions {
            max_sessions,
            snapshots_dir: Some(dir.path().join("snaps")),
            format,
            clock: Arc::new(move || tick.fetch_add(1000, Ordering::SeqCst)),
            ..StoreOptions::default()
        },
    );
    let snapshots = Snapshots::new(dir.path().join("snaps"), 5);
    Fixture {
        _dir: dir,
        store,
        snapshots,
        clock,
    }
}

impl Fixture {
    fn file(&self) -> &super::store::FileStore {
        self.store.as_file().unwrap()
    }
}

fn new_session(store: &Store) -> String {
    store
        .create(&NewSession {
            model: "llama3.1:8b".into(),
            provider: "ollama".into(),
            title: None,
            workspace: None,
        })
        .unwrap()
        .session_id
}

fn msg(role: &str, text: &str) -> Entry {
    Entry::Message(Message::text(role, text, "2024-01-15T10:30:00Z"))
}

fn tool(id: &str) -> Entry {
    Entry::from_input(
        json!({"id": id, "name": "read_file", "args": {"path": "a"}, "result": {"llmContent": "x"}}),
        "2024-01-15T10:30:01Z",
    )
    .unwrap()
}

#[test]
fn recorded_records_come_back_in_order_with_counts() {
    let f = fixture(0);
    let id = new_session(&f.store);
    f.store
        .record(&id, &msg("user", "hello there"), None)
        .unwrap();
    f.store.record(&id, &tool("c1"), None).unwrap();
    let ack = f
        .store
        .record(&id, &msg("assistant", "hi"), Some(7))
        .unwrap();
    assert_eq!((ack.recorded, ack.index), ("message", 1));
    let session = f.store.get(&id).unwrap();
    assert_eq!(session.messages.len(), 2);
    assert_eq!(session.tool_calls.len(), 1);
    assert_eq!(session.metadata.token_count, 3 + 3 + 7);
    let summary = f.store.summary(&id).unwrap();
    assert_eq!(summary.message_count, 2);
    assert_eq!(summary.token_count, 13);
    assert_eq!(summary.last_activity, session.last_activity);
}

#[test]
fn a_torn_tail_is_ignored_by_readers_and_cut_by_the_next_writer() {
    let f = fixture(0);
    let id = new_session(&f.store);
    f.store.record(&id, &msg("user", "one"), None).unwrap();
    let journal = f.file().session_dir(&id).join(JOURNAL);
    let mut bytes = std::fs::read(&journal).unwrap();
    bytes.extend_from_slice(b"{\"type\":\"message\",\"at\":\"2024");
    std::fs::write(&journal, &bytes).unwrap();
    assert_eq!(f.store.get(&id).unwrap().messages.len(), 1);
    assert_eq!(f.store.list().unwrap().sessions[0].message_count, 1);
    f.store.record(&id, &msg("user", "two"), None).unwrap();
    let session = f.store.get(&id).unwrap();
    assert_eq!(session.messages.len(), 2);
    assert_eq!(session.messages[1].text_content(), "two");
    let text = std::fs::read_to_string(&journal).unwrap();
    assert!(
        text.lines()
            .all(|l| serde_json::from_str::<serde_json::Value>(l).is_ok())
    );
}

#[test]
fn records_of_a_newer_version_are_listed_as_they_load() {
    // Found by fuzz/fuzz_targets/session_file.rs: `list` refused a record
    // kind it does not know when it had no `at`, while `get` skipped it;
    // and `list` counted tokens on records that are not entries.
    let f = fixture(0);
    let id = new_session(&f.store);
    f.store.record(&id, &msg("user", "one"), Some(4)).unwrap();
    let dir = f.file().session_dir(&id);
    let mut bytes = std::fs::read(dir.join(JOURNAL)).unwrap();
    bytes.extend_from_slice(
        concat!(
            r#"{"type":"bookmark","tokens":7,"name":"x"}"#,
            "\n",
            r#"{"type":"compression","at":"2030-01-01T00:00:00.000Z","tokens":9,"compression":{}}"#,
            "\n",
            r#"{"type":"bookmark","at":"2030-01-02T00:00:00.000Z"}"#,
            "\n",
        )
        .as_bytes(),
    );
    std::fs::write(dir.join(JOURNAL), &bytes).unwrap();
    std::fs::remove_file(dir.join(SUMMARY)).unwrap();
    let loaded = f.store.get(&id).unwrap();
    assert_eq!(loaded.metadata.token_count, 4);
    assert_eq!(loaded.last_activity, "2030-01-02T00:00:00.000Z");
    let listing = f.store.list().unwrap();
    assert!(listing.problems.is_empty(), "{:?}", listing.problems);
    assert_eq!(listing.sessions, vec![loaded.summary()]);
}

#[test]
fn a_corrupt_journal_is_reported_by_readers_and_set_aside_by_a_writer() {
    let f = fixture(0);
    let id = new_session(&f.store);
    f.store.record(&id, &msg("user", "one"), None).unwrap();
    f.store.record(&id, &msg("user", "two"), None).unwrap();
    let dir = f.file().session_dir(&id);
    let text = std::fs::read_to_string(dir.join(JOURNAL)).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[1] = "{garbage";
    let broken = lines.join("\n") + "\n";
    std::fs::write(dir.join(JOURNAL), &broken).unwrap();
    std::fs::remove_file(dir.join(SUMMARY)).unwrap();
    let err = f.store.get(&id).unwrap_err();
    assert!(matches!(err, Error::Corrupt(_)), "{err}");
    assert!(err.to_string().contains("left as it is"), "{err}");
    assert_eq!(std::fs::read_to_string(dir.join(JOURNAL)).unwrap(), broken);
    assert_eq!(f.store.list().unwrap().problems.len(), 1);
    assert!(!f.file().dir().join(format!("{id}.corrupt")).exists());
    let err = f
        .store
        .record(&id, &msg("user", "three"), None)
        .unwrap_err();
    assert!(matches!(err, Error::Corrupt(_)), "{err}");
    assert!(err.to_string().contains("moved aside"), "{err}");
    let aside = f.file().dir().join(format!("{id}.corrupt"));
    assert_eq!(
        std::fs::read_to_string(aside.join(JOURNAL)).unwrap(),
        broken
    );
    assert!(matches!(f.store.get(&id), Err(Error::NotFound(_))));
    assert!(matches!(
        f.store.record(&id, &msg("user", "x"), None),
        Err(Error::NotFound(_))
    ));
}

#[test]
fn list_reports_a_corrupt_plain_file_lists_the_rest_and_moves_nothing() {
    let f = fixture(0);
    let good = new_session(&f.store);
    let bad = super::model::new_id();
    std::fs::write(f.file().plain_path(&bad), "{\"sessionId\": ").unwrap();
    let listing = f.store.list().unwrap();
    assert_eq!(listing.sessions.len(), 1);
    assert_eq!(listing.sessions[0].session_id, good);
    assert_eq!(listing.problems.len(), 1);
    assert!(!f.file().dir().join(format!("{bad}.json.corrupt")).exists());
    assert_eq!(
        std::fs::read(f.file().plain_path(&bad)).unwrap(),
        b"{\"sessionId\": "
    );
    // Nor does a writer: the file is not ours.
    let err = f.store.record(&bad, &msg("user", "x"), None).unwrap_err();
    assert!(matches!(err, Error::Corrupt(_)), "{err}");
    assert!(f.file().plain_path(&bad).exists());
}

#[test]
fn a_stale_or_missing_summary_is_rebuilt_from_the_journal() {
    let f = fixture(0);
    let id = new_session(&f.store);
    f.store.record(&id, &msg("user", "one"), None).unwrap();
    let dir = f.file().session_dir(&id);
    let stale = std::fs::read(dir.join(SUMMARY)).unwrap();
    f.store.record(&id, &msg("user", "two"), None).unwrap();
    std::fs::write(dir.join(SUMMARY), stale).unwrap();
    assert_eq!(f.store.summary(&id).unwrap().message_count, 2);
    std::fs::write(dir.join(SUMMARY), "nonsense").unwrap();
    assert_eq!(f.store.summary(&id).unwrap().message_count, 2);
    std::fs::remove_file(dir.join(SUMMARY)).unwrap();
    assert_eq!(f.store.list().unwrap().sessions[0].message_count, 2);
    f.store.record(&id, &msg("user", "three"), None).unwrap();
    assert_eq!(f.store.summary(&id).unwrap().message_count, 3);
}

#[test]
fn a_summary_lagging_behind_the_journal_answers_as_a_whole_journal_scan() {
    let f = fixture(0);
    let id = new_session(&f.store);
    let dir = f.file().session_dir(&id);
    let mut lagged = 0;
    for n in 0..40 {
        f.store
            .record(&id, &msg("user", &"x".repeat(n * 37 % 700)), None)
            .unwrap();
        let size = std::fs::metadata(dir.join(JOURNAL)).unwrap().len();
        let kept = std::fs::read(dir.join(SUMMARY)).unwrap();
        let file = summary_json(&dir).unwrap();
        let tail = size - file["journalBytes"].as_u64().unwrap();
        assert!(tail <= SUMMARY_LAG, "the summary lags {tail} bytes");
        if tail > 0 {
            lagged += 1;
        }
        let summary = f.store.summary(&id).unwrap();
        std::fs::remove_file(dir.join(SUMMARY)).unwrap();
        let scanned = f.store.summary(&id).unwrap();
        std::fs::write(dir.join(SUMMARY), &kept).unwrap();
        assert_eq!(summary, scanned, "after record {n}");
        assert_eq!(summary.message_count, n as u64 + 1);
    }
    assert!(lagged > 10, "only {lagged} records left the summary behind");
}

/// Records until the summary is rewritten (the journal passes it by more
/// than SUMMARY_LAG), returning how many were recorded.
fn record_past_the_lag(f: &Fixture, id: &str) -> u64 {
    let dir = f.file().session_dir(id);
    let covered = |_: &Fixture| summary_json(&dir).map(|s| s["journalBytes"].as_u64().unwrap());
    let before = covered(f);
    for n in 1..=50 {
        f.store
            .record(id, &msg("user", &"y".repeat(300)), None)
            .unwrap();
        if covered(f) != before {
            return n;
        }
    }
    panic!("50 records of 300 bytes never rewrote the summary");
}

#[test]
fn the_summary_is_rewritten_in_place_and_kept_in_checksummed_slots() {
    use std::os::unix::fs::MetadataExt;
    let f = fixture(0);
    let id = new_session(&f.store);
    let dir = f.file().session_dir(&id);
    let inode = std::fs::metadata(dir.join(SUMMARY)).unwrap().ino();
    let mut recorded = 0;
    for _ in 0..3 {
        recorded += record_past_the_lag(&f, &id);
        let bytes = std::fs::read(dir.join(SUMMARY)).unwrap();
        assert!(crate::fs::slots::is_slotted(&bytes));
        // Written into the file, not renamed over it: no temp file, no rename.
        assert_eq!(std::fs::metadata(dir.join(SUMMARY)).unwrap().ino(), inode);
        let summary = summary_json(&dir).unwrap();
        assert_eq!(
            summary["journalBytes"].as_u64(),
            Some(std::fs::metadata(dir.join(JOURNAL)).unwrap().len())
        );
        assert_eq!(summary["messageCount"].as_u64(), Some(recorded));
    }
    // A small file: `list` reads every session's.
    assert!(std::fs::metadata(dir.join(SUMMARY)).unwrap().len() <= 4096);
}

#[test]
fn a_torn_summary_slot_falls_back_to_the_other_or_to_the_journal() {
    let f = fixture(0);
    let id = new_session(&f.store);
    let dir = f.file().session_dir(&id);
    record_past_the_lag(&f, &id);
    let count = f.store.summary(&id).unwrap().message_count;
    let whole = std::fs::read(dir.join(SUMMARY)).unwrap();
    // Bytes all over the file flipped, one at a time: the answer never changes.
    for i in (0..whole.len()).step_by(7) {
        let mut torn = whole.clone();
        torn[i] ^= 0x5a;
        std::fs::write(dir.join(SUMMARY), &torn).unwrap();
        assert_eq!(
            f.store.summary(&id).unwrap().message_count,
            count,
            "byte {i}"
        );
    }
    // Both slots gone: rebuilt from the journal, then rewritten by a record.
    std::fs::write(dir.join(SUMMARY), &whole[..whole.len() / 2]).unwrap();
    assert_eq!(f.store.summary(&id).unwrap().message_count, count);
    let more = record_past_the_lag(&f, &id);
    assert!(crate::fs::slots::is_slotted(
        &std::fs::read(dir.join(SUMMARY)).unwrap()
    ));
    assert_eq!(f.store.summary(&id).unwrap().message_count, count + more);
}

#[test]
fn a_plain_json_summary_of_an_earlier_version_is_read_then_replaced() {
    let f = fixture(0);
    let id = new_session(&f.store);
    f.store.record(&id, &msg("user", "one"), None).unwrap();
    let dir = f.file().session_dir(&id);
    // An earlier version's summary, current for the journal: it is read,
    // not rebuilt (the title shows which).
    let mut old = summary_json(&dir).unwrap();
    old["journalBytes"] = std::fs::metadata(dir.join(JOURNAL)).unwrap().len().into();
    old["title"] = "from the earlier version".into();
    std::fs::write(dir.join(SUMMARY), serde_json::to_vec_pretty(&old).unwrap()).unwrap();
    assert_eq!(
        f.store.summary(&id).unwrap().title.as_deref(),
        Some("from the earlier version")
    );
    record_past_the_lag(&f, &id);
    assert!(crate::fs::slots::is_slotted(
        &std::fs::read(dir.join(SUMMARY)).unwrap()
    ));
    assert_eq!(
        summary_json(&dir).unwrap()["title"],
        "from the earlier version"
    );
}

#[test]
fn max_sessions_deletes_the_oldest_but_never_a_locked_one() {
    let f = fixture(3);
    let ids: Vec<String> = (0..3).map(|_| new_session(&f.store)).collect();
    // The oldest is being written: it must survive.
    let lock = Lock::exclusive(
        &f.file()
            .dir()
            .join(".locks")
            .join(format!("{}.lock", ids[0])),
    )
    .unwrap();
    let created = f
        .store
        .create(&NewSession {
            model: "m".into(),
            provider: "p".into(),
            title: None,
            workspace: None,
        })
        .unwrap();
    assert_eq!(created.removed, vec![ids[1].clone()]);
    drop(lock);
    let left = listed_ids(&f.store);
    assert_eq!(
        left,
        vec![created.session_id, ids[2].clone(), ids[0].clone()]
    );
}

#[test]
fn last_activity_follows_records_and_never_goes_back() {
    let f = fixture(0);
    let id = new_session(&f.store);
    let before = f.store.summary(&id).unwrap().last_activity;
    f.clock.store(1_600_000_000_000, Ordering::SeqCst); // the clock jumps back
    let ack = f.store.record(&id, &msg("user", "x"), None).unwrap();
    assert_eq!(ack.last_activity, before);
    f.clock.store(1_800_000_000_000, Ordering::SeqCst);
    let ack = f.store.record(&id, &msg("user", "y"), None).unwrap();
    assert!(ack.last_activity > before);
}

#[test]
fn branches_keep_tool_calls_with_their_turn() {
    let f = fixture(0);
    let id = new_session(&f.store);
    f.store.record(&id, &msg("user", "read a"), None).unwrap();
    f.store
        .record(&id, &msg("assistant", "reading"), None)
        .unwrap();
    f.store.record(&id, &tool("c1"), None).unwrap();
    f.store.record(&id, &msg("user", "now b"), None).unwrap();
    f.store.record(&id, &tool("c2"), None).unwrap();
    let branch = f.store.branch(&id, 2, Some("alt".into())).unwrap();
    let session = f.store.get(&branch.session_id).unwrap();
    assert_eq!(session.messages.len(), 2);
    assert_eq!(session.tool_calls.len(), 1);
    assert_eq!(session.tool_calls[0].id(), "c1");
    assert_eq!(session.parent_session_id.as_deref(), Some(id.as_str()));
    assert_eq!(session.branch_point, Some(2));
    assert_eq!(session.title.as_deref(), Some("alt"));
    let empty = f.store.branch(&id, 0, None).unwrap();
    assert_eq!(f.store.get(&empty.session_id).unwrap().messages.len(), 0);
    let err = f.store.branch(&id, 4, None).unwrap_err();
    assert!(err.to_string().contains("out of range"), "{err}");
    let branches = f.store.branches(&id).unwrap();
    assert_eq!(branches.len(), 2);
}

#[test]
fn a_branch_never_starts_at_a_tool_result() {
    let f = fixture(0);
    let id = new_session(&f.store);
    f.store
        .record(&id, &msg("assistant", "calling"), None)
        .unwrap();
    f.store.record(&id, &msg("tool", "result"), None).unwrap();
    let err = f.store.branch(&id, 1, None).unwrap_err();
    assert!(matches!(err, Error::Input(_)), "{err}");
    assert!(f.store.branch(&id, 2, None).is_ok());
}

#[test]
fn compressions_add_exactly_one_and_are_noted() {
    let f = fixture(0);
    let id = new_session(&f.store);
    f.store.record(&id, &msg("user", "x"), None).unwrap();
    let mut details = Map::new();
    details.insert("strategy".into(), "hybrid".into());
    assert_eq!(f.store.record_compression(&id, &details).unwrap(), 1);
    assert_eq!(f.store.record_compression(&id, &details).unwrap(), 2);
    let session = f.store.get(&id).unwrap();
    assert_eq!(session.metadata.compression_count, 2);
    assert_eq!(session.metadata.compression_history.len(), 2);
    assert_eq!(
        session.metadata.compression_history[0]["strategy"],
        "hybrid"
    );
    assert_eq!(session.messages.len(), 1);
    assert_eq!(f.store.summary(&id).unwrap().compression_count, 2);
}

#[test]
fn snapshots_roll_restore_in_order_and_go_with_their_session() {
    let f = fixture(0);
    let id = new_session(&f.store);
    f.store
        .record(&id, &msg("system", "be brief"), None)
        .unwrap();
    f.store.record(&id, &msg("user", "q1"), None).unwrap();
    f.store.record(&id, &msg("assistant", "a1"), None).unwrap();
    f.store.record(&id, &msg("user", "q2"), None).unwrap();
    let mut made = Vec::new();
    for i in 0..7 {
        let created = f
            .snapshots
            .create(&f.store, &id, None, Some(format!("s{i}")))
            .unwrap();
        made.push(created.info.id);
    }
    let listed = f.snapshots.list(&f.store, &id).unwrap();
    assert_eq!(listed.len(), 5);
    assert_eq!(listed[0].id, made[6]);
    assert_eq!(listed[4].id, made[2]);
    let snapshot = f.snapshots.show(&f.store, &made[6], None).unwrap();
    assert_eq!(snapshot.user_messages.len(), 2);
    assert_eq!(snapshot.messages.len(), 2);
    let restored: Vec<String> = snapshot
        .restored_messages()
        .iter()
        .map(super::model::Message::text_content)
        .collect();
    assert_eq!(restored, ["be brief", "q1", "a1", "q2"]);
    let as_session = f
        .snapshots
        .restore_as_session(&f.store, &made[6], None)
        .unwrap();
    assert_eq!(
        f.store.get(&as_session.session_id).unwrap().messages.len(),
        4
    );
    f.snapshots.delete(&f.store, &made[6], None).unwrap();
    assert_eq!(f.snapshots.list(&f.store, &id).unwrap().len(), 4);
    f.store.delete(&id).unwrap();
    assert!(f.snapshots.list(&f.store, &id).unwrap().is_empty());
    assert!(!f.snapshots.root().join(&id).exists());
}

#[test]
fn recording_into_a_cli_file_keeps_it_in_the_cli_format_with_everything() {
    let f = fixture(0);
    let id = "550e8400-e29b-41d4-a716-446655440000";
    std::fs::create_dir_all(f.file().dir()).unwrap();
    let plain = json!({
        "sessionId": id, "startTime": "2024-01-15T10:30:00Z", "lastActivity": "2024-01-15T11:45:00Z",
        "model": "llama3.1:8b", "provider": "ollama",
        "messages": [{"role": "user", "parts": [{"type": "text", "text": "Hello"}], "timestamp": "2024-01-15T10:30:00Z"}],
        "toolCalls": [], "metadata": {"tokenCount": 1234, "compressionCount": 2, "modeHistory": [{"from": "a"}]},
        "custom": true
    });
    std::fs::write(f.file().plain_path(id), plain.to_string()).unwrap();
    let before = serde_json::to_value(f.store.get(id).unwrap()).unwrap();
    assert_eq!(before, plain);
    f.store
        .record(id, &msg("assistant", "Hi"), Some(10))
        .unwrap();
    assert!(f.file().plain_path(id).exists());
    assert!(!f.file().session_dir(id).exists());
    let after = f.store.get(id).unwrap();
    assert_eq!(after.messages.len(), 2);
    assert_eq!(after.metadata.token_count, 1244);
    assert_eq!(after.metadata.compression_count, 2);
    assert_eq!(after.metadata.extra["modeHistory"], json!([{"from": "a"}]));
    assert_eq!(after.extra["custom"], json!(true));
    f.store.rename(id, Some("named")).unwrap();
    f.store
        .record_compression(id, json!({"strategy": "truncate"}).as_object().unwrap())
        .unwrap();
    let file: serde_json::Value =
        serde_json::from_slice(&std::fs::read(f.file().plain_path(id)).unwrap()).unwrap();
    assert_eq!(file["title"], "named");
    assert_eq!(file["metadata"]["compressionCount"], 3);
    assert_eq!(file["messages"].as_array().unwrap().len(), 2);
}

#[test]
fn a_new_session_in_the_cli_format_is_one_document_with_every_record() {
    let f = fixture_in(0, NewFormat::Cli);
    let id = new_session(&f.store);
    f.store.record(&id, &msg("user", "one"), Some(4)).unwrap();
    let call = Entry::from_input(
        json!({"id": "c1", "name": "read_file", "args": {"path": "a"}, "result": {"llmContent": "x"}}),
        "2023-11-14T22:13:21.000Z",
    )
    .unwrap();
    f.store.record(&id, &call, Some(2)).unwrap();
    assert!(!f.file().session_dir(&id).exists());
    let text = std::fs::read_to_string(f.file().plain_path(&id)).unwrap();
    assert!(text.starts_with("{\n  \"sessionId\": "), "{text}");
    let file: serde_json::Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&str> = file
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys[..8],
        [
            "sessionId",
            "startTime",
            "lastActivity",
            "model",
            "provider",
            "messages",
            "toolCalls",
            "metadata"
        ]
    );
    assert_eq!(file["metadata"]["tokenCount"], 6);
    assert_eq!(f.store.list().unwrap().sessions[0].message_count, 1);
    assert_eq!(f.store.get(&id).unwrap().tool_calls.len(), 1);
}

#[test]
fn cleanup_keeps_the_newest_and_dry_run_touches_nothing() {
    let f = fixture(0);
    let ids: Vec<String> = (0..4).map(|_| new_session(&f.store)).collect();
    let dry = f.store.cleanup(1, true).unwrap();
    assert_eq!(dry.deleted.len(), 3);
    assert_eq!(f.store.list().unwrap().sessions.len(), 4);
    let done = f.store.cleanup(1, false).unwrap();
    assert_eq!(done.deleted.len(), 3);
    let left = f.store.list().unwrap().sessions;
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].session_id, ids[3]);
}

#[test]
fn ids_that_are_not_uuids_never_reach_the_file_system() {
    let f = fixture(0);
    for bad in ["../x", "/etc/passwd", "..", "a/b", ""] {
        assert!(matches!(f.store.get(bad), Err(Error::Input(_))), "{bad}");
        assert!(matches!(f.store.delete(bad), Err(Error::Input(_))), "{bad}");
    }
}

#[test]
fn a_summary_that_does_not_fit_the_journal_never_cuts_a_record() {
    let f = fixture(0);
    let id = new_session(&f.store);
    f.store.record(&id, &msg("user", "one"), None).unwrap();
    f.store.record(&id, &msg("user", "two"), None).unwrap();
    let dir = f.file().session_dir(&id);
    let size = std::fs::metadata(dir.join(JOURNAL)).unwrap().len();
    let mut summary = summary_json(&dir).unwrap();
    summary["journalBytes"] = (size - 5).into(); // points into the last record
    // Written as earlier versions wrote it: plain JSON, which is still read.
    std::fs::write(dir.join(SUMMARY), summary.to_string()).unwrap();
    f.store.record(&id, &msg("user", "three"), None).unwrap();
    let texts: Vec<String> = f
        .store
        .get(&id)
        .unwrap()
        .messages
        .iter()
        .map(super::model::Message::text_content)
        .collect();
    assert_eq!(texts, ["one", "two", "three"]);
    assert_eq!(f.store.summary(&id).unwrap().message_count, 3);
}

#[test]
fn renaming_changes_the_title_everywhere_but_not_the_last_activity() {
    let f = fixture(0);
    let id = new_session(&f.store);
    f.store.record(&id, &msg("user", "hi"), None).unwrap();
    let before = f.store.summary(&id).unwrap();
    let renamed = f.store.rename(&id, Some("refactor")).unwrap();
    assert_eq!(renamed.title.as_deref(), Some("refactor"));
    assert_eq!(renamed.last_activity, before.last_activity);
    assert_eq!(renamed.message_count, 1);
    assert_eq!(f.store.get(&id).unwrap().title.as_deref(), Some("refactor"));
    // The summary cache and a fresh read of the journal agree.
    std::fs::remove_file(f.store.as_file().unwrap().session_dir(&id).join(SUMMARY)).unwrap();
    assert_eq!(
        f.store.summary(&id).unwrap().title.as_deref(),
        Some("refactor")
    );
    // Recording after a rename keeps it; removing the title clears it.
    f.store.record(&id, &msg("user", "again"), None).unwrap();
    assert_eq!(f.store.get(&id).unwrap().title.as_deref(), Some("refactor"));
    f.store.rename(&id, None).unwrap();
    assert_eq!(f.store.get(&id).unwrap().title, None);
    assert_eq!(f.store.summary(&id).unwrap().title, None);
}

#[test]
fn the_workspace_is_kept_in_the_head_and_inherited_by_branches() {
    let f = fixture(0);
    let id = f
        .store
        .create(&NewSession {
            model: "m".into(),
            provider: "p".into(),
            title: None,
            workspace: Some("/src/project".into()),
        })
        .unwrap()
        .session_id;
    f.store.record(&id, &msg("user", "hi"), None).unwrap();
    assert_eq!(
        f.store.summary(&id).unwrap().workspace.as_deref(),
        Some("/src/project")
    );
    let branch = f.store.branch(&id, 1, None).unwrap().session_id;
    assert_eq!(
        f.store.get(&branch).unwrap().workspace.as_deref(),
        Some("/src/project")
    );
}

#[test]
fn the_first_user_message_previews_an_untitled_session() {
    let f = fixture(0);
    let id = new_session(&f.store);
    assert_eq!(f.store.first_user_text(&id).unwrap(), None);
    f.store
        .record(&id, &msg("system", "be brief"), None)
        .unwrap();
    f.store
        .record(&id, &msg("user", "fix the parser"), None)
        .unwrap();
    f.store.record(&id, &msg("user", "later"), None).unwrap();
    assert_eq!(
        f.store.first_user_text(&id).unwrap().as_deref(),
        Some("fix the parser")
    );
}

#[test]
fn a_title_is_found_once_by_every_kind_of_search_and_only_where_it_matches() {
    use super::query::Query;
    let f = fixture(0);
    let titled = new_session(&f.store);
    f.store
        .record(&titled, &msg("user", "hello"), None)
        .unwrap();
    f.store.rename(&titled, Some("Zanzibar trip")).unwrap();
    let other = new_session(&f.store);
    f.store
        .record(&other, &msg("user", "nothing here"), None)
        .unwrap();
    for (pattern, regex, ignore_case) in [
        ("Zanzibar", false, false),
        ("zanzibar", false, true),
        ("Zanzi[a-z]+ trip", true, false),
        (r"^\w+ TRIP$", true, true),
    ] {
        let found = f
            .store
            .search(&Query {
                pattern: pattern.into(),
                regex,
                ignore_case,
                role: None,
            })
            .unwrap();
        let titles: Vec<_> = found.hits.iter().filter(|h| h.role == "title").collect();
        assert_eq!(titles.len(), 1, "{pattern}: {:?}", found.hits);
        assert_eq!(titles[0].session_id, titled);
        assert_eq!(titles[0].snippet, "Zanzibar trip");
    }
    let only_users = f
        .store
        .search(&Query {
            pattern: "Zanzibar".into(),
            role: Some("user".into()),
            ..Query::default()
        })
        .unwrap();
    assert!(only_users.hits.is_empty(), "{:?}", only_users.hits);
}

#[test]
fn a_title_in_the_head_or_beside_matching_messages_is_found() {
    // A search reads a session's title only when a record other than a
    // message or tool call holds the pattern: the head holds this one.
    use super::query::Query;
    let f = fixture(0);
    let created = f
        .store
        .create(&NewSession {
            model: "llama3.1:8b".into(),
            provider: "ollama".into(),
            title: Some("Zanzibar plans".into()),
            workspace: None,
        })
        .unwrap()
        .session_id;
    f.store
        .record(&created, &msg("user", "off to Zanzibar"), None)
        .unwrap();
    let renamed = new_session(&f.store);
    f.store
        .record(&renamed, &msg("user", "Zanzibar again"), None)
        .unwrap();
    f.store.rename(&renamed, Some("Zanzibar, second")).unwrap();
    f.store.rename(&renamed, Some("elsewhere")).unwrap();
    let found = f
        .store
        .search(&Query {
            pattern: "Zanzibar".into(),
            ..Query::default()
        })
        .unwrap();
    let mut kinds: Vec<_> = found
        .hits
        .iter()
        .map(|h| (h.session_id == created, h.role.as_ref(), h.snippet.as_str()))
        .collect();
    kinds.sort_unstable();
    assert_eq!(
        kinds,
        [
            (false, "user", "Zanzibar again"),
            (true, "title", "Zanzibar plans"),
            (true, "user", "off to Zanzibar"),
        ],
        "{:?}",
        found.hits
    );
}

#[test]
fn a_killed_writers_temp_file_of_a_cli_document_is_swept_by_the_next_store_writer() {
    let f = fixture_in(0, NewFormat::Cli);
    let id = new_session(&f.store);
    let gone = super::model::new_id();
    let dir = f.file().dir().to_path_buf();
    let temps = [
        dir.join(format!(".{id}.json.ollm-tmp-abcdef")),
        dir.join(format!(".{gone}.json.ollm-tmp-abcdef")),
    ];
    for temp in &temps {
        std::fs::write(temp, "{").unwrap();
    }
    // Not the CLI's own `<id>.json.tmp`, nor a stranger's file.
    let theirs = dir.join(format!("{id}.json.tmp"));
    std::fs::write(&theirs, "{").unwrap();
    // Without the mark a killed create or delete leaves, nothing is swept.
    new_session(&f.store);
    assert!(temps.iter().all(|t| t.exists()));
    std::fs::write(dir.join(".locks").join("store.writing"), "").unwrap();
    new_session(&f.store);
    assert!(temps.iter().all(|t| !t.exists()));
    assert!(theirs.exists());
    assert!(!dir.join(".locks").join(format!("{gone}.lock")).exists());
}

#[test]
fn max_sessions_never_deletes_the_ollm_clis_own_sessions() {
    let f = fixture_in(2, NewFormat::Cli);
    std::fs::create_dir_all(f.file().dir()).unwrap();
    let theirs: Vec<String> = (0..3).map(|_| super::model::new_id()).collect();
    for id in &theirs {
        let doc = json!({
            "sessionId": id, "startTime": "2020-01-01T00:00:00.000Z",
            "lastActivity": "2020-01-01T00:00:00.000Z", "model": "m", "provider": "p",
            "messages": [], "toolCalls": [], "metadata": {"tokenCount": 0, "compressionCount": 0}
        });
        std::fs::write(f.file().plain_path(id), doc.to_string()).unwrap();
    }
    let ours: Vec<String> = (0..3).map(|_| new_session(&f.store)).collect();
    let left = listed_ids(&f.store);
    for id in &theirs {
        assert!(left.contains(id), "the CLI's session {id} was deleted");
    }
    assert!(!left.contains(&ours[0]));
    assert!(left.contains(&ours[1]) && left.contains(&ours[2]));
    let file: serde_json::Value =
        serde_json::from_slice(&std::fs::read(f.file().plain_path(&ours[2])).unwrap()).unwrap();
    assert_eq!(file["createdBy"], "ollm");
}

/// The ids of every session the store lists.
fn listed_ids(store: &Store) -> Vec<String> {
    store
        .list()
        .unwrap()
        .sessions
        .into_iter()
        .map(|s| s.session_id)
        .collect()
}

/// Issue 45: imported sessions keep their original (old) dates, so they
/// were the first that `maxSessions` deleted on the next `create`.
#[test]
fn max_sessions_never_deletes_an_imported_session() {
    for format in [NewFormat::Journal, NewFormat::Cli] {
        let f = fixture_in(2, format);
        let imported: Vec<String> = (0..3)
            .map(|n| {
                let id = super::model::new_id();
                let session: super::model::Session = serde_json::from_value(json!({
                    "sessionId": id, "startTime": format!("2020-01-0{}T00:00:00.000Z", n + 1),
                    "lastActivity": format!("2020-01-0{}T00:00:00.000Z", n + 1),
                    "model": "m", "provider": "p",
                    "messages": [{"role": "user", "parts": [{"type": "text", "text": "old"}],
                                  "timestamp": "2020-01-01T00:00:00.000Z"}],
                    "toolCalls": [],
                    "metadata": {"tokenCount": 0, "compressionCount": 0,
                                 "importedFrom": {"tool": "claude", "sourceSessionId": "x"}}
                }))
                .unwrap();
                let loaded = super::model::Loaded::from_session(session);
                assert!(f.store.import(&loaded).unwrap());
                id
            })
            .collect();
        let ours: Vec<String> = (0..3).map(|_| new_session(&f.store)).collect();
        let left = listed_ids(&f.store);
        for id in &imported {
            assert!(left.contains(id), "{format:?}: imported {id} was deleted");
        }
        assert_eq!(
            left.iter().filter(|id| ours.contains(id)).count(),
            2,
            "{format:?}: {left:?}"
        );
        assert!(!left.contains(&ours[0]), "{format:?}");
    }
}
