//! Importing goose sessions.
//!
//! goose keeps its sessions in `$XDG_DATA_HOME/goose/sessions` (else
//! `~/.local/share/goose/sessions`: etcetera's XDG strategy for the app
//! `goose`): the SQLite database `sessions.db` ([`db`]) and, from before
//! it, one `<id>.jsonl` file a session ([`jsonl`]). goose copied those
//! files into the database when it created it and left them there, so a
//! file whose session the database beside it holds is not read again: the
//! database wins.
//!
//! A message's content is a list of `MessageContent`: `text`, `image`,
//! `toolRequest` (`{id, toolCall}`), `toolResponse` (`{id, toolResult}`),
//! `thinking`, `redactedThinking`, `toolConfirmationRequest`,
//! `actionRequired`, `systemNotification`, …; a request is paired with the
//! response carrying its id (in a later user message), and a response
//! that is an error (`status:"error"`, or `isError`) is a failure.
//! Messages whose `metadata.userVisible` is false (compaction summaries
//! and context only the agent sees) are not imported, nor are thinking
//! and the confirmation and notification blocks; an `image` is kept as an
//! image part of its message ([`crate::session::model::image`]). Item
//! keys are the message's id (its row id in databases from before message
//! ids) and the index of the block in its content.
//!
//! The database may be open in the running goose, in WAL mode; it is read
//! from a private copy so nothing is written beside it
//! ([`super::sqlite`]).
//!
//! Read from block/goose, `main` of mid 2026:
//! `crates/goose/src/session/session_manager.rs` and `migrations.rs` (the
//! schema up to version 16; a newer one is read with a warning), `session/legacy.rs` and the old
//! `session/storage.rs` (the JSONL files), `conversation/message/mod.rs`,
//! `content_types.rs` and `conversation/tool_result_serde.rs` (messages,
//! metadata and tool results).

mod content;
mod db;
mod jsonl;
#[cfg(test)]
mod tests;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

#[cfg(test)]
use super::Transcript;
use super::sqlite;
use super::{Homes, Importer, Part, Source, Tool, split};
use crate::error::{Error, Result};

const SQLITE: &str = "sqlite";
const DATABASE: &str = "sessions.db";

/// goose, as the importers' table holds it.
pub struct Goose;

impl Importer for Goose {
    fn name(&self) -> &'static str {
        "goose"
    }

    fn title(&self) -> &'static str {
        "goose"
    }

    fn variables(&self) -> &'static [&'static str] {
        &["XDG_DATA_HOME"]
    }

    fn default_roots(&self, homes: &Homes) -> Vec<PathBuf> {
        homes
            .data_home()
            .map(|data| data.join("goose").join("sessions"))
            .into_iter()
            .collect()
    }

    fn sources(&self, path: &Path) -> Result<Vec<Source>> {
        let meta = match std::fs::metadata(path) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(Error::io(path, &e)),
        };
        if meta.is_file() {
            let is_jsonl = path.extension().is_some_and(|e| e == "jsonl");
            if is_jsonl && jsonl::is_goose(path) {
                return Ok(vec![source(path, jsonl::KIND)]);
            }
            if !is_jsonl && is_goose_database(path) {
                return Ok(vec![source(path, SQLITE)]);
            }
            return Ok(Vec::new());
        }
        // `~/.local/share/goose` as well as its `sessions` directory.
        let nested = path.join("sessions");
        let dir = if nested.is_dir() && !path.join(DATABASE).exists() {
            nested
        } else {
            path.to_path_buf()
        };
        let mut out = Vec::new();
        let database = dir.join(DATABASE);
        if database.is_file() && is_goose_database(&database) {
            out.push(source(&database, SQLITE));
        }
        let has_database = database.is_file() && sqlite::has_tables(&database, &[db::LAYOUT]);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|rd| rd.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        files.retain(|f| {
            f.extension().is_some_and(|e| e == "jsonl") && f.is_file() && jsonl::is_goose(f)
        });
        files.sort();
        // Only when there are files to leave out is the database read for ids.
        let in_db: HashSet<String> = if has_database && !files.is_empty() {
            db::session_ids(&database).unwrap_or_default()
        } else {
            HashSet::new()
        };
        for file in files {
            let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned());
            if !stem.is_some_and(|id| in_db.contains(&id)) {
                out.push(source(&file, jsonl::KIND));
            }
        }
        Ok(out)
    }

    fn notice(&self, source: &Source) -> Option<String> {
        notice(source)
    }

    /// Reads `source`, handing each session over in parts of at most
    /// `max_items` items: a database's sessions a row at a time ([`db`]), a
    /// legacy JSONL file whole.
    fn read_parts(
        &self,
        source: &Source,
        max_items: usize,
        each: &mut dyn FnMut(Part) -> Result<()>,
    ) -> Result<()> {
        match source.kind {
            jsonl::KIND => jsonl::read(source, &mut |t| split(t, max_items, each)),
            _ => db::read_parts(source, max_items, each),
        }
    }
}

/// Whether the file at `path` is goose's database: it has goose's tables,
/// or it is a SQLite file named as goose names its database (whose tables
/// a newer or older goose renamed: reading it then says what is missing,
/// rather than passing it over in silence).
fn is_goose_database(path: &Path) -> bool {
    sqlite::has_tables(path, &[db::LAYOUT])
        || (path.file_name().is_some_and(|n| n == DATABASE) && sqlite::is_sqlite(path))
}

/// A warning about `source` to give before reading it (a schema newer
/// than this version knows).
pub fn notice(source: &Source) -> Option<String> {
    (source.kind == SQLITE)
        .then(|| db::schema_notice(&source.path))
        .flatten()
}

fn size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

fn source(path: &Path, kind: &'static str) -> Source {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    Source {
        tool: Tool::new(&Goose),
        path: path.to_path_buf(),
        kind,
        bytes: size(path) + size(Path::new(&wal)),
    }
}
