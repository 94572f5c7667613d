//! The index's change log: what writers append, one line per change, so
//! that a record costs two small appends rather than a database
//! transaction. A writer appends `pending` for a session before it
//! changes the session's files, and `put` (its new summary) or `gone`
//! after; a `pending` with nothing after it is a change that may or may
//! not have happened (a writer killed, or still at work), and the reader
//! that folds the log reads that session from its files. Lines are
//! appended whole by one `write` on an `O_APPEND` file, under the shared
//! lock of the index (the fold holds it exclusively). Each line ends in a
//! tab and the `xxh3` of its JSON: a line torn by a kill, or whose bytes
//! changed, is skipped (and counted, so the damage is said), which at
//! worst leaves a `pending` unanswered; the session a damaged line names,
//! when its JSON still parses, is read from its files too. A log made by
//! an older ollm (its header says no version) holds lines without a
//! checksum, which are folded as before.

use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

pub use super::watch::DirLink;
use crate::error::{Error, Result};
use crate::fs as sfs;
use crate::session::model::SessionSummary;

/// One change to the index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Change {
    /// Session `id` is about to change.
    Pending(String),
    /// Session's summary after a change, and the stamp of its files;
    /// after a rewrite of its whole file, what the data directory saw of
    /// it ([`DirLink`]).
    Put {
        summary: Box<SessionSummary>,
        plain: bool,
        stamp: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dir: Option<DirLink>,
    },
    /// Session `id` is gone.
    Gone(String),
    /// What the data directory saw of the write of the change before (a
    /// delete's, whose `gone` line has no room for it; an older ollm skips
    /// this line as damaged, and compares the directory's entries).
    Dir(DirLink),
}

impl Change {
    /// The session the change is of (`None`: a [`Change::Dir`]).
    pub fn id(&self) -> Option<&str> {
        match self {
            Change::Pending(id) | Change::Gone(id) => Some(id),
            Change::Put { summary, .. } => Some(&summary.session_id),
            Change::Dir(_) => None,
        }
    }
}

/// The version of a log whose lines carry a checksum, as its header says.
pub const CHECKED: u32 = 2;

fn checksum(json: &[u8]) -> String {
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(json))
}

/// Appends `change` to the log at `path` in one write.
pub fn append(path: &Path, change: &Change) -> Result<()> {
    let mut line = serde_json::to_vec(change)
        .map_err(|e| Error::input(format!("cannot encode an index change: {e}")))?;
    let sum = checksum(&line);
    line.push(b'\t');
    line.extend_from_slice(sum.as_bytes());
    line.push(b'\n');
    let Some(mut file) = sfs::open_append(path, true)? else {
        return Err(Error::io(path, &std::io::ErrorKind::NotFound.into()));
    };
    file.write_all(&line).map_err(|e| Error::io(path, &e))
}

/// A log's changes, and what is known of the lines that were skipped.
#[derive(Debug, Default, PartialEq)]
pub struct Parsed {
    /// The changes whose lines are whole, in order.
    pub changes: Vec<Change>,
    /// How many lines were torn or damaged.
    pub damaged: usize,
    /// The sessions that damaged lines still name (read from their files).
    pub named: Vec<String>,
}

/// The changes in a log's bytes, in order; a line that does not parse (torn
/// by a kill) or whose checksum is not its JSON's is left out and counted.
/// `checked`: the log's header says its lines carry checksums (else lines
/// without one, from an older ollm, are taken as they are).
pub fn parse(bytes: &[u8], checked: bool) -> Parsed {
    let mut parsed = Parsed::default();
    for line in bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        let (json, intact) = match memchr::memrchr(b'\t', line) {
            Some(tab) => (
                &line[..tab],
                line[tab + 1..] == *checksum(&line[..tab]).as_bytes(),
            ),
            None => (line, !checked),
        };
        match serde_json::from_slice::<Change>(json) {
            Ok(change) if intact => parsed.changes.push(change),
            Ok(change) => {
                parsed.damaged += 1;
                parsed.named.extend(change.id().map(str::to_string));
            }
            Err(_) => parsed.damaged += 1,
        }
    }
    parsed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_round_trip_and_a_torn_line_is_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log");
        let id = "907a1a54-0000-4000-8000-000000000001".to_string();
        append(&path, &Change::Pending(id.clone())).unwrap();
        append(&path, &Change::Gone(id.clone())).unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.extend_from_slice(b"{\"pending\":\"9");
        let parsed = parse(&bytes, true);
        assert_eq!(
            parsed.changes,
            vec![Change::Pending(id.clone()), Change::Gone(id)]
        );
        assert_eq!(parsed.damaged, 1);
    }

    #[test]
    fn a_line_whose_bytes_changed_is_skipped_and_its_session_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log");
        let id = "907a1a54-0000-4000-8000-000000000001".to_string();
        append(&path, &Change::Pending(id.clone())).unwrap();
        append(&path, &Change::Gone(id.clone())).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let damaged = String::from_utf8(bytes)
            .unwrap()
            .replacen("gone", "pending", 1)
            .into_bytes();
        let parsed = parse(&damaged, true);
        assert_eq!(parsed.changes, vec![Change::Pending(id.clone())]);
        assert_eq!(parsed.damaged, 1);
        assert_eq!(parsed.named, vec![id]);
    }

    #[test]
    fn lines_without_a_checksum_are_taken_only_from_an_older_log() {
        let id = "907a1a54-0000-4000-8000-000000000001".to_string();
        let line = format!("{{\"gone\":\"{id}\"}}\n");
        assert_eq!(
            parse(line.as_bytes(), false).changes,
            vec![Change::Gone(id)]
        );
        let parsed = parse(line.as_bytes(), true);
        assert!(parsed.changes.is_empty());
        assert_eq!(parsed.damaged, 1);
    }
}
