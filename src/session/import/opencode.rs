//! Importing opencode sessions.
//!
//! opencode keeps its data in `$XDG_DATA_HOME/opencode` (else
//! `~/.local/share/opencode`): the SQLite database `opencode.db` (or
//! `opencode-<channel>.db`) and, from before the database, the JSON tree
//! `storage/`. The database holds two generations ([`db`]): 1.x's
//! `session` / `message` / `part` tables, where a message's `data` is
//! `MessageV2.Info` and a part's `MessageV2.Part` (text, reasoning, tool
//! with `state` {status pending|running|completed|error, input, output,
//! error, title}, file, step-start/finish, snapshot, patch, …), and 2.x's
//! `session_v2` / `session_message`, one row per message with its kind in
//! `type` and an assistant's text and tool calls in `data.content`. The JSON
//! tree ([`legacy`]) holds the 1.x records one file each.
//!
//! One transcript per session, the first generation found winning: a
//! session 2.x copied into `session_v2` is read from there only, and a
//! session of the JSON tree that the database beside it also holds (the
//! move to SQLite kept ids) is left to the database. Item keys are part ids
//! (for 2.x, the message id and the index of the item in its content), so
//! they stay put as a session grows. A tool call and its result are one
//! part: a call still `running` (or `pending`) has no result yet, an
//! `error` is a failure. An image a 1.x prompt holds (a `file` part of an
//! image type; a pasted one is a `data:` URL) is kept with the prompt's
//! text (`model::image`). Reasoning, other files, text opencode injected
//! (`synthetic`, `ignored`), and the bookkeeping parts are not imported;
//! nor are 2.x's attachments. Times are epoch milliseconds.
//!
//! The database may be open in the running opencode, in WAL mode; it is
//! read from a private copy so nothing is written beside it ([`sqlite`]).
//!
//! Read from sst/opencode (now anomalyco/opencode), `dev` of mid 2026:
//! `packages/opencode/src/session/session.sql.ts` (the tables),
//! `session/message-v2.ts` (parts and tool states),
//! `storage/storage.ts` (the JSON layout and its migrations), and the
//! 2.x `session_v2` / `session_message` tables with the message union of
//! `packages/schema/src/session-message.ts` (user, assistant with
//! `content` text/reasoning/tool, shell, synthetic, system, skill,
//! compaction, idle and the `*-switched` markers).

mod db;
mod legacy;
mod parts;
#[cfg(test)]
mod tests;
mod v2;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

#[cfg(test)]
use super::Transcript;
use super::{Homes, Importer, Part, Source, Tool, split, sqlite};
use crate::error::{Error, Result};

const SQLITE: &str = "sqlite";

/// opencode, as the importers' table holds it.
pub struct Opencode;

impl Importer for Opencode {
    fn name(&self) -> &'static str {
        "opencode"
    }

    fn title(&self) -> &'static str {
        "opencode"
    }

    fn variables(&self) -> &'static [&'static str] {
        &["XDG_DATA_HOME"]
    }

    fn default_roots(&self, homes: &Homes) -> Vec<PathBuf> {
        homes
            .data_home()
            .map(|data| data.join("opencode"))
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
            if is_opencode_database(path) {
                return Ok(vec![database(path)]);
            }
            if legacy::is_session_file(path) {
                return Ok(vec![legacy_file(path)]);
            }
            return Ok(Vec::new());
        }
        let mut out: Vec<Source> = databases_in(path);
        if let Some(storage) = legacy::storage_root(path) {
            let in_db = ids_beside(&storage);
            for file in legacy::session_files(&storage) {
                let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned());
                if stem.is_some_and(|id| in_db.contains(&id)) {
                    continue;
                }
                out.push(legacy_file(&file));
            }
        }
        Ok(out)
    }

    /// Reads `source`, handing each session over in parts of at most
    /// `max_items` items: a database's a row at a time ([`db`]), a session of
    /// the legacy JSON tree whole.
    fn read_parts(
        &self,
        source: &Source,
        max_items: usize,
        each: &mut dyn FnMut(Part) -> Result<()>,
    ) -> Result<()> {
        match source.kind {
            legacy::KIND => legacy::read(source, &mut |t| split(t, max_items, each)),
            _ => db::read_parts(source, max_items, each),
        }
    }
}

/// `opencode*.db` files directly in `dir` that are opencode's.
fn databases_in(dir: &Path) -> Vec<Source> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    found.retain(|p| {
        p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("opencode") && n.ends_with(".db"))
            && p.is_file()
            && is_opencode_database(p)
    });
    found.sort();
    found.iter().map(|p| database(p)).collect()
}

/// The ids of the sessions the databases beside `storage` hold.
fn ids_beside(storage: &Path) -> HashSet<String> {
    let Some(data) = storage.parent() else {
        return HashSet::new();
    };
    databases_in(data)
        .iter()
        .filter_map(|source| db::session_ids(&source.path).ok())
        .flatten()
        .collect()
}

/// Whether the file at `path` is an opencode database: it has either
/// generation's tables, or it is a SQLite file named as opencode names its
/// database (`opencode*.db`; tables renamed by a version this one does not
/// know: reading it then says what is missing, rather than passing it over
/// in silence).
fn is_opencode_database(path: &Path) -> bool {
    sqlite::has_tables(path, &db::LAYOUTS)
        || (path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("opencode") && n.ends_with(".db"))
            && sqlite::is_sqlite(path))
}

fn size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

fn database(path: &Path) -> Source {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    Source {
        tool: Tool::new(&Opencode),
        path: path.to_path_buf(),
        kind: SQLITE,
        bytes: size(path) + size(Path::new(&wal)),
    }
}

fn legacy_file(path: &Path) -> Source {
    Source {
        tool: Tool::new(&Opencode),
        path: path.to_path_buf(),
        kind: legacy::KIND,
        bytes: size(path),
    }
}
