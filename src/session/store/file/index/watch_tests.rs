//! The fold after ollm's own rewrites of whole-file sessions: no pass over
//! the directory's entries for them, and every other program's change
//! noticed whether it came before, during or after them; and a rewrite
//! that reads the directory only when a killed writer left its mark.

use std::time::{Duration, SystemTime};

use serde_json::json;

use super::log::{Change, DirLink};
use super::refresh;
use crate::session::model::Entry;
use crate::session::store::api::{NewFormat, StoreOptions};
use crate::session::store::{NewSession, Store};

fn store(dir: &std::path::Path) -> Store {
    Store::new(
        dir,
        StoreOptions {
            max_sessions: 0,
            format: NewFormat::Cli,
            redaction: None,
            watch_writes_from: 0,
            ..StoreOptions::default()
        },
    )
}

fn create(store: &Store) -> String {
    store
        .create(&NewSession {
            model: "m".into(),
            provider: "p".into(),
            title: None,
            workspace: None,
        })
        .unwrap()
        .session_id
}

fn record(store: &Store, id: &str) {
    let at = "2030-01-01T00:00:00.000Z";
    let entry = Entry::from_input(
        json!({"role": "user", "parts": [{"type": "text", "text": "x"}], "timestamp": at}),
        at,
    )
    .unwrap();
    store.record(id, &entry, None).unwrap();
}

/// The message counts the index lists, by session.
fn counts(store: &Store) -> Vec<(String, u64)> {
    let mut counts: Vec<(String, u64)> = store
        .list()
        .unwrap()
        .sessions
        .into_iter()
        .map(|s| (s.session_id, s.message_count))
        .collect();
    counts.sort();
    counts
}

fn count_of(store: &Store, id: &str) -> u64 {
    counts(store)
        .into_iter()
        .find(|(of, _)| of == id)
        .map_or(u64::MAX, |(_, n)| n)
}

/// Dates the data directory's change time back an hour, so that the next
/// read trusts it (it is settled), and reads.
fn settle(store: &Store, data: &std::path::Path) {
    let back = SystemTime::now() - Duration::from_secs(3_600);
    std::fs::File::open(data)
        .unwrap()
        .set_times(std::fs::FileTimes::new().set_modified(back))
        .unwrap();
    store.list().unwrap();
}

/// The OLLM CLI's write of session `id`: its file with one more message,
/// `<id>.json.tmp` renamed into place.
fn cli_adds_a_message(data: &std::path::Path, id: &str) {
    let path = data.join(format!("{id}.json"));
    let mut doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    doc["messages"].as_array_mut().unwrap().push(json!({
        "role": "user", "parts": [{"type": "text", "text": "from the CLI"}],
        "timestamp": "2031-01-01T00:00:00.000Z"
    }));
    let tmp = data.join(format!("{id}.json.tmp"));
    std::fs::write(&tmp, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    std::fs::rename(tmp, path).unwrap();
}

/// Adds a message to session `id`'s file in place (no entry of the
/// directory changes): only a pass over the entries, which `stat`s every
/// file, notices it.
fn edited_in_place(data: &std::path::Path, id: &str) {
    let path = data.join(format!("{id}.json"));
    let mut doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    doc["messages"].as_array_mut().unwrap().push(json!({
        "role": "user", "parts": [{"type": "text", "text": "by hand"}],
        "timestamp": "2031-01-01T00:00:00.000Z"
    }));
    std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
}

#[test]
fn ollm_s_own_rewrites_cost_no_pass_over_the_entries() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    let (ours, edited) = (create(&store), create(&store));
    settle(&store, dir.path());
    edited_in_place(dir.path(), &edited);
    for n in 1..=3 {
        record(&store, &ours);
        assert_eq!(count_of(&store, &ours), n);
    }
    // Had a read passed over the entries, it would have seen the edit.
    assert_eq!(count_of(&store, &edited), 0);
    let f = store.as_file().unwrap();
    let db = refresh::open_fresh(f, &f.index).unwrap().unwrap();
    let now = super::watch::dir_stamp(&std::fs::metadata(dir.path()).unwrap());
    assert_eq!(db.meta("dir").unwrap(), Some(now));
}

#[test]
fn in_a_small_store_own_rewrites_are_not_watched_and_the_next_read_makes_a_pass() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::new(
        dir.path(),
        StoreOptions {
            max_sessions: 0,
            format: NewFormat::Cli,
            redaction: None,
            ..StoreOptions::default()
        },
    );
    let (ours, edited) = (create(&store), create(&store));
    settle(&store, dir.path());
    edited_in_place(dir.path(), &edited);
    record(&store, &ours);
    let log = std::fs::read_to_string(dir.path().join(".index/log")).unwrap();
    let last_put = log.lines().rfind(|line| line.contains("\"put\"")).unwrap();
    assert!(!last_put.contains("\"dir\""), "{last_put}");
    // With no link, the read compared the entries: it saw the edit.
    assert_eq!(count_of(&store, &edited), 1);
    assert_eq!(count_of(&store, &ours), 1);
}

#[test]
fn another_program_s_rename_before_or_after_an_own_rewrite_is_noticed() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    let (ours, theirs) = (create(&store), create(&store));
    settle(&store, dir.path());
    // Before: the link does not start from the stamp the index trusts.
    cli_adds_a_message(dir.path(), &theirs);
    record(&store, &ours);
    assert_eq!(count_of(&store, &theirs), 1);
    // After, with no read in between: the stamp is not the link's end.
    record(&store, &ours);
    cli_adds_a_message(dir.path(), &theirs);
    assert_eq!(count_of(&store, &theirs), 2);
    assert_eq!(count_of(&store, &ours), 2);
}

#[test]
fn the_sessions_a_link_names_are_read_again_and_a_broken_chain_makes_a_pass() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    let (ours, theirs, edited) = (create(&store), create(&store), create(&store));
    settle(&store, dir.path());
    let f = store.as_file().unwrap();
    let trusted = super::watch::dir_stamp(&std::fs::metadata(dir.path()).unwrap());
    let summary = f.summary(&ours).unwrap();
    // As a writer would note a rewrite during which the CLI wrote `theirs`.
    cli_adds_a_message(dir.path(), &theirs);
    edited_in_place(dir.path(), &edited);
    let now = super::watch::dir_stamp(&std::fs::metadata(dir.path()).unwrap());
    let put = |before: &str, touched: Vec<String>| Change::Put {
        summary: Box::new(summary.clone()),
        plain: true,
        stamp: "racy".into(),
        dir: Some(DirLink {
            before: before.into(),
            after: now.clone(),
            touched,
        }),
    };
    f.index.note(&put(&trusted, vec![theirs.clone()]));
    assert_eq!(count_of(&store, &theirs), 1);
    assert_eq!(count_of(&store, &edited), 0, "no pass was made");
    // A link from a stamp the index never trusted proves nothing.
    settle(&store, dir.path());
    assert_eq!(count_of(&store, &edited), 1, "a pass was made");
    edited_in_place(dir.path(), &edited);
    cli_adds_a_message(dir.path(), &theirs);
    let now = super::watch::dir_stamp(&std::fs::metadata(dir.path()).unwrap());
    f.index.note(&Change::Put {
        summary: Box::new(summary.clone()),
        plain: true,
        stamp: "racy".into(),
        dir: Some(DirLink {
            before: "1:2.3".into(),
            after: now,
            touched: Vec::new(),
        }),
    });
    assert_eq!(count_of(&store, &theirs), 2);
    assert_eq!(count_of(&store, &edited), 2, "a pass was made");
}

#[test]
fn a_killed_writer_s_temp_files_are_swept_by_the_next_write_its_mark_calls_for() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    let id = create(&store);
    let temp = dir
        .path()
        .join(format!(".{id}.json{}killed", crate::fs::TEMP_MARK));
    std::fs::write(&temp, b"half a document").unwrap();
    let mark = dir.path().join(".locks").join(format!("{id}.writing"));
    // Without the mark no writer was killed here: the write reads no directory.
    record(&store, &id);
    assert!(temp.exists());
    assert!(!mark.exists(), "a write that ends removes its mark");
    std::fs::write(&mark, b"").unwrap();
    record(&store, &id);
    assert!(!temp.exists());
    assert!(!mark.exists());
    assert_eq!(count_of(&store, &id), 2);
}

fn store_in(dir: &std::path::Path, format: NewFormat) -> Store {
    Store::new(
        dir,
        StoreOptions {
            max_sessions: 0,
            format,
            redaction: None,
            watch_writes_from: 0,
            ..StoreOptions::default()
        },
    )
}

#[test]
fn ollm_s_own_creates_branches_and_deletes_cost_no_pass_over_the_entries() {
    for format in [NewFormat::Cli, NewFormat::Journal] {
        let dir = tempfile::tempdir().unwrap();
        let edited = create(&store(dir.path()));
        let store = store_in(dir.path(), format);
        let ours = create(&store);
        record(&store, &ours);
        settle(&store, dir.path());
        edited_in_place(dir.path(), &edited);
        let made = create(&store);
        assert_eq!(count_of(&store, &made), 0, "{format:?}");
        let branch = store.branch(&ours, 1, None).unwrap().session_id;
        assert_eq!(count_of(&store, &branch), 1, "{format:?}");
        store.delete(&made).unwrap();
        assert_eq!(count_of(&store, &made), u64::MAX, "{format:?}");
        // Had a read passed over the entries, it would have seen the edit.
        assert_eq!(count_of(&store, &edited), 0, "{format:?}: a pass was made");
        let f = store.as_file().unwrap();
        let db = refresh::open_fresh(f, &f.index).unwrap().unwrap();
        let now = super::watch::dir_stamp(&std::fs::metadata(dir.path()).unwrap());
        assert_eq!(db.meta("dir").unwrap(), Some(now), "{format:?}");
    }
}

#[test]
fn another_program_s_rename_before_or_after_an_own_create_or_delete_is_noticed() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    let (ours, theirs) = (create(&store), create(&store));
    settle(&store, dir.path());
    cli_adds_a_message(dir.path(), &theirs);
    store.delete(&ours).unwrap();
    assert_eq!(count_of(&store, &theirs), 1);
    let made = create(&store);
    cli_adds_a_message(dir.path(), &theirs);
    assert_eq!(count_of(&store, &theirs), 2);
    store.delete(&made).unwrap();
    cli_adds_a_message(dir.path(), &theirs);
    assert_eq!(count_of(&store, &theirs), 3);
    assert_eq!(count_of(&store, &made), u64::MAX);
}

#[test]
fn a_killed_create_or_delete_s_leftovers_are_swept_by_the_next_one_its_mark_calls_for() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    let (ours, other) = (create(&store), create(&store));
    let leftovers = [
        dir.path().join(format!(".tmp-{ours}-4242")),
        dir.path().join(format!(".trash-{ours}-4242-1-0")),
        dir.path()
            .join(format!(".{other}.json{}killed", crate::fs::TEMP_MARK)),
    ];
    std::fs::create_dir(&leftovers[0]).unwrap();
    std::fs::create_dir(&leftovers[1]).unwrap();
    std::fs::write(&leftovers[2], b"half a document").unwrap();
    let mark = dir.path().join(".locks").join("store.writing");
    // Without the mark no such writer was killed: nothing is looked for.
    create(&store);
    assert!(leftovers.iter().all(|left| left.exists()));
    assert!(!mark.exists(), "a create that ends removes its mark");
    std::fs::write(&mark, b"").unwrap();
    store.delete(&ours).unwrap();
    assert!(leftovers.iter().all(|left| !left.exists()));
    assert!(!mark.exists());
    assert_eq!(count_of(&store, &other), 0);
}

#[test]
fn a_delete_sweeps_what_a_killed_rewrite_of_its_session_left() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    let id = create(&store);
    let temp = dir
        .path()
        .join(format!(".{id}.json{}killed", crate::fs::TEMP_MARK));
    std::fs::write(&temp, b"half a document").unwrap();
    let mark = dir.path().join(".locks").join(format!("{id}.writing"));
    std::fs::write(&mark, b"").unwrap();
    store.delete(&id).unwrap();
    assert!(!temp.exists());
    assert!(!mark.exists());
}
