//! A JSON file changed by read-modify-write under an exclusive lock, so
//! concurrent writers (a hook and the user) never lose each other's change.
//!
//! The lock is taken on a sidecar `NAME.lock` that is never replaced: the
//! file itself is replaced atomically on every write, so a lock on it would
//! protect an inode that a rename has already detached. A file that cannot be
//! parsed is moved aside to `NAME.corrupt-<millis>` and reported, never
//! treated as empty and overwritten.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::{Error, Result};
use crate::io_util;
use crate::lock::Lock;

fn sidecar(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// Takes the exclusive lock for `path` (on its sidecar `NAME.lock`),
/// waiting for other holders; released when the returned lock is dropped.
/// The file itself must be a regular file (or missing): a device, FIFO or
/// link is refused before its lock is made. Temp files that killed writers
/// left are removed once the lock is held.
pub fn lock(path: &Path) -> Result<Lock> {
    crate::fs::check_regular_or_absent(path)?;
    let lock = Lock::exclusive(&sidecar(path, ".lock"))?;
    crate::fs::sweep_temps(path);
    Ok(lock)
}

/// Reads and parses `path`; `None` when it does not exist. A file that is not
/// valid UTF-8 or not the expected JSON is moved aside (the caller must hold
/// the lock) and reported as corrupt.
pub fn read<T: DeserializeOwned>(path: &Path, what: &str) -> Result<Option<T>> {
    let Some(bytes) = crate::fs::read_regular(path)? else {
        return Ok(None);
    };
    let parsed = io_util::into_utf8(bytes, &path.display().to_string())
        .and_then(|text| io_util::parse_json::<T>(&text, &path.display().to_string()));
    match parsed {
        Ok(value) => Ok(Some(value)),
        Err(err) => Err(set_aside(path, what, strip_input_prefix(&err.to_string()))?),
    }
}

/// Moves the unreadable file at `path` aside to `NAME.corrupt-<millis>`
/// (the caller holds its lock) and returns the error that reports it.
pub fn set_aside(path: &Path, what: &str, why: &str) -> Result<Error> {
    let millis = jiff::Timestamp::now().as_millisecond();
    let aside = sidecar(path, &format!(".corrupt-{millis}"));
    crate::fs::rename_entry(path, &aside)?;
    Ok(Error::Corrupt(format!(
        "{what} {} could not be read ({why}); it was moved to {} and a new one will be started on the next run",
        path.display(),
        aside.display()
    )))
}

fn strip_input_prefix(text: &str) -> &str {
    text.strip_prefix("invalid input: ").unwrap_or(text)
}

/// Writes `value` as pretty JSON to `path` atomically.
pub fn write<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    let mut bytes = serde_json::to_vec_pretty(value)
        .map_err(|e| Error::input(format!("cannot encode {}: {e}", path.display())))?;
    bytes.push(b'\n');
    crate::fs::write_atomic(path, &bytes, crate::fs::Durability::Synced)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_files_read_as_none_and_writes_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/x.json");
        assert_eq!(read::<Vec<u32>>(&path, "store").unwrap(), None);
        let _lock = lock(&path).unwrap();
        write(&path, &vec![1u32, 2]).unwrap();
        assert_eq!(read::<Vec<u32>>(&path, "store").unwrap(), Some(vec![1, 2]));
    }

    #[test]
    fn corrupt_files_are_moved_aside_not_lost() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.json");
        std::fs::write(&path, "{not json").unwrap();
        let err = read::<Vec<u32>>(&path, "store").unwrap_err();
        assert_eq!(err.exit_code(), crate::ExitCode::Corrupt);
        assert!(!path.exists());
        let aside: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("x.json.corrupt-"))
            .collect();
        assert_eq!(aside.len(), 1);
        let kept = std::fs::read_to_string(dir.path().join(&aside[0])).unwrap();
        assert_eq!(kept, "{not json");
    }
}
