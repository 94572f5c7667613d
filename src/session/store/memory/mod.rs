//! A store in this process's memory, for the library's unit tests: what a
//! third store takes (this folder and one line in `kinds.rs`). Each
//! session is its head and its records, made into a session by the model's
//! one fold ([`rebuild`]), as the journal and the database do; writers of
//! a session take its lock, as the file store's do.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use serde_json::{Map, Value};

use crate::config::store_kinds::StoreKind;
use crate::error::{Error, Result};
use crate::session::model::{Entry, Loaded, SessionHead, SessionSummary, Stored, rebuild};
use crate::session::query::{self, Found, Matcher, Query};
use crate::session::store::api::{
    Append, CleanupReport, Created, Guard, Listing, Publish, SessionLock, SessionStore, SetAside,
    StoreOptions,
};
use crate::timestamp;

mod tests;

/// Opened by its name: `memory`.
pub(crate) const KIND: StoreKind = StoreKind {
    name: "memory",
    schemes: &[],
};

/// An empty store (`dir` is not used).
#[allow(clippy::unnecessary_wraps)] // the table's opener type
pub(crate) fn open(
    _location: &str,
    _dir: PathBuf,
    options: StoreOptions,
) -> Result<Arc<dyn SessionStore>> {
    Ok(Arc::new(MemoryStore {
        options,
        sessions: Mutex::new(BTreeMap::new()),
        held: Arc::new(Held::default()),
    }))
}

/// One session as kept: its head and its records in the order written.
struct Kept {
    head: SessionHead,
    records: Vec<Stored>,
}

impl Kept {
    fn loaded(&self) -> Loaded {
        rebuild(self.head.clone(), self.records.clone())
    }
}

struct MemoryStore {
    options: StoreOptions,
    sessions: Mutex<BTreeMap<String, Kept>>,
    held: Arc<Held>,
}

/// The sessions whose lock is held, and the writers waiting for one.
#[derive(Default)]
struct Held {
    ids: Mutex<BTreeSet<String>>,
    freed: Condvar,
}

/// A session's lock: held until dropped.
struct HeldLock {
    held: Arc<Held>,
    id: String,
}

impl Drop for HeldLock {
    fn drop(&mut self) {
        let mut ids = self
            .held
            .ids
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        ids.remove(&self.id);
        self.held.freed.notify_all();
    }
}

impl Guard for HeldLock {
    fn discard(self: Box<Self>) {}
}

fn not_found(id: &str) -> Error {
    Error::NotFound(format!("no session {id}"))
}

impl MemoryStore {
    fn sessions(&self) -> MutexGuard<'_, BTreeMap<String, Kept>> {
        self.sessions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn now(&self) -> String {
        timestamp::format_millis((self.options.clock)())
    }

    /// `change` of session `id` under its lock; the summary after.
    fn change(&self, id: &str, change: impl FnOnce(&mut Kept)) -> Result<SessionSummary> {
        let _lock = self.lock_session(id)?;
        let mut sessions = self.sessions();
        let kept = sessions.get_mut(id).ok_or_else(|| not_found(id))?;
        change(kept);
        Ok(kept.loaded().session.summary())
    }

    /// Every session's summary, newest first.
    fn summaries(&self) -> Vec<SessionSummary> {
        let mut summaries: Vec<SessionSummary> = self
            .sessions()
            .values()
            .map(|kept| kept.loaded().session.summary())
            .collect();
        summaries.sort_by(|a, b| b.last_activity.cmp(&a.last_activity));
        summaries
    }
}

impl SessionStore for MemoryStore {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn location(&self) -> String {
        KIND.name.to_string()
    }

    fn options(&self) -> &StoreOptions {
        &self.options
    }

    fn exists(&self, id: &str) -> Result<()> {
        if self.sessions().contains_key(id) {
            Ok(())
        } else {
            Err(not_found(id))
        }
    }

    fn has_any(&self, id: &str) -> bool {
        self.sessions().contains_key(id)
    }

    fn publish(&self, new: Publish) -> Result<Created> {
        let id = new.head.session_id.clone();
        let at = new.head.last_activity.clone();
        let records = new
            .entries
            .into_iter()
            .map(|(entry, tokens)| Stored::Entry {
                at: at.clone(),
                tokens,
                entry,
            })
            .collect();
        let created = Created {
            session_id: id.clone(),
            parent_session_id: new.head.parent_session_id.clone(),
            branch_point: new.head.branch_point,
            removed: Vec::new(),
        };
        self.sessions().insert(
            id.clone(),
            Kept {
                head: new.head,
                records,
            },
        );
        let max = self.options.max_sessions;
        if !new.enforce_max || max == 0 {
            return Ok(created);
        }
        let mut removed = Vec::new();
        for old in self.summaries().iter().skip(max as usize).rev() {
            if old.session_id != id {
                self.sessions().remove(&old.session_id);
                removed.push(old.session_id.clone());
            }
        }
        Ok(Created { removed, ..created })
    }

    fn append(&self, id: &str, record: Append<'_>) -> Result<SessionSummary> {
        let at = self.now();
        let record = match record {
            Append::Entry { entry, tokens } => Stored::Entry {
                at,
                tokens: Some(tokens),
                entry: entry.clone(),
            },
            Append::Compression(details) => Stored::Compression {
                at,
                details: details.clone(),
            },
        };
        self.change(id, |kept| kept.records.push(record))
    }

    fn append_entries(
        &self,
        id: &str,
        entries: &[(Entry, u64)],
        not_before: Option<timestamp::Millis>,
    ) -> Result<SessionSummary> {
        let now = (self.options.clock)();
        self.change(id, |kept| {
            let last = timestamp::parse(&kept.loaded().session.last_activity);
            let at = match not_before {
                Some(wanted) => last.map_or(wanted, |last| last.max(wanted)),
                None => now,
            };
            let at = timestamp::format_millis(at);
            kept.records
                .extend(entries.iter().map(|(entry, tokens)| Stored::Entry {
                    at: at.clone(),
                    tokens: Some(*tokens),
                    entry: entry.clone(),
                }));
        })
    }

    /// Not activity: the update is stamped with the current lastActivity.
    fn update_metadata(&self, id: &str, patch: &Map<String, Value>) -> Result<SessionSummary> {
        self.change(id, |kept| {
            let at = kept.loaded().session.last_activity;
            kept.records.push(Stored::Update {
                at,
                patch: patch.clone(),
            });
        })
    }

    fn summary(&self, id: &str) -> Result<SessionSummary> {
        Ok(self.load_held(id, None)?.session.summary())
    }

    fn load_held(&self, id: &str, _held: Option<&SessionLock>) -> Result<Loaded> {
        self.sessions()
            .get(id)
            .map(Kept::loaded)
            .ok_or_else(|| not_found(id))
    }

    fn list(&self) -> Result<Listing> {
        Ok(Listing {
            sessions: self.summaries(),
            problems: Vec::new(),
        })
    }

    fn count(&self) -> Result<usize> {
        Ok(self.sessions().len())
    }

    /// None: nothing here is read from bytes that could be torn.
    fn corrupt(&self) -> Result<Vec<SetAside>> {
        Ok(Vec::new())
    }

    fn delete(&self, id: &str) -> Result<()> {
        let _lock = self.lock_session(id)?;
        self.sessions()
            .remove(id)
            .map(drop)
            .ok_or_else(|| not_found(id))
    }

    fn cleanup(&self, keep: u64, dry_run: bool) -> Result<CleanupReport> {
        let summaries = self.summaries();
        let deleted: Vec<String> = summaries
            .iter()
            .skip(keep as usize)
            .map(|s| s.session_id.clone())
            .collect();
        if !dry_run {
            for id in &deleted {
                self.delete(id)?;
            }
        }
        Ok(CleanupReport {
            dry_run,
            kept: (summaries.len() - deleted.len()) as u64,
            deleted,
            ..CleanupReport::default()
        })
    }

    fn search(&self, query: &Query) -> Result<Found> {
        let matcher = Matcher::new(query)?;
        let titles = query.role.as_deref().is_none_or(|role| role == "title");
        let mut hits = Vec::new();
        for (id, kept) in self.sessions().iter() {
            let loaded = kept.loaded();
            let session = &loaded.session;
            if titles {
                let title = session.title.as_deref();
                matcher.title_hit(id, title, &session.last_activity, &mut hits);
            }
            for place in &loaded.order {
                matcher.check(id, *place, &loaded.entry(*place), &mut hits);
            }
        }
        query::sort_hits(&mut hits);
        Ok(Found {
            hits,
            problems: Vec::new(),
        })
    }

    /// Every string of the head and of each record, the session replaced
    /// whole when anything was.
    fn scrub(&self, id: &str, scrub: &dyn Fn(&mut Value) -> u64) -> Result<u64> {
        let _lock = self.lock_session(id)?;
        let mut sessions = self.sessions();
        let kept = sessions.get(id).ok_or_else(|| not_found(id))?;
        let unreadable = |e: serde_json::Error| Error::input(format!("session {id}: {e}"));
        let mut head = serde_json::to_value(&kept.head).map_err(unreadable)?;
        let mut replaced = scrub(&mut head);
        let mut records = Vec::with_capacity(kept.records.len());
        for record in &kept.records {
            records.push(match record.clone() {
                Stored::Entry { at, tokens, entry } => {
                    let mut value = match &entry {
                        Entry::Message(m) => serde_json::to_value(m),
                        Entry::ToolCall(c) => serde_json::to_value(c),
                    }
                    .map_err(unreadable)?;
                    replaced += scrub(&mut value);
                    let entry = Entry::from_input(value, &at)?;
                    Stored::Entry { at, tokens, entry }
                }
                Stored::Compression { at, mut details } => {
                    details.values_mut().for_each(|v| replaced += scrub(v));
                    Stored::Compression { at, details }
                }
                Stored::Update { at, mut patch } => {
                    patch.values_mut().for_each(|v| replaced += scrub(v));
                    Stored::Update { at, patch }
                }
                other @ Stored::Other { .. } => other,
            });
        }
        if replaced > 0 {
            let head = serde_json::from_value(head).map_err(unreadable)?;
            sessions.insert(id.to_string(), Kept { head, records });
        }
        Ok(replaced)
    }

    /// Waits until no one else holds session `id`.
    fn lock_session(&self, id: &str) -> Result<SessionLock> {
        let mut ids = self
            .held
            .ids
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        while ids.contains(id) {
            ids = self
                .held
                .freed
                .wait(ids)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        ids.insert(id.to_string());
        Ok(SessionLock::new(HeldLock {
            held: self.held.clone(),
            id: id.to_string(),
        }))
    }
}
