//! A tree as the store keeps it: one object per directory, git's way, so a
//! directory nothing changed in is the same object from turn to turn and a
//! turn that edits one file stores that file's content, its directory's
//! object and those of the directories above it, not a line per file of
//! the whole tree.
//!
//! A directory object is text: the header line, then one line per entry in
//! name order, a file or link as [`tree::encode_line`] writes it (the name
//! instead of the path) and a subdirectory as `d HASH NAME` (name in hex).
//! An object without the header is a flat tree ([`tree::encode`]), what
//! the store held before the split; it is read as it is.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

use super::state::Dirs;
use super::store::Store;
use super::tree::{self, Node, Tree, from_hex, is_hash, to_hex};
use crate::error::{Error, Result};

const HEADER: &str = "ollm-checkpoint tree 2\n";

/// A directory's entries while a tree is split.
#[derive(Default)]
struct Dir<'a> {
    files: BTreeMap<&'a [u8], &'a Node>,
    dirs: BTreeMap<&'a [u8], Dir<'a>>,
}

/// Stores `tree` as directory objects; returns the root's hash, the
/// compressed bytes written (0 for every directory stored before) and
/// each directory's hash. (A snapshot writes through [`write_cached`].)
#[cfg(test)]
pub(crate) fn write(store: &Store, tree: &Tree) -> Result<(String, u64, Dirs)> {
    let mut dirs = Dirs::new();
    let (hash, written) = write_cached(store, tree, &mut dirs, &HashSet::new())?;
    Ok((hash, written, dirs))
}

/// [`write`] with the directory hashes of the tree before (`dirs`, git's
/// cache-tree): a directory not in `dirty` (the directories on the path of
/// each path added, changed or removed since) keeps its hash and is
/// neither encoded nor hashed again. `dirs` becomes the new tree's.
pub(crate) fn write_cached(
    store: &Store,
    tree: &Tree,
    dirs: &mut Dirs,
    dirty: &HashSet<Vec<u8>>,
) -> Result<(String, u64)> {
    let mut root = Dir::default();
    for (path, node) in tree {
        let mut dir = &mut root;
        let mut parts = path.split(|&b| b == b'/').peekable();
        while let Some(part) = parts.next() {
            if parts.peek().is_some() {
                dir = dir.dirs.entry(part).or_default();
            } else {
                dir.files.insert(part, node);
            }
        }
    }
    // A directory gone since had a path removed: it is dirty, and only
    // the ones that are still there come back below.
    for path in dirty {
        dirs.remove(path);
    }
    let mut cx = Writing {
        store,
        dirs,
        dirty,
        written: 0,
    };
    let hash = put_dir(&mut cx, &root, &mut Vec::new())?;
    Ok((hash, cx.written))
}

/// The directories on the path of `path` (its parent, up to the root
/// `""`): what an edit of it makes dirty.
pub(crate) fn mark_dirty(dirty: &mut HashSet<Vec<u8>>, path: &[u8]) {
    let mut end = path.len();
    while let Some(slash) = path[..end].iter().rposition(|&b| b == b'/') {
        if !dirty.insert(path[..slash].to_vec()) {
            return;
        }
        end = slash;
    }
    dirty.insert(Vec::new());
}

struct Writing<'a> {
    store: &'a Store,
    dirs: &'a mut Dirs,
    dirty: &'a HashSet<Vec<u8>>,
    written: u64,
}

fn put_dir(cx: &mut Writing<'_>, dir: &Dir<'_>, at: &mut Vec<u8>) -> Result<String> {
    if !cx.dirty.contains(at.as_slice())
        && let Some(hash) = cx.dirs.get(at.as_slice())
    {
        return Ok(hash.clone());
    }
    let mut out = String::with_capacity(HEADER.len() + (dir.files.len() + dir.dirs.len()) * 120);
    out.push_str(HEADER);
    for (name, sub) in &dir.dirs {
        let len = at.len();
        if !at.is_empty() {
            at.push(b'/');
        }
        at.extend_from_slice(name);
        let hash = put_dir(cx, sub, at)?;
        at.truncate(len);
        let _ = writeln!(out, "d {hash} {}", to_hex(name));
    }
    for (name, node) in &dir.files {
        tree::encode_line(&mut out, name, node);
    }
    let (hash, bytes) = cx.store.put(out.as_bytes())?;
    cx.written += bytes;
    cx.dirs.insert(at.clone(), hash.clone());
    Ok(hash)
}

/// The tree stored under `hash` (split or flat), and the hashes of the
/// directory objects it is made of (the root's included): what the
/// collector must keep for it.
pub(crate) fn read(store: &Store, hash: &str) -> Result<(Tree, Vec<String>)> {
    let mut tree = Tree::new();
    let mut objects = Vec::new();
    let mut pending = vec![(Vec::new(), hash.to_string())];
    while let Some((prefix, hash)) = pending.pop() {
        let bytes = store.get(&hash)?;
        let bad = |why: String| Error::Corrupt(format!("tree {hash}: {why}"));
        let Some(body) = bytes.strip_prefix(HEADER.as_bytes()) else {
            if !prefix.is_empty() {
                return Err(bad("a subdirectory without the header".into()));
            }
            let flat = tree::decode(&bytes).map_err(bad)?;
            objects.push(hash);
            return Ok((flat, objects));
        };
        let text = std::str::from_utf8(body).map_err(|_| bad("not text".into()))?;
        for (number, line) in text.lines().enumerate() {
            let line_bad = || bad(format!("line {}: not a tree entry", number + 2));
            if let Some(rest) = line.strip_prefix("d ") {
                let (sub, name) = rest.split_once(' ').ok_or_else(line_bad)?;
                let name = from_hex(name).filter(|n| is_name(n)).ok_or_else(line_bad)?;
                if !is_hash(sub) {
                    return Err(line_bad());
                }
                pending.push((joined(&prefix, &name), sub.to_string()));
            } else {
                let (name, node) = tree::decode_line(line)
                    .filter(|(name, _)| is_name(name))
                    .ok_or_else(line_bad)?;
                tree.insert(joined(&prefix, &name), node);
            }
        }
        objects.push(hash);
    }
    Ok((tree, objects))
}

/// One path component: not empty, no `/`, not `.` or `..` (what keeps a
/// damaged tree from naming a path outside the work tree).
fn is_name(name: &[u8]) -> bool {
    !name.is_empty() && name != b"." && name != b".." && !name.contains(&b'/')
}

fn joined(prefix: &[u8], name: &[u8]) -> Vec<u8> {
    if prefix.is_empty() {
        return name.to_vec();
    }
    let mut path = Vec::with_capacity(prefix.len() + 1 + name.len());
    path.extend_from_slice(prefix);
    path.push(b'/');
    path.extend_from_slice(name);
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkpoint::tree::Kind;

    fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path().join("store"));
        let held = store.lock().unwrap();
        drop(held);
        (dir, store)
    }

    fn node(hash: char) -> Node {
        Node {
            kind: Kind::File,
            mode: 0o644,
            size: 1,
            mtime_ns: 2,
            ctime_ns: 3,
            hash: Some(hash.to_string().repeat(64)),
        }
    }

    fn sample() -> Tree {
        let mut tree = Tree::new();
        tree.insert(b"top".to_vec(), node('a'));
        tree.insert(b"src/a.rs".to_vec(), node('b'));
        tree.insert(b"src/deep/\xff name\n".to_vec(), node('c'));
        tree.insert(b"docs/x.md".to_vec(), node('d'));
        tree
    }

    #[test]
    fn a_split_tree_reads_back_as_the_same_paths() {
        let (_dir, store) = store();
        let tree = sample();
        let (hash, _, _) = write(&store, &tree).unwrap();
        let (read_back, objects) = read(&store, &hash).unwrap();
        assert_eq!(read_back, tree);
        // The root, src, src/deep and docs.
        assert_eq!(objects.len(), 4);
        assert!(objects.contains(&hash));
    }

    #[test]
    fn an_edit_stores_only_its_directory_and_those_above() {
        let (_dir, store) = store();
        let mut tree = sample();
        let (first, _, _) = write(&store, &tree).unwrap();
        tree.insert(b"src/deep/\xff name\n".to_vec(), node('e'));
        let (second, _, _) = write(&store, &tree).unwrap();
        let (_, before) = read(&store, &first).unwrap();
        let (_, after) = read(&store, &second).unwrap();
        let new: Vec<_> = after.iter().filter(|h| !before.contains(h)).collect();
        // The root, src and src/deep changed; docs is shared.
        assert_eq!(new.len(), 3);
    }

    /// The hashes of `dirs` that differ from `before`'s (or are new).
    fn differing(before: &Dirs, after: &Dirs) -> Vec<Vec<u8>> {
        after
            .iter()
            .filter(|(path, hash)| before.get(*path) != Some(hash))
            .map(|(path, _)| path.clone())
            .collect()
    }

    #[test]
    fn a_deep_edit_changes_exactly_the_hashes_on_its_path_as_from_scratch() {
        let (_dir, store) = store();
        let mut tree = sample();
        tree.insert(b"src/other/z.rs".to_vec(), node('f'));
        let (_, _, before) = write(&store, &tree).unwrap();
        let mut dirs = before.clone();
        let edited = b"src/deep/\xff name\n".to_vec();
        tree.insert(edited.clone(), node('e'));
        let mut dirty = HashSet::new();
        mark_dirty(&mut dirty, &edited);
        let (hash, _) = write_cached(&store, &tree, &mut dirs, &dirty).unwrap();
        let (scratch, _, scratch_dirs) = write(&store, &tree).unwrap();
        assert_eq!(hash, scratch);
        assert_eq!(dirs, scratch_dirs);
        let expected: Vec<Vec<u8>> = vec![b"".to_vec(), b"src".to_vec(), b"src/deep".to_vec()];
        assert_eq!(differing(&before, &dirs), expected);
        assert_eq!(read(&store, &hash).unwrap().0, tree);
    }

    #[test]
    fn a_removed_directory_leaves_the_cache_tree_and_an_added_one_joins_it() {
        let (_dir, store) = store();
        let mut tree = sample();
        let (_, _, mut dirs) = write(&store, &tree).unwrap();
        let mut dirty = HashSet::new();
        let gone = b"src/deep/\xff name\n".to_vec();
        tree.remove(&gone);
        mark_dirty(&mut dirty, &gone);
        let added = b"new/sub/file".to_vec();
        tree.insert(added.clone(), node('9'));
        mark_dirty(&mut dirty, &added);
        let (hash, _) = write_cached(&store, &tree, &mut dirs, &dirty).unwrap();
        let (scratch, _, scratch_dirs) = write(&store, &tree).unwrap();
        assert_eq!((hash, dirs), (scratch, scratch_dirs));
    }

    #[test]
    fn a_stale_hash_of_a_clean_directory_is_used_as_is() {
        // What makes the cache-tree a shortcut that must be exact: a
        // directory not marked dirty is not looked at.
        let (_dir, store) = store();
        let mut tree = sample();
        let (_, _, mut dirs) = write(&store, &tree).unwrap();
        tree.insert(b"docs/x.md".to_vec(), node('7'));
        let (hash, _) = write_cached(&store, &tree, &mut dirs, &HashSet::new()).unwrap();
        assert_ne!(read(&store, &hash).unwrap().0, tree);
    }

    #[test]
    fn a_flat_tree_from_before_the_split_is_still_read() {
        let (_dir, store) = store();
        let tree = sample();
        let (hash, _) = store.put(&tree::encode(&tree)).unwrap();
        assert_eq!(read(&store, &hash).unwrap(), (tree, vec![hash]));
    }

    #[test]
    fn a_name_that_leaves_its_directory_is_corrupt() {
        let (_dir, store) = store();
        let evil = format!("{HEADER}f 644 1 2 3 {} {}\n", "a".repeat(64), to_hex(b".."));
        let (hash, _) = store.put(evil.as_bytes()).unwrap();
        assert!(matches!(read(&store, &hash), Err(Error::Corrupt(_))));
    }
}
