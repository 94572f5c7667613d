//! A session's last state in one binary file beside its manifests
//! (`state`): the tree of its latest snapshot, each file's stat-cache entry
//! (inode and mode besides what the tree holds) and each directory's
//! object hash (git's cache-tree), so a snapshot reads its starting point
//! with one read and no per-line parsing, and re-encodes only the
//! directories on a changed path.
//!
//! Only a shortcut: used when its tree hash is the latest manifest's and
//! its checksum holds; anything else (missing, cut, corrupt, another
//! version) is a full scan from the manifest's tree objects, never a wrong
//! answer. Rewritten only when a snapshot saw something change.
//!
//! Layout, little-endian: the magic, a version (u32), the xxh3 of the body
//! (u64), then the body: the tree hash (32 bytes), the stat cache's stamp
//! (i64), the count of entries and of directories (u32 each); each entry
//! as its path (u32 length, bytes), kind (u8), flags (u8: has a content
//! hash, has a stat-cache entry), mode (u32), size (u64), mtime and ctime
//! (i64), then the hash (32 bytes) and the stat entry's inode (u64) and
//! mode (u32) when flagged; each directory as its path and hash.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use super::disk::{Stat, StatCache};
use super::store::Store;
use super::tree::{Kind, Node, Tree, from_hex, to_hex};
use crate::error::Result;
use crate::fs::Durability;

const MAGIC: &[u8; 8] = b"ollmcps\n";
const VERSION: u32 = 1;
const HAS_HASH: u8 = 1;
const HAS_STAT: u8 = 2;

/// Directory path (`""` for the root) to its tree object's hash.
pub(crate) type Dirs = BTreeMap<Vec<u8>, String>;

/// What a session's last snapshot left for the next one.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct State {
    /// The root tree object these entries make up.
    pub tree_hash: String,
    pub tree: Tree,
    /// The stat cache: its stamp and the entries of hashed files.
    pub started_ns: i64,
    pub stats: HashMap<Vec<u8>, (Stat, String)>,
    pub dirs: Dirs,
}

pub(crate) fn file(store: &Store, session: &str) -> PathBuf {
    store.session_dir(session).join("state")
}

impl State {
    /// The session's state if whole and of `tree_hash`; `None` otherwise.
    pub fn load(store: &Store, session: &str, tree_hash: &str) -> Option<State> {
        let bytes = crate::fs::read_regular(&file(store, session)).ok()??;
        let state = decode(&bytes)?;
        (state.tree_hash == tree_hash).then_some(state)
    }

    /// The stat cache it holds (an empty one without a state).
    pub fn stat_cache(store: &Store, session: &str) -> StatCache {
        crate::fs::read_regular(&file(store, session))
            .ok()
            .flatten()
            .and_then(|bytes| decode(&bytes))
            .map(|s| StatCache::from_entries(s.started_ns, s.stats))
            .unwrap_or_default()
    }

    /// Writes it (atomically; a shortcut, so not fsynced).
    pub fn save(&self, store: &Store, session: &str) -> Result<()> {
        crate::fs::write_atomic(&file(store, session), &encode(self), Durability::Cache)
    }
}

/// The stat entries of `cache` that describe `tree`'s nodes (an entry that
/// does not, e.g. of a path gone, is left out: only a miss next time).
pub(crate) fn stats_of(tree: &Tree, cache: &StatCache) -> HashMap<Vec<u8>, (Stat, String)> {
    tree.iter()
        .filter_map(|(path, node)| {
            let (stat, hash) = cache.entry(path)?;
            (Some(hash) == node.hash.as_ref() && stat.describes(node))
                .then(|| (path.clone(), (*stat, hash.clone())))
        })
        .collect()
}

pub(crate) fn encode(state: &State) -> Vec<u8> {
    let mut body = Vec::with_capacity(64 + state.tree.len() * 120);
    put_hash(&mut body, &state.tree_hash);
    body.extend_from_slice(&state.started_ns.to_le_bytes());
    put_len(&mut body, state.tree.len());
    put_len(&mut body, state.dirs.len());
    for (path, node) in &state.tree {
        put_bytes(&mut body, path);
        body.push(match node.kind {
            Kind::File => 0,
            Kind::Symlink => 1,
        });
        let stat = state
            .stats
            .get(path)
            .filter(|(stat, hash)| Some(hash) == node.hash.as_ref() && stat.describes(node));
        let flags = if node.hash.is_some() { HAS_HASH } else { 0 }
            | if stat.is_some() { HAS_STAT } else { 0 };
        body.push(flags);
        body.extend_from_slice(&node.mode.to_le_bytes());
        body.extend_from_slice(&node.size.to_le_bytes());
        body.extend_from_slice(&node.mtime_ns.to_le_bytes());
        body.extend_from_slice(&node.ctime_ns.to_le_bytes());
        if let Some(hash) = &node.hash {
            put_hash(&mut body, hash);
        }
        if let Some((stat, _)) = stat {
            body.extend_from_slice(&stat.ino.to_le_bytes());
            body.extend_from_slice(&stat.mode.to_le_bytes());
        }
    }
    for (path, hash) in &state.dirs {
        put_bytes(&mut body, path);
        put_hash(&mut body, hash);
    }
    let mut out = Vec::with_capacity(20 + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&xxhash_rust::xxh3::xxh3_64(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// [`encode`]'s bytes read back; `None` for anything not whole and of
/// this version.
pub(crate) fn decode(bytes: &[u8]) -> Option<State> {
    let rest = bytes.strip_prefix(MAGIC)?;
    let mut head = Reader(rest);
    if head.u32()? != VERSION {
        return None;
    }
    let sum = head.u64()?;
    let body = head.0;
    if xxhash_rust::xxh3::xxh3_64(body) != sum {
        return None;
    }
    let mut r = Reader(body);
    let tree_hash = r.hash()?;
    let started_ns = r.i64()?;
    let entries = r.u32()?;
    let dirs = r.u32()?;
    let mut state = State {
        tree_hash,
        started_ns,
        ..State::default()
    };
    state.stats.reserve(entries as usize);
    for _ in 0..entries {
        let path = r.bytes()?.to_vec();
        let kind = match r.u8()? {
            0 => Kind::File,
            1 => Kind::Symlink,
            _ => return None,
        };
        let flags = r.u8()?;
        let mut node = Node {
            kind,
            mode: r.u32()?,
            size: r.u64()?,
            mtime_ns: r.i64()?,
            ctime_ns: r.i64()?,
            hash: None,
        };
        if flags & HAS_HASH != 0 {
            node.hash = Some(r.hash()?);
        }
        if flags & HAS_STAT != 0 {
            let hash = node.hash.clone()?;
            let stat = Stat {
                size: node.size,
                mtime_ns: node.mtime_ns,
                ctime_ns: node.ctime_ns,
                ino: r.u64()?,
                mode: r.u32()?,
            };
            state.stats.insert(path.clone(), (stat, hash));
        }
        state.tree.insert(path, node);
    }
    for _ in 0..dirs {
        let path = r.bytes()?.to_vec();
        state.dirs.insert(path, r.hash()?);
    }
    r.0.is_empty().then_some(state)
}

fn put_len(out: &mut Vec<u8>, len: usize) {
    out.extend_from_slice(&u32::try_from(len).unwrap_or(u32::MAX).to_le_bytes());
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    put_len(out, bytes.len());
    out.extend_from_slice(bytes);
}

/// A hash as its 32 bytes (every hash here is the store's hex SHA-256).
fn put_hash(out: &mut Vec<u8>, hash: &str) {
    match from_hex(hash).filter(|raw| raw.len() == 32) {
        Some(raw) => out.extend_from_slice(&raw),
        // Not a store hash: written as one no hash reads back as (all
        // zero is no object), so the state is never used with it.
        None => out.extend_from_slice(&[0; 32]),
    }
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.0.len() < n {
            return None;
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head)
    }

    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    fn i64(&mut self) -> Option<i64> {
        Some(i64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    fn bytes(&mut self) -> Option<&'a [u8]> {
        let len = self.u32()? as usize;
        self.take(len)
    }

    fn hash(&mut self) -> Option<String> {
        Some(to_hex(self.take(32)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> State {
        let mut state = State {
            tree_hash: "ab".repeat(32),
            started_ns: 1_700_000_000_000_000_000,
            ..State::default()
        };
        let file = Node {
            kind: Kind::File,
            mode: 0o755,
            size: 3,
            mtime_ns: -5,
            ctime_ns: 7,
            hash: Some("c".repeat(64)),
        };
        let stat = Stat {
            size: 3,
            mtime_ns: -5,
            ctime_ns: 7,
            ino: 42,
            mode: 0o100_755 & 0o7777,
        };
        state.tree.insert(b"dir/a b\n\xff".to_vec(), file.clone());
        state
            .stats
            .insert(b"dir/a b\n\xff".to_vec(), (stat, "c".repeat(64)));
        let link = Node {
            kind: Kind::Symlink,
            mode: 0,
            hash: Some("d".repeat(64)),
            ..file.clone()
        };
        state.tree.insert(b"link".to_vec(), link);
        let big = Node {
            hash: None,
            size: 1 << 40,
            ..file
        };
        state.tree.insert(b"big.iso".to_vec(), big);
        state.dirs.insert(Vec::new(), "ab".repeat(32));
        state.dirs.insert(b"dir".to_vec(), "ef".repeat(32));
        state
    }

    #[test]
    fn a_state_reads_back_as_written() {
        let state = sample();
        assert_eq!(decode(&encode(&state)), Some(state));
    }

    #[test]
    fn a_cut_corrupt_or_other_version_state_is_not_read() {
        let bytes = encode(&sample());
        for cut in [0, 7, 8, 20, bytes.len() / 2, bytes.len() - 1] {
            assert_eq!(decode(&bytes[..cut]), None, "cut at {cut}");
        }
        let mut flipped = bytes.clone();
        let last = flipped.len() - 40;
        flipped[last] ^= 1;
        assert_eq!(decode(&flipped), None);
        let mut other = bytes.clone();
        other[8..12].copy_from_slice(&2u32.to_le_bytes());
        assert_eq!(decode(&other), None);
        let mut longer = bytes;
        longer.push(0);
        assert_eq!(decode(&longer), None);
        // The text files of the version before (a last tree, a stat cache).
        assert_eq!(
            decode(format!("{}\nf 644 1 2 3 - 61\n", "a".repeat(64)).as_bytes()),
            None
        );
        assert_eq!(decode(b"v1 5\n"), None);
    }
}
