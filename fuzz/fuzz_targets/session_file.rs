//! Any bytes as a stored session: as a journal (`<id>/journal.ndjson`) and
//! as a plain spec file (`<id>.json`). Never a panic; what loads round-trips:
//! a journal rewritten by this build's writers reads back the same records,
//! a plain session serializes and re-parses equal, `list`'s summary equals
//! the loaded session's, a store holding the bytes loads or reports, and a
//! record into the bytes as the OLLM CLI's document keeps every message.
#![no_main]
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use ollm::session::model::Stored;
use ollm::session::store::file::journal::{self, Record};
use ollm::session::{Entry, Message, Session, Store, StoreOptions};

const ID: &str = "3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1b";

fn parse_all(bytes: &[u8]) -> (journal::Scan, Vec<Record>) {
    let mut records = Vec::new();
    let scan = journal::scan(bytes, true, |line| {
        records.push(journal::parse_line(line, records.is_empty())?);
        Ok(())
    });
    (scan, records)
}

fn journal_round_trip(data: &[u8]) {
    let (scan, records) = parse_all(data);
    assert!(scan.valid_end <= data.len());
    let Some(Record::Head(head)) = records.first() else {
        return;
    };
    if scan.stop.is_some() {
        return;
    }
    // The light scan `list` uses accepts whatever the full parse accepts,
    // with the same counts.
    let mut summary = None;
    let light = journal::scan(&data[..scan.valid_end], true, |line| {
        journal::tally_line(&mut summary, line)
    });
    assert_eq!(
        light.stop, None,
        "the summary scan rejects a loadable journal"
    );
    let summary = summary.expect("a head");
    let entries: Vec<&Entry> = records
        .iter()
        .filter_map(|r| match r {
            Record::Stored(Stored::Entry { entry, .. }) => Some(entry),
            _ => None,
        })
        .collect();
    let messages = entries
        .iter()
        .filter(|e| matches!(e, Entry::Message(_)))
        .count();
    assert_eq!(summary.message_count as usize, messages);
    assert_eq!(summary.tool_call_count as usize, entries.len() - messages);

    let mut rewritten = journal::head_line(head);
    for record in &records[1..] {
        match record {
            Record::Stored(Stored::Entry { at, tokens, entry }) => {
                rewritten.extend(journal::entry_line(entry, at, *tokens))
            }
            Record::Stored(Stored::Compression { at, details }) => {
                rewritten.extend(journal::compression_line(at, details))
            }
            Record::Stored(Stored::Update { at, patch }) => {
                rewritten.extend(journal::update_line(at, patch))
            }
            Record::Head(_) | Record::Stored(Stored::Other { .. }) => {}
        }
    }
    let (again, reread) = parse_all(&rewritten);
    assert_eq!(
        (again.stop, again.torn),
        (None, false),
        "a rewritten journal does not load"
    );
    let Some(Record::Head(head_again)) = reread.first() else {
        panic!("the rewritten journal lost its head");
    };
    assert_eq!(head, head_again);
    let entries_again: Vec<&Entry> = reread
        .iter()
        .filter_map(|r| match r {
            Record::Stored(Stored::Entry { entry, .. }) => Some(entry),
            _ => None,
        })
        .collect();
    assert_eq!(entries, entries_again);
}

fn plain_round_trip(data: &[u8]) {
    let Ok(session) = serde_json::from_slice::<Session>(data) else {
        return;
    };
    let text = serde_json::to_vec(&session).expect("a session serializes");
    let again: Session = serde_json::from_slice(&text).expect("a written session re-parses");
    assert_eq!(session, again);
}

/// The store's own readers on the bytes, in a directory reused across runs.
fn through_the_store(data: &[u8]) {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    let dir = DIR
        .get_or_init(|| tempfile::tempdir().expect("temp dir"))
        .path();
    let _ = std::fs::remove_dir_all(dir.join("data"));
    let store = Store::new(dir.join("data"), StoreOptions::default());
    let files = store.as_file().expect("a journal store");
    // Known and left to the session store's owner: a complete last line
    // that is valid JSON but not a valid record (a tool call without a
    // result, say) is a torn tail to `get` but counted by `list`'s light
    // scan (and kept by the next writer). No writer or kill makes one, so
    // the counts are compared only when the journal has no torn tail.
    let torn = parse_all(data).0.torn;
    for plain in [false, true] {
        let _ = std::fs::remove_dir_all(dir.join("data"));
        if plain {
            std::fs::create_dir_all(dir.join("data")).unwrap();
            std::fs::write(files.plain_path(ID), data).unwrap();
        } else {
            std::fs::create_dir_all(files.session_dir(ID)).unwrap();
            std::fs::write(files.session_dir(ID).join("journal.ndjson"), data).unwrap();
        }
        let listing = store.list().expect("list answers");
        match store.load(ID) {
            Ok(loaded) => {
                let s = &loaded.session;
                if let Some(row) = listing.sessions.first().filter(|_| plain || !torn) {
                    assert_eq!(row, &s.summary(), "`list` and `get` disagree");
                }
            }
            Err(err) => assert!(!err.to_string().contains('\n'), "{err}"),
        }
        if plain {
            record_into_the_cli_document(&store);
        }
    }
}

/// A record into a session in the OLLM CLI's format keeps it a document
/// that loads with every message it had and the new one after them.
fn record_into_the_cli_document(store: &Store) {
    let Ok(before) = store.load(ID) else {
        return;
    };
    let entry = Entry::Message(Message::text("user", "fuzz", "2026-01-01T00:00:00.000Z"));
    match store.record(ID, &entry, None) {
        Ok(_) => {
            let after = store.load(ID).expect("a document recorded into loads");
            let (old, new) = (&before.session.messages, &after.session.messages);
            assert_eq!(new.len(), old.len() + 1);
            assert_eq!(&new[..old.len()], &old[..]);
            assert_eq!(after.session.tool_calls, before.session.tool_calls);
            assert_eq!(after.session.extra, before.session.extra);
        }
        Err(err) => assert!(!err.to_string().contains('\n'), "{err}"),
    }
}

fuzz_target!(|data: &[u8]| {
    journal_round_trip(data);
    plain_round_trip(data);
    through_the_store(data);
});
