//! A JSON file changed by read-modify-write under an exclusive lock, so
//! concurrent writers (a hook and the user) never lose each other's change.
//!
//! The lock is taken on a sidecar `NAME.lock` that is never replaced: the
//! file itself is replaced atomically on every write, so a lock on it would
//! protect an inode that a rename has already detached.
//!
//! Only a file that is ours is ever locked, replaced or set aside: one that
//! carries the store's format marker (`"format": "ollm-…"`), is a slotted
//! file, or has the layout earlier versions wrote ([`Format`]). Any other
//! file at the path (a user's `package.json`) is refused before anything is
//! created beside it. A file of ours that cannot be parsed is moved aside to
//! `NAME.corrupt-<millis>` by a writer and reported, never treated as empty
//! and overwritten; a reader reports it and leaves it where it is.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::fs::lock::Lock;
use crate::input;

/// How a store tells its own files from any other file at its path.
#[derive(Debug)]
pub struct Format {
    /// What messages call one of its files ("context store").
    pub what: &'static str,
    /// The value of `"format"` in every file it writes.
    pub marker: &'static str,
    /// Whether a slotted file ([`super::slots`]) is one of ours.
    pub slotted: bool,
    /// Whether a JSON object without `"format"` has the layout that
    /// versions before the marker wrote.
    pub earlier: fn(&Map<String, Value>) -> bool,
    /// How those versions' files start, whitespace removed: a damaged one
    /// (cut short, say) is still recognised by it.
    pub earlier_start: &'static str,
}

impl Format {
    /// Whether `bytes` are a file of this store, readable or not.
    pub fn recognises(&self, bytes: &[u8]) -> bool {
        if self.slotted && super::slots::is_slotted(bytes) {
            return true;
        }
        match serde_json::from_slice::<Value>(bytes) {
            Ok(Value::Object(object)) => match object.get("format") {
                Some(format) => format.as_str() == Some(self.marker),
                None => (self.earlier)(&object),
            },
            Ok(_) => false,
            // Not JSON (or JSON serde_json alone cannot read): ours when it
            // carries the marker or starts as the earlier versions' files did.
            Err(_) => {
                let quoted = format!("\"{}\"", self.marker);
                contains(bytes, quoted.as_bytes()) || self.starts_as_earlier(bytes)
            }
        }
    }

    fn starts_as_earlier(&self, bytes: &[u8]) -> bool {
        let want = self.earlier_start.as_bytes();
        let mut start = bytes
            .iter()
            .filter(|b| !b.is_ascii_whitespace())
            .take(want.len());
        !want.is_empty() && want.iter().all(|w| start.next() == Some(w))
    }

    /// The error refusing `path`, which is not one of this store's files.
    pub fn refuse(&self, path: &Path) -> Error {
        Error::usage(format!(
            "{} is not an ollm {} file; it was left as it is and nothing was created beside it (name a new file, or one that ollm wrote)",
            path.display(),
            self.what
        ))
    }

    /// The error a reader reports for a file of ours it cannot parse; the
    /// file is left where it is.
    pub fn damaged(&self, path: &Path, why: &str) -> Error {
        Error::Corrupt(format!(
            "{} {} could not be read ({why}); it was left as it is (the next command that writes it sets it aside and starts a new one)",
            self.what,
            path.display()
        ))
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|w| w == needle)
}

fn sidecar(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// Takes the exclusive lock for `path` (on its sidecar `NAME.lock`),
/// waiting for other holders; released when the returned lock is dropped.
/// The file itself must be a regular file (or missing): a device, FIFO or
/// link is refused before its lock is made, and so is a file that is not
/// one of `format`'s (a caller that reads it under the lock checks again).
/// A missing directory is created ([`crate::fs::create_store_dir`]).
/// Temp files that killed writers left are removed once the lock is held.
pub fn lock(path: &Path, format: &Format) -> Result<Lock> {
    crate::fs::check_regular_or_absent(path)?;
    if let Some(bytes) = crate::fs::read_regular(path)?
        && !format.recognises(&bytes)
    {
        return Err(format.refuse(path));
    }
    let lock_path = sidecar(path, ".lock");
    if let Some(dir) = lock_path.parent() {
        crate::fs::create_store_dir(dir)?;
    }
    let lock = Lock::exclusive(&lock_path)?;
    crate::fs::sweep_temps(path);
    Ok(lock)
}

/// Parses a file of ours as JSON of type `T`; `Err(why)` when it is not.
pub fn parse<T: DeserializeOwned>(bytes: Vec<u8>, path: &Path) -> std::result::Result<T, String> {
    let name = path.display().to_string();
    input::into_utf8(bytes, &name)
        .and_then(|text| input::parse_json::<T>(&text, &name))
        .map_err(|err| strip_input_prefix(&err.to_string()).to_string())
}

/// Reads and parses `path` (the caller holds its lock); `None` when it does
/// not exist. A file that is not one of `format`'s is refused, untouched;
/// one of ours that is not valid UTF-8 or not the expected JSON is moved
/// aside and reported as corrupt.
pub fn read<T: DeserializeOwned>(path: &Path, format: &Format) -> Result<Option<T>> {
    let Some(bytes) = crate::fs::read_regular(path)? else {
        return Ok(None);
    };
    if !format.recognises(&bytes) {
        return Err(format.refuse(path));
    }
    match parse(bytes, path) {
        Ok(value) => Ok(Some(value)),
        Err(why) => Err(set_aside(path, format.what, &why)?),
    }
}

/// Reads and parses `path` without a lock and without changing anything,
/// for a command that only reads; `None` when it does not exist. A file
/// that is not one of `format`'s is refused (exit 2) and one of ours that
/// cannot be parsed reported as corrupt (exit 6), both left where they are.
pub fn read_only<T: DeserializeOwned>(path: &Path, format: &Format) -> Result<Option<T>> {
    let Some(bytes) = crate::fs::read_regular(path)? else {
        return Ok(None);
    };
    if !format.recognises(&bytes) {
        return Err(format.refuse(path));
    }
    parse(bytes, path)
        .map(Some)
        .map_err(|why| format.damaged(path, &why))
}

/// Moves the unreadable file of ours at `path` aside to
/// `NAME.corrupt-<millis>` (the caller holds its lock and has checked that
/// the file is ours) and returns the error that reports it.
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

    const TEST: Format = Format {
        what: "test store",
        marker: "ollm-test",
        slotted: false,
        earlier: |object| object.len() == 1 && object.get("items").is_some_and(Value::is_array),
        earlier_start: "{\"items\":",
    };

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Items {
        #[serde(default)]
        format: Option<String>,
        items: Vec<u32>,
    }

    fn names(dir: &Path) -> Vec<String> {
        crate::fs::names_in(dir)
    }

    #[test]
    fn files_of_ours_are_told_from_any_other() {
        for ours in [
            "{\"format\":\"ollm-test\",\"items\":[1]}",
            "{\"format\": \"ollm-test\", \"items\": [1, ",
            "{\"items\":[1]}",
            "{\n  \"items\": [\n    1,",
        ] {
            assert!(TEST.recognises(ours.as_bytes()), "{ours}");
        }
        for foreign in [
            "",
            "[]",
            "{}",
            "{\"name\":\"app\",\"version\":\"1.0.0\"}",
            "{\"format\":\"ollm-other\",\"items\":[]}",
            "{\"items\":[],\"more\":1}",
            "{\"compilerOptions\": {\"strict\": true,",
            "not json at all",
        ] {
            assert!(!TEST.recognises(foreign.as_bytes()), "{foreign}");
        }
        let slotted = Format {
            slotted: true,
            ..TEST
        };
        assert!(slotted.recognises(b"OLLMSLOT\x01\x00\x00\x00"));
        assert!(!TEST.recognises(b"OLLMSLOT\x01\x00\x00\x00"));
    }

    #[test]
    fn missing_files_read_as_none_and_writes_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/x.json");
        assert_eq!(read::<Items>(&path, &TEST).unwrap(), None);
        assert_eq!(read_only::<Items>(&path, &TEST).unwrap(), None);
        let _lock = lock(&path, &TEST).unwrap();
        let items = Items {
            format: Some("ollm-test".into()),
            items: vec![1, 2],
        };
        write(&path, &items).unwrap();
        assert_eq!(read::<Items>(&path, &TEST).unwrap(), Some(items));
    }

    #[test]
    fn corrupt_files_of_ours_are_moved_aside_by_writers_not_lost() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.json");
        let damaged = "{\"items\": [1, 2";
        std::fs::write(&path, damaged).unwrap();
        // A reader reports it and changes nothing.
        let err = read_only::<Items>(&path, &TEST).unwrap_err();
        assert_eq!(err.exit_code(), crate::ExitCode::Corrupt);
        assert!(err.to_string().contains("left as it is"), "{err}");
        assert_eq!(names(dir.path()), ["x.json"]);
        // A writer sets it aside.
        let _lock = lock(&path, &TEST).unwrap();
        let err = read::<Items>(&path, &TEST).unwrap_err();
        assert_eq!(err.exit_code(), crate::ExitCode::Corrupt);
        assert!(!path.exists());
        let aside: Vec<_> = names(dir.path())
            .into_iter()
            .filter(|n| n.starts_with("x.json.corrupt-"))
            .collect();
        assert_eq!(aside.len(), 1);
        let kept = std::fs::read_to_string(dir.path().join(&aside[0])).unwrap();
        assert_eq!(kept, damaged);
    }

    #[test]
    fn a_file_that_is_not_ours_is_refused_and_nothing_is_made_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("package.json");
        let text = "{\"name\": \"app\", \"version\": \"1.0.0\"}\n";
        std::fs::write(&path, text).unwrap();
        for err in [
            lock(&path, &TEST).unwrap_err(),
            read_only::<Items>(&path, &TEST).unwrap_err(),
            read::<Items>(&path, &TEST).unwrap_err(),
        ] {
            assert_eq!(err.exit_code(), crate::ExitCode::Usage, "{err}");
            assert!(err.to_string().contains("package.json"), "{err}");
        }
        assert_eq!(names(dir.path()), ["package.json"]);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }
}
