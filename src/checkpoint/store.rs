//! The checkpoint store under `$OLLM_HOME/checkpoints/` (private, like the
//! session store), never inside a work tree:
//!
//! - `objects/ab/cdef…`: each content once, zstd-compressed, named by the
//!   SHA-256 of what it holds (file contents, link targets, trees);
//! - `sessions/<id>/turn-NNNNNNNNNN.json`: a session's manifests, one per
//!   turn, each written last (fsync, rename) and naming a tree object, and
//!   `sessions/<id>/state`, what its last snapshot left for the next
//!   ([`super::state`]: the tree, the stat cache, the directory hashes);
//! - `workspaces/<key>/`: per work tree, a restore's plan while it runs
//!   (and the watcher's tokens);
//! - `tmp/`: where every new file is written before its rename (what a
//!   killed writer leaves there is swept by the next one);
//! - `lock`: one writer at a time.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::io::Write;
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::tree::{is_hash, to_hex};
use crate::config::Config;
use crate::error::{Error, Result};
use crate::fs::lock::Lock;

/// An open checkpoint store.
#[derive(Debug, Clone)]
pub(crate) struct Store {
    pub root: PathBuf,
    /// Objects written since the last [`Store::sync`].
    unsynced: RefCell<Vec<PathBuf>>,
}

/// The store's lock, held while anything in it changes.
#[derive(Debug)]
pub(crate) struct Held {
    _lock: Lock,
}

impl Store {
    /// The configured store (`services.checkpoint.dir`); nothing is created.
    pub fn configured(config: &Config) -> Store {
        Store::at(crate::paths::expand(&config.services.checkpoint.dir))
    }

    /// The store at `root`; nothing is created.
    pub fn at(root: PathBuf) -> Store {
        Store {
            root,
            unsynced: RefCell::new(Vec::new()),
        }
    }

    /// Creates the store's directories (0700) and takes its lock, then
    /// sweeps the temp files a killed writer left.
    pub fn lock(&self) -> Result<Held> {
        crate::fs::create_private_dir_all(&self.root)?;
        crate::fs::tighten_store(&self.root);
        for dir in ["objects", "sessions", "workspaces", "tmp"] {
            crate::fs::create_private_dir(&self.root.join(dir))?;
        }
        let lock = Lock::exclusive(&self.root.join("lock"))?;
        sweep(&self.tmp());
        Ok(Held { _lock: lock })
    }

    pub fn tmp(&self) -> PathBuf {
        self.root.join("tmp")
    }

    pub fn objects(&self) -> PathBuf {
        self.root.join("objects")
    }

    pub fn object_path(&self, hash: &str) -> PathBuf {
        self.objects().join(&hash[..2]).join(&hash[2..])
    }

    /// The directory of a session's manifests (the id is a checked UUID).
    pub fn session_dir(&self, session: &str) -> PathBuf {
        self.root.join("sessions").join(session)
    }

    /// The directory of a work tree's restore plan and watcher tokens.
    pub fn workspace_dir(&self, work_tree: &Path) -> PathBuf {
        let key = xxhash_rust::xxh3::xxh3_128(work_tree.as_os_str().as_bytes());
        self.root.join("workspaces").join(format!("{key:032x}"))
    }

    /// Stores `content` unless it is there already. Returns its hash and
    /// the compressed bytes written (0 when it was stored before). Not
    /// fsynced: [`Store::sync`] makes every object durable at once before
    /// the manifest that names them is written.
    pub fn put(&self, content: &[u8]) -> Result<(String, u64)> {
        let hash = hash_of(content);
        let path = self.object_path(&hash);
        if std::fs::symlink_metadata(&path).is_ok() {
            return Ok((hash, 0));
        }
        let packed = zstd::encode_all(content, 3).map_err(|e| Error::io(&path, &e))?;
        let dir = self.objects().join(&hash[..2]);
        crate::fs::create_private_dir(&dir)?;
        let temp = self.temp(&packed)?;
        temp.persist(&path)
            .map_err(|e| Error::io(&path, &e.error))?;
        self.unsynced.borrow_mut().push(path);
        Ok((hash, packed.len() as u64))
    }

    /// A content by its hash, checked against it: a damaged or missing
    /// object is an error, never wrong bytes.
    pub fn get(&self, hash: &str) -> Result<Vec<u8>> {
        if !is_hash(hash) {
            return Err(Error::Corrupt(format!("{hash:?} is not an object name")));
        }
        let path = self.object_path(hash);
        let packed = crate::fs::read_regular(&path)?
            .ok_or_else(|| Error::Corrupt(format!("{}: object missing", path.display())))?;
        let content = zstd::decode_all(packed.as_slice())
            .map_err(|_| Error::Corrupt(format!("{}: not a zstd object", path.display())))?;
        if hash_of(&content) != hash {
            return Err(Error::Corrupt(format!(
                "{}: content does not match its name",
                path.display()
            )));
        }
        Ok(content)
    }

    /// A new private temp file in `tmp/` holding `bytes`.
    pub fn temp(&self, bytes: &[u8]) -> Result<tempfile::NamedTempFile> {
        let tmp = self.tmp();
        let mut temp = tempfile::Builder::new()
            .prefix(crate::fs::TEMP_MARK)
            .permissions(std::os::unix::fs::PermissionsExt::from_mode(
                crate::fs::FILE_MODE,
            ))
            .tempfile_in(&tmp)
            .map_err(|e| Error::io(&tmp, &e))?;
        temp.write_all(bytes).map_err(|e| Error::io(&tmp, &e))?;
        Ok(temp)
    }

    /// Makes every object written since the last call durable: each file
    /// and its directory fsynced when they are few, else one `syncfs` of
    /// the store's file system (cheaper than thousands of fsyncs, dearer
    /// than a few when other programs have much unwritten data).
    pub fn sync(&self) -> Result<()> {
        let written = std::mem::take(&mut *self.unsynced.borrow_mut());
        if written.len() > FEW_OBJECTS {
            let dir = std::fs::File::open(&self.root).map_err(|e| Error::io(&self.root, &e))?;
            // SAFETY: syncfs takes an open descriptor, which `dir` holds.
            if unsafe { libc::syncfs(dir.as_raw_fd()) } != 0 {
                return Err(Error::io(&self.root, &std::io::Error::last_os_error()));
            }
            return Ok(());
        }
        let mut dirs = BTreeSet::new();
        for path in &written {
            let file = std::fs::File::open(path).map_err(|e| Error::io(path, &e))?;
            file.sync_all().map_err(|e| Error::io(path, &e))?;
            if let Some(dir) = path.parent() {
                dirs.insert(dir.to_path_buf());
            }
        }
        for dir in dirs {
            crate::fs::sync_dir(&dir).map_err(|e| Error::io(&dir, &e))?;
        }
        Ok(())
    }
}

/// Up to this many new objects are fsynced one by one.
const FEW_OBJECTS: usize = 64;

pub(crate) fn hash_of(content: &[u8]) -> String {
    to_hex(&Sha256::digest(content))
}

/// Removes what killed writers left in `tmp/` (the caller holds the lock).
fn sweep(tmp: &Path) {
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return;
    };
    for entry in entries.flatten() {
        if entry
            .file_type()
            .is_ok_and(|t| t.is_file() || t.is_symlink())
        {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Removes a session's checkpoints (its manifests; the objects only they
/// named are reclaimed by the next collection). Missing is fine.
pub fn remove_session(config: &Config, session: &str) -> Result<bool> {
    let store = Store::configured(config);
    let dir = store.session_dir(session);
    if std::fs::symlink_metadata(&dir).is_err() {
        return Ok(false);
    }
    let _held = store.lock()?;
    crate::fs::remove_any(&dir).map_err(|e| Error::io(&dir, &e))?;
    Ok(true)
}
