//! A derived index of the file store, so that finding a session (a
//! listing, `--last`, `--here`, an id prefix, a title, a model, a time)
//! costs the same in a store of 100 sessions or 100,000. It lives in
//! `<dataDir>/.index/` (0700): an SQLite database of every session's
//! summary ([`db`]), and a change log that writers append to ([`log`]).
//! The journals stay the truth: the index is rebuilt from them when it is
//! missing, of another version or damaged (`ollm session reindex` does it
//! on demand), and every reader first folds the log into the database
//! ([`refresh`]), which also notices what other programs changed:
//! sessions added or removed (the data directory's change time) and the
//! OLLM CLI's whole-file sessions rewritten (each file's stamp).

pub(crate) mod db;
pub(crate) mod grams;
pub(crate) mod lines;
pub mod log;
pub(crate) mod prefilter;
pub(crate) mod refresh;
mod stamp;
pub(crate) use stamp::DataDir;

use std::fs::File;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::fs as sfs;
use log::Change;

/// The index's directory inside the data directory.
pub const DIR: &str = ".index";
const DB: &str = "sessions.db";
const LOG: &str = "log";
const LOCK: &str = "lock";
/// Past this size a writer folds the log itself, so that a store only ever
/// written to (an agent that never lists) keeps a short log.
const FOLD_BYTES: u64 = 4 << 20;

/// Where a file store's index is.
#[derive(Debug, Clone)]
pub struct Index {
    dir: PathBuf,
}

impl Index {
    pub fn new(data_dir: &Path) -> Index {
        Index {
            dir: data_dir.join(DIR),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn db_path(&self) -> PathBuf {
        self.dir.join(DB)
    }

    fn log_path(&self) -> PathBuf {
        self.dir.join(LOG)
    }

    /// The index's lock: shared by writers appending a change, exclusive
    /// for a fold.
    fn lock_file(&self) -> Result<File> {
        sfs::check_dir_or_absent(&self.dir)?;
        sfs::open_lock_file(&self.dir.join(LOCK))
    }

    /// Appends `change` to the log (a writer's part of the upkeep).
    pub fn note(&self, change: &Change) -> Result<()> {
        let lock = self.lock_file()?;
        let path = self.lock_path_for_errors();
        lock.lock_shared().map_err(|e| Error::io(&path, &e))?;
        log::append(&self.log_path(), change)
    }

    /// Whether the log has grown past [`FOLD_BYTES`] since it was last folded.
    pub(crate) fn wants_fold(&self) -> bool {
        std::fs::metadata(self.log_path()).is_ok_and(|m| m.len() > FOLD_BYTES)
    }

    fn lock_path_for_errors(&self) -> PathBuf {
        self.dir.join(LOCK)
    }

    /// Removes the database (damaged, or of another version), so that the
    /// next open builds a new one.
    fn remove_db(&self) {
        let db = self.db_path();
        for suffix in ["", "-wal", "-shm"] {
            let mut path = db.clone().into_os_string();
            path.push(suffix);
            let _ = std::fs::remove_file(PathBuf::from(path));
        }
    }
}

#[cfg(test)]
mod tests;
