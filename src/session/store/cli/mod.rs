//! The OLLM CLI's own session format: `<sessionId>.json` in the data
//! directory, one document written whole, as its TypeScript
//! `ChatRecordingService` writes it (`JSON.stringify(session, null, 2)`,
//! no trailing newline, to a temp file that is fsynced and renamed over the
//! session, then the directory fsynced).
//!
//! A session stored this way stays in this format: every write (a record,
//! a rename, a compression note) re-reads the file under the session's
//! lock, changes the document in place and rewrites it whole, so a record
//! the CLI wrote in between is kept, the keys keep their order and fields
//! the CLI does not know (our `title`, `workspace`, …) ride along as extra
//! top-level fields, which the CLI keeps when it rewrites the file. Its
//! `listSessions` reads `messages` (an array) and `metadata` (an object)
//! and `recordToolCall` pushes onto `toolCalls`: a document written here
//! always has all three.
//!
//! Text the CLI wrote with lone surrogates (`"\ud83d"`) is read through
//! [`crate::lossless`] and written back as it was. Nothing here ever moves
//! a file aside: a document that does not parse is the CLI's (or the
//! user's), reported with one line and left where it is.

mod document;
mod in_flight;
mod owed;
mod read;
mod rewrite;
mod splice;

use std::path::Path;

use serde_json::{Map, Value};

use crate::error::Result;
use crate::fs::replace::Stamp;
use crate::fs::{self as sfs, Durability};

pub use read::{read, read_with_session};
pub use rewrite::{rewrite, rewrite_if};

/// The top-level field that marks a document ollm created (`"createdBy":
/// "ollm"`): `maxSessions` counts and deletes only sessions ollm made,
/// never the OLLM CLI's own.
pub const CREATED_BY: &str = "createdBy";
const OLLM: &str = "ollm";

/// A session document as read from its file.
#[derive(Debug, Clone)]
pub struct Document {
    pub fields: Map<String, Value>,
    /// Whether writing it back keeps every character ([`lossless::Decoded::exact`]).
    exact: bool,
    /// The file's identity when it was read: a write replaces that file
    /// and no other.
    stamp: Option<Stamp>,
    /// Whether another program (the OLLM CLI) wrote the file lately: a
    /// write then watches for a version of its built from an earlier read.
    cli_active: bool,
    /// The records read, kept as bytes when the document was read for a
    /// change that only adds records ([`splice`]): `fields` then holds
    /// the head and the records added since the read.
    kept: Option<splice::Kept>,
    /// Whether the file read is another program's (not ollm's 0600).
    theirs: bool,
    /// The bytes read (empty when `kept` holds them): what a version
    /// swapped out by mistake added is told from them.
    read_bytes: Vec<u8>,
}

/// Writes a new session's document at `path` (nothing may be there).
pub fn create(document: &Document, path: &Path) -> Result<()> {
    let bytes = document.to_bytes()?;
    sfs::write_atomic(path, &bytes, Durability::Synced)
}

#[cfg(test)]
mod tests;
