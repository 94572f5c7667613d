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
    file(&store).index.note(&Change::Pending(id.clone()));
    append_behind_the_index(&store, &id);
    let f = file(&store);
    let db = refresh::open_fresh(f, &f.index).unwrap().unwrap();
    // The database itself (before any check of the rows) holds the record.
    let rows = db.list(&ListQuery::default()).unwrap();
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
    file(&store).index.note(&Change::Pending(id.clone()));
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
    // Changed "now" however long the test waits here.
    let soon = SystemTime::now() + Duration::from_secs(1);
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_times(std::fs::FileTimes::new().set_modified(soon))
        .unwrap();
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
    let rows = db.list(&ListQuery::default()).unwrap();
    assert_eq!(rows[0].summary, summary);
    // A lastActivity that does not parse is never "since" anything.
    let since = ListQuery {
        since: Some(i64::MIN + 1),
        ..ListQuery::default()
    };
    assert!(db.list(&since).unwrap().is_empty());
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

fn wal_len(store: &Store) -> u64 {
    let wal = file(store).index.dir().join("sessions.db-wal");
    std::fs::metadata(wal).map_or(0, |m| m.len())
}

#[test]
fn a_large_wal_is_emptied_once_no_reader_needs_it_and_never_waited_for() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    create(&store, None);
    assert_eq!(file(&store).list().unwrap().sessions.len(), 1);
    let path = file(&store).index.db_path();
    // A reader whose snapshot is older than the large transaction below.
    let reader = super::db::Db::open(&path).unwrap().unwrap();
    reader.conn().execute_batch("BEGIN").unwrap();
    let padding = || reader.meta("padding").unwrap().map(|p| p.len());
    assert_eq!(padding(), None);

    // One large transaction, as a build of search's bits at 100,000
    // sessions is, leaves a WAL of a few megabytes.
    let db = super::db::Db::open(&path).unwrap().unwrap();
    db.set_meta("padding", &"x".repeat(3 << 20)).unwrap();
    assert!(wal_len(&store) > 3 << 20, "{}", wal_len(&store));
    // The reader still needs it: it is left, and the reader reads on.
    db.settle().unwrap();
    assert!(wal_len(&store) > 3 << 20);
    assert_eq!(padding(), None);

    drop(reader);
    db.settle().unwrap();
    assert_eq!(wal_len(&store), 0);
    assert_eq!(db.meta("padding").unwrap().map(|p| p.len()), Some(3 << 20));
    // A small WAL is left as it is (emptying it costs an fsync).
    db.set_meta("padding", "").unwrap();
    let small = wal_len(&store);
    assert!(small > 0);
    db.settle().unwrap();
    assert_eq!(wal_len(&store), small);
    assert_eq!(file(&store).list().unwrap().sessions.len(), 1);
}

#[test]
fn a_wal_of_a_few_folds_is_emptied_so_that_no_process_copies_it_twice() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    create(&store, None);
    assert_eq!(file(&store).list().unwrap().sessions.len(), 1);
    let db = super::db::Db::open(&file(&store).index.db_path())
        .unwrap()
        .unwrap();
    db.settle().unwrap();
    let empty = wal_len(&store);
    // Some folds' worth of pages (a fold of one record writes ~7): more
    // than SQLite's own checkpoint waits for, so `settle` empties the WAL
    // rather than leaving it whole for every later process to recover and
    // the next checkpoint to copy again.
    let mut lens = Vec::new();
    for i in 0..8 {
        db.set_meta(&format!("fold{i}"), &"x".repeat(40 << 10))
            .unwrap();
        db.settle().unwrap();
        lens.push(wal_len(&store));
    }
    assert!(lens.contains(&0), "{lens:?}");
    assert!(lens.iter().all(|&len| len < 512 << 10), "{lens:?}");
    // A fold's few pages are left to the next ones.
    db.set_meta("fold", "x").unwrap();
    db.settle().unwrap();
    assert!(wal_len(&store) > empty);
    assert_eq!(db.meta("fold7").unwrap().map(|v| v.len()), Some(40 << 10));
}

/// A listing's pages as `list` writes them in NDJSON, from summaries.
fn lines_of_summaries(store: &Store, query: &ListQuery) -> (Vec<u8>, Vec<String>) {
    let (mut text, mut problems) = (Vec::new(), Vec::new());
    file(store)
        .list_pages(query, 2, |page| {
            for s in &page.sessions {
                text.extend(crate::lossless::to_vec(s).unwrap());
                text.push(b'\n');
            }
            problems.extend(page.problems.into_iter().map(|p| p.session_id));
            true
        })
        .unwrap();
    (text, problems)
}

fn lines_as_stored(store: &Store, query: &ListQuery) -> (Vec<u8>, Vec<String>, Vec<usize>) {
    let (mut text, mut problems, mut counts) = (Vec::new(), Vec::new(), Vec::new());
    file(store)
        .list_json_pages(query, 2, |page| {
            assert_eq!(
                page.text.iter().filter(|&&b| b == b'\n').count(),
                page.count
            );
            text.extend(page.text);
            counts.push(page.count);
            problems.extend(page.problems.into_iter().map(|p| p.session_id));
            true
        })
        .unwrap();
    (text, problems, counts)
}

#[test]
fn a_listings_stored_lines_are_its_summaries_as_list_writes_them() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    let mut ids = Vec::new();
    for (n, title) in [
        Some("plain"),
        None,
        Some("quotes \" and \\ and\nnewline"),
        Some("ünïcödé 🙂"),
        None,
        Some("six"),
        Some("seven"),
    ]
    .into_iter()
    .enumerate()
    {
        let created = store
            .create(&NewSession {
                model: if n % 2 == 0 { "even" } else { "odd" }.into(),
                provider: "p".into(),
                title: title.map(str::to_string),
                workspace: (n % 3 == 0).then(|| "/w".to_string()),
            })
            .unwrap();
        ids.push(created.session_id);
    }
    let id_of_broken = ids[4].clone();
    store.list().unwrap();
    // One journal changed behind the index's back, one no longer readable.
    append_behind_the_index(&store, &ids[1]);
    std::fs::write(
        file(&store).session_dir(&id_of_broken).join(JOURNAL),
        b"not json\n",
    )
    .unwrap();

    let (text, problems, counts) = lines_as_stored(&store, &ListQuery::default());
    // Pages of 2 rows, then 4: the unreadable one is not a line. It is in
    // the first page when the read passed over the directory's entries
    // (its row re-read as just changed), in the second when not (a small
    // store's own writes are not watched, so which one depends on the
    // clock).
    assert!(counts == [2, 3, 1] || counts == [1, 4, 1], "{counts:?}");
    assert_eq!(problems, [id_of_broken]);
    // The record appended behind the index is counted.
    let changed: Vec<&str> = std::str::from_utf8(&text)
        .unwrap()
        .lines()
        .filter(|l| l.contains(&ids[1]))
        .collect();
    assert_eq!(changed.len(), 1);
    assert!(changed[0].contains("\"messageCount\":1"), "{}", changed[0]);

    // The same lines as from the summaries, whatever the query.
    let queries = [
        ListQuery::default(),
        ListQuery {
            model: Some("even".into()),
            ..ListQuery::default()
        },
        ListQuery {
            workspace: Some("/w".into()),
            ..ListQuery::default()
        },
        ListQuery {
            offset: 1,
            limit: Some(3),
            ..ListQuery::default()
        },
    ];
    for query in &queries {
        let (expected, expected_problems) = lines_of_summaries(&store, query);
        let (text, problems, counts) = lines_as_stored(&store, query);
        assert_eq!(
            String::from_utf8(text).unwrap(),
            String::from_utf8(expected).unwrap(),
            "{query:?}"
        );
        assert_eq!(problems, expected_problems, "{query:?}");
        // Pages of 2, then 4: every page but the last holds sessions.
        assert!(
            counts[..counts.len() - 1].iter().all(|&c| c > 0),
            "{counts:?}"
        );
    }
}

#[test]
fn a_data_directory_on_a_local_file_system_is_settled_a_few_ticks_after_a_change() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        super::derive::racy_ms(dir.path()),
        50,
        "the temporary directory is on a local file system here"
    );
    let store = store(dir.path());
    create(&store, None);
    std::thread::sleep(Duration::from_millis(100));
    store.list().unwrap();
    assert_ne!(meta(&store, "dir").as_deref(), Some(""));
    assert_eq!(store.list().unwrap().sessions.len(), 1);
}

#[test]
fn the_problems_of_a_listing_are_told_when_no_session_is_left_to_show() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    let broken = create(&store, None);
    store.list().unwrap();
    std::fs::write(
        file(&store).session_dir(&broken).join(JOURNAL),
        b"not json\n",
    )
    .unwrap();
    // Its stale row is read from its files: a problem, in the only page;
    // then the index keeps it as a problem row, which no statement lists.
    for _ in 0..2 {
        let (text, problems, counts) = lines_as_stored(&store, &ListQuery::default());
        assert!(text.is_empty());
        assert_eq!(problems, std::slice::from_ref(&broken));
        assert_eq!(counts, [0]);
    }

    // Past a full page, the last rows may all be problems: still told.
    let stale = create(&store, None);
    for _ in 0..2 {
        std::thread::sleep(Duration::from_millis(5));
        create(&store, None);
    }
    store.list().unwrap();
    std::fs::write(
        file(&store).session_dir(&stale).join(JOURNAL),
        b"not json\n",
    )
    .unwrap();
    let (text, problems, counts) = lines_as_stored(&store, &ListQuery::default());
    assert_eq!(std::str::from_utf8(&text).unwrap().lines().count(), 2);
    assert_eq!(counts, [2, 0]);
    assert_eq!(problems, [broken, stale]);
}

#[test]
fn a_worker_of_parallel_map_that_panics_panics_its_caller_rather_than_dropping_rows() {
    use crate::threads::parallel_map;
    let items: Vec<usize> = (0..1_000).collect();
    assert_eq!(
        parallel_map(&items, |&i| i * 2),
        items.iter().map(|i| i * 2).collect::<Vec<_>>()
    );
    let caught = std::panic::catch_unwind(|| {
        parallel_map(&items, |&i| {
            assert_ne!(i, 777, "a worker's panic");
            i
        })
    });
    assert!(caught.is_err());
}

fn say(store: &Store, id: &str, text: &str) {
    let at = "2026-01-01T00:00:00.000Z";
    let entry = Entry::from_input(
        json!({"role": "user", "parts": [{"type": "text", "text": text}], "timestamp": at}),
        at,
    )
    .unwrap();
    store.record(id, &entry, None).unwrap();
}

#[test]
fn the_sessions_a_search_reads_are_those_that_may_match_few_or_many_and_of_either_kind() {
    use crate::session::query::Query;
    use crate::session::store::file::Kind;
    let dir = tempfile::tempdir().unwrap();
    let journals = store(dir.path());
    // Sessions the OLLM CLI writes whole sit among the journals.
    let whole_files = Store::new(
        dir.path(),
        StoreOptions {
            max_sessions: 0,
            format: NewFormat::Cli,
            redaction: None,
            ..StoreOptions::default()
        },
    );
    let mut common = Vec::new();
    for i in 0..40 {
        let s = if i % 10 == 3 { &whole_files } else { &journals };
        let id = create(s, None);
        say(s, &id, &format!("retry number {i}"));
        common.push((
            id,
            if i % 10 == 3 {
                Kind::Plain
            } else {
                Kind::Journal
            },
        ));
    }
    let rare = common[13].clone();
    say(&journals, &rare.0, "zanzibar");
    common.sort_by(|a, b| a.0.cmp(&b.0));
    let candidates = |pattern: &str| {
        let query = Query {
            pattern: pattern.into(),
            ..Query::default()
        };
        let f = file(&journals);
        super::prefilter::candidates(f, &f.index, &query)
            .unwrap()
            .unwrap()
    };
    // One slot of forty: looked up by its slot.
    assert_eq!(candidates("zanzibar"), vec![rare]);
    // Every slot: one pass over all of them.
    assert_eq!(candidates("retry"), common);
    assert_eq!(candidates("nowhere at all"), vec![]);
}

#[test]
fn a_rebuild_makes_searchs_bits_in_its_one_pass_and_a_search_uses_them() {
    use crate::session::query::Query;
    use crate::session::store::file::Kind;
    let dir = tempfile::tempdir().unwrap();
    let journals = store(dir.path());
    let whole_files = Store::new(
        dir.path(),
        StoreOptions {
            max_sessions: 0,
            format: NewFormat::Cli,
            redaction: None,
            ..StoreOptions::default()
        },
    );
    let mut rare = Vec::new();
    for i in 0..12 {
        let (s, kind) = if i % 2 == 0 {
            (&whole_files, Kind::Plain)
        } else {
            (&journals, Kind::Journal)
        };
        let id = create(s, None);
        say(s, &id, &format!("retry number {i}"));
        if i % 5 == 0 {
            say(s, &id, "zanzibar");
            rare.push((id, kind));
        }
    }
    rare.sort_by(|a, b| a.0.cmp(&b.0));
    // Written a minute ago: a file changed within the racy window (50 ms
    // on a fast tmpfs, where all twelve are) has its bits left for later.
    let old = SystemTime::now() - Duration::from_secs(60);
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            std::fs::File::options()
                .append(true)
                .open(&path)
                .unwrap()
                .set_times(std::fs::FileTimes::new().set_modified(old))
                .unwrap();
        }
    }
    let f = file(&journals);
    assert_eq!(refresh::rebuild(f, &f.index).unwrap(), (12, 0));
    let db = refresh::open_fresh(f, &f.index).unwrap().unwrap();
    let count = |table: &str| -> i64 {
        db.conn()
            .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
            .unwrap()
    };
    // Every session's bits made by the build: none left for a search.
    assert_eq!((count("grams"), count("gram_dirty")), (12, 0));
    let named = meta(&journals, "grams");
    assert!(named.is_some());
    let query = Query {
        pattern: "zanzibar".into(),
        ..Query::default()
    };
    let found = super::prefilter::candidates(f, &f.index, &query)
        .unwrap()
        .unwrap();
    assert_eq!(found, rare);
    // The search took the build's bits as they were, not made anew.
    assert_eq!(meta(&journals, "grams"), named);
}
