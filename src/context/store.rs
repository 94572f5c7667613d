//! The context store's operations, on entries in insertion order. Pure
//! functions of the entries and the current time, so they are tested
//! without a clock or a file.

use serde::{Deserialize, Serialize};

use super::entry::{Entry, Source};

pub const VERSION: u32 = 1;

/// The format marker of a store file: what tells it from any other JSON.
pub(crate) const FORMAT: &str = "ollm-context-store";

/// The store file: `{"format":"ollm-context-store","version":1,"entries":[…]}`,
/// entries in insertion order. Files written before the marker lack
/// `format` (and the first ones `version`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Store {
    #[serde(default = "format")]
    pub format: String,
    #[serde(default = "version")]
    pub version: u32,
    pub entries: Vec<Entry>,
}

fn format() -> String {
    FORMAT.to_string()
}

fn version() -> u32 {
    VERSION
}

impl Default for Store {
    fn default() -> Store {
        Store::new()
    }
}

/// What `add` stores.
#[derive(Debug, Clone)]
pub struct NewEntry {
    pub key: String,
    pub content: String,
    pub priority: i64,
    pub source: Source,
    pub ttl: Option<std::time::Duration>,
}

impl Store {
    pub fn new() -> Store {
        Store {
            format: format(),
            version: VERSION,
            entries: Vec::new(),
        }
    }

    /// Drops expired entries (done on every write, so the file stays small).
    pub(crate) fn prune(&mut self, now: jiff::Timestamp) {
        self.entries.retain(|e| e.is_live(now));
    }

    /// Adds an entry. Re-adding a key replaces it but keeps its place in
    /// insertion order, as the spec's Map does, so a hook refreshing its
    /// entry every turn does not reorder the prompt. Whether a live entry
    /// was replaced.
    pub fn add(&mut self, new: NewEntry, now: jiff::Timestamp) -> bool {
        self.prune(now);
        let expires_at = new.ttl.and_then(|ttl| {
            jiff::SignedDuration::try_from(ttl)
                .ok()
                .and_then(|d| now.checked_add(d).ok())
        });
        let entry = Entry {
            key: new.key,
            content: new.content,
            priority: new.priority,
            source: new.source,
            timestamp: now,
            expires_at,
        };
        match self.entries.iter_mut().find(|e| e.key == entry.key) {
            Some(slot) => {
                *slot = entry;
                true
            }
            None => {
                self.entries.push(entry);
                false
            }
        }
    }

    /// Removes a live entry; whether it was there.
    pub fn remove(&mut self, key: &str, now: jiff::Timestamp) -> bool {
        self.prune(now);
        let before = self.entries.len();
        self.entries.retain(|e| e.key != key);
        self.entries.len() != before
    }

    /// Removes every entry, or those of one source; the keys of the live
    /// ones that went, in insertion order.
    pub fn clear(&mut self, source: Option<Source>, now: jiff::Timestamp) -> Vec<String> {
        self.prune(now);
        let (gone, kept) = std::mem::take(&mut self.entries)
            .into_iter()
            .partition(|e| source.is_none_or(|s| e.source == s));
        self.entries = kept;
        gone.into_iter().map(|e: Entry| e.key).collect::<Vec<_>>()
    }

    /// Live entries in insertion order, optionally of one source.
    pub fn live(&self, source: Option<Source>, now: jiff::Timestamp) -> Vec<&Entry> {
        self.entries
            .iter()
            .filter(|e| e.is_live(now) && source.is_none_or(|s| e.source == s))
            .collect()
    }

    pub fn get(&self, key: &str, now: jiff::Timestamp) -> Option<&Entry> {
        self.entries.iter().find(|e| e.key == key && e.is_live(now))
    }

    /// Live entries in prompt order: highest priority first, insertion order
    /// breaking ties (a stable sort).
    pub fn prompt_order(&self, now: jiff::Timestamp) -> Vec<&Entry> {
        let mut entries = self.live(None, now);
        entries.sort_by_key(|e| std::cmp::Reverse(e.priority));
        entries
    }
}

/// The system-prompt additions: one markdown section per entry, in the
/// given order, separated by a blank line. No entries, no text.
pub fn render_prompt(entries: &[&Entry]) -> String {
    let mut text = String::new();
    for (i, entry) in entries.iter().enumerate() {
        if i > 0 {
            text.push('\n');
        }
        text.push_str("## ");
        text.push_str(&entry.key);
        text.push_str("\n\n");
        text.push_str(&entry.content);
        if !entry.content.ends_with('\n') {
            text.push('\n');
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seconds: i64) -> jiff::Timestamp {
        jiff::Timestamp::from_second(1_800_000_000 + seconds).unwrap()
    }

    fn new(key: &str, priority: i64, ttl: Option<u64>) -> NewEntry {
        NewEntry {
            key: key.into(),
            content: format!("content of {key}"),
            priority,
            source: Source::User,
            ttl: ttl.map(std::time::Duration::from_secs),
        }
    }

    #[test]
    fn readding_replaces_in_place() {
        let mut store = Store::new();
        store.add(new("a", 1, None), at(0));
        store.add(new("b", 1, None), at(1));
        let mut again = new("a", 1, None);
        again.content = "new".into();
        store.add(again, at(2));
        let keys: Vec<&str> = store
            .prompt_order(at(3))
            .iter()
            .map(|e| e.key.as_str())
            .collect();
        assert_eq!(keys, ["a", "b"]);
        assert_eq!(store.get("a", at(3)).unwrap().content, "new");
        assert_eq!(store.entries.len(), 2);
    }

    #[test]
    fn priority_orders_and_insertion_breaks_ties() {
        let mut store = Store::new();
        for (k, p) in [("low", 10), ("hi1", 90), ("mid", 50), ("hi2", 90)] {
            store.add(new(k, p, None), at(0));
        }
        let keys: Vec<&str> = store
            .prompt_order(at(0))
            .iter()
            .map(|e| e.key.as_str())
            .collect();
        assert_eq!(keys, ["hi1", "hi2", "mid", "low"]);
        let text = render_prompt(&store.prompt_order(at(0)));
        assert!(
            text.starts_with("## hi1\n\ncontent of hi1\n\n## hi2\n"),
            "{text}"
        );
    }

    #[test]
    fn add_says_whether_it_replaced_a_live_entry() {
        let mut store = Store::new();
        assert!(!store.add(new("k", 1, Some(10)), at(0)));
        assert!(store.add(new("k", 2, Some(10)), at(5)));
        // An expired entry is gone, not replaced.
        assert!(!store.add(new("k", 3, None), at(20)));
    }

    #[test]
    fn expired_entries_drop_out() {
        let mut store = Store::new();
        store.add(new("short", 1, Some(10)), at(0));
        store.add(new("long", 1, None), at(0));
        assert!(store.get("short", at(9)).is_some());
        assert!(store.get("short", at(10)).is_none());
        assert_eq!(store.live(None, at(10)).len(), 1);
        assert!(!store.remove("short", at(11)));
    }

    #[test]
    fn clear_by_source_keeps_the_others() {
        let mut store = Store::new();
        store.add(new("u", 1, None), at(0));
        let mut hook = new("h", 1, None);
        hook.source = Source::Hook;
        store.add(hook, at(0));
        assert_eq!(store.clear(Some(Source::Hook), at(0)), ["h"]);
        assert_eq!(store.live(None, at(0)).len(), 1);
        assert_eq!(store.clear(None, at(0)), ["u"]);
        assert!(store.entries.is_empty());
    }

    #[test]
    fn an_empty_store_renders_nothing() {
        assert_eq!(render_prompt(&[]), "");
    }
}
