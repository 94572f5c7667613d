//! Taking a snapshot: the file set (discover's listing, the paths the
//! session's last snapshot held, and any named by the caller), each path
//! probed through the stat cache, a tree object, and the manifest last.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::disk::{Disk, StatCache};
use super::fileset::{Stated, stated_set};
use super::manifest::{self, Manifest, Origin};
use super::state::{Packed, State};
use super::store::Store;
use super::tree::{self, Node, Tree};
use super::watcher::{self, Answer};
use crate::config::Config;
use crate::error::{Error, Result};

/// The bounds a snapshot keeps to.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    pub max_tree_bytes: u64,
    pub max_file_bytes: u64,
    /// Take `$HOME`, `/` or a tree over `max_tree_bytes` anyway.
    pub allow_large: bool,
}

impl Limits {
    pub fn from_config(config: &Config, allow_large: bool) -> Limits {
        let c = &config.services.checkpoint;
        Limits {
            max_tree_bytes: c.max_tree_bytes,
            max_file_bytes: c.max_file_bytes,
            allow_large,
        }
    }
}

/// What `snapshot` prints.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Taken {
    pub session_id: String,
    pub turn: u64,
    pub root: String,
    /// Paths in the snapshot.
    pub files: u64,
    /// Paths added, changed or removed since the session's previous snapshot.
    pub changed: u64,
    /// Compressed bytes this snapshot added to the store.
    pub bytes_stored: u64,
    /// Files over `maxFileBytes` (or unreadable), recorded by size and time
    /// only: a restore cannot bring them back.
    pub not_restorable: Vec<String>,
    /// Whether a watcher (`services.checkpoint.watch`) said what changed
    /// since the session's last snapshot, so only those paths were
    /// re-read; false when the whole tree was scanned.
    pub watched: bool,
    pub elapsed_ms: u64,
}

/// A work tree as the store keys it: absolute, links resolved.
pub(crate) fn work_tree(dir: &Path) -> Result<PathBuf> {
    let root = std::fs::canonicalize(dir).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => {
            Error::NotFound(format!("{}: no such directory", dir.display()))
        }
        _ => Error::io(dir, &e),
    })?;
    if !root.is_dir() {
        return Err(Error::usage(format!("{}: not a directory", root.display())));
    }
    Ok(root)
}

/// Refuses `$HOME` and `/` (unless allowed).
pub(crate) fn check_root(root: &Path, limits: Limits) -> Result<()> {
    if limits.allow_large {
        return Ok(());
    }
    let home = crate::paths::home_dir().and_then(|h| std::fs::canonicalize(h).ok());
    if root == Path::new("/") || home.as_deref() == Some(root) {
        return Err(Error::usage(format!(
            "{}: refusing to checkpoint a home or root directory (--allow-large to take it anyway)",
            root.display()
        )));
    }
    Ok(())
}

/// Refuses a tree whose files add up to more than the limit.
fn check_size(root: &Path, stated: &[Stated], limits: Limits) -> Result<()> {
    if limits.allow_large {
        return Ok(());
    }
    let total: u64 = stated
        .iter()
        .filter_map(|s| s.meta.as_ref().ok())
        .map(std::fs::Metadata::len)
        .sum();
    if total > limits.max_tree_bytes {
        return Err(Error::usage(format!(
            "{}: the tree holds {total} bytes, over services.checkpoint.maxTreeBytes ({}); \
             --allow-large to take it anyway",
            root.display(),
            limits.max_tree_bytes
        )));
    }
    Ok(())
}

/// The latest manifest of a session and the state it left
/// ([`State`], with the tree), if it has one; the state's tree is read
/// from the manifest's objects (and it holds no stat cache nor directory
/// hashes) when the state file is not whole or not of that manifest:
/// whether it was.
#[allow(clippy::type_complexity)]
fn latest(
    store: &Store,
    session: &str,
) -> Result<(Option<(Manifest, State, Option<Packed>)>, bool)> {
    let Some(&turn) = manifest::turns(store, session)?.last() else {
        return Ok((None, false));
    };
    let manifest = manifest::read(store, session, turn)?;
    if let Some((state, packed)) = State::load(store, session, &manifest.tree) {
        return Ok((Some((manifest, state, Some(packed))), true));
    }
    let state = State {
        tree_hash: manifest.tree.clone(),
        tree: manifest::tree_of(store, &manifest)?,
        ..State::default()
    };
    Ok((Some((manifest, state, None)), false))
}

/// One snapshot to take. The caller holds the store's lock.
pub(crate) struct Request<'a> {
    pub session: &'a str,
    pub root: &'a Path,
    pub turn: Option<u64>,
    pub origin: Origin,
    pub limits: Limits,
    /// Paths relative to the root to cover even if discover leaves them out.
    pub extra: Vec<Vec<u8>>,
}

/// Takes a snapshot; returns what it saw and the tree.
pub(crate) fn take(store: &Store, config: &Config, req: Request<'_>) -> Result<(Taken, Tree)> {
    let clock = std::time::Instant::now();
    let started = super::disk::start();
    check_root(req.root, req.limits)?;
    let (previous, whole) = latest(store, req.session)?;
    if let Some((last, ..)) = &previous
        && last.root != req.root
    {
        return Err(Error::usage(format!(
            "session {} checkpoints {}, not {}",
            req.session,
            last.root.display(),
            req.root.display()
        )));
    }
    let turn = match (req.turn, &previous) {
        (Some(turn), Some((last, ..))) if turn <= last.turn => {
            return Err(Error::usage(format!(
                "turn {turn} is not after the session's last checkpoint (turn {})",
                last.turn
            )));
        }
        (Some(turn), _) => turn,
        (None, Some((last, ..))) => last.turn + 1,
        (None, None) => 1,
    };
    let since = previous
        .as_ref()
        .and_then(|(last, ..)| watcher::last_token(store, req.root, req.session, last.turn));
    // Asked before anything is read: a change made after the answer is in
    // the next one.
    let asked = watcher::enabled(config)
        .then(|| watcher::ask(store, req.root, since))
        .flatten();
    let had_previous = previous.is_some();
    let (mut state, packed) = previous
        .map(|(_, state, packed)| (state, packed))
        .unwrap_or_default();
    let mut cache = match packed {
        Some(packed) => StatCache::from_packed(state.started_ns, packed),
        None => StatCache::default(),
    };
    let mut watched = false;
    // The paths added, changed or removed since the last snapshot, and the
    // directories on their paths.
    let mut changed = 0;
    let mut dirty = HashSet::new();
    let mut stored = 0;
    // What is at a stated path now (`None`: nothing the tree holds).
    let mut probe = |stated: Stated| -> Result<(Vec<u8>, Option<Node>)> {
        let Stated {
            relative,
            path,
            meta,
        } = stated;
        let found = cache.probe_stat(
            &path,
            &relative,
            meta,
            req.limits.max_file_bytes,
            Some((store, &mut stored)),
        )?;
        let node = match found {
            Disk::Here(node) => Some(node),
            Disk::Absent | Disk::Other(_) => None,
        };
        Ok((relative, node))
    };
    match &asked {
        // Only from a whole state: the paths not re-read keep its nodes
        // and stat entries.
        Some(Answer::Changed { paths, trees, .. }) if whole => {
            let stated =
                super::incremental::stated(req.root, config, &state.tree, paths, trees, req.extra)?;
            watched = true;
            for stated in stated {
                let (relative, new) = probe(stated)?;
                let old = state.tree.get(&relative);
                if old == new.as_ref() {
                    continue;
                }
                changed += u64::from(match (old, &new) {
                    (Some(old), Some(new)) => !old.same_as(new),
                    _ => true,
                });
                super::dirtree::mark_dirty(&mut dirty, &relative);
                match new {
                    Some(node) => state.tree.insert(relative, node),
                    None => state.tree.remove(&relative),
                };
            }
        }
        _ => {
            let extra = state.tree.keys().cloned().chain(req.extra);
            let stated = stated_set(req.root, config, extra)?;
            check_size(req.root, &stated, req.limits)?;
            let mut now = Tree::new();
            for stated in stated {
                if let (relative, Some(node)) = probe(stated)? {
                    now.insert(relative, node);
                }
            }
            changed = changed_between(&state.tree, &now);
            for path in differing_paths(&state.tree, &now) {
                super::dirtree::mark_dirty(&mut dirty, path);
            }
            state.tree = now;
        }
    }
    let not_restorable = state
        .tree
        .iter()
        .filter(|(_, node)| !node.restorable())
        .map(|(relative, _)| tree::shown(relative))
        .collect();
    // Nothing differs from the last turn's tree (not even a time): its
    // object, not a new encoding of any directory.
    if !had_previous || !dirty.is_empty() {
        if !whole {
            state.dirs.clear();
        }
        let (hash, written) =
            super::dirtree::write_cached(store, &state.tree, &mut state.dirs, &dirty)?;
        stored += written;
        state.tree_hash = hash;
    }
    let tree_hash = state.tree_hash.clone();
    let manifest = Manifest {
        session_id: req.session.to_string(),
        turn,
        origin: req.origin,
        root: req.root.to_path_buf(),
        time: crate::timestamp::now_iso(),
        started_ns: started,
        tree: tree_hash,
        files: state.tree.len() as u64,
    };
    manifest::write(store, &manifest)?;
    if !whole || !dirty.is_empty() || cache.missed() {
        // A shortcut only: the manifest is written, whatever happens here.
        state.started_ns = super::disk::racy_stamp(started);
        let _ = state.save(store, req.session, &cache);
    }
    let token = asked.map(|answer| answer.token());
    watcher::save_token(store, req.root, req.session, token.map(|t| (t, turn)));
    let taken = Taken {
        session_id: req.session.to_string(),
        turn,
        root: req.root.display().to_string(),
        files: state.tree.len() as u64,
        changed,
        bytes_stored: stored,
        not_restorable,
        watched,
        elapsed_ms: u64::try_from(clock.elapsed().as_millis()).unwrap_or(u64::MAX),
    };
    Ok((taken, state.tree))
}

/// The paths added, changed (any field) or removed between two trees.
fn differing_paths<'a>(before: &'a Tree, after: &'a Tree) -> Vec<&'a [u8]> {
    let mut out: Vec<&[u8]> = after
        .iter()
        .filter(|(path, node)| before.get(*path) != Some(*node))
        .map(|(path, _)| path.as_slice())
        .collect();
    out.extend(
        before
            .keys()
            .filter(|p| !after.contains_key(*p))
            .map(Vec::as_slice),
    );
    out
}

/// How many paths differ between two trees.
pub(crate) fn changed_between(before: &Tree, after: &Tree) -> u64 {
    let changed = after
        .iter()
        .filter(|(path, node)| before.get(*path).is_none_or(|old| !old.same_as(node)))
        .count();
    let removed = before.keys().filter(|p| !after.contains_key(*p)).count();
    (changed + removed) as u64
}
