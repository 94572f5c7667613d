//! What is on disk at a path of the file set, through a stat cache like
//! git's index (kept in a session's [`super::state`]): a file whose size, mtime, ctime and inode are those cached
//! keeps its cached hash, unless its mtime is not older than the cache's
//! start (git's racy-timestamp rule: it may have changed again within the
//! clock's granularity), and is read and hashed again otherwise.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

use super::store::{Store, hash_of};
use super::tree::{Kind, Node};
use crate::error::{Error, Result};

/// What a path of the file set is now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Disk {
    Absent,
    Here(Node),
    /// A directory, a FIFO or a device where a file was: never replaced.
    Other(&'static str),
}

/// What the stat cache keeps of a file besides its hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stat {
    pub size: u64,
    pub mtime_ns: i64,
    pub ctime_ns: i64,
    pub ino: u64,
    pub mode: u32,
}

impl Stat {
    /// Whether `node` was recorded from this stat.
    pub fn describes(&self, node: &Node) -> bool {
        self.size == node.size && self.mtime_ns == node.mtime_ns && self.ctime_ns == node.ctime_ns
    }
}

/// Entries kept from an earlier run, decoded as they are asked for (a
/// session's state file: `state::Packed`).
pub(crate) trait KeptStats: std::fmt::Debug {
    /// The stat and hash kept for `relative`, if any.
    fn get(&self, relative: &[u8]) -> Option<(Stat, String)>;
}

/// A stat cache: kept with a session's last state ([`super::state`]).
#[derive(Debug, Default)]
pub(crate) struct StatCache {
    /// When the run that wrote the cache started, in ns since the epoch.
    started_ns: i64,
    /// This run's misses (and a test's entries): before `packed`.
    entries: HashMap<Vec<u8>, (Stat, String)>,
    /// The entries of the state file, read as probed.
    packed: Option<Box<dyn KeptStats>>,
    /// Whether a probe missed the cache (a file read and hashed again).
    missed: bool,
}

fn now_ns() -> i64 {
    jiff::Timestamp::now()
        .as_nanosecond()
        .try_into()
        .unwrap_or(i64::MAX)
}

impl StatCache {
    /// A cache of `entries`, written by a run that started at `started_ns`.
    #[cfg(test)]
    pub fn from_entries(started_ns: i64, entries: HashMap<Vec<u8>, (Stat, String)>) -> StatCache {
        StatCache {
            started_ns,
            entries,
            ..StatCache::default()
        }
    }

    /// The cache a state file holds, written by a run that started at
    /// `started_ns`.
    pub fn from_packed(started_ns: i64, packed: impl KeptStats + 'static) -> StatCache {
        StatCache {
            started_ns,
            packed: Some(Box::new(packed)),
            ..StatCache::default()
        }
    }

    /// The entry of `relative`: its stat and hash (a miss of this run's
    /// included).
    pub fn entry(&self, relative: &[u8]) -> Option<(Stat, String)> {
        match self.entries.get(relative) {
            Some(entry) => Some(entry.clone()),
            None => self.packed.as_ref()?.get(relative),
        }
    }

    /// Whether a probe read and hashed a file again.
    pub fn missed(&self) -> bool {
        self.missed
    }

    /// What is at `relative` below `root` now. With `store`, a content not
    /// yet stored is stored (and its compressed size added to `stored`).
    /// A file over `max_file` is recorded by its stat only.
    pub fn probe(
        &mut self,
        root: &Path,
        relative: &[u8],
        max_file: u64,
        store: Option<(&Store, &mut u64)>,
    ) -> Result<Disk> {
        let path = root.join(OsStr::from_bytes(relative));
        let meta = std::fs::symlink_metadata(&path);
        self.probe_stat(&path, relative, meta, max_file, store)
    }

    /// [`probe`](Self::probe) with the path's `lstat` already taken (so a
    /// caller that needed it first stats each file once).
    pub fn probe_stat(
        &mut self,
        path: &Path,
        relative: &[u8],
        meta: std::io::Result<std::fs::Metadata>,
        max_file: u64,
        store: Option<(&Store, &mut u64)>,
    ) -> Result<Disk> {
        let meta = match meta {
            Ok(meta) => meta,
            Err(e) if is_gone(&e) => return Ok(Disk::Absent),
            Err(e) => return Err(Error::io(path, &e)),
        };
        let kind = if meta.file_type().is_file() {
            Kind::File
        } else if meta.file_type().is_symlink() {
            Kind::Symlink
        } else {
            return Ok(Disk::Other(crate::fs::describe_type(&meta)));
        };
        let stat = Stat {
            size: meta.len(),
            mtime_ns: meta.mtime() * 1_000_000_000 + meta.mtime_nsec(),
            ctime_ns: meta.ctime() * 1_000_000_000 + meta.ctime_nsec(),
            ino: meta.ino(),
            mode: meta.permissions().mode() & 0o7777,
        };
        let mut node = Node {
            kind,
            mode: if kind == Kind::File { stat.mode } else { 0 },
            size: stat.size,
            mtime_ns: stat.mtime_ns,
            ctime_ns: stat.ctime_ns,
            hash: None,
        };
        if kind == Kind::File && stat.size > max_file {
            return Ok(Disk::Here(node));
        }
        if let Some((cached, hash)) = self.entry(relative)
            && cached == stat
            && stat.mtime_ns < self.started_ns
        {
            node.hash = Some(hash);
            return Ok(Disk::Here(node));
        }
        self.missed = true;
        let content = match read_content(path, kind) {
            Ok(Some(content)) => content,
            Ok(None) => return Ok(Disk::Absent),
            Err(err) => {
                crate::diag::warn(format!("{err}; recorded by its size and time only"));
                return Ok(Disk::Here(node));
            }
        };
        let hash = match store {
            Some((store, stored)) => {
                let (hash, written) = store.put(&content)?;
                *stored += written;
                hash
            }
            None => hash_of(&content),
        };
        self.entries.insert(relative.to_vec(), (stat, hash.clone()));
        node.hash = Some(hash);
        Ok(Disk::Here(node))
    }
}

fn is_gone(e: &std::io::Error) -> bool {
    // A parent that is now a file (ENOTDIR) means the path is gone too.
    e.kind() == std::io::ErrorKind::NotFound || e.raw_os_error() == Some(libc::ENOTDIR)
}

/// A file's bytes or a link's target; `None` when it vanished meanwhile.
fn read_content(path: &Path, kind: Kind) -> Result<Option<Vec<u8>>> {
    match kind {
        Kind::File => crate::fs::read_regular(path),
        Kind::Symlink => match std::fs::read_link(path) {
            Ok(target) => Ok(Some(target.into_os_string().into_vec())),
            Err(e) if is_gone(&e) => Ok(None),
            Err(e) => Err(Error::io(path, &e)),
        },
    }
}

/// The time a run starts, in ns since the epoch (a manifest's `startedNs`).
pub(crate) fn start() -> i64 {
    now_ns()
}

/// The stamp [`StatCache::save`] gets for a run started at `started`:
/// earlier by a margin, because a file system stamps files from a coarse
/// clock that may lag the precise one by a few milliseconds (an entry
/// within the margin is re-hashed next time, which is only slower).
pub(crate) fn racy_stamp(started: i64) -> i64 {
    started.saturating_sub(CLOCK_MARGIN_NS)
}

const CLOCK_MARGIN_NS: i64 = 50_000_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_changed_within_the_caches_granularity_is_hashed_again() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a");
        std::fs::write(&file, "one").unwrap();
        let mut cache = StatCache::default();
        let first = cache.probe(dir.path(), b"a", 1 << 20, None).unwrap();
        // Stamped as started before the write: the entry is racy, so the
        // same-size rewrite below (same mtime second or not) is seen.
        let mut again = StatCache::from_entries(0, cache.entries.clone());
        std::fs::write(&file, "two").unwrap();
        let second = again.probe(dir.path(), b"a", 1 << 20, None).unwrap();
        assert_ne!(first, second);
        assert!(again.missed());
    }

    #[test]
    fn a_large_file_is_recorded_by_stat_only() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("big"), vec![0u8; 100]).unwrap();
        let mut cache = StatCache::default();
        let Disk::Here(node) = cache.probe(dir.path(), b"big", 10, None).unwrap() else {
            panic!("missing");
        };
        assert!(!node.restorable());
    }

    #[test]
    fn a_settled_entry_is_a_hit_and_an_edit_a_miss() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a"), "one").unwrap();
        std::fs::write(dir.path().join("b"), "two").unwrap();
        let mut first = StatCache::default();
        for name in [b"a", b"b"] {
            first.probe(dir.path(), name, 1 << 20, None).unwrap();
        }
        let mut cache = StatCache::from_entries(i64::MAX, first.entries.clone());
        for name in [b"a", b"b"] {
            cache.probe(dir.path(), name, 1 << 20, None).unwrap();
        }
        assert!(!cache.missed());
        std::fs::write(dir.path().join("a"), "changed").unwrap();
        let Disk::Here(node) = cache.probe(dir.path(), b"a", 1 << 20, None).unwrap() else {
            panic!("missing");
        };
        assert!(cache.missed());
        assert_eq!(node.hash.as_deref(), Some(hash_of(b"changed").as_str()));
        let (stat, hash) = cache.entry(b"a").unwrap();
        assert!(stat.describes(&node));
        assert_eq!(Some(hash), node.hash);
    }
}
