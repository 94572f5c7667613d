use std::time::{Duration, SystemTime};

use serde_json::json;

use super::log::Change;
use super::refresh;
use crate::session::model::{Entry, SessionSummary};
use crate::session::store::api::{ListQuery, Naming, NewFormat, StoreOptions};
use crate::session::store::file::{FileStore, JOURNAL, journal};
use crate::session::store::{NewSession, Store};

fn store(dir: &std::path::Path) -> Store {
    Store::new(
        dir,
        StoreOptions {
            max_sessions: 0,
            format: NewFormat::Journal,
            redaction: None,
            ..StoreOptions::default()
        },
    )
}

fn create(store: &Store, title: Option<&str>) -> String {
    store
        .create(&NewSession {
            model: "m".into(),
            provider: "p".into(),
            title: title.map(str::to_string),
            workspace: None,
        })
        .unwrap()
        .session_id
}

fn file(store: &Store) -> &FileStore {
    store.as_file().unwrap()
}

/// Appends a record to a journal as a writer killed before telling the
/// index would have left it.
fn append_behind_the_index(store: &Store, id: &str) {
    let at = "2030-01-01T00:00:00.000Z";
    let entry = Entry::from_input(
        json!({"role": "user", "parts": [{"type": "text", "text": "x"}], "timestamp": at}),
        at,
    )
    .unwrap();
    let path = file(store).session_dir(id).join(JOURNAL);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.extend(journal::entry_line(&entry, at, Some(1)));
    std::fs::write(&path, bytes).unwrap();
}

fn meta(store: &Store, key: &str) -> Option<String> {
    let f = file(store);
    refresh::open_fresh(f, &f.index)
        .unwrap()
        .unwrap()
        .meta(key)
        .unwrap()
}

#[test]
fn a_pending_change_with_nothing_after_it_is_read_from_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    let id = create(&store, None);
    assert_eq!(store.list().unwrap().sessions[0].message_count, 0);
    file(&store)
        .index
        .note(&Change::Pending(id.clone()))
        .unwrap();
    append_behind_the_index(&store, &id);
    let f = file(&store);
    let db = refresh::open_fresh(f, &f.index).unwrap().unwrap();
    // The database itself (before any check of the rows) holds the record.
    let (rows, _) = db.list(&ListQuery::default()).unwrap();
    assert_eq!(rows[0].summary.message_count, 1);
    assert_eq!(db.meta("pending").unwrap().as_deref(), Some("[]"));
}

#[test]
fn a_pending_change_whose_writer_holds_the_session_is_looked_at_again() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    let id = create(&store, None);
    store.list().unwrap();
    let lock = file(&store).lock_session(&id).unwrap();
    file(&store)
        .index
        .note(&Change::Pending(id.clone()))
        .unwrap();
    assert_eq!(meta(&store, "pending"), Some(format!("[\"{id}\"]")));
    append_behind_the_index(&store, &id);
    drop(lock);
    assert_eq!(meta(&store, "pending").as_deref(), Some("[]"));
    assert_eq!(store.list().unwrap().sessions[0].message_count, 1);
}

#[test]
fn a_folded_log_is_not_applied_twice_and_a_long_one_is_emptied() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    let id = create(&store, Some("first"));
    store.list().unwrap();
    let log = file(&store).index.log_path();
    let folded = std::fs::metadata(&log).unwrap().len();
    assert!(
        meta(&store, "log")
            .unwrap()
            .ends_with(&format!(":{folded}"))
    );
    // Over a MiB of changes: all applied, then the log starts again.
    for n in 0..3_000 {
        store.rename(&id, Some(&format!("title {n}"))).unwrap();
    }
    assert!(std::fs::metadata(&log).unwrap().len() > 1 << 20);
    assert_eq!(
        store.list().unwrap().sessions[0].title.as_deref(),
        Some("title 2999")
    );
    let bytes = std::fs::read(&log).unwrap();
    assert!(bytes.len() < 100, "{}", String::from_utf8_lossy(&bytes));
    assert!(bytes.starts_with(b"{\"log\":"));
    store.rename(&id, Some("after")).unwrap();
    assert_eq!(
        store.list().unwrap().sessions[0].title.as_deref(),
        Some("after")
    );
}

#[test]
fn a_recently_rewritten_plain_file_is_stamped_racy_and_an_old_one_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.json");
    std::fs::write(&path, "{}").unwrap();
    assert_eq!(refresh::stamp_kept(&path, true), "racy");
    assert_ne!(refresh::stamp_kept(&path, false), "racy");
    let old = SystemTime::now() - Duration::from_secs(60);
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_times(std::fs::FileTimes::new().set_modified(old))
        .unwrap();
    let stamp = refresh::stamp_kept(&path, true);
    assert_eq!(stamp, refresh::stamp_of(&path));
    std::fs::write(&path, "{ }").unwrap();
    assert_ne!(refresh::stamp_of(&path), stamp);
}

#[test]
fn counts_and_branch_points_keep_all_64_bits() {
    let dir = tempfile::tempdir().unwrap();
    let db = super::db::Db::open(&dir.path().join("db"))
        .unwrap()
        .unwrap();
    let summary = SessionSummary {
        session_id: "907a1a54-0000-4000-8000-000000000001".into(),
        start_time: "2024-01-15T10:00:00.000Z".into(),
        last_activity: "not a time".into(),
        model: "m".into(),
        message_count: u64::MAX,
        token_count: u64::MAX - 1,
        provider: "p".into(),
        tool_call_count: 1 << 63,
        compression_count: 3,
        title: Some("t".into()),
        parent_session_id: None,
        branch_point: Some(u64::MAX),
        workspace: Some("/w".into()),
    };
    super::db::put(
        db.conn(),
        &super::db::IndexRow {
            summary: &summary,
            plain: false,
            stamp: "s",
        },
    )
    .unwrap();
    let (rows, _) = db.list(&ListQuery::default()).unwrap();
    assert_eq!(rows[0].summary, summary);
    // A lastActivity that does not parse is never "since" anything.
    let since = ListQuery {
        since: Some(i64::MIN + 1),
        ..ListQuery::default()
    };
    assert!(db.list(&since).unwrap().0.is_empty());
}

#[test]
fn a_prefix_names_exactly_the_ids_that_start_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = super::db::Db::open(&dir.path().join("db"))
        .unwrap()
        .unwrap();
    for id in [
        "abcd0000-0000-4000-8000-000000000001",
        "abcdffff-0000-4000-8000-000000000002",
        "abce0000-0000-4000-8000-000000000003",
        "abc00000-0000-4000-8000-000000000004",
    ] {
        let summary = SessionSummary {
            session_id: id.into(),
            start_time: String::new(),
            last_activity: String::new(),
            model: "m".into(),
            message_count: 0,
            token_count: 0,
            provider: "p".into(),
            tool_call_count: 0,
            compression_count: 0,
            title: Some(if id.ends_with('4') { "abcd" } else { "x" }.into()),
            parent_session_id: None,
            branch_point: None,
            workspace: None,
        };
        let row = super::db::IndexRow {
            summary: &summary,
            plain: false,
            stamp: "",
        };
        super::db::put(db.conn(), &row).unwrap();
    }
    let mut named: Vec<String> = db
        .named(&Naming {
            title: "abcd",
            prefix: Some("abcd"),
            workspace: None,
        })
        .unwrap()
        .into_iter()
        .map(|f| f.summary.session_id)
        .collect();
    named.sort();
    assert_eq!(
        named,
        [
            "abc00000-0000-4000-8000-000000000004",
            "abcd0000-0000-4000-8000-000000000001",
            "abcdffff-0000-4000-8000-000000000002"
        ]
    );
}

#[test]
fn an_index_that_cannot_be_made_leaves_the_files_to_be_read() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    create(&store, Some("kept"));
    std::fs::remove_dir_all(dir.path().join(super::DIR)).unwrap();
    // Something that is not a directory where the index would go.
    std::fs::write(dir.path().join(super::DIR), "not a directory").unwrap();
    let listing = store.list().unwrap();
    assert_eq!(listing.sessions.len(), 1);
    assert_eq!(listing.sessions[0].title.as_deref(), Some("kept"));
}

#[test]
fn a_writer_folds_a_log_no_reader_has_folded() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    let id = create(&store, None);
    let index = &file(&store).index;
    // An agent that only ever records: megabytes of changes, no reader.
    let line = serde_json::to_vec(&Change::Pending(
        "907a1a54-0000-4000-8000-000000000001".into(),
    ))
    .unwrap();
    let mut filler = Vec::new();
    while filler.len() as u64 <= super::FOLD_BYTES {
        filler.extend_from_slice(&line);
        filler.push(b'\n');
    }
    let mut log = std::fs::read(index.log_path()).unwrap();
    log.extend(filler);
    std::fs::write(index.log_path(), log).unwrap();
    assert!(index.wants_fold());
    let at = "2030-01-01T00:00:00.000Z";
    let entry = Entry::from_input(
        json!({"role": "user", "parts": [{"type": "text", "text": "x"}], "timestamp": at}),
        at,
    )
    .unwrap();
    store.record(&id, &entry, None).unwrap();
    assert!(!index.wants_fold());
    assert!(std::fs::metadata(index.log_path()).unwrap().len() < 100);
    assert_eq!(store.list().unwrap().sessions[0].message_count, 1);
}
