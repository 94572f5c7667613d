//! Taking a snapshot: the file set (discover's listing, the paths the
//! session's last snapshot held, and any named by the caller), each path
//! probed through the stat cache, a tree object, and the manifest last.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::disk::{Disk, StatCache};
use super::fileset::{Stated, stated_set};
use super::manifest::{self, Manifest, Origin};
use super::store::Store;
use super::tree::{self, Tree};
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

/// The session's last tree as flat text under its hash, beside its
/// manifests: one read instead of an object per directory (each read and
/// decompressed) at every snapshot. Only a shortcut: used when its hash is
/// the latest manifest's, rewritten when that changes.
fn last_tree_file(store: &Store, session: &str) -> PathBuf {
    store.session_dir(session).join("last-tree")
}

fn read_last_tree(store: &Store, session: &str, hash: &str) -> Option<Tree> {
    let bytes = crate::fs::read_regular(&last_tree_file(store, session))
        .ok()
        .flatten()?;
    let body = bytes.strip_prefix(hash.as_bytes())?.strip_prefix(b"\n")?;
    tree::decode(body).ok()
}

fn write_last_tree(store: &Store, session: &str, hash: &str, tree: &Tree) -> Result<()> {
    let mut out = format!("{hash}\n").into_bytes();
    out.extend_from_slice(&tree::encode(tree));
    crate::fs::write_atomic(
        &last_tree_file(store, session),
        &out,
        crate::fs::Durability::Cache,
    )
}

/// The latest manifest of a session and its tree, if it has one (through
/// its last-tree file when that holds it: whether it did).
fn latest_cached(store: &Store, session: &str) -> Result<(Option<(Manifest, Tree)>, bool)> {
    let Some(&turn) = manifest::turns(store, session)?.last() else {
        return Ok((None, false));
    };
    let manifest = manifest::read(store, session, turn)?;
    if let Some(tree) = read_last_tree(store, session, &manifest.tree) {
        return Ok((Some((manifest, tree)), true));
    }
    let tree = manifest::tree_of(store, &manifest)?;
    Ok((Some((manifest, tree)), false))
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
    let (previous, cached) = latest_cached(store, req.session)?;
    if let Some((last, _)) = &previous
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
        (Some(turn), Some((last, _))) if turn <= last.turn => {
            return Err(Error::usage(format!(
                "turn {turn} is not after the session's last checkpoint (turn {})",
                last.turn
            )));
        }
        (Some(turn), _) => turn,
        (None, Some((last, _))) => last.turn + 1,
        (None, None) => 1,
    };
    let since = previous
        .as_ref()
        .and_then(|(last, _)| watcher::last_token(store, req.root, req.session, last.turn));
    // Asked before anything is read: a change made after the answer is in
    // the next one.
    let asked = watcher::enabled(config)
        .then(|| watcher::ask(store, req.root, since))
        .flatten();
    let (before_hash, before) = previous
        .map(|(last, tree)| (Some(last.tree), tree))
        .unwrap_or_default();
    let workspace = store.workspace_dir(req.root);
    let mut cache = StatCache::load(&workspace);
    let mut watched = false;
    let (stated, mut now) = match &asked {
        Some(Answer::Changed { paths, trees, .. }) if before_hash.is_some() => {
            let stated =
                super::incremental::stated(req.root, config, &before, paths, trees, req.extra)?;
            let probed: HashSet<&[u8]> = stated.iter().map(|s| s.relative.as_slice()).collect();
            cache.carry_over(&probed);
            watched = true;
            (stated, before.clone())
        }
        _ => {
            let extra = before.keys().cloned().chain(req.extra);
            let stated = stated_set(req.root, config, extra)?;
            check_size(req.root, &stated, req.limits)?;
            (stated, Tree::new())
        }
    };
    let mut stored = 0;
    for Stated {
        relative,
        path,
        meta,
    } in stated
    {
        let found = cache.probe_stat(
            &path,
            &relative,
            meta,
            req.limits.max_file_bytes,
            Some((store, &mut stored)),
        )?;
        match found {
            Disk::Here(node) => {
                now.insert(relative, node);
            }
            Disk::Absent | Disk::Other(_) => {
                now.remove(&relative);
            }
        }
    }
    let not_restorable = now
        .iter()
        .filter(|(_, node)| !node.restorable())
        .map(|(relative, _)| tree::shown(relative))
        .collect();
    let changed = changed_between(&before, &now);
    let tree_hash = match &before_hash {
        // The same tree as the last turn's: its object, not a new encoding
        // and hash of a text as long as the tree.
        Some(hash) if now == before => hash.clone(),
        _ => {
            let (hash, written) = super::dirtree::write(store, &now)?;
            stored += written;
            hash
        }
    };
    let manifest = Manifest {
        session_id: req.session.to_string(),
        turn,
        origin: req.origin,
        root: req.root.to_path_buf(),
        time: crate::timestamp::now_iso(),
        started_ns: started,
        tree: tree_hash,
        files: now.len() as u64,
    };
    manifest::write(store, &manifest)?;
    if !cached || before_hash.as_deref() != Some(manifest.tree.as_str()) {
        // A shortcut only: the manifest is written, whatever happens here.
        let _ = write_last_tree(store, req.session, &manifest.tree, &now);
    }
    cache.save(&workspace, super::disk::racy_stamp(started))?;
    let token = asked.map(|answer| answer.token());
    watcher::save_token(store, req.root, req.session, token.map(|t| (t, turn)));
    let taken = Taken {
        session_id: req.session.to_string(),
        turn,
        root: req.root.display().to_string(),
        files: now.len() as u64,
        changed,
        bytes_stored: stored,
        not_restorable,
        watched,
        elapsed_ms: u64::try_from(clock.elapsed().as_millis()).unwrap_or(u64::MAX),
    };
    Ok((taken, now))
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
