//! Context snapshots (document 003): point-in-time copies of a session's
//! context for recovery and rollback, under
//! `<snapshots.dir>/<sessionId>/snapshots/snapshot-<id>.json` with a
//! `snapshots-index.json` beside them (newest first). Creating one deletes
//! the oldest beyond `snapshots.maxCount` (0: no limit).
//!
//! A snapshot holds every user message in full (`userMessages`), the other
//! messages (`messages`), and, additively, `userMessageIndices` (where each
//! user message stood) so `restore` gives back the exact message order.
//! Snapshots written without that field are restored in timestamp order.
//!
//! A snapshot of the session (not of a context given on stdin) also holds
//! every tool call (`toolCalls`, additive) with `toolCallPositions` (how many
//! messages were recorded before each), so restoring it as a session gives
//! back a history equal to the original: the same messages and tool calls
//! in the same order.
//!
//! Creating, restoring and deleting a snapshot hold the session's lock
//! (the one its writers and `delete` take), so a snapshot is never written
//! for a session being deleted; snapshots of a session that is gone (a
//! delete cut short, finished by the next writer) are not found.
//!
//! A store that keeps snapshots itself ([`Store::snapshots`]:
//! PostgreSQL) holds them in its database, shared by every machine, with
//! the same guarantees in its transactions. Snapshots such a store's users
//! took before (in this machine's `snapshots.dir`) are still listed, shown,
//! restored and deleted from there, and `session copy` carries them into
//! the database.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Map, Value};

pub use super::model::snapshot::{Snapshot, SnapshotInfo};
use super::model::{Loaded, Place};
use super::model::{Message, check_id, estimate_tokens, new_id};
use super::store::{Created, NewSession, SnapshotStore, Store};
use crate::error::{Error, Result};
use crate::timestamp;

mod local;

use local::LocalSnapshots;

/// The snapshot store.
#[derive(Debug, Clone)]
pub struct Snapshots {
    root: PathBuf,
    max_count: u64,
}

/// What `create` made and what rolling cleanup removed.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreatedSnapshot {
    #[serde(flatten)]
    pub info: SnapshotInfo,
    /// The snapshot's file (`None`: in the store's database).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<PathBuf>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
}

/// Where a store's snapshots are: its own storage in front of this
/// machine's directory (which keeps those taken before), or the directory
/// alone.
struct Places<'a> {
    own: Option<&'a dyn SnapshotStore>,
    local: LocalSnapshots<'a>,
}

impl Places<'_> {
    /// Where snapshots are written and looked for first.
    fn main(&self) -> &dyn SnapshotStore {
        self.own.unwrap_or(&self.local)
    }

    /// Where snapshots taken before the main storage are still found.
    fn earlier(&self) -> Option<&dyn SnapshotStore> {
        self.own.map(|_| &self.local as &dyn SnapshotStore)
    }

    /// `read` of the main storage, else (not found there) of the earlier.
    fn first_found<T>(&self, read: impl Fn(&dyn SnapshotStore) -> Result<T>) -> Result<T> {
        match (read(self.main()), self.earlier()) {
            (Err(Error::NotFound(_)), Some(earlier)) => read(earlier),
            (found, _) => found,
        }
    }
}

impl Snapshots {
    pub fn new(root: impl Into<PathBuf>, max_count: u64) -> Snapshots {
        Snapshots {
            root: root.into(),
            max_count,
        }
    }

    /// The snapshot store the configuration names (`snapshots.dir`,
    /// `snapshots.maxCount`).
    pub fn from_config(config: &crate::config::Config) -> Snapshots {
        Snapshots::new(
            crate::paths::expand(&config.snapshots.dir),
            config.snapshots.max_count,
        )
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    fn places<'a>(&'a self, store: &'a Store) -> Places<'a> {
        Places {
            own: store.snapshots(),
            local: LocalSnapshots {
                root: &self.root,
                store,
            },
        }
    }

    /// Snapshots session `session_id`: its messages, or `context` (the
    /// active context a caller holds, e.g. before compressing it) when
    /// given. Then deletes the oldest beyond `maxCount`.
    pub fn create(
        &self,
        store: &Store,
        session_id: &str,
        context: Option<Vec<Message>>,
        summary: Option<String>,
    ) -> Result<CreatedSnapshot> {
        let loaded = store.load(session_id)?;
        let snapshot = redacted(store, build(session_id, &loaded, context, summary))?;
        let put = self
            .places(store)
            .main()
            .put_snapshot(&snapshot, self.max_count)?;
        Ok(CreatedSnapshot {
            info: snapshot.info(),
            path: put.path,
            removed: put.removed,
        })
    }

    /// A session's snapshots, newest first. On a store keeping them
    /// itself, its own, then any left in `snapshots.dir`.
    pub fn list(&self, store: &Store, session_id: &str) -> Result<Vec<SnapshotInfo>> {
        check_id(session_id, "session")?;
        let places = self.places(store);
        let mut infos = places.main().snapshot_infos(session_id)?;
        let Some(earlier) = places.earlier() else {
            return Ok(infos);
        };
        let local: Vec<SnapshotInfo> = earlier
            .snapshot_infos(session_id)?
            .into_iter()
            .filter(|l| infos.iter().all(|s| s.id != l.id))
            .collect();
        if !local.is_empty() {
            infos.extend(local);
            // Stable: the main storage's order stands among equal times.
            infos.sort_by_key(|s| {
                std::cmp::Reverse(timestamp::parse(&s.timestamp).unwrap_or(i64::MIN))
            });
        }
        Ok(infos)
    }

    /// The snapshots whose id starts with `prefix` (lowercase), as
    /// (snapshot id, session id): among `session`'s when given, else among
    /// every session's, reading only the sessions that have a snapshot
    /// directory unless the store keeps snapshots itself.
    pub fn with_prefix(
        &self,
        store: &Store,
        prefix: &str,
        session: Option<&str>,
    ) -> Result<Vec<(String, String)>> {
        let sessions: Vec<String> = match session {
            Some(session) => vec![session.to_string()],
            None => self.places(store).main().snapshot_sessions()?,
        };
        let mut found = Vec::new();
        for session_id in sessions {
            if !store.has_any(&session_id) {
                continue;
            }
            for info in self.list(store, &session_id)? {
                if info.id.starts_with(prefix) {
                    found.push((info.id, session_id.clone()));
                }
            }
        }
        Ok(found)
    }

    /// The whole snapshot (of a session still in `store`).
    pub fn show(&self, store: &Store, id: &str, session: Option<&str>) -> Result<Snapshot> {
        check_id(id, "snapshot")?;
        self.places(store)
            .first_found(|place| place.snapshot(id, session))
    }

    /// Deletes one snapshot, holding its session's lock (on a store
    /// keeping them itself, in one transaction).
    pub fn delete(&self, store: &Store, id: &str, session: Option<&str>) -> Result<()> {
        check_id(id, "snapshot")?;
        self.places(store)
            .first_found(|place| place.delete_snapshot(id, session))
    }

    /// Stores a snapshot copied from another store under its own id, as it
    /// was, without applying the rolling limit (`false`: it is here
    /// already). Its session must be in `store`.
    pub fn import(&self, store: &Store, snapshot: &Snapshot) -> Result<bool> {
        check_id(&snapshot.id, "snapshot")?;
        check_id(&snapshot.session_id, "session")?;
        let snapshot = &redacted(store, snapshot.clone())?;
        Ok(self.places(store).main().put_snapshot(snapshot, 0)?.stored)
    }

    /// The stored bytes of snapshot `id` of session `session_id` when it
    /// is a file here (`None` on a store that keeps snapshots itself).
    pub fn raw(&self, store: &Store, session_id: &str, id: &str) -> Result<Option<Vec<u8>>> {
        self.places(store).main().raw_snapshot(session_id, id)
    }

    /// Passes every snapshot of session `session_id` kept here (and their
    /// index) through `scrub`, each file replaced atomically when `scrub`
    /// replaced anything in it. Returns how many spans were replaced (a
    /// store that keeps snapshots itself scrubs them with the session).
    pub fn scrub(
        &self,
        store: &Store,
        session_id: &str,
        scrub: &dyn Fn(&mut Value) -> u64,
    ) -> Result<u64> {
        self.places(store).main().scrub_snapshots(session_id, scrub)
    }

    /// Re-creates the snapshot's context as a new session (recording where
    /// it came from as `parentSessionId`).
    pub fn restore_as_session(
        &self,
        store: &Store,
        id: &str,
        session: Option<&str>,
    ) -> Result<Created> {
        check_id(id, "snapshot")?;
        let snapshot = self
            .places(store)
            .first_found(|place| place.snapshot_held(id, session))?;
        let model = snapshot
            .metadata
            .get("model")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let original = store.summary(&snapshot.session_id).ok();
        let provider = match snapshot.metadata.get("provider").and_then(Value::as_str) {
            Some(provider) => provider.to_string(),
            None => original
                .as_ref()
                .map(|s| s.provider.clone())
                .unwrap_or_default(),
        };
        let entries = snapshot.restored_entries();
        let new = NewSession {
            model,
            provider,
            title: Some(format!("restored from snapshot {id}")),
            workspace: original.and_then(|s| s.workspace),
        };
        store.create_from(&new, Some(&snapshot.session_id), &entries)
    }
}

/// The snapshot of `loaded` (or of `context`, the active context a caller
/// holds) with a new id, taken now.
fn build(
    session_id: &str,
    loaded: &Loaded,
    context: Option<Vec<Message>>,
    summary: Option<String>,
) -> Snapshot {
    let session = &loaded.session;
    let from_session = context.is_none();
    let messages = context.unwrap_or_else(|| session.messages.clone());
    let (tool_calls, tool_call_positions) = if from_session {
        let mut seen = 0;
        let mut positions = Vec::new();
        for place in &loaded.order {
            match *place {
                Place::Message(_) => seen += 1,
                Place::ToolCall(_) => positions.push(seen),
            }
        }
        (session.tool_calls.clone(), Some(positions))
    } else {
        (Vec::new(), None)
    };
    let token_count: u64 = messages
        .iter()
        .map(|m| estimate_tokens(&Value::Array(m.parts().to_vec())))
        .sum();
    let mut user_messages = Vec::new();
    let mut others = Vec::new();
    let mut indices = Vec::new();
    for (i, m) in messages.into_iter().enumerate() {
        if m.role() == "user" {
            indices.push(i);
            user_messages.push(m);
        } else {
            others.push(m);
        }
    }
    let ratio = if from_session || session.metadata.token_count == 0 {
        1.0
    } else {
        token_count as f64 / session.metadata.token_count as f64
    };
    let mut metadata = Map::new();
    metadata.insert("model".into(), session.model.clone().into());
    metadata.insert("provider".into(), session.provider.clone().into());
    metadata.insert("contextSize".into(), token_count.into());
    metadata.insert("compressionRatio".into(), ratio.into());
    metadata.insert("totalUserMessages".into(), user_messages.len().into());
    let summary = summary.unwrap_or_else(|| {
        format!(
            "{} messages ({} from the user), about {token_count} tokens",
            user_messages.len() + others.len(),
            user_messages.len()
        )
    });
    Snapshot {
        id: new_id(),
        session_id: session_id.to_string(),
        timestamp: timestamp::now_iso(),
        token_count,
        summary,
        user_messages,
        archived_user_messages: Vec::new(),
        messages: others,
        user_message_indices: Some(indices),
        tool_calls,
        tool_call_positions,
        metadata,
        extra: Map::new(),
    }
}

/// `snapshot` with its credentials replaced, as the store writes it.
fn redacted(store: &Store, snapshot: Snapshot) -> Result<Snapshot> {
    if store.options().redaction.is_none() {
        return Ok(snapshot);
    }
    let unreadable =
        |e: serde_json::Error| Error::input(format!("cannot encode the snapshot: {e}"));
    let mut value = serde_json::to_value(&snapshot).map_err(unreadable)?;
    if store.redact_json(&mut value) == 0 {
        return Ok(snapshot);
    }
    serde_json::from_value(value).map_err(unreadable)
}

#[cfg(test)]
mod tests;
