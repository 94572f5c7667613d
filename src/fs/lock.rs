//! Advisory file locks (`flock` through std's `File::lock`). A lock file
//! may be unlinked by the holder (when its session is deleted); taking a
//! lock therefore checks, once it is held, that the path still names the
//! locked file, and tries again if it does not. Lock files are opened
//! through [`crate::fs::open_lock_file`]: 0600, never through a link.

use std::fs::{File, TryLockError};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// A held exclusive lock; released when dropped.
#[derive(Debug)]
pub struct Lock {
    file: File,
    path: PathBuf,
}

impl Lock {
    /// Waits for the exclusive lock on `path`, creating the file.
    pub fn exclusive(path: &Path) -> Result<Lock> {
        loop {
            let file = open(path)?;
            file.lock().map_err(|e| Error::io(path, &e))?;
            if still_named(path, &file) {
                return Ok(Lock {
                    file,
                    path: path.to_path_buf(),
                });
            }
        }
    }

    /// Takes the exclusive lock on `path` if no one holds it.
    pub fn try_exclusive(path: &Path) -> Result<Option<Lock>> {
        loop {
            let file = open(path)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => return Ok(None),
                Err(TryLockError::Error(e)) => return Err(Error::io(path, &e)),
            }
            if still_named(path, &file) {
                return Ok(Some(Lock {
                    file,
                    path: path.to_path_buf(),
                }));
            }
        }
    }

    /// Unlinks the lock file while still holding it, then releases it.
    pub fn remove(self) {
        let _ = std::fs::remove_file(&self.path);
        drop(self.file);
    }
}

fn open(path: &Path) -> Result<File> {
    crate::fs::open_lock_file(path)
}

fn still_named(path: &Path, file: &File) -> bool {
    match (std::fs::symlink_metadata(path), file.metadata()) {
        (Ok(named), Ok(held)) => named.ino() == held.ino() && named.dev() == held.dev(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_blocks_try_and_removal_lets_the_next_taker_in() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("locks/a.lock");
        let held = Lock::exclusive(&path).unwrap();
        assert!(Lock::try_exclusive(&path).unwrap().is_none());
        held.remove();
        assert!(!path.exists());
        let again = Lock::try_exclusive(&path).unwrap();
        assert!(again.is_some());
    }
}
