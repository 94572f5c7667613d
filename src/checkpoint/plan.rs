//! A restore's plan, three-way: for each path the session's turn N or its
//! latest snapshot holds, what N had, what the latest snapshot saw, and
//! what is on disk now. Only a path whose disk state is what the latest
//! snapshot saw is changed; any other difference is a conflict. A path
//! absent at N is deleted only when this session made it after N (it first
//! appeared in a snapshot of the session's own turns) and it is unchanged
//! since. Paths in neither snapshot are never touched.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use serde::Serialize;

use super::disk::{Disk, StatCache};
use super::manifest::{self, Manifest};
use super::store::Store;
use super::tree::{Node, Tree, shown};
use crate::error::{Error, Result};

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Action {
    Write { path: Vec<u8>, node: Node },
    Delete { path: Vec<u8> },
}

impl Action {
    pub fn path(&self) -> &[u8] {
        match self {
            Action::Write { path, .. } | Action::Delete { path } => path,
        }
    }
}

/// A path with why it is listed.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct Why {
    pub path: String,
    pub reason: String,
}

fn why(path: &[u8], reason: &str) -> Why {
    Why {
        path: shown(path),
        reason: reason.to_string(),
    }
}

#[derive(Debug, Default)]
pub(crate) struct Plan {
    /// What a restore does (with `--force`, the conflicts' actions too).
    pub actions: Vec<Action>,
    /// Paths changed since the session's latest snapshot that the restore
    /// would change: nothing is done while there are any, unless forced.
    pub conflicts: Vec<Why>,
    /// The actions behind `conflicts`, done only with `--force`.
    pub forced: Vec<Action>,
    /// Paths the restore leaves as they are, and why.
    pub left_alone: Vec<Why>,
    /// Paths turn N recorded by size and time only.
    pub not_restorable: Vec<String>,
}

/// The manifests and trees of a session from turn `target` to its latest.
pub(crate) struct History {
    pub target: Manifest,
    /// (manifest, tree) for each turn from `target` to the latest, in order.
    pub turns: Vec<(Manifest, Tree)>,
}

impl History {
    pub fn load(store: &Store, session: &str, target: u64) -> Result<History> {
        let turns = manifest::turns(store, session)?;
        if turns.is_empty() {
            return Err(Error::NotFound(format!(
                "session {session} has no checkpoints"
            )));
        }
        let manifest = manifest::read(store, session, target)?;
        let mut trees: HashMap<String, Tree> = HashMap::new();
        let mut loaded = Vec::new();
        for turn in turns.into_iter().filter(|&t| t >= target) {
            let m = manifest::read(store, session, turn)?;
            if !trees.contains_key(&m.tree) {
                trees.insert(m.tree.clone(), manifest::tree_of(store, &m)?);
            }
            let tree = trees.get(&m.tree).cloned().unwrap_or_default();
            loaded.push((m, tree));
        }
        Ok(History {
            target: manifest,
            turns: loaded,
        })
    }

    fn target_tree(&self) -> &Tree {
        &self.turns[0].1
    }

    fn latest_tree(&self) -> &Tree {
        &self.turns[self.turns.len() - 1].1
    }

    /// Whether the session made `path` after the target turn: the last time
    /// it appeared (absent in one snapshot, present in the next) was in a
    /// snapshot of the session's own turns, and its inode changed (a write,
    /// a rename) after the snapshot before that one began: an old file that
    /// a `.gitignore` edit brought into view was not made in between.
    fn made_by_session(&self, path: &[u8]) -> bool {
        let mut present = self.target_tree().contains_key(path);
        let mut by_session = false;
        for pair in self.turns.windows(2) {
            let [(before, _), (manifest, tree)] = pair else {
                continue;
            };
            let node = tree.get(path);
            if let Some(node) = node
                && !present
            {
                by_session = manifest.origin.by_session() && node.ctime_ns >= before.started_ns;
            }
            present = node.is_some();
        }
        by_session
    }
}

fn matches(disk: &Disk, recorded: Option<&Node>) -> bool {
    match (disk, recorded) {
        (Disk::Absent, None) => true,
        (Disk::Here(node), Some(recorded)) => node.same_as(recorded),
        _ => false,
    }
}

/// The plan to bring `root` back to the history's target turn.
pub(crate) fn make(
    history: &History,
    root: &Path,
    cache: &mut StatCache,
    max_file: u64,
) -> Result<Plan> {
    let target = history.target_tree();
    let latest = history.latest_tree();
    let paths: BTreeSet<&Vec<u8>> = target.keys().chain(latest.keys()).collect();
    let mut plan = Plan::default();
    for path in paths {
        let want = target.get(path);
        let seen = latest.get(path);
        let disk = cache.probe(root, path, max_file, None)?;
        if matches(&disk, want) {
            continue;
        }
        if let Disk::Other(kind) = disk {
            plan.left_alone
                .push(why(path, &format!("{kind} is there now; never replaced")));
            continue;
        }
        let action = match want {
            Some(node) if !node.restorable() => {
                plan.not_restorable.push(shown(path));
                continue;
            }
            Some(node) => Action::Write {
                path: path.clone(),
                node: node.clone(),
            },
            None if !history.made_by_session(path) => {
                plan.left_alone
                    .push(why(path, "not made by this session after the turn"));
                continue;
            }
            None if seen.is_some_and(|n| !n.restorable()) => {
                plan.not_restorable.push(shown(path));
                continue;
            }
            None => Action::Delete { path: path.clone() },
        };
        if matches(&disk, seen) {
            plan.actions.push(action);
        } else {
            let reason = match (&disk, seen) {
                (Disk::Absent, _) => "deleted since the session's last checkpoint",
                (_, None) => "created since the session's last checkpoint",
                _ => "changed since the session's last checkpoint",
            };
            plan.conflicts.push(why(path, reason));
            plan.forced.push(action);
        }
    }
    Ok(plan)
}

/// Files on disk now that neither turn N nor the latest snapshot holds:
/// reported, never touched.
pub(crate) fn untouched(history: &History, current: &BTreeSet<Vec<u8>>) -> Vec<Why> {
    current
        .iter()
        .filter(|p| {
            !history.target_tree().contains_key(*p) && !history.latest_tree().contains_key(*p)
        })
        .map(|p| why(p, "not in the session's checkpoints; left alone"))
        .collect()
}
