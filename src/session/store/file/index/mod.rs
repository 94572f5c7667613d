//! A derived index of the file store, so that finding a session (a
//! listing, `--last`, `--here`, an id prefix, a title, a model, a time)
//! costs the same in a store of 100 sessions or 100,000. It lives in
//! `<dataDir>/.index/` (0700): an SQLite database of every session's
//! summary ([`db`]), and a change log that writers append to ([`log`]).
//! The journals stay the truth: the index is rebuilt from them when it is
//! missing, of another version or damaged (`ollm session reindex` does it
//! on demand), and every reader first folds the log into the database
//! ([`refresh`]), which also notices what other programs changed:
//! sessions added, removed or rewritten through a rename, as the OLLM CLI
//! rewrites its whole-file sessions (the data directory's change time,
//! then its entries' names and inodes).
//!
//! A cache never stops the store, blocks it or answers wrongly: before the
//! index is opened, each of its entries is looked at without opening it
//! ([`Index::unusable`]: a link, a FIFO, a device or a file where its
//! directory belongs makes the command read the sessions' files, with one
//! warning); a change that cannot be noted (an index that cannot be
//! written) leaves a mark beside it ([`STALE`]), so the next reader that
//! can builds it again from the files rather than trusting it; and
//! `reindex` removes what the index never makes or this user cannot
//! write ([`Index::repair`]).

mod bits;
mod build;
pub(crate) mod db;
mod derive;
pub(crate) mod grams;
pub(crate) mod lines;
pub mod log;
pub(crate) mod prefilter;
pub(crate) mod refresh;
mod stamp;
pub(crate) mod watch;
pub(crate) use stamp::DataDir;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{Error, Result};
use crate::fs as sfs;
use crate::session::model::Problem;
use db::Db;
use log::Change;

/// The index's directory inside the data directory.
pub const DIR: &str = ".index";
const DB: &str = "sessions.db";
/// Where a first build fills its database ([`db::Fresh`]) before it is
/// renamed to [`DB`]; left there only by an interrupted build.
const BUILDING: &str = "building.db";
const LOG: &str = "log";
const LOCK: &str = "lock";
const GRAMS: &str = "grams";
const GRAMS_LOCK: &str = "grams.lock";
/// Every file the index makes in its directory.
const FILES: [&str; 8] = [
    DB,
    BUILDING,
    "sessions.db-wal",
    "sessions.db-shm",
    LOG,
    LOCK,
    GRAMS,
    GRAMS_LOCK,
];
/// Beside the index's directory: a change was made that the index could
/// not be told of, so it is built again before it is trusted.
pub const STALE: &str = ".index-stale";
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

    fn building_path(&self) -> PathBuf {
        self.dir.join(BUILDING)
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

    /// Appends `change` to the log (a writer's part of the upkeep). When
    /// it cannot, the store goes on without the index: one warning, and
    /// the mark that has the next reader build it again ([`STALE`]).
    pub fn note(&self, change: &Change) {
        if let Err(err) = self.try_note(change) {
            warn_once(format_args!(
                "the session index could not be told of a change ({err}); it is built again from the sessions' files when it can be (`ollm-session reindex`)"
            ));
            self.mark_stale();
        }
    }

    fn try_note(&self, change: &Change) -> Result<()> {
        let lock = self.lock_file()?;
        let path = self.lock_path_for_errors();
        lock.lock_shared().map_err(|e| Error::io(&path, &e))?;
        log::append(&self.log_path(), change)
    }

    /// A row was read whose bytes are not those written: the session is
    /// read from its files, and the index is built again by the next
    /// command (or `reindex`).
    pub(crate) fn damaged_row(&self) {
        warn_once(
            "the session index has a damaged row; that session is read from its files, and the index is built again",
        );
        self.mark_stale();
    }

    /// The sessions that could not be read, as `db`'s intact rows say
    /// ([`Db::problems`]); a damaged row is said once.
    pub(crate) fn problems(&self, db: &Db) -> Result<Vec<Problem>> {
        let (problems, damaged) = db.problems()?;
        if damaged {
            self.damaged_row();
        }
        Ok(problems)
    }

    /// `read`'s answer from the index, or when SQLite says the database
    /// is damaged, `files`' (with one warning, and the index marked to be
    /// built again by the next command).
    pub(crate) fn or_files<T>(
        &self,
        read: Result<T>,
        files: impl FnOnce() -> Result<T>,
    ) -> Result<T> {
        match read {
            Err(err) if db::is_damaged(&err) => {
                warn_once(format_args!(
                    "the session index is damaged ({err}); the sessions' files are read instead, and the index is built again"
                ));
                self.mark_stale();
                files()
            }
            other => other,
        }
    }

    fn stale_path(&self) -> PathBuf {
        self.dir.with_file_name(STALE)
    }

    fn mark_stale(&self) {
        let _ = sfs::open_append(&self.stale_path(), true);
    }

    /// Whether a change was made that the index missed; the mark is
    /// removed (before the index is built again from the files, so that a
    /// change made meanwhile marks it again).
    fn take_stale(&self) -> bool {
        let path = self.stale_path();
        sfs::is_regular_file(&path) && std::fs::remove_file(&path).is_ok()
    }

    /// Why the index cannot be opened here, if it cannot: its directory,
    /// or one of its files, is something the index never makes (a link, a
    /// FIFO, a device, a file in place of the directory). Looked at, not
    /// opened, so that nothing there can block a command.
    pub(crate) fn unusable(&self) -> Option<Error> {
        if let Err(err) = sfs::check_dir_or_absent(&self.dir) {
            return Some(err);
        }
        FILES
            .iter()
            .find_map(|name| sfs::check_regular_or_absent(&self.dir.join(name)).err())
    }

    /// Removes what [`Index::unusable`] objects to and the files this user
    /// cannot write, moves aside an index directory it cannot write
    /// (`reindex`'s repair), and says what it did. A directory found where
    /// a file of the index belongs is not removed (an error names it).
    pub(crate) fn repair(&self) -> Result<()> {
        let mut removed = Vec::new();
        if let Some(meta) = sfs::entry(&self.dir)?
            && !meta.is_dir()
        {
            std::fs::remove_file(&self.dir).map_err(|e| Error::io(&self.dir, &e))?;
            removed.push((self.dir.clone(), sfs::describe_type(&meta)));
        }
        self.move_aside_if_not_ours()?;
        for name in FILES {
            let path = self.dir.join(name);
            let Some(meta) = sfs::entry(&path)? else {
                continue;
            };
            if meta.is_dir() {
                return Err(Error::io(
                    &path,
                    &std::io::Error::other("is a directory, where the index keeps a file"),
                ));
            }
            let what = if !meta.is_file() {
                sfs::describe_type(&meta)
            } else if !sfs::writable(&path) {
                // Another user's (a `sudo` run made it): the directory is
                // ours, so the file can go, and a new one is made.
                "a file this user cannot write"
            } else {
                continue;
            };
            std::fs::remove_file(&path).map_err(|e| Error::io(&path, &e))?;
            removed.push((path, what));
        }
        if !removed.is_empty() {
            let names: Vec<String> = removed
                .iter()
                .map(|(p, what)| format!("{} ({what})", p.display()))
                .collect();
            crate::diag::warn(format!(
                "removed from the session index's place what it cannot use: {}",
                names.join(", ")
            ));
        }
        Ok(())
    }

    /// An index directory this user cannot write (another user made it)
    /// can be neither used nor emptied, but it lies in the user's data
    /// directory, so it can be renamed: it is moved aside, named in one
    /// warning, and left as it was for its owner to remove.
    fn move_aside_if_not_ours(&self) -> Result<()> {
        if !sfs::entry(&self.dir)?.is_some_and(|m| m.is_dir()) || sfs::writable(&self.dir) {
            return Ok(());
        }
        let aside = self.dir.with_file_name(format!(
            "{DIR}-not-writable-{}",
            crate::timestamp::now_millis()
        ));
        std::fs::rename(&self.dir, &aside).map_err(|e| Error::io(&self.dir, &e))?;
        crate::diag::warn(format!(
            "moved the session index, which this user cannot write, aside to {} (remove it as its owner); a new one is built",
            aside.display()
        ));
        Ok(())
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

static WARNED: AtomicBool = AtomicBool::new(false);

/// Says what is wrong with the index, once per command: whatever else
/// goes wrong with it afterwards changes nothing for the user.
pub(crate) fn warn_once(message: impl std::fmt::Display) {
    if !WARNED.swap(true, Ordering::Relaxed) {
        crate::diag::warn(message);
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod watch_tests;
