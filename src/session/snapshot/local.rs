//! Snapshots in this machine's `snapshots.dir`:
//! `<dir>/<sessionId>/snapshots/snapshot-<id>.json` with a
//! `snapshots-index.json` beside them (newest first), written under the
//! session's lock (the one its writers and `delete` take), so a snapshot is
//! never written for a session being deleted.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Snapshot, SnapshotInfo};
use crate::error::{Error, Result};
use crate::fs::{self as sfs, Durability};
use crate::session::model::{check_id, is_uuid};
use crate::session::store::{PutSnapshot, SnapshotStore, Store, encode_snapshot};
use crate::timestamp;

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Index {
    session_id: String,
    snapshots: Vec<SnapshotInfo>,
}

/// The snapshots under `root` of the sessions of `store`.
pub(super) struct LocalSnapshots<'a> {
    pub(super) root: &'a Path,
    pub(super) store: &'a Store,
}

impl LocalSnapshots<'_> {
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
        sfs::create_private_dir_all(self.root)?;
        sfs::tighten_store(self.root);
        sfs::create_private_dir(&self.root.join(session_id))?;
        let dir = self.dir(session_id);
        sfs::create_private_dir(&dir)?;
        Ok(dir)
    }

    fn file(&self, session_id: &str, id: &str) -> PathBuf {
        self.dir(session_id).join(format!("snapshot-{id}.json"))
    }

    /// Whether a session's snapshots may be read: the session (or a copy
    /// set aside as corrupt) is still in the store.
    fn live(&self, session_id: &str) -> bool {
        self.store.has_any(session_id)
    }

    /// A session's snapshots, newest first (from the index; rebuilt from
    /// the files when the index is missing or does not match them).
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
        let Ok(entries) = std::fs::read_dir(self.root) else {
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
}

impl SnapshotStore for LocalSnapshots<'_> {
    /// Placed among the session's snapshots by its time (a new one first).
    fn put_snapshot(&self, snapshot: &Snapshot, max_count: u64) -> Result<PutSnapshot> {
        let session_id = snapshot.session_id.as_str();
        let lock = self.store.lock_session(session_id)?;
        if let Err(err) = self.store.exists(session_id) {
            if matches!(err, Error::NotFound(_)) {
                lock.discard();
            }
            return Err(err);
        }
        let dir = self.make_dir(session_id)?;
        sfs::sweep_all_temps(&dir);
        let mut index = self.read_index(session_id)?;
        let path = self.file(session_id, &snapshot.id);
        if index.iter().any(|s| s.id == snapshot.id) || sfs::is_regular_file(&path) {
            return Ok(PutSnapshot::default());
        }
        sfs::write_atomic(&path, &encode_snapshot(snapshot)?, Durability::Synced)?;
        let at = timestamp::parse(&snapshot.timestamp).unwrap_or(i64::MIN);
        let place = index
            .iter()
            .position(|s| timestamp::parse(&s.timestamp).unwrap_or(i64::MIN) <= at)
            .unwrap_or(index.len());
        index.insert(place, snapshot.info());
        let mut removed = Vec::new();
        if max_count > 0 {
            while index.len() as u64 > max_count {
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
        Ok(PutSnapshot {
            stored: true,
            removed,
            path: Some(path),
        })
    }

    fn snapshot_infos(&self, session_id: &str) -> Result<Vec<SnapshotInfo>> {
        self.read_index(session_id)
    }

    /// Of a session still in the store.
    fn snapshot(&self, id: &str, session: Option<&str>) -> Result<Snapshot> {
        let owner = self.owner(id, session)?;
        if !self.live(&owner) {
            return Err(Error::NotFound(format!("no snapshot {id}")));
        }
        self.read(&owner, id)
    }

    fn snapshot_held(&self, id: &str, session: Option<&str>) -> Result<Snapshot> {
        let owner = self.owner(id, session)?;
        let lock = self.store.lock_session(&owner)?;
        let snapshot = self.snapshot(id, Some(&owner))?;
        drop(lock);
        Ok(snapshot)
    }

    fn delete_snapshot(&self, id: &str, session: Option<&str>) -> Result<()> {
        let owner = self.owner(id, session)?;
        let _lock = self.store.lock_session(&owner)?;
        if !self.live(&owner) {
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

    /// Only the sessions that have a snapshot directory.
    fn snapshot_sessions(&self) -> Result<Vec<String>> {
        match std::fs::read_dir(self.root) {
            Ok(entries) => Ok(entries
                .flatten()
                .filter_map(|e| e.file_name().to_str().map(str::to_string))
                .filter(|name| is_uuid(name))
                .collect()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
            Err(e) => Err(Error::io(self.root, &e)),
        }
    }

    fn raw_snapshot(&self, session_id: &str, id: &str) -> Result<Option<Vec<u8>>> {
        check_id(id, "snapshot")?;
        sfs::read_regular(&self.file(session_id, id))
    }

    /// Their index too.
    fn scrub_snapshots(&self, session_id: &str, scrub: &dyn Fn(&mut Value) -> u64) -> Result<u64> {
        if self.existing_dir(session_id)?.is_none() {
            return Ok(0);
        }
        let lock = self.store.lock_session(session_id)?;
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
