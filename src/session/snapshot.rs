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
//! A store that keeps snapshots itself ([`Store::shared_snapshots`]:
//! PostgreSQL) holds them in its database, shared by every machine, with
//! the same guarantees in its transactions. Snapshots such a store's users
//! took before (in this machine's `snapshots.dir`) are still listed, shown,
//! restored and deleted from there, and `session copy` carries them into
//! the database.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use super::model::snapshot::{Snapshot, SnapshotInfo};
use super::model::{Loaded, Place};
use super::model::{Message, check_id, estimate_tokens, is_uuid, new_id};
use super::store::{Created, NewSession, Store};
use crate::error::{Error, Result};
use crate::fs::{self as sfs, Durability};
use crate::{input, timestamp};

/// The snapshot store.
#[derive(Debug, Clone)]
pub struct Snapshots {
    root: PathBuf,
    max_count: u64,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Index {
    session_id: String,
    snapshots: Vec<SnapshotInfo>,
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

    fn dir(&self, session_id: &str) -> PathBuf {
        self.root.join(session_id).join("snapshots")
    }

    /// The session's snapshot directory for reading: `None` when missing;
    /// a link or a file in its place is an error (never followed).
    fn existing_dir(&self, session_id: &str) -> Result<Option<PathBuf>> {
        let outer = self.root.join(session_id);
        sfs::check_dir_or_absent(&outer)?;
        let dir = self.dir(session_id);
        sfs::check_dir_or_absent(&dir)?;
        Ok(sfs::is_real_dir(&dir).then_some(dir))
    }

    /// Creates the session's snapshot directory (0700 all the way).
    fn make_dir(&self, session_id: &str) -> Result<PathBuf> {
        sfs::create_private_dir_all(&self.root)?;
        sfs::tighten_store(&self.root);
        sfs::create_private_dir(&self.root.join(session_id))?;
        let dir = self.dir(session_id);
        sfs::create_private_dir(&dir)?;
        Ok(dir)
    }

    fn file(&self, session_id: &str, id: &str) -> PathBuf {
        self.dir(session_id).join(format!("snapshot-{id}.json"))
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
        if let Some(shared) = store.shared_snapshots() {
            let loaded = store.load(session_id)?;
            let snapshot = redacted(store, build(session_id, &loaded, context, summary))?;
            encode(&snapshot)?;
            let (_, removed) = shared.put_snapshot(&snapshot, self.max_count)?;
            return Ok(CreatedSnapshot {
                info: snapshot.info(),
                path: None,
                removed,
            });
        }
        let lock = store.lock_session(session_id)?;
        let loaded = match store.load_held(session_id, Some(&lock)) {
            Ok(loaded) => loaded,
            Err(err) => {
                if matches!(err, Error::NotFound(_)) {
                    lock.discard();
                }
                return Err(err);
            }
        };
        let snapshot = redacted(store, build(session_id, &loaded, context, summary))?;
        let dir = self.make_dir(session_id)?;
        sfs::sweep_all_temps(&dir);
        let mut index = self.read_index(session_id)?;
        let path = self.file(session_id, &snapshot.id);
        let bytes = encode(&snapshot)?;
        sfs::write_atomic(&path, &bytes, Durability::Synced)?;
        index.insert(0, snapshot.info());
        let mut removed = Vec::new();
        if self.max_count > 0 {
            while index.len() as u64 > self.max_count {
                if let Some(old) = index.pop() {
                    let old_path = self.file(session_id, &old.id);
                    if sfs::is_regular_file(&old_path) {
                        let _ = std::fs::remove_file(old_path);
                    }
                    removed.push(old.id);
                }
            }
        }
        self.write_index(session_id, &index)?;
        drop(lock);
        Ok(CreatedSnapshot {
            info: snapshot.info(),
            path: Some(path),
            removed,
        })
    }

    /// A session's snapshots, newest first (from the index; rebuilt from
    /// the files when the index is missing or does not match them). On a
    /// store keeping them itself, its own, then any left in `snapshots.dir`.
    pub fn list(&self, store: &Store, session_id: &str) -> Result<Vec<SnapshotInfo>> {
        check_id(session_id, "session")?;
        let Some(shared) = store.shared_snapshots() else {
            return self.read_index(session_id);
        };
        let mut infos = shared.snapshot_infos(session_id)?;
        let local: Vec<SnapshotInfo> = self
            .read_index(session_id)?
            .into_iter()
            .filter(|l| infos.iter().all(|s| s.id != l.id))
            .collect();
        if !local.is_empty() {
            infos.extend(local);
            // Stable: the database's order stands among equal times.
            infos.sort_by_key(|s| {
                std::cmp::Reverse(timestamp::parse(&s.timestamp).unwrap_or(i64::MIN))
            });
        }
        Ok(infos)
    }

    /// Whether a session's snapshots may be read: the session (or a copy
    /// set aside as corrupt) is still in the store.
    fn live(&self, store: &Store, session_id: &str) -> bool {
        store.has_any(session_id)
    }

    fn read_index(&self, session_id: &str) -> Result<Vec<SnapshotInfo>> {
        let Some(dir) = self.existing_dir(session_id)? else {
            return Ok(Vec::new());
        };
        let mut on_disk = Vec::new();
        match std::fs::read_dir(&dir) {
            Ok(entries) => {
                for entry in entries.flatten() {
                    let name = entry.file_name();
                    let name = name.to_string_lossy();
                    if let Some(id) = name
                        .strip_prefix("snapshot-")
                        .and_then(|n| n.strip_suffix(".json"))
                        && is_uuid(id)
                    {
                        on_disk.push(id.to_string());
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(Error::io(&dir, &e)),
        }
        on_disk.sort();
        let index: Option<Index> = sfs::read_regular(&dir.join("snapshots-index.json"))
            .ok()
            .flatten()
            .and_then(|b| serde_json::from_slice(&b).ok());
        if let Some(index) = index {
            let mut ids: Vec<String> = index.snapshots.iter().map(|s| s.id.clone()).collect();
            ids.sort();
            if ids == on_disk {
                return Ok(index.snapshots);
            }
        }
        let mut infos = Vec::new();
        for id in on_disk {
            if let Ok(snapshot) = self.read(session_id, &id) {
                infos.push(snapshot.info());
            }
        }
        infos
            .sort_by_key(|s| std::cmp::Reverse(timestamp::parse(&s.timestamp).unwrap_or(i64::MIN)));
        Ok(infos)
    }

    fn write_index(&self, session_id: &str, snapshots: &[SnapshotInfo]) -> Result<()> {
        let index = Index {
            session_id: session_id.to_string(),
            snapshots: snapshots.to_vec(),
        };
        let bytes = serde_json::to_vec_pretty(&index)
            .map_err(|e| Error::input(format!("cannot encode the index: {e}")))?;
        sfs::write_atomic(
            &self.dir(session_id).join("snapshots-index.json"),
            &bytes,
            Durability::Synced,
        )
    }

    fn read(&self, session_id: &str, id: &str) -> Result<Snapshot> {
        self.existing_dir(session_id)?;
        let path = self.file(session_id, id);
        let Some(bytes) = sfs::read_regular(&path)? else {
            return Err(Error::NotFound(format!("no snapshot {id}")));
        };
        serde_json::from_slice(&bytes).map_err(|e| {
            Error::Corrupt(format!(
                "snapshot {} cannot be parsed: {}",
                path.display(),
                crate::text::one_line(&e.to_string())
            ))
        })
    }

    /// The session a snapshot belongs to: `session` when given, else found
    /// by looking in every session's snapshot directory.
    fn owner(&self, id: &str, session: Option<&str>) -> Result<String> {
        check_id(id, "snapshot")?;
        if let Some(session) = session {
            check_id(session, "session")?;
            return Ok(session.to_string());
        }
        let Ok(entries) = std::fs::read_dir(&self.root) else {
            return Err(Error::NotFound(format!("no snapshot {id}")));
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            if is_uuid(name) && sfs::is_regular_file(&self.file(name, id)) {
                return Ok(name.to_string());
            }
        }
        Err(Error::NotFound(format!("no snapshot {id}")))
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
            None if store.shared_snapshots().is_some() => store
                .list()?
                .sessions
                .into_iter()
                .map(|s| s.session_id)
                .collect(),
            None => match std::fs::read_dir(&self.root) {
                Ok(entries) => entries
                    .flatten()
                    .filter_map(|e| e.file_name().to_str().map(str::to_string))
                    .filter(|name| is_uuid(name))
                    .collect(),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
                Err(e) => return Err(Error::io(&self.root, &e)),
            },
        };
        let mut found = Vec::new();
        for session_id in sessions {
            if !self.live(store, &session_id) {
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
        if let Some(shared) = store.shared_snapshots() {
            check_id(id, "snapshot")?;
            match shared.snapshot(id, session) {
                Err(Error::NotFound(_)) => {} // perhaps one taken here before
                found => return found,
            }
        }
        self.show_local(store, id, session)
    }

    fn show_local(&self, store: &Store, id: &str, session: Option<&str>) -> Result<Snapshot> {
        let owner = self.owner(id, session)?;
        if !self.live(store, &owner) {
            return Err(Error::NotFound(format!("no snapshot {id}")));
        }
        self.read(&owner, id)
    }

    /// Deletes one snapshot, holding its session's lock (on a store
    /// keeping them itself, in one transaction).
    pub fn delete(&self, store: &Store, id: &str, session: Option<&str>) -> Result<()> {
        if let Some(shared) = store.shared_snapshots() {
            check_id(id, "snapshot")?;
            match shared.delete_snapshot(id, session) {
                Err(Error::NotFound(_)) => {} // perhaps one taken here before
                done => return done,
            }
        }
        let owner = self.owner(id, session)?;
        let _lock = store.lock_session(&owner)?;
        if !self.live(store, &owner) {
            return Err(Error::NotFound(format!("no snapshot {id}")));
        }
        let Some(dir) = self.existing_dir(&owner)? else {
            return Err(Error::NotFound(format!("no snapshot {id}")));
        };
        sfs::sweep_all_temps(&dir);
        let path = self.file(&owner, id);
        sfs::check_regular_or_absent(&path)?;
        match std::fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(Error::NotFound(format!("no snapshot {id}")));
            }
            Err(e) => return Err(Error::io(&path, &e)),
        }
        let index: Vec<SnapshotInfo> = self
            .read_index(&owner)?
            .into_iter()
            .filter(|s| s.id != id)
            .collect();
        self.write_index(&owner, &index)
    }

    /// Stores a snapshot copied from another store under its own id, as it
    /// was, without applying the rolling limit (`false`: it is here
    /// already). Its session must be in `store`.
    pub fn import(&self, store: &Store, snapshot: &Snapshot) -> Result<bool> {
        check_id(&snapshot.id, "snapshot")?;
        let session_id = snapshot.session_id.as_str();
        check_id(session_id, "session")?;
        let snapshot = &redacted(store, snapshot.clone())?;
        if let Some(shared) = store.shared_snapshots() {
            encode(snapshot)?;
            return Ok(shared.put_snapshot(snapshot, 0)?.0);
        }
        let lock = store.lock_session(session_id)?;
        store.exists(session_id)?;
        let path = self.file(session_id, &snapshot.id);
        let dir = self.make_dir(session_id)?;
        sfs::sweep_all_temps(&dir);
        let mut index = self.read_index(session_id)?;
        if index.iter().any(|s| s.id == snapshot.id) || sfs::is_regular_file(&path) {
            return Ok(false);
        }
        sfs::write_atomic(&path, &encode(snapshot)?, Durability::Synced)?;
        let at = timestamp::parse(&snapshot.timestamp).unwrap_or(i64::MIN);
        let place = index
            .iter()
            .position(|s| timestamp::parse(&s.timestamp).unwrap_or(i64::MIN) <= at)
            .unwrap_or(index.len());
        index.insert(place, snapshot.info());
        self.write_index(session_id, &index)?;
        drop(lock);
        Ok(true)
    }

    /// The stored bytes of snapshot `id` of session `session_id` when it
    /// is a file here (`None` on a store that keeps snapshots itself).
    pub fn raw(&self, store: &Store, session_id: &str, id: &str) -> Result<Option<Vec<u8>>> {
        if store.shared_snapshots().is_some() {
            return Ok(None);
        }
        check_id(id, "snapshot")?;
        sfs::read_regular(&self.file(session_id, id))
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
        if store.shared_snapshots().is_some() || self.existing_dir(session_id)?.is_none() {
            return Ok(0);
        }
        let lock = store.lock_session(session_id)?;
        let mut replaced = 0;
        for info in self.read_index(session_id)? {
            replaced += scrub_json_file(&self.file(session_id, &info.id), scrub)?;
        }
        let index = self.dir(session_id).join("snapshots-index.json");
        if sfs::is_regular_file(&index) {
            replaced += scrub_json_file(&index, scrub)?;
        }
        drop(lock);
        Ok(replaced)
    }

    /// Re-creates the snapshot's context as a new session (recording where
    /// it came from as `parentSessionId`).
    pub fn restore_as_session(
        &self,
        store: &Store,
        id: &str,
        session: Option<&str>,
    ) -> Result<Created> {
        let snapshot = match store.shared_snapshots() {
            // Read in one statement: nothing to hold.
            Some(_) => self.show(store, id, session)?,
            None => {
                let owner = self.owner(id, session)?;
                let lock = store.lock_session(&owner)?;
                let snapshot = self.show_local(store, id, Some(&owner))?;
                drop(lock);
                snapshot
            }
        };
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

/// Replaces the JSON file at `path` with its contents passed through
/// `scrub`, when that replaced anything; returns how many spans it did.
fn scrub_json_file(path: &Path, scrub: &dyn Fn(&mut Value) -> u64) -> Result<u64> {
    let Some(bytes) = sfs::read_regular(path)? else {
        return Ok(0);
    };
    let mut value: Value = serde_json::from_slice(&bytes).map_err(|e| {
        Error::Corrupt(format!(
            "{} cannot be parsed: {}",
            path.display(),
            crate::text::one_line(&e.to_string())
        ))
    })?;
    let replaced = scrub(&mut value);
    if replaced > 0 {
        let bytes = serde_json::to_vec_pretty(&value)
            .map_err(|e| Error::input(format!("cannot encode {}: {e}", path.display())))?;
        sfs::write_atomic(path, &bytes, Durability::Synced)?;
    }
    Ok(replaced)
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

/// The snapshot's file contents, refused when a message nests deeper than
/// readers parse.
fn encode(snapshot: &Snapshot) -> Result<Vec<u8>> {
    let bytes = serde_json::to_vec_pretty(snapshot)
        .map_err(|e| Error::input(format!("cannot encode the snapshot: {e}")))?;
    // A message sits 3 levels down in the file; deeper than the record
    // limit would make a snapshot no reader can parse.
    input::check_record_nesting(&bytes, 3)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests;
