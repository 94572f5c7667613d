//! The file set a snapshot covers: discover's listing of the work tree
//! (files and links, any depth, `.git` never), plus paths named from
//! elsewhere (the session's last snapshot, its tool calls) that stay
//! inside the tree; each with its `lstat` when a snapshot probes it.

use std::collections::{BTreeSet, HashSet};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::Config;
use crate::error::Result;

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
    let opts = listing_options(root, config)?;
    let mut set: BTreeSet<Vec<u8>> = crate::discover::collect(&Arc::new(opts))?
        .iter()
        .map(|entry| entry.relative_bytes().to_vec())
        .collect();
    set.extend(extra.into_iter().filter(|p| is_inside(p)));
    set.retain(|p| !in_git_dir(p));
    Ok(set)
}

/// Discover's options for the file set: files and links, no depth limit,
/// links not followed.
pub(crate) fn listing_options(root: &Path, config: &Config) -> Result<crate::discover::Options> {
    let mut opts = crate::discover::Options::new(root, &config.services.file_discovery)?;
    opts.max_depth = None;
    opts.follow_symlinks = false;
    opts.types = crate::discover::TypeSet::default();
    Ok(opts)
}

/// A relative path that stays below the root: no `..`, not absolute, not empty.
pub(crate) fn is_inside(relative: &[u8]) -> bool {
    !relative.is_empty()
        && !relative.starts_with(b"/")
        && relative
            .split(|&b| b == b'/')
            .all(|part| part != b".." && !part.is_empty())
}

/// A path of the file set with its `lstat`, taken once for the size check
/// and the stat cache both.
pub(crate) struct Stated {
    pub relative: Vec<u8>,
    pub path: PathBuf,
    pub meta: std::io::Result<std::fs::Metadata>,
}

impl Stated {
    /// `relative` below `root`, with the `lstat` taken now.
    pub(crate) fn now(root: &Path, relative: Vec<u8>) -> Stated {
        let path = root.join(OsStr::from_bytes(&relative));
        let meta = std::fs::symlink_metadata(&path);
        Stated {
            relative,
            path,
            meta,
        }
    }
}

/// The file set of [`file_set`], each path with its `lstat`: discover's
/// walk hands over the one it took (its threads stat in parallel), so a
/// listed file is stat'ed once; only the `extra` paths it did not list are
/// stat'ed here.
pub(crate) fn stated_set(
    root: &Path,
    config: &Config,
    extra: impl IntoIterator<Item = Vec<u8>>,
) -> Result<Vec<Stated>> {
    let opts = listing_options(root, config)?;
    let mut stated: Vec<Stated> = crate::discover::collect_stated(&Arc::new(opts))?
        .into_iter()
        .filter(|(relative, _)| !in_git_dir(relative))
        .map(|(relative, meta)| Stated {
            path: root.join(OsStr::from_bytes(&relative)),
            relative,
            meta,
        })
        .collect();
    let listed: HashSet<&[u8]> = stated.iter().map(|s| s.relative.as_slice()).collect();
    let rest: BTreeSet<Vec<u8>> = extra
        .into_iter()
        .filter(|p| is_inside(p) && !in_git_dir(p) && !listed.contains(p.as_slice()))
        .collect();
    stated.extend(rest.into_iter().map(|relative| Stated::now(root, relative)));
    Ok(stated)
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
