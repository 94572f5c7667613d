//! The index's change log: what writers append, one line per change, so
//! that a record costs two small appends rather than a database
//! transaction. A writer appends `pending` for a session before it
//! changes the session's files, and `put` (its new summary) or `gone`
//! after; a `pending` with nothing after it is a change that may or may
//! not have happened (a writer killed, or still at work), and the reader
//! that folds the log reads that session from its files. Lines are
//! appended whole by one `write` on an `O_APPEND` file, under the shared
//! lock of the index (the fold holds it exclusively); a line that does not
//! parse is skipped, which at worst leaves a `pending` unanswered.

use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::fs as sfs;
use crate::session::model::SessionSummary;

/// One change to the index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Change {
    /// Session `id` is about to change.
    Pending(String),
    /// Session's summary after a change, and the stamp of its files.
    Put {
        summary: Box<SessionSummary>,
        plain: bool,
        stamp: String,
    },
    /// Session `id` is gone.
    Gone(String),
}

impl Change {
    pub fn id(&self) -> &str {
        match self {
            Change::Pending(id) | Change::Gone(id) => id,
            Change::Put { summary, .. } => &summary.session_id,
        }
    }
}

/// Appends `change` to the log at `path` in one write.
pub fn append(path: &Path, change: &Change) -> Result<()> {
    let mut line = serde_json::to_vec(change)
        .map_err(|e| Error::input(format!("cannot encode an index change: {e}")))?;
    line.push(b'\n');
    let Some(mut file) = sfs::open_append(path, true)? else {
        return Err(Error::io(path, &std::io::ErrorKind::NotFound.into()));
    };
    file.write_all(&line).map_err(|e| Error::io(path, &e))
}

/// The changes in a log's bytes, in order; lines that do not parse (torn
/// by a kill) are left out.
pub fn parse(bytes: &[u8]) -> Vec<Change> {
    bytes
        .split(|b| *b == b'\n')
        .filter(|line| !line.is_empty())
        .filter_map(|line| serde_json::from_slice(line).ok())
        .collect()
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
        assert_eq!(
            parse(&bytes),
            vec![Change::Pending(id.clone()), Change::Gone(id)]
        );
    }
}
