//! The listing cache (Req 6.6) for `--paths`: the printed paths of a
//! listing, with a stamp (modification and change time, size, inode) of
//! every directory the walk entered, every ignore file it read and every
//! git file that shaped it. A later listing with the same options stats
//! those instead of reading the tree, and replays the paths when nothing
//! changed. Adding, removing or renaming anything in a directory changes
//! that directory's stamp; editing an ignore file changes the file's. A
//! listing is cached only when nothing it depends on changed in the two
//! seconds before it began (timestamps are coarse; a change in the same
//! tick as the read could otherwise go unseen) and it met no warning.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::git_index::find_work_tree;
use super::options::{DEFAULT_OLLMIGNORE, Options};

const MAGIC: &[u8] = b"OLLM-DISCOVER-CACHE-1\n";
/// Changes closer than this to the start of a listing make it uncacheable.
const RACY: Duration = Duration::from_secs(2);
/// Ignore files whose stamps a cached listing depends on, in each directory.
const IGNORE_FILES: [&str; 2] = [".gitignore", DEFAULT_OLLMIGNORE];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    mtime: (i64, i64),
    ctime: (i64, i64),
    size: u64,
    ino: u64,
    mode: u32,
}

fn stamp(path: &Path) -> Option<Stamp> {
    let meta = std::fs::metadata(path).ok()?;
    Some(Stamp {
        mtime: (meta.mtime(), meta.mtime_nsec()),
        ctime: (meta.ctime(), meta.ctime_nsec()),
        size: meta.size(),
        ino: meta.ino(),
        mode: meta.mode(),
    })
}

/// What identifies a listing: the program version, the options, the
/// current directory and the environment that locates git's global files.
pub struct Key {
    bytes: Vec<u8>,
    file: PathBuf,
}

impl Key {
    pub fn new(opts: &Options, cache_dir: &Path) -> Key {
        let mut text = format!(
            "{}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n",
            env!("CARGO_PKG_VERSION"),
            opts.root,
            std::env::current_dir().ok(),
            opts.max_depth,
            opts.include_hidden,
            opts.types,
            opts.builtin_patterns,
            (&opts.include_source, &opts.exclude_source),
        );
        for var in [
            "HOME",
            "XDG_CONFIG_HOME",
            "GIT_CONFIG_GLOBAL",
            "GIT_CONFIG_SYSTEM",
        ] {
            text.push_str(&format!("{var}={:?}\n", std::env::var_os(var)));
        }
        let bytes = text.into_bytes();
        let mut hasher = DefaultHasher::new();
        bytes.hash(&mut hasher);
        let file = cache_dir.join(format!("{:016x}.bin", hasher.finish()));
        Key { bytes, file }
    }
}

/// The paths of a cached listing whose stamps all still hold.
pub fn load(key: &Key) -> Option<Vec<Vec<u8>>> {
    let data = crate::fs::read_regular(&key.file).ok()??;
    let mut r = Reader {
        data: &data,
        pos: 0,
    };
    if r.take(MAGIC.len())? != MAGIC || r.bytes()? != key.bytes.as_slice() {
        return None;
    }
    let stamps = r.u64()?;
    for _ in 0..stamps {
        let path = Path::new(std::ffi::OsStr::from_bytes(r.bytes()?));
        let expected = if r.take(1)?[0] == 1 {
            Some(Stamp {
                mtime: (r.i64()?, r.i64()?),
                ctime: (r.i64()?, r.i64()?),
                size: r.u64()?,
                ino: r.u64()?,
                mode: u32::try_from(r.u64()?).ok()?,
            })
        } else {
            None
        };
        if stamp(path) != expected {
            return None;
        }
    }
    let count = r.u64()?;
    let mut paths = Vec::with_capacity(usize::try_from(count).ok()?.min(1 << 24));
    for _ in 0..count {
        paths.push(r.bytes()?.to_vec());
    }
    (r.pos == data.len()).then_some(paths)
}

/// Stores a listing that began at `started`, entered `dirs` (below the
/// root) and printed `paths`. Skipped when it cannot be trusted; a failure
/// to write is not an error (the next listing walks the tree again).
pub fn store(key: &Key, opts: &Options, started: SystemTime, dirs: &[PathBuf], paths: &[Vec<u8>]) {
    let Some(stamps) = stamps(opts, dirs, started) else {
        return;
    };
    let mut out = Vec::with_capacity(paths.iter().map(|p| p.len() + 8).sum::<usize>() + 4096);
    out.extend_from_slice(MAGIC);
    put_bytes(&mut out, &key.bytes);
    out.extend_from_slice(&(stamps.len() as u64).to_le_bytes());
    for (path, stamp) in &stamps {
        put_bytes(&mut out, path.as_os_str().as_bytes());
        match stamp {
            Some(s) => {
                out.push(1);
                for v in [s.mtime.0, s.mtime.1, s.ctime.0, s.ctime.1] {
                    out.extend_from_slice(&v.to_le_bytes());
                }
                for v in [s.size, s.ino, u64::from(s.mode)] {
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
            None => out.push(0),
        }
    }
    out.extend_from_slice(&(paths.len() as u64).to_le_bytes());
    for path in paths {
        put_bytes(&mut out, path);
    }
    // No lock guards the cache: a temp file swept from under a concurrent
    // writer only makes that writer's (best-effort) store fail.
    crate::fs::sweep_temps(&key.file);
    let _ = crate::fs::write_atomic(&key.file, &out, crate::fs::Durability::Cache);
}

/// Every stamp the listing depends on, or `None` if one is too recent.
fn stamps(
    opts: &Options,
    dirs: &[PathBuf],
    started: SystemTime,
) -> Option<Vec<(PathBuf, Option<Stamp>)>> {
    let mut paths: Vec<PathBuf> = Vec::with_capacity(dirs.len() + 16);
    let mut optional: Vec<PathBuf> = Vec::new();
    let in_tree = std::iter::once(opts.root.clone()).chain(dirs.iter().map(|d| opts.root.join(d)));
    for dir in in_tree {
        for name in IGNORE_FILES {
            let file = dir.join(name);
            if file.exists() {
                paths.push(file);
            }
        }
        paths.push(dir);
    }
    // Parent directories change for unrelated reasons (think /tmp): only
    // the files the walk reads from them count.
    for ancestor in opts.root.ancestors().skip(1) {
        for name in IGNORE_FILES.iter().chain(&[".git"]) {
            optional.push(ancestor.join(name));
        }
    }
    if let Some((top, git_dir)) = find_work_tree(&opts.root) {
        optional.push(top.join(".git"));
        optional.push(git_dir.join("index"));
        optional.push(git_dir.join("info/exclude"));
    }
    optional.extend(git_config_files());
    let limit = started.checked_sub(RACY)?;
    let limit = limit.duration_since(SystemTime::UNIX_EPOCH).ok()?.as_secs() as i64;
    let mut all = Vec::with_capacity(paths.len() + optional.len());
    for path in paths {
        let s = stamp(&path)?;
        if s.mtime.0 >= limit || s.ctime.0 >= limit {
            return None;
        }
        all.push((path, Some(s)));
    }
    for path in optional {
        let s = stamp(&path);
        if s.is_some_and(|s| s.mtime.0 >= limit || s.ctime.0 >= limit) {
            return None;
        }
        all.push((path, s));
    }
    Some(all)
}

/// The files that decide which global excludes file applies, and that file.
fn git_config_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let home = crate::paths::home_dir();
    if let Some(home) = &home {
        files.push(home.join(".gitconfig"));
    }
    let xdg = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|x| !x.is_empty())
        .map(PathBuf::from)
        .or_else(|| home.map(|h| h.join(".config")));
    if let Some(xdg) = xdg {
        files.push(xdg.join("git/config"));
    }
    for var in ["GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"] {
        if let Some(path) = std::env::var_os(var).filter(|p| !p.is_empty()) {
            files.push(PathBuf::from(path));
        }
    }
    files.push(PathBuf::from("/etc/gitconfig"));
    if let Some(excludes) = ignore::gitignore::gitconfig_excludes_path() {
        files.push(excludes);
    }
    files
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
    out.extend_from_slice(bytes);
}

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let slice = self.data.get(self.pos..self.pos.checked_add(n)?)?;
        self.pos += n;
        Some(slice)
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    fn i64(&mut self) -> Option<i64> {
        Some(i64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    fn bytes(&mut self) -> Option<&'a [u8]> {
        let len = usize::try_from(self.u64()?).ok()?;
        self.take(len)
    }
}
