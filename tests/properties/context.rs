//! Properties 18–21: context management.

use std::collections::BTreeMap;

use ollm::context::file;
use ollm::context::{NewEntry, Source, Store, render_prompt};
use proptest::prelude::*;

fn source() -> impl Strategy<Value = Source> {
    prop_oneof![
        Just(Source::Hook),
        Just(Source::Extension),
        Just(Source::User),
        Just(Source::System),
    ]
}

/// Entries with unique keys, in insertion order.
fn entries() -> impl Strategy<Value = Vec<NewEntry>> {
    prop::collection::btree_map(
        "[a-z0-9][a-z0-9 ._-]{0,30}",
        ("\\PC{1,300}", 0i64..=100, source()),
        0..16,
    )
    .prop_flat_map(|map: BTreeMap<String, (String, i64, Source)>| {
        let entries: Vec<NewEntry> = map
            .into_iter()
            .map(|(key, (content, priority, source))| NewEntry {
                key,
                content,
                priority,
                source,
                ttl: None,
            })
            .collect();
        Just(entries).prop_shuffle()
    })
}

fn now() -> jiff::Timestamp {
    jiff::Timestamp::now()
}

/// Adds every entry through the on-disk store, as `ollm-context add` does.
fn store_on_disk(entries: &[NewEntry]) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".ollm/context.json");
    for entry in entries {
        file::update(&path, |store| {
            store.add(entry.clone(), now());
            Ok(())
        })
        .unwrap();
    }
    (dir, path)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Property 18: an entry added with a unique key and removed by that key
    /// is no longer in the active list; the others stay.
    #[test]
    fn property_18_context_add_remove_round_trip(entries in entries(), pick in any::<prop::sample::Index>()) {
        prop_assume!(!entries.is_empty());
        let (_dir, path) = store_on_disk(&entries);
        let victim = entries[pick.index(entries.len())].key.clone();
        let removed = file::update(&path, |store| Ok(store.remove(&victim, now()))).unwrap();
        prop_assert!(removed);
        let store = file::read(&path).unwrap();
        let live = store.live(None, now());
        prop_assert!(live.iter().all(|e| e.key != victim));
        prop_assert!(store.get(&victim, now()).is_none());
        prop_assert_eq!(live.len(), entries.len() - 1);
    }

    /// Property 19: retrieving the active entries returns every added entry
    /// with its original content and metadata, in insertion order.
    #[test]
    fn property_19_context_retrieval_completeness(entries in entries()) {
        let (_dir, path) = store_on_disk(&entries);
        let store = file::read(&path).unwrap();
        let live = store.live(None, now());
        prop_assert_eq!(live.len(), entries.len());
        for (got, want) in live.iter().zip(&entries) {
            prop_assert_eq!(&got.key, &want.key);
            prop_assert_eq!(&got.content, &want.content);
            prop_assert_eq!(got.priority, want.priority);
            prop_assert_eq!(got.source, want.source);
            prop_assert!(got.expires_at.is_none());
        }
        for source in [Source::Hook, Source::Extension, Source::User, Source::System] {
            let want = entries.iter().filter(|e| e.source == source).count();
            prop_assert_eq!(store.live(Some(source), now()).len(), want);
        }
    }

    /// Property 20: the system-prompt additions contain the content of every
    /// active entry (and nothing when there is none).
    #[test]
    fn property_20_context_inclusion_in_system_prompt(entries in entries()) {
        let mut store = Store::new();
        for entry in &entries {
            store.add(entry.clone(), now());
        }
        let text = render_prompt(&store.prompt_order(now()));
        prop_assert_eq!(text.is_empty(), entries.is_empty());
        for entry in &entries {
            prop_assert!(text.contains(&entry.content));
            let heading = format!("## {}\n", entry.key);
            prop_assert!(text.contains(&heading));
        }
    }

    /// Property 21: entries appear in descending priority order, insertion
    /// order breaking ties, in both the ordered list and the rendered text.
    #[test]
    fn property_21_context_priority_ordering(entries in entries()) {
        let mut store = Store::new();
        for entry in &entries {
            store.add(entry.clone(), now());
        }
        let ordered = store.prompt_order(now());
        let position = |key: &str| entries.iter().position(|e| e.key == key).unwrap();
        for pair in ordered.windows(2) {
            prop_assert!(pair[0].priority >= pair[1].priority);
            if pair[0].priority == pair[1].priority {
                prop_assert!(position(&pair[0].key) < position(&pair[1].key));
            }
        }
        // The text is exactly the sections in that order.
        let mut expected = String::new();
        for (i, e) in ordered.iter().enumerate() {
            if i > 0 {
                expected.push('\n');
            }
            expected.push_str(&format!("## {}\n\n{}", e.key, e.content));
            if !e.content.ends_with('\n') {
                expected.push('\n');
            }
        }
        prop_assert_eq!(render_prompt(&ordered), expected);
    }
}
