//! What is on disk at a path of the file set, through a stat cache like
//! git's index: a file whose size, mtime, ctime and inode are those cached
//! keeps its cached hash, unless its mtime is not older than the cache's
//! start (git's racy-timestamp rule: it may have changed again within the
//! clock's granularity), and is read and hashed again otherwise.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::fmt::Write as _;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

use super::store::{Store, hash_of};
use super::tree::{Kind, Node, from_hex, is_hash, to_hex};
use crate::error::{Error, Result};
use crate::fs::Durability;

/// What a path of the file set is now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Disk {
    Absent,
    Here(Node),
    /// A directory, a FIFO or a device where a file was: never replaced.
    Other(&'static str),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stat {
    size: u64,
    mtime_ns: i64,
    ctime_ns: i64,
    ino: u64,
    mode: u32,
}

/// The stat cache of one work tree.
#[derive(Debug, Default)]
pub(crate) struct StatCache {
    /// When the run that wrote the cache started, in ns since the epoch.
    started_ns: i64,
    entries: HashMap<Vec<u8>, (Stat, String)>,
    fresh: HashMap<Vec<u8>, (Stat, String)>,
    /// Whether a probe missed the cache (a file read and hashed again):
    /// only then, or when a cached path is gone, is the cache rewritten.
    missed: bool,
}

fn now_ns() -> i64 {
    jiff::Timestamp::now()
        .as_nanosecond()
        .try_into()
        .unwrap_or(i64::MAX)
}

impl StatCache {
    /// The cache in `dir` (`stat-cache`); an empty one when missing or
    /// unreadable (it is only ever a shortcut).
    pub fn load(dir: &Path) -> StatCache {
        let mut cache = StatCache::default();
        let Ok(Some(bytes)) = crate::fs::read_regular(&dir.join("stat-cache")) else {
            return cache;
        };
        let Ok(text) = std::str::from_utf8(&bytes) else {
            return cache;
        };
        let mut lines = text.lines();
        let Some(started) = lines.next().and_then(|l| l.strip_prefix("v1 ")) else {
            return cache;
        };
        let Ok(started) = started.parse() else {
            return cache;
        };
        cache.started_ns = started;
        for line in lines {
            if let Some((path, entry)) = parse_line(line) {
                cache.entries.insert(path, entry);
            }
        }
        cache
    }

    /// Whether what this run saw differs from what the cache held: a miss,
    /// or a cached path not seen (gone, or now over the size limit). When
    /// it does not, every entry was a hit older than the cache's stamp, so
    /// the file on disk (stamp included) is still exact.
    pub fn changed(&self) -> bool {
        self.missed || self.fresh.len() != self.entries.len()
    }

    /// Keeps the entries of paths this run does not probe (a snapshot that
    /// re-stats only what a watcher saw change), as if they had hit.
    pub fn carry_over(&mut self, probed: &std::collections::HashSet<&[u8]>) {
        for (path, entry) in &self.entries {
            if !probed.contains(path.as_slice()) {
                self.fresh.insert(path.clone(), entry.clone());
            }
        }
    }

    /// Writes what this run saw, stamped with `started_ns` (when it began),
    /// unless nothing [`changed`](Self::changed): a tree of many files
    /// then costs no rewrite of a cache as large.
    pub fn save(&self, dir: &Path, started_ns: i64) -> Result<()> {
        if !self.changed() {
            return Ok(());
        }
        crate::fs::create_private_dir_all(dir)?;
        let mut out = format!("v1 {started_ns}\n");
        for (path, (s, hash)) in &self.fresh {
            let _ = writeln!(
                out,
                "{} {} {} {} {:o} {hash} {}",
                s.size,
                s.mtime_ns,
                s.ctime_ns,
                s.ino,
                s.mode,
                to_hex(path)
            );
        }
        crate::fs::write_atomic(&dir.join("stat-cache"), out.as_bytes(), Durability::Cache)
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
        if let Some((cached, hash)) = self.entries.get(relative)
            && *cached == stat
            && stat.mtime_ns < self.started_ns
        {
            node.hash = Some(hash.clone());
            self.fresh.insert(relative.to_vec(), (stat, hash.clone()));
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
        self.fresh.insert(relative.to_vec(), (stat, hash.clone()));
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

fn parse_line(line: &str) -> Option<(Vec<u8>, (Stat, String))> {
    let mut fields = line.split(' ');
    let stat = Stat {
        size: fields.next()?.parse().ok()?,
        mtime_ns: fields.next()?.parse().ok()?,
        ctime_ns: fields.next()?.parse().ok()?,
        ino: fields.next()?.parse().ok()?,
        mode: u32::from_str_radix(fields.next()?, 8).ok()?,
    };
    let hash = fields.next().filter(|h| is_hash(h))?.to_string();
    let path = from_hex(fields.next()?)?;
    Some((path, (stat, hash)))
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
        // Saved as started before the write: the entry is racy, so the
        // same-size rewrite below (same mtime second or not) is seen.
        cache.save(dir.path(), 0).unwrap();
        let mut again = StatCache::load(dir.path());
        std::fs::write(&file, "two").unwrap();
        let second = again.probe(dir.path(), b"a", 1 << 20, None).unwrap();
        assert_ne!(first, second);
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

    fn cache_inode(dir: &Path) -> u64 {
        std::fs::metadata(dir.join("stat-cache")).unwrap().ino()
    }

    /// Two files probed and saved with a stamp after their writes, so both
    /// are hits next time.
    fn settled() -> (tempfile::TempDir, StatCache) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a"), "one").unwrap();
        std::fs::write(dir.path().join("b"), "two").unwrap();
        let mut cache = StatCache::default();
        for name in [b"a", b"b"] {
            cache.probe(dir.path(), name, 1 << 20, None).unwrap();
        }
        cache.save(dir.path(), i64::MAX).unwrap();
        let cache = StatCache::load(dir.path());
        (dir, cache)
    }

    #[test]
    fn a_cache_whose_every_entry_hit_is_not_rewritten() {
        let (dir, mut cache) = settled();
        let before = cache_inode(dir.path());
        for name in [b"a", b"b"] {
            cache.probe(dir.path(), name, 1 << 20, None).unwrap();
        }
        assert!(!cache.changed());
        cache.save(dir.path(), 0).unwrap();
        assert_eq!(cache_inode(dir.path()), before);
        assert_eq!(StatCache::load(dir.path()).started_ns, i64::MAX);
    }

    #[test]
    fn a_cache_with_a_miss_or_a_path_gone_is_rewritten() {
        let (dir, mut cache) = settled();
        std::fs::write(dir.path().join("a"), "changed").unwrap();
        cache.probe(dir.path(), b"a", 1 << 20, None).unwrap();
        cache.probe(dir.path(), b"b", 1 << 20, None).unwrap();
        assert!(cache.changed());

        let (dir, mut cache) = settled();
        std::fs::remove_file(dir.path().join("b")).unwrap();
        cache.probe(dir.path(), b"a", 1 << 20, None).unwrap();
        cache.probe(dir.path(), b"b", 1 << 20, None).unwrap();
        assert!(cache.changed());
        let before = cache_inode(dir.path());
        cache.save(dir.path(), 5).unwrap();
        assert_ne!(cache_inode(dir.path()), before);
        let saved = StatCache::load(dir.path());
        assert_eq!(saved.started_ns, 5);
        assert!(saved.entries.contains_key(b"a".as_slice()));
        assert!(!saved.entries.contains_key(b"b".as_slice()));
    }
}
