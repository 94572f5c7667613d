//! Taking a snapshot: the file set (discover's listing, the paths the
//! session's last snapshot held, and any named by the caller), each path
//! probed through the stat cache, a tree object, and the manifest last.

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use super::disk::{Disk, StatCache};
use super::manifest::{self, Manifest, Origin};
use super::store::Store;
use super::tree::{self, Tree};
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

/// Whether any component of a relative path is `.git`: nothing there is
/// ever read or written (nested repositories and submodules included).
pub(crate) fn in_git_dir(relative: &[u8]) -> bool {
    relative.split(|&b| b == b'/').any(|part| part == b".git")
}

/// The paths a snapshot of `root` covers: discover's listing (files and
/// links, no depth limit), plus `extra` (what the session's last snapshot
/// held, the paths its tool calls named) where they are inside `root`.
pub(crate) fn file_set(
    root: &Path,
    config: &Config,
    extra: impl IntoIterator<Item = Vec<u8>>,
) -> Result<BTreeSet<Vec<u8>>> {
    let mut opts = crate::discover::Options::new(root, &config.services.file_discovery)?;
    opts.max_depth = None;
    opts.follow_symlinks = false;
    opts.types = crate::discover::TypeSet::default();
    let mut set: BTreeSet<Vec<u8>> = crate::discover::collect(&Arc::new(opts))?
        .iter()
        .map(|entry| entry.relative_bytes().to_vec())
        .collect();
    set.extend(extra.into_iter().filter(|p| is_inside(p)));
    set.retain(|p| !in_git_dir(p));
    Ok(set)
}

/// A relative path that stays below the root: no `..`, not absolute, not empty.
fn is_inside(relative: &[u8]) -> bool {
    !relative.is_empty()
        && !relative.starts_with(b"/")
        && relative
            .split(|&b| b == b'/')
            .all(|part| part != b".." && !part.is_empty())
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

/// A path of the file set with its `lstat`, taken once for the size check
/// and the stat cache both.
struct Stated {
    relative: Vec<u8>,
    path: PathBuf,
    meta: std::io::Result<std::fs::Metadata>,
}

fn stat_all(root: &Path, set: BTreeSet<Vec<u8>>) -> Vec<Stated> {
    set.into_iter()
        .map(|relative| {
            let path = root.join(OsStr::from_bytes(&relative));
            let meta = std::fs::symlink_metadata(&path);
            Stated {
                relative,
                path,
                meta,
            }
        })
        .collect()
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

/// The latest manifest of a session and its tree, if it has one.
pub(crate) fn latest(store: &Store, session: &str) -> Result<Option<(Manifest, Tree)>> {
    let Some(&turn) = manifest::turns(store, session)?.last() else {
        return Ok(None);
    };
    let manifest = manifest::read(store, session, turn)?;
    let tree = manifest::tree_of(store, &manifest)?;
    Ok(Some((manifest, tree)))
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
    let previous = latest(store, req.session)?;
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
    let (before_hash, before) = previous
        .map(|(last, tree)| (Some(last.tree), tree))
        .unwrap_or_default();
    let extra = before.keys().cloned().chain(req.extra);
    let stated = stat_all(req.root, file_set(req.root, config, extra)?);
    check_size(req.root, &stated, req.limits)?;
    let workspace = store.workspace_dir(req.root);
    let mut cache = StatCache::load(&workspace);
    let mut stored = 0;
    let mut now = Tree::new();
    let mut not_restorable = Vec::new();
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
        if let Disk::Here(node) = found {
            if !node.restorable() {
                not_restorable.push(tree::shown(&relative));
            }
            now.insert(relative, node);
        }
    }
    let changed = changed_between(&before, &now);
    let tree_hash = match before_hash {
        // The same tree as the last turn's: its object, not a new encoding
        // and hash of a text as long as the tree.
        Some(hash) if now == before => hash,
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
    cache.save(&workspace, super::disk::racy_stamp(started))?;
    let taken = Taken {
        session_id: req.session.to_string(),
        turn,
        root: req.root.display().to_string(),
        files: now.len() as u64,
        changed,
        bytes_stored: stored,
        not_restorable,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_under_any_git_dir_are_never_in_the_set() {
        assert!(in_git_dir(b".git/index"));
        assert!(in_git_dir(b"vendor/lib/.git"));
        assert!(in_git_dir(b"sub/.git/config"));
        assert!(!in_git_dir(b"a.gitignore"));
        assert!(!in_git_dir(b".github/x"));
    }

    #[test]
    fn named_paths_outside_the_root_are_dropped() {
        assert!(is_inside(b"src/a.rs"));
        assert!(!is_inside(b"../etc/passwd"));
        assert!(!is_inside(b"/etc/passwd"));
        assert!(!is_inside(b"a//b"));
    }
}
