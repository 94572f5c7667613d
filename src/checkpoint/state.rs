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

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::disk::{KeptStats, Stat, StatCache};
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
    /// The stat cache's stamp (its entries are read from the file as
    /// probed: [`Packed`]).
    pub started_ns: i64,
    pub dirs: Dirs,
}

/// The stat-cache entries of a state file, read in place: its bytes and
/// where each entry that has one starts, in path order (a file's entry is
/// decoded when a probe asks for it, not 15,000 allocated up front).
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Packed {
    bytes: Vec<u8>,
    at: Vec<u32>,
}

impl KeptStats for Packed {
    /// The stat entry of `relative`, if the file holds one.
    fn get(&self, relative: &[u8]) -> Option<(Stat, String)> {
        let found = self
            .at
            .binary_search_by(|&at| {
                Reader(&self.bytes[at as usize..])
                    .bytes()
                    .cmp(&Some(relative))
            })
            .ok()?;
        let mut r = Reader(&self.bytes[self.at[found] as usize..]);
        let (_, node, stat) = read_entry(&mut r)?;
        Some((stat?, node.hash?))
    }
}

pub(crate) fn file(store: &Store, session: &str) -> PathBuf {
    store.session_dir(session).join("state")
}

impl State {
    /// The session's state if whole and of `tree_hash`; `None` otherwise.
    pub fn load(store: &Store, session: &str, tree_hash: &str) -> Option<(State, Packed)> {
        let bytes = crate::fs::read_regular(&file(store, session)).ok()??;
        let (state, at) = decode(&bytes)?;
        (state.tree_hash == tree_hash).then_some((state, Packed { bytes, at }))
    }

    /// The stat cache it holds (an empty one without a state).
    pub fn stat_cache(store: &Store, session: &str) -> StatCache {
        let Some(bytes) = crate::fs::read_regular(&file(store, session))
            .ok()
            .flatten()
        else {
            return StatCache::default();
        };
        match decode(&bytes) {
            Some((state, at)) => StatCache::from_packed(state.started_ns, Packed { bytes, at }),
            None => StatCache::default(),
        }
    }

    /// Writes it with the entries of `cache` that describe its files
    /// (atomically; a shortcut, so not fsynced).
    pub fn save(&self, store: &Store, session: &str, cache: &StatCache) -> Result<()> {
        let bytes = encode(self, |path| cache.entry(path));
        crate::fs::write_atomic(&file(store, session), &bytes, Durability::Cache)
    }
}

/// The file's bytes, with the stat entry `stat` gives for each hashed file
/// (left out when it does not describe the file: only a miss next time).
pub(crate) fn encode(state: &State, stat: impl Fn(&[u8]) -> Option<(Stat, String)>) -> Vec<u8> {
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
        let stat = node
            .hash
            .as_ref()
            .and_then(|_| stat(path))
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

/// [`encode`]'s bytes read back, with where each stat entry starts;
/// `None` for anything not whole and of this version.
pub(crate) fn decode(bytes: &[u8]) -> Option<(State, Vec<u32>)> {
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
    let start = bytes.len() - body.len();
    let mut r = Reader(body);
    let tree_hash = r.hash()?;
    let started_ns = r.i64()?;
    let entries = r.u32()? as usize;
    let dirs = r.u32()?;
    let mut nodes = Vec::with_capacity(entries.min(body.len() / 40));
    let mut at = Vec::with_capacity(nodes.capacity());
    let mut last: Option<&[u8]> = None;
    for _ in 0..entries {
        let offset = u32::try_from(start + body.len() - r.0.len()).ok()?;
        let (path, node, stat) = read_entry(&mut r)?;
        // In path order, each once: what the lookups rely on.
        if last.is_some_and(|last| last >= path) {
            return None;
        }
        last = Some(path);
        if stat.is_some() {
            at.push(offset);
        }
        nodes.push((path.to_vec(), node));
    }
    let mut state = State {
        tree_hash,
        started_ns,
        // Sorted already: built in one pass.
        tree: nodes.into_iter().collect(),
        dirs: Dirs::new(),
    };
    for _ in 0..dirs {
        let path = r.bytes()?.to_vec();
        state.dirs.insert(path, r.hash()?);
    }
    r.0.is_empty().then_some((state, at))
}

/// One entry: its path, node, and stat-cache entry if it has one.
fn read_entry<'a>(r: &mut Reader<'a>) -> Option<(&'a [u8], Node, Option<Stat>)> {
    let path = r.bytes()?;
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
    let mut stat = None;
    if flags & HAS_STAT != 0 {
        node.hash.as_ref()?;
        stat = Some(Stat {
            size: node.size,
            mtime_ns: node.mtime_ns,
            ctime_ns: node.ctime_ns,
            ino: r.u64()?,
            mode: r.u32()?,
        });
    }
    Some((path, node, stat))
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

    const FILE: &[u8] = b"dir/a b\n\xff";

    fn stat() -> Stat {
        Stat {
            size: 3,
            mtime_ns: -5,
            ctime_ns: 7,
            ino: 42,
            mode: 0o755,
        }
    }

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
        state.tree.insert(FILE.to_vec(), file.clone());
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

    /// The file's bytes with a stat entry for [`FILE`] only.
    fn encoded(state: &State) -> Vec<u8> {
        encode(state, |path| {
            (path == FILE).then(|| (stat(), "c".repeat(64)))
        })
    }

    #[test]
    fn a_state_reads_back_as_written_with_its_stat_entries() {
        let state = sample();
        let bytes = encoded(&state);
        let (read, at) = decode(&bytes).unwrap();
        assert_eq!(read, state);
        let packed = Packed { bytes, at };
        assert_eq!(packed.get(FILE), Some((stat(), "c".repeat(64))));
        assert_eq!(packed.get(b"link"), None);
        assert_eq!(packed.get(b"big.iso"), None);
        assert_eq!(packed.get(b"dir"), None);
    }

    #[test]
    fn a_stat_entry_that_does_not_describe_its_file_is_left_out() {
        let state = sample();
        let stale = Stat { size: 4, ..stat() };
        let bytes = encode(&state, |_| Some((stale, "c".repeat(64))));
        let (_, at) = decode(&bytes).unwrap();
        assert!(at.is_empty());
    }

    #[test]
    fn a_cut_corrupt_or_other_version_state_is_not_read() {
        let bytes = encoded(&sample());
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
        let last_tree = format!("{}\nf 644 1 2 3 - 61\n", "a".repeat(64));
        assert_eq!(decode(last_tree.as_bytes()), None);
        assert_eq!(decode(b"v1 5\n"), None);
    }
}
