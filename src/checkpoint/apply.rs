//! Carrying out a restore's actions in the work tree, and the plan file
//! that makes a killed restore finish: the plan is written (fsynced)
//! before the first change, each action is idempotent, and the next run
//! that takes the store's lock carries out a plan it finds, then removes it.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::plan::Action;
use super::store::Store;
use super::tree::{self, Kind, Node, Tree, from_hex, to_hex};
use crate::error::{Error, Result};
use crate::fs::Durability;

/// A restore under way, as written before its first change.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Pending {
    pub session_id: String,
    pub turn: u64,
    pub root: PathBuf,
    /// The files and links to write, as a tree's text.
    pub writes: String,
    /// Paths (hex) to delete.
    pub deletes: Vec<String>,
}

impl Pending {
    pub fn new(session: &str, turn: u64, root: &Path, actions: &[Action]) -> Pending {
        let mut writes = Tree::new();
        let mut deletes = Vec::new();
        for action in actions {
            match action {
                Action::Write { path, node } => {
                    writes.insert(path.clone(), node.clone());
                }
                Action::Delete { path } => deletes.push(to_hex(path)),
            }
        }
        Pending {
            session_id: session.to_string(),
            turn,
            root: root.to_path_buf(),
            writes: String::from_utf8_lossy(&tree::encode(&writes)).into_owned(),
            deletes,
        }
    }

    pub fn actions(&self) -> Result<Vec<Action>> {
        let bad = |why: String| Error::Corrupt(format!("restore plan: {why}"));
        let writes = tree::decode(self.writes.as_bytes()).map_err(bad)?;
        let mut actions: Vec<Action> = writes
            .into_iter()
            .map(|(path, node)| Action::Write { path, node })
            .collect();
        for hex in &self.deletes {
            let path = from_hex(hex).ok_or_else(|| bad(format!("{hex:?} is not a path")))?;
            actions.push(Action::Delete { path });
        }
        Ok(actions)
    }
}

fn plan_path(store: &Store, root: &Path) -> PathBuf {
    store.workspace_dir(root).join("restore-plan.json")
}

/// Writes the plan durably before anything in the tree changes.
pub(crate) fn begin(store: &Store, pending: &Pending) -> Result<()> {
    let bytes =
        serde_json::to_vec(pending).map_err(|e| Error::Corrupt(format!("restore plan: {e}")))?;
    crate::fs::write_atomic(&plan_path(store, &pending.root), &bytes, Durability::Synced)
}

/// The plan of a restore that did not finish in `root`, if any.
pub(crate) fn unfinished(store: &Store, root: &Path) -> Result<Option<Pending>> {
    let at = plan_path(store, root);
    let Some(bytes) = crate::fs::read_regular(&at)? else {
        return Ok(None);
    };
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|e| Error::Corrupt(format!("{}: not a restore plan: {e}", at.display())))
}

/// Removes the plan once the restore is done.
pub(crate) fn finish(store: &Store, root: &Path) -> Result<()> {
    let at = plan_path(store, root);
    std::fs::remove_file(&at).map_err(|e| Error::io(&at, &e))?;
    let dir = store.workspace_dir(root);
    crate::fs::sync_dir(&dir).map_err(|e| Error::io(&dir, &e))
}

/// Carries out the actions (each is idempotent: a killed run's plan is
/// carried out again from the start).
pub(crate) fn run(store: &Store, root: &Path, actions: &[Action]) -> Result<()> {
    for action in actions {
        let target = root.join(OsStr::from_bytes(action.path()));
        crate::fs::sweep_temps(&target);
        match action {
            Action::Write { path, node } => write(store, root, path, node)?,
            Action::Delete { path } => delete(root, path)?,
        }
    }
    Ok(())
}

fn write(store: &Store, root: &Path, relative: &[u8], node: &Node) -> Result<()> {
    let target = root.join(OsStr::from_bytes(relative));
    let hash = node
        .hash
        .as_deref()
        .ok_or_else(|| Error::Corrupt(format!("{}: not restorable", tree::shown(relative))))?;
    let content = store.get(hash)?;
    let dir = make_parents(root, relative)?;
    match node.kind {
        Kind::File => {
            let temp = crate::fs::temp_beside(&target, &content, Durability::Synced)?;
            let mode = std::fs::Permissions::from_mode(node.mode & 0o7777);
            std::fs::set_permissions(temp.path(), mode).map_err(|e| Error::io(&target, &e))?;
            temp.persist(&target)
                .map_err(|e| Error::io(&target, &e.error))?;
        }
        Kind::Symlink => {
            let mut name = std::ffi::OsString::from(".");
            name.push(target.file_name().unwrap_or_default());
            name.push(crate::fs::TEMP_MARK);
            name.push(uuid::Uuid::new_v4().simple().to_string());
            let temp = dir.join(name);
            std::os::unix::fs::symlink(OsStr::from_bytes(&content), &temp)
                .map_err(|e| Error::io(&temp, &e))?;
            if let Err(e) = std::fs::rename(&temp, &target) {
                let _ = std::fs::remove_file(&temp);
                return Err(Error::io(&target, &e));
            }
        }
    }
    crate::fs::sync_dir(&dir).map_err(|e| Error::io(&dir, &e))
}

/// Creates the missing directories above `relative` (never through a link:
/// a link or a file where a directory should be is an error).
fn make_parents(root: &Path, relative: &[u8]) -> Result<PathBuf> {
    let mut dir = root.to_path_buf();
    let parts: Vec<&[u8]> = relative.split(|&b| b == b'/').collect();
    for part in &parts[..parts.len().saturating_sub(1)] {
        dir.push(OsStr::from_bytes(part));
        match std::fs::symlink_metadata(&dir) {
            Ok(meta) if meta.is_dir() => {}
            Ok(meta) => {
                return Err(Error::Io {
                    path: dir,
                    message: format!(
                        "is {} where a directory was; left alone",
                        crate::fs::describe_type(&meta)
                    ),
                });
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::create_dir(&dir).map_err(|e| Error::io(&dir, &e))?;
            }
            Err(e) => return Err(Error::io(&dir, &e)),
        }
    }
    Ok(dir)
}

/// Removes a file or link, then the directories above it it leaves empty.
fn delete(root: &Path, relative: &[u8]) -> Result<()> {
    let target = root.join(OsStr::from_bytes(relative));
    match std::fs::symlink_metadata(&target) {
        Ok(meta) if meta.is_dir() => return Ok(()),
        Ok(_) => std::fs::remove_file(&target).map_err(|e| Error::io(&target, &e))?,
        Err(_) => return Ok(()),
    }
    let mut dir = target.parent();
    while let Some(at) = dir {
        if at == root || !at.starts_with(root) || std::fs::remove_dir(at).is_err() {
            break;
        }
        dir = at.parent();
    }
    if let Some(parent) = target.parent().filter(|p| p.exists()) {
        crate::fs::sync_dir(parent).map_err(|e| Error::io(parent, &e))?;
    }
    Ok(())
}
