//! One discovered entry and its JSON form. A name that is not valid UTF-8 is
//! reported losslessly: `path`/`relativePath` carry it with U+FFFD in place
//! of the bad bytes, and `pathBytes`/`relativePathBytes` carry the exact
//! bytes as an array of numbers 0–255.

use std::fs::Metadata;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::time::SystemTime;

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum EntryType {
    File,
    Directory,
    /// A symbolic link that is not followed (it is listed, as git does).
    Symlink,
}

impl EntryType {
    /// The type to report; `None` for a FIFO, socket or device, which are
    /// not listed (git lists neither, and an agent opening a FIFO blocks).
    pub fn of(file_type: std::fs::FileType) -> Option<EntryType> {
        if file_type.is_dir() {
            Some(EntryType::Directory)
        } else if file_type.is_symlink() {
            Some(EntryType::Symlink)
        } else if file_type.is_file() {
            Some(EntryType::File)
        } else {
            None
        }
    }
}

/// A discovered file, directory or symbolic link.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[schemars(transform = crate::schema::skipped_when_none)]
#[schemars(rename = "FileEntry")]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub path: String,
    pub relative_path: String,
    #[serde(rename = "type")]
    pub kind: EntryType,
    pub size: u64,
    /// RFC 3339, UTC, milliseconds.
    pub modified: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_bytes: Option<Vec<u8>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relative_path_bytes: Option<Vec<u8>>,
}

impl Entry {
    pub fn new(path: &Path, relative: &Path, kind: EntryType, meta: &Metadata) -> Entry {
        let (path_text, path_bytes) = text_and_bytes(path);
        let (relative_text, relative_bytes) = text_and_bytes(relative);
        Entry {
            path: path_text,
            relative_path: relative_text,
            kind,
            size: meta.len(),
            modified: format_time(meta.modified().unwrap_or(SystemTime::UNIX_EPOCH)),
            path_bytes,
            relative_path_bytes: relative_bytes,
        }
    }
}

impl Entry {
    /// The relative path's exact bytes.
    pub fn relative_bytes(&self) -> &[u8] {
        self.relative_path_bytes
            .as_deref()
            .unwrap_or(self.relative_path.as_bytes())
    }
}

/// An entry as a row of the listing at a terminal; a name that is not
/// valid UTF-8 shows its bad bytes as `\xNN`.
impl crate::output::Tabular for Entry {
    fn headers() -> &'static [&'static str] {
        &["TYPE", "SIZE", "MODIFIED", "PATH"]
    }

    fn cells(&self) -> Vec<String> {
        let kind = match self.kind {
            EntryType::File => "file",
            EntryType::Directory => "directory",
            EntryType::Symlink => "symlink",
        };
        let path = crate::output::escape_bytes(self.relative_bytes());
        vec![
            kind.into(),
            self.size.to_string(),
            self.modified.clone(),
            String::from_utf8_lossy(&path).into_owned(),
        ]
    }

    fn numeric() -> &'static [usize] {
        &[1]
    }
}

/// The path as text, plus its exact bytes when the text is lossy.
pub fn text_and_bytes(path: &Path) -> (String, Option<Vec<u8>>) {
    match path.to_str() {
        Some(text) => (text.to_string(), None),
        None => (
            path.to_string_lossy().into_owned(),
            Some(path.as_os_str().as_bytes().to_vec()),
        ),
    }
}

pub fn format_time(time: SystemTime) -> String {
    let time = time.max(SystemTime::UNIX_EPOCH);
    crate::timestamp::format_millis(crate::timestamp::system_time_millis(time))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn utf8_names_carry_no_byte_field() {
        let (text, bytes) = text_and_bytes(Path::new("a/é.txt"));
        assert_eq!(text, "a/é.txt");
        assert!(bytes.is_none());
    }

    #[test]
    fn invalid_utf8_names_keep_their_exact_bytes() {
        let raw = b"a/\xff\xfe.txt";
        let (text, bytes) = text_and_bytes(Path::new(OsStr::from_bytes(raw)));
        assert_eq!(text, "a/\u{fffd}\u{fffd}.txt");
        assert_eq!(bytes.unwrap(), raw.to_vec());
    }

    #[test]
    fn a_table_row_shows_bad_bytes_and_controls_escaped() {
        use crate::output::Tabular;
        let raw = b"a/\xff\x1b]0;x\x07.txt";
        let path = Path::new(OsStr::from_bytes(raw));
        let meta = std::fs::metadata(".").unwrap();
        let entry = Entry::new(path, path, EntryType::File, &meta);
        assert_eq!(entry.cells()[3], "a/\\xff\\x1b]0;x\\x07.txt");
    }

    #[test]
    fn times_are_rfc3339_utc_millis() {
        let t = SystemTime::UNIX_EPOCH + std::time::Duration::from_millis(1_700_000_000_123);
        assert_eq!(format_time(t), "2023-11-14T22:13:20.123Z");
        let before = SystemTime::UNIX_EPOCH - std::time::Duration::from_secs(5);
        assert_eq!(format_time(before), "1970-01-01T00:00:00.000Z");
        // Past year 9999 (a file system allows it): the last time written.
        let far = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(300_000_000_000);
        assert!(
            format_time(far).starts_with("9999-12-"),
            "{}",
            format_time(far)
        );
    }
}
