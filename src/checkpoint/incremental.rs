//! The paths a snapshot re-stats when a watcher said what changed since
//! the session's last snapshot: instead of the whole file set, the changed
//! paths the last snapshot held, the new ones discover lists (their
//! directory re-listed, one level), everything below a directory created,
//! moved or removed (re-listed in full, plus what the last snapshot held
//! there), and the paths the caller names. A directory is re-listed only
//! when the listing of the root would read it (an ignored `target/` whose
//! files change at every build adds nothing).

use std::collections::{BTreeSet, HashSet};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::Arc;

use super::fileset::{Stated, in_git_dir, is_inside, listing_options};
use super::tree::Tree;
use crate::config::Config;
use crate::error::Result;

/// The paths to probe, each with its `lstat`.
pub(crate) fn stated(
    root: &Path,
    config: &Config,
    before: &Tree,
    paths: &[Vec<u8>],
    trees: &[Vec<u8>],
    extra: Vec<Vec<u8>>,
) -> Result<Vec<Stated>> {
    let opts = Arc::new(listing_options(root, config)?);
    let mut want: BTreeSet<Vec<u8>> = extra.into_iter().collect();
    let mut parents: HashSet<&[u8]> = HashSet::new();
    for path in paths {
        if before.contains_key(path) {
            want.insert(path.clone());
        } else {
            parents.insert(parent_of(path));
        }
    }
    for parent in parents {
        let dir = root.join(OsStr::from_bytes(parent));
        if crate::discover::enters(&opts, &dir) {
            want.extend(crate::discover::list_below(&opts, &dir, false));
        }
    }
    for tree in trees {
        let dir = root.join(OsStr::from_bytes(tree));
        if crate::discover::enters(&opts, &dir) {
            want.extend(crate::discover::list_below(&opts, &dir, true));
        }
        want.extend(before.keys().filter(|p| is_below(p, tree)).cloned());
    }
    Ok(want
        .into_iter()
        .filter(|p| is_inside(p) && !in_git_dir(p))
        .map(|relative| Stated::now(root, relative))
        .collect())
}

/// The directory part of a relative path (empty for the root's own).
fn parent_of(path: &[u8]) -> &[u8] {
    path.iter()
        .rposition(|&b| b == b'/')
        .map_or(&[][..], |slash| &path[..slash])
}

/// Whether `path` is `dir` or below it (everything is below the root, "").
fn is_below(path: &[u8], dir: &[u8]) -> bool {
    dir.is_empty() || path == dir || (path.starts_with(dir) && path.get(dir.len()) == Some(&b'/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_below_its_directories_only() {
        assert!(is_below(b"a/b/c", b"a"));
        assert!(is_below(b"a/b/c", b"a/b"));
        assert!(is_below(b"a", b"a"));
        assert!(is_below(b"x", b""));
        assert!(!is_below(b"ab/c", b"a"));
        assert_eq!(parent_of(b"a/b/c"), b"a/b");
        assert_eq!(parent_of(b"c"), b"");
    }
}
