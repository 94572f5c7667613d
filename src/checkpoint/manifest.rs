//! A session's manifests: one small JSON file per turn naming the tree
//! object of what the snapshot saw, written last (temp, fsync, rename) so a
//! killed snapshot leaves nothing that names a missing object.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::dirtree;
use super::store::Store;
use super::tree::Tree;
use crate::error::{Error, Result};

/// Who made the changes a snapshot saw since the one before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Origin {
    /// A turn boundary: the session's agent made them.
    Turn,
    /// Taken before a restore or before a tool runs: someone else may have
    /// made them, so a restore never deletes a file that first appears here.
    Observed,
    /// The state a restore left.
    Restore,
}

impl Origin {
    /// Whether a file first seen in this snapshot was made by the session.
    pub fn by_session(self) -> bool {
        matches!(self, Origin::Turn | Origin::Restore)
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Manifest {
    pub session_id: String,
    pub turn: u64,
    pub origin: Origin,
    /// The work tree the snapshot was taken of.
    pub root: PathBuf,
    pub time: String,
    /// When the snapshot began reading the tree, in ns since the epoch: a
    /// file first seen in the next snapshot whose ctime is older was not
    /// made in between (a `.gitignore` edit made it visible).
    pub started_ns: i64,
    /// The tree object.
    pub tree: String,
    pub files: u64,
}

const PREFIX: &str = "turn-";

fn file_name(turn: u64) -> String {
    format!("{PREFIX}{turn:010}.json")
}

/// The turns of a session that have a manifest, oldest first.
pub(crate) fn turns(store: &Store, session: &str) -> Result<Vec<u64>> {
    let dir = store.session_dir(session);
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(&dir, &e)),
    };
    let mut turns: Vec<u64> = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name();
            let turn = name.to_str()?.strip_prefix(PREFIX)?.strip_suffix(".json")?;
            turn.parse().ok()
        })
        .collect();
    turns.sort_unstable();
    Ok(turns)
}

pub(crate) fn path(store: &Store, session: &str, turn: u64) -> PathBuf {
    store.session_dir(session).join(file_name(turn))
}

/// The manifest of one turn; exit 3 when the session has none for it.
pub(crate) fn read(store: &Store, session: &str, turn: u64) -> Result<Manifest> {
    let at = path(store, session, turn);
    let bytes = crate::fs::read_regular(&at)?.ok_or_else(|| {
        Error::NotFound(format!(
            "session {session} has no checkpoint of turn {turn}"
        ))
    })?;
    parse(&bytes, &at)
}

fn parse(bytes: &[u8], at: &Path) -> Result<Manifest> {
    serde_json::from_slice(bytes)
        .map_err(|e| Error::Corrupt(format!("{}: not a checkpoint manifest: {e}", at.display())))
}

/// The tree a manifest names.
pub(crate) fn tree_of(store: &Store, manifest: &Manifest) -> Result<Tree> {
    tree_and_objects(store, manifest).map(|(tree, _)| tree)
}

/// The tree a manifest names and the objects it is stored as.
pub(crate) fn tree_and_objects(store: &Store, manifest: &Manifest) -> Result<(Tree, Vec<String>)> {
    dirtree::read(store, &manifest.tree).map_err(|e| match e {
        Error::Corrupt(why) => Error::Corrupt(format!("turn {}: {why}", manifest.turn)),
        other => other,
    })
}

/// Writes a manifest durably: every object it names is flushed first,
/// then the manifest goes in by rename. The caller holds the lock.
pub(crate) fn write(store: &Store, manifest: &Manifest) -> Result<()> {
    let dir = store.session_dir(&manifest.session_id);
    crate::fs::create_private_dir(&dir)?;
    // What a killed writer left here (the caller holds the lock).
    crate::fs::sweep_all_temps(&dir);
    store.sync()?;
    let bytes = serde_json::to_vec_pretty(manifest)
        .map_err(|e| Error::Corrupt(format!("manifest: {e}")))?;
    let target = path(store, &manifest.session_id, manifest.turn);
    crate::fs::write_atomic(&target, &bytes, crate::fs::Durability::Synced)
}

/// Removes one turn's manifest (retention, the collector).
pub(crate) fn remove(store: &Store, session: &str, turn: u64) -> Result<()> {
    let at = path(store, session, turn);
    match std::fs::remove_file(&at) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::io(&at, &e)),
        _ => Ok(()),
    }
}

/// The sessions that have checkpoints.
pub(crate) fn sessions(store: &Store) -> Result<Vec<String>> {
    let dir = store.root.join("sessions");
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(&dir, &e)),
    };
    let mut ids: Vec<String> = entries
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|id| crate::paths::is_uuid(id))
        .collect();
    ids.sort_unstable();
    Ok(ids)
}
