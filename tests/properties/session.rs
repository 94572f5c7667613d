//! Properties 1–9: session recording. Stores live on a tmpfs when there is
//! one (these check the store's logic; the end-to-end tests check
//! durability on a real disk by killing writers).

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use ollm::session::model::is_uuid;
use ollm::session::store::JOURNAL;
use ollm::session::store::NewFormat;
use ollm::session::{
    Entry, Message, NewSession, Session, Snapshots, Store, StoreOptions, ToolCall,
};

use crate::pg::TestPg;
use ollm::timestamp;
use proptest::prelude::*;
use serde_json::{Value, json};

fn temp_dir() -> tempfile::TempDir {
    let shm = std::path::Path::new("/dev/shm");
    if shm.is_dir()
        && let Ok(dir) = tempfile::tempdir_in(shm)
    {
        return dir;
    }
    tempfile::tempdir().expect("temp dir")
}

/// Where a case's sessions live: the file store writing journals or the
/// OLLM CLI's documents, or a PostgreSQL schema of its own. Every property
/// runs on each.
struct Place {
    dir: tempfile::TempDir,
    pg: Option<TestPg>,
    format: NewFormat,
}

/// The file store in both formats, and PostgreSQL when a server is there.
fn places() -> Vec<Place> {
    let mut places = vec![
        Place {
            dir: temp_dir(),
            pg: None,
            format: NewFormat::Journal,
        },
        Place {
            dir: temp_dir(),
            pg: None,
            format: NewFormat::Cli,
        },
    ];
    if let Some(pg) = TestPg::new() {
        places.push(Place {
            dir: temp_dir(),
            pg: Some(pg),
            format: NewFormat::default(),
        });
    }
    places
}

impl Place {
    /// A store on this place, as a new process would open it.
    fn store(&self, max_sessions: u64, clock: Arc<AtomicI64>) -> Store {
        let options = StoreOptions {
            max_sessions,
            snapshots_dir: Some(self.dir.path().join("snaps")),
            format: self.format,
            // What is stored is what was given: these properties are about
            // storage; redaction has its own (property 29).
            redaction: None,
            clock: Arc::new(move || clock.load(Ordering::SeqCst)),
            ..StoreOptions::default()
        };
        let location = self.pg.as_ref().map_or("file", |pg| pg.url.as_str());
        Store::open(location, self.dir.path().join("data"), options).unwrap()
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

/// RFC 3339, the ISO 8601 profile every writer here uses.
fn strict_iso(text: &str) -> bool {
    let re = regex::Regex::new(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
        .unwrap();
    re.is_match(text) && timestamp::parse(text).is_some()
}

fn iso_timestamp() -> impl Strategy<Value = String> {
    (0i64..4_102_444_800_000, 0usize..3).prop_map(|(ms, form)| {
        let utc = timestamp::format_millis(ms);
        match form {
            0 => utc,
            1 => format!("{}Z", &utc[..19]),
            _ => {
                // The same instant written with a +02:00 offset.
                let shifted = timestamp::format_millis(ms + 2 * 3_600_000);
                format!("{}+02:00", &shifted[..23])
            }
        }
    })
}

fn message() -> impl Strategy<Value = Value> {
    (
        prop_oneof![Just("user"), Just("assistant"), Just("system")],
        prop::collection::vec("\\PC{0,80}", 0..3),
        iso_timestamp(),
    )
        .prop_map(|(role, texts, ts)| {
            let parts: Vec<Value> = texts
                .into_iter()
                .map(|t| json!({"type": "text", "text": t}))
                .collect();
            json!({"role": role, "parts": parts, "timestamp": ts})
        })
}

fn tool_call() -> impl Strategy<Value = Value> {
    (
        "[a-z0-9_]{1,12}",
        "[a-z_]{1,12}",
        prop::collection::btree_map("[a-z]{1,6}", "\\PC{0,20}", 0..3),
        "\\PC{0,80}",
        prop::option::of("\\PC{0,40}"),
        iso_timestamp(),
    )
        .prop_map(|(id, name, args, content, display, ts)| {
            let mut result = json!({"llmContent": content});
            if let Some(display) = display {
                result["returnDisplay"] = display.into();
            }
            json!({"id": id, "name": name, "args": args, "result": result, "timestamp": ts})
        })
}

fn entries(max: usize) -> impl Strategy<Value = Vec<Entry>> {
    prop::collection::vec(prop_oneof![3 => message(), 1 => tool_call()], 0..max).prop_map(
        |values| {
            values
                .into_iter()
                .map(|v| Entry::from_input(v, "2024-01-15T10:30:00Z").unwrap())
                .collect()
        },
    )
}

fn split(entries: &[Entry]) -> (Vec<Message>, Vec<ToolCall>) {
    let mut messages = Vec::new();
    let mut calls = Vec::new();
    for e in entries {
        match e {
            Entry::Message(m) => messages.push(m.clone()),
            Entry::ToolCall(t) => calls.push(t.clone()),
        }
    }
    (messages, calls)
}

fn clock() -> Arc<AtomicI64> {
    Arc::new(AtomicI64::new(1_705_314_600_000))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Property 1: saving a session and loading it gives an equivalent
    /// session with all data intact — through the journal, and through a
    /// plain spec-format file written by another tool.
    #[test]
    fn property_1_session_persistence_round_trip(records in entries(16)) {
        for place in places() {
            let store = place.store(0, clock());
            let id = new_session(&store);
            for entry in &records {
                store.record(&id, entry, None).unwrap();
            }
            let loaded = store.get(&id).unwrap();
            let (messages, calls) = split(&records);
            prop_assert_eq!(&loaded.messages, &messages);
            prop_assert_eq!(&loaded.tool_calls, &calls);
            // A fresh store (another process) reads the same.
            let again = place.store(0, clock()).get(&id).unwrap();
            prop_assert_eq!(&again, &loaded);
            // The same session as a plain spec file loads identically (and
            // imports so into a database).
            let plain_id = ollm::session::model::new_id();
            let mut plain = loaded.clone();
            plain.session_id = plain_id.clone();
            let files = match store.as_file() {
                Some(_) => store.clone(),
                None => Store::new(place.dir.path().join("plain"), StoreOptions::default()),
            };
            let path = files.as_file().unwrap().plain_path(&plain_id);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, serde_json::to_vec(&plain).unwrap()).unwrap();
            if store.as_file().is_none() {
                prop_assert!(store.import(&files.load(&plain_id).unwrap()).unwrap());
            }
            prop_assert_eq!(store.get(&plain_id).unwrap(), plain);
        }
    }

    /// Property 2: a saved session has every required field, and so do its
    /// messages and tool calls.
    #[test]
    fn property_2_session_file_format_completeness(records in entries(10)) {
        for place in places() {
            let store = place.store(0, clock());
            let id = new_session(&store);
            for entry in &records {
                store.record(&id, entry, None).unwrap();
            }
            let value = serde_json::to_value(store.get(&id).unwrap()).unwrap();
            for key in ["sessionId", "startTime", "lastActivity", "model", "provider", "messages", "toolCalls", "metadata"] {
                prop_assert!(value.get(key).is_some(), "missing {}", key);
            }
            prop_assert!(value["metadata"]["tokenCount"].is_u64());
            prop_assert!(value["metadata"]["compressionCount"].is_u64());
            for m in value["messages"].as_array().unwrap() {
                prop_assert!(m["role"].is_string() && m["parts"].is_array() && m["timestamp"].is_string());
            }
            for t in value["toolCalls"].as_array().unwrap() {
                for key in ["id", "name", "args", "result", "timestamp"] {
                    prop_assert!(t.get(key).is_some(), "tool call missing {}", key);
                }
                prop_assert!(t["result"]["llmContent"].is_string());
            }
            // And it parses back as the spec's type.
            prop_assert!(serde_json::from_value::<Session>(value).is_ok());
        }
    }

    /// Property 3: every timestamp of a session file is ISO 8601.
    #[test]
    fn property_3_timestamp_format_validity(records in entries(10), compressions in 0usize..3) {
        for place in places() {
            let store = place.store(0, clock());
            let id = new_session(&store);
            for entry in &records {
                store.record(&id, entry, None).unwrap();
            }
            for _ in 0..compressions {
                store.record_compression(&id, &serde_json::Map::new()).unwrap();
            }
            let session = store.get(&id).unwrap();
            let mut stamps = vec![session.start_time.clone(), session.last_activity.clone()];
            stamps.extend(session.messages.iter().map(|m| m.timestamp().to_string()));
            stamps.extend(session.tool_calls.iter().map(|t| t.timestamp().to_string()));
            stamps.extend(session.metadata.compression_history.iter().map(|c| c["timestamp"].as_str().unwrap_or("").to_string()));
            for stamp in stamps {
                prop_assert!(strict_iso(&stamp), "{:?} is not ISO 8601", stamp);
            }
        }
    }

    /// Property 4: every created session id is a UUID, and unique.
    #[test]
    fn property_4_session_id_uniqueness_and_format(count in 1usize..12) {
        for place in places() {
            let store = place.store(0, clock());
            let ids: Vec<String> = (0..count).map(|_| new_session(&store)).collect();
            let unique: HashSet<&String> = ids.iter().collect();
            prop_assert_eq!(unique.len(), count);
            for id in &ids {
                prop_assert!(is_uuid(id));
                prop_assert_eq!(uuid_version(id), 4);
            }
        }
    }

    /// Property 5: listing returns every saved session with correct counts.
    #[test]
    fn property_5_session_listing_completeness(sessions in prop::collection::vec(entries(6), 0..5)) {
        for place in places() {
            let store = place.store(0, clock());
            let mut expected = Vec::new();
            for records in &sessions {
                let id = new_session(&store);
                for entry in records {
                    store.record(&id, entry, None).unwrap();
                }
                let (messages, _) = split(records);
                let tokens: u64 = records.iter().map(Entry::estimated_tokens).sum();
                expected.push((id, messages.len() as u64, tokens));
            }
            let listing = store.list().unwrap();
            prop_assert!(listing.problems.is_empty());
            prop_assert_eq!(listing.sessions.len(), expected.len());
            for (id, messages, tokens) in expected {
                let summary = listing.sessions.iter().find(|s| s.session_id == id).unwrap();
                prop_assert_eq!(summary.message_count, messages);
                prop_assert_eq!(summary.token_count, tokens);
                prop_assert_eq!(&summary.model, "llama3.1:8b");
            }
        }
    }

    /// Property 6: deleting a session removes its file and its listing.
    #[test]
    fn property_6_session_deletion_removes_file(count in 1usize..6, pick in any::<prop::sample::Index>(), plain in any::<bool>()) {
        for place in places() {
            let store = place.store(0, clock());
            let mut ids: Vec<String> = (0..count).map(|_| new_session(&store)).collect();
            if plain && let Some(file) = store.as_file() {
                let id = ollm::session::model::new_id();
                let session = json!({"sessionId": id, "startTime": "2024-01-15T10:30:00Z", "model": "m",
                    "provider": "p", "messages": [], "toolCalls": [], "metadata": {"tokenCount": 0, "compressionCount": 0}});
                std::fs::write(file.plain_path(&id), session.to_string()).unwrap();
                ids.push(id);
            }
            let victim = pick.get(&ids).clone();
            store.delete(&victim).unwrap();
            if let Some(file) = store.as_file() {
                prop_assert!(!file.session_dir(&victim).exists());
                prop_assert!(!file.plain_path(&victim).exists());
            }
            prop_assert!(store.get(&victim).is_err());
            let listed: Vec<String> = store.list().unwrap().sessions.into_iter().map(|s| s.session_id).collect();
            prop_assert!(!listed.contains(&victim));
            prop_assert_eq!(listed.len(), ids.len() - 1);
        }
    }

    /// Property 7: everything recorded is on disk and recoverable after the
    /// process dies — even mid-write: a torn partial record after the
    /// acknowledged ones is ignored, and the next record lands cleanly.
    #[test]
    fn property_7_session_auto_save_durability(
        records in entries(10),
        torn in entries(1),
        cut in any::<prop::sample::Index>(),
    ) {
        for place in places() {
            let store = place.store(0, clock());
            let id = new_session(&store);
            for entry in &records {
                store.record(&id, entry, None).unwrap();
            }
            // A writer killed while writing its next record (a database
            // keeps no part of a transaction that did not commit).
            let journal = store.as_file().map(|file| file.session_dir(&id).join(JOURNAL));
            if let (Some(entry), Some(path)) = (torn.first(), journal.filter(|p| p.exists())) {
                let payload = match entry {
                    Entry::Message(m) => json!({"type": "message", "at": "2024-01-15T10:30:00Z", "message": m}),
                    Entry::ToolCall(t) => json!({"type": "toolCall", "at": "2024-01-15T10:30:00Z", "toolCall": t}),
                };
                let line = serde_json::to_vec(&payload).unwrap();
                let partial = &line[..cut.index(line.len())];
                let mut bytes = std::fs::read(&path).unwrap();
                bytes.extend_from_slice(partial);
                std::fs::write(&path, bytes).unwrap();
            }
            let fresh = place.store(0, clock());
            let (messages, calls) = split(&records);
            let loaded = fresh.get(&id).unwrap();
            prop_assert_eq!(&loaded.messages, &messages);
            prop_assert_eq!(&loaded.tool_calls, &calls);
            prop_assert_eq!(fresh.summary(&id).unwrap().message_count, messages.len() as u64);
            let after = Entry::Message(Message::text("user", "after the crash", "2024-01-15T10:30:00Z"));
            fresh.record(&id, &after, None).unwrap();
            let loaded = fresh.get(&id).unwrap();
            prop_assert_eq!(loaded.messages.len(), messages.len() + 1);
            prop_assert_eq!(loaded.messages.last().unwrap().text_content(), "after the crash");
        }
    }

    /// Property 8: past the maximum, the oldest sessions are deleted until
    /// the count is at the maximum.
    #[test]
    fn property_8_session_count_limit_enforcement(count in 1usize..10, max in 1u64..5) {
        for place in places() {
            let time = clock();
            let store = place.store(max, time.clone());
            let mut created = Vec::new();
            for _ in 0..count {
                time.fetch_add(1000, Ordering::SeqCst);
                created.push(new_session(&store));
                let listing = store.list().unwrap();
                prop_assert!(listing.sessions.len() as u64 <= max);
            }
            let kept: Vec<String> = store.list().unwrap().sessions.into_iter().map(|s| s.session_id).collect();
            let newest: Vec<String> = created.iter().rev().take(max as usize).cloned().collect();
            prop_assert_eq!(kept, newest);
        }
    }

    /// Property 9: lastActivity after a record is never before what it was,
    /// whatever the clock and the records' own timestamps say.
    #[test]
    fn property_9_last_activity_timestamp_updates(
        steps in prop::collection::vec((-5_000_000i64..5_000_000, entries(2)), 1..12),
    ) {
        for place in places() {
            let time = clock();
            let store = place.store(0, time.clone());
            let id = new_session(&store);
            let mut previous = timestamp::parse(&store.summary(&id).unwrap().last_activity).unwrap();
            for (jump, records) in steps.clone() {
                time.fetch_add(jump, Ordering::SeqCst);
                for entry in &records {
                    let ack = store.record(&id, entry, None).unwrap();
                    let now = timestamp::parse(&ack.last_activity).unwrap();
                    prop_assert!(now >= previous, "{} went back", ack.last_activity);
                    prop_assert!(now >= time.load(Ordering::SeqCst) || now == previous);
                    previous = now;
                }
            }
            prop_assert_eq!(timestamp::parse(&store.get(&id).unwrap().last_activity).unwrap(), previous);
        }
    }
}

fn uuid_version(id: &str) -> u32 {
    u32::from(id.as_bytes()[14]) - u32::from(b'0')
}

/// Not a numbered property: the store operation renames and other head
/// changes go through, on each store. The records and counts stay, the
/// new head is what `get` and `list` show, and `null` removes a field.
#[test]
fn update_metadata_changes_the_head_and_nothing_else_on_each_store() {
    for place in places() {
        let store = place.store(0, clock());
        let id = new_session(&store);
        let hello = Entry::Message(Message::text("user", "hello", "2024-01-15T10:30:00Z"));
        store.record(&id, &hello, None).unwrap();
        let before = store.get(&id).unwrap();
        let mut patch = serde_json::Map::new();
        patch.insert("title".into(), json!("renamed"));
        patch.insert("workspace".into(), json!("/src/app"));
        let summary = store.update_metadata(&id, &patch).unwrap();
        assert_eq!(summary.title.as_deref(), Some("renamed"));
        assert_eq!(summary.message_count, 1);
        let fresh = place.store(0, clock());
        let after = fresh.get(&id).unwrap();
        assert_eq!(after.title.as_deref(), Some("renamed"));
        assert_eq!(after.workspace.as_deref(), Some("/src/app"));
        assert_eq!(after.messages, before.messages);
        assert_eq!(
            after.last_activity, before.last_activity,
            "a rename is not activity"
        );
        assert_eq!(
            fresh.list().unwrap().sessions[0].title.as_deref(),
            Some("renamed")
        );
        assert_eq!(
            fresh.list().unwrap().sessions[0].workspace.as_deref(),
            Some("/src/app"),
            "the listing's summary follows the head"
        );
        let mut remove = serde_json::Map::new();
        remove.insert("title".into(), Value::Null);
        fresh.update_metadata(&id, &remove).unwrap();
        assert_eq!(fresh.get(&id).unwrap().title, None);
        assert_eq!(fresh.summary(&id).unwrap().title, None);
    }
}

/// Not a numbered property: the preview of an untitled session (listings,
/// the picker) is its first user message, on each store; a session with
/// none has no preview, and an unknown id is not found.
#[test]
fn first_user_text_is_the_first_user_message_on_each_store() {
    for place in places() {
        let store = place.store(0, clock());
        let id = new_session(&store);
        assert_eq!(store.first_user_text(&id).unwrap(), None);
        for (role, text) in [
            ("system", "be brief"),
            ("user", "fix the build"),
            ("user", "later"),
        ] {
            let entry = Entry::Message(Message::text(role, text, "2024-01-15T10:30:00Z"));
            store.record(&id, &entry, None).unwrap();
        }
        assert_eq!(
            store.first_user_text(&id).unwrap().as_deref(),
            Some("fix the build")
        );
        let unknown = "00000000-0000-4000-8000-000000000000";
        assert!(matches!(
            store.first_user_text(unknown),
            Err(ollm::Error::NotFound(_))
        ));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    /// Not a numbered property: on each store, creating snapshots keeps
    /// the newest `maxCount` (0: all), listed newest first, each restoring
    /// the session's records as they were when it was taken; a store opened
    /// anew (another process, another machine's for PostgreSQL) sees the
    /// same; deleting the session leaves none.
    #[test]
    fn snapshots_keep_the_newest_max_count_and_restore_on_each_store(
        records in entries(6),
        count in 1usize..6,
        max in 0u64..4,
    ) {
        for place in places() {
            let store = place.store(0, clock());
            let snapshots = Snapshots::new(place.dir.path().join("snaps"), max);
            let id = new_session(&store);
            let mut taken = Vec::new();
            for n in 0..count {
                if let Some(entry) = records.get(n) {
                    store.record(&id, entry, None).unwrap();
                }
                let made = snapshots.create(&store, &id, None, Some(format!("s{n}"))).unwrap();
                taken.push((made.info.id, store.load(&id).unwrap().entries()));
            }
            let kept = if max == 0 { taken.len() } else { taken.len().min(max as usize) };
            let expected: Vec<String> = taken.iter().rev().take(kept).map(|(s, _)| s.clone()).collect();
            // Another machine: its own snapshots.dir, the same store.
            let elsewhere = temp_dir();
            let other = if place.pg.is_some() {
                Snapshots::new(elsewhere.path().join("snaps"), max)
            } else {
                snapshots.clone()
            };
            let fresh = place.store(0, clock());
            let listed: Vec<String> = other.list(&fresh, &id).unwrap().into_iter().map(|s| s.id).collect();
            prop_assert_eq!(&listed, &expected);
            for (snap, entries) in taken.iter().rev().take(kept) {
                let shown = other.show(&fresh, snap, None).unwrap();
                let restored = shown.restored_entries();
                let original: Vec<Entry> = entries.iter().map(|(e, _)| e.clone()).collect();
                prop_assert_eq!(restored, original);
            }
            fresh.delete(&id).unwrap();
            prop_assert!(other.list(&fresh, &id).unwrap().is_empty());
            prop_assert!(other.show(&fresh, &expected[0], None).is_err());
        }
    }
}
