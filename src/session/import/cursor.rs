//! A cursor per source, kept with the store: what a source looked like
//! when it was last imported in full, so that a live import (`--watch`,
//! `--hook`) reads only the sources that changed since.
//!
//! For an append-only JSONL file (Claude Code, Codex, gemini-cli's log)
//! the cursor holds the file's device and inode, its size, the offset just
//! past its last complete line and a hash of that line; for any other
//! source (a JSON document rewritten by rename, a SQLite database) a hash
//! of its content and of its write-ahead log. A source is unchanged when
//! its whole stat (size, mtime and ctime to the nanosecond, as git's index
//! trusts them, and the log's) is as recorded, or when only its times
//! moved and its content checks out: mtime alone is never trusted (a
//! desktop app that touches every file costs a read of each last line,
//! not an import). A file that shrank, was replaced (another inode) or
//! whose last known line no longer matches was rewritten; one that only
//! grew was appended to. A torn last line (no newline yet) is held back:
//! the cursor stops before it, so the file counts as grown once it ends.
//! A file that grew is read from the offset where its importer can
//! continue from there alone: the [`Anchor`] it left says where its
//! conversation stood ([`super::Importer::read_tail`]).
//!
//! Cursors are files of their own (`<dir>/<hash of the path>.json`, written
//! atomically), so a hook and a watcher never rewrite each other's. A
//! cursor that is missing, unreadable or names another path counts as
//! none: the source is read in full, and the import, idempotent by its
//! records' source keys, adds nothing twice.

use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::{Xxh3, xxh3_64};

use crate::error::Result;
use crate::fs::Durability;

/// What a source looked like when it was last read in full.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Cursor {
    pub path: PathBuf,
    pub stat: Stat,
    /// The write-ahead log beside a database (`<path>-wal`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wal: Option<Stat>,
    pub shape: Shape,
    /// Where the importer's conversation stood at `shape`'s offset, when a
    /// read of only the lines after it can continue it ([`Anchor`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anchor: Option<Anchor>,
}

/// What an importer needs of a file's earlier lines to read only the lines
/// appended after them: the last line of the conversation (its id and
/// time) and the response it belongs to. An importer gives one only when
/// that line ends the file's conversation, and reads a tail only when the
/// new lines continue from it alone; otherwise it reads the whole file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Anchor {
    pub id: String,
    /// The latest time of any line before it, as a number that orders
    /// like the time.
    pub time: u64,
    /// The id of the last model response on the conversation, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<String>,
    /// Whatever else the importer needs of the earlier lines, in its own
    /// form (Codex: the session's fields, where the lines stop).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<serde_json::Value>,
}

/// A read of only the lines `from..to` of a file that grew (`to`: the end
/// of its last complete line), continuing from `anchor`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tail {
    pub from: u64,
    pub to: u64,
    pub anchor: Anchor,
}

/// A file's identity, size and times (seconds and nanoseconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Stat {
    pub dev: u64,
    pub ino: u64,
    pub size: u64,
    pub mtime: (i64, i64),
    pub ctime: (i64, i64),
}

impl Stat {
    pub fn of(meta: &std::fs::Metadata) -> Stat {
        Stat {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        }
    }

    /// The stat of `path` (following a link), `None` when there is none.
    pub fn at(path: &Path) -> Option<Stat> {
        std::fs::metadata(path).ok().map(|meta| Stat::of(&meta))
    }
}

/// How a source's content is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Shape {
    /// Append-only lines: the offset just past the last complete line, where
    /// that line starts, and its hash.
    #[serde(rename_all = "camelCase")]
    Lines {
        offset: u64,
        line_start: u64,
        line_hash: u64,
    },
    /// A whole document (and its write-ahead log): a hash of all of it.
    Whole { hash: u64 },
}

/// What became of a source since its cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// No cursor: never read (or the cursor was lost).
    New,
    /// As it was: nothing to read.
    Unchanged,
    /// Lines were added after the cursor's offset.
    Grew { from: u64 },
    /// Smaller than the cursor's offset: truncated.
    Shrank,
    /// Another file under the same name (a new inode or device).
    Replaced,
    /// The last known line (or the document) is no longer what it was.
    Rewritten,
}

impl Change {
    /// The read of only what was appended, when the file only grew past
    /// `old` (a cursor with an anchor) to `now`.
    pub fn tail(self, old: Option<&Cursor>, now: &Cursor) -> Option<Tail> {
        let Change::Grew { from } = self else {
            return None;
        };
        let Shape::Lines { offset: to, .. } = now.shape else {
            return None;
        };
        let anchor = old?.anchor.clone()?;
        (to > from).then_some(Tail { from, to, anchor })
    }

    /// Whether the source must be read again.
    pub fn to_read(self) -> bool {
        self != Change::Unchanged
    }
}

/// Whether `path` is read as append-only lines.
pub fn is_lines(path: &Path) -> bool {
    path.extension()
        .is_some_and(|ext| ext == "jsonl" || ext == "ndjson")
}

/// The write-ahead log beside a database at `path`.
pub fn wal_of(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

/// What became of the source at `path` since `old`, and its cursor now
/// (to be saved once what changed has been imported).
pub fn check(old: Option<&Cursor>, path: &Path) -> io::Result<(Change, Cursor)> {
    let file = File::open(path)?;
    let stat = Stat::of(&file.metadata()?);
    let wal = if is_lines(path) {
        None
    } else {
        Stat::at(&wal_of(path))
    };
    let Some(old) = old else {
        return Ok((Change::New, observe(&file, path, stat, wal)?));
    };
    if (old.stat.dev, old.stat.ino) != (stat.dev, stat.ino) {
        return Ok((Change::Replaced, observe(&file, path, stat, wal)?));
    }
    if old.stat == stat && old.wal == wal {
        return Ok((Change::Unchanged, old.clone()));
    }
    let touched = Cursor {
        stat,
        wal,
        ..old.clone()
    };
    match old.shape {
        Shape::Lines {
            offset,
            line_start,
            line_hash,
        } => {
            if stat.size < offset {
                return Ok((Change::Shrank, observe(&file, path, stat, wal)?));
            }
            if hash_range(&file, line_start, offset)? != line_hash {
                return Ok((Change::Rewritten, observe(&file, path, stat, wal)?));
            }
            if stat.size == old.stat.size {
                return Ok((Change::Unchanged, touched));
            }
            let mut now = observe(&file, path, stat, wal)?;
            // Grown only by a torn line: nothing complete to read yet.
            let change = if now.shape == old.shape {
                now.anchor.clone_from(&old.anchor);
                Change::Unchanged
            } else {
                Change::Grew { from: offset }
            };
            Ok((change, now))
        }
        Shape::Whole { hash } => {
            let now = observe(&file, path, stat, wal)?;
            if now.shape == (Shape::Whole { hash }) {
                Ok((Change::Unchanged, now))
            } else {
                Ok((Change::Rewritten, now))
            }
        }
    }
}

/// The cursor of `file` as it is now.
fn observe(file: &File, path: &Path, stat: Stat, wal: Option<Stat>) -> io::Result<Cursor> {
    let shape = if is_lines(path) {
        let offset = end_of_last_line(file, stat.size)?;
        let line_start = if offset == 0 {
            0
        } else {
            end_of_last_line(file, offset - 1)?
        };
        Shape::Lines {
            offset,
            line_start,
            line_hash: hash_range(file, line_start, offset)?,
        }
    } else {
        let mut hasher = Xxh3::new();
        hash_into(&mut hasher, file)?;
        if wal.is_some()
            && let Ok(log) = File::open(wal_of(path))
        {
            hash_into(&mut hasher, &log)?;
        }
        Shape::Whole {
            hash: hasher.digest(),
        }
    };
    Ok(Cursor {
        path: path.to_path_buf(),
        stat,
        wal,
        shape,
        anchor: None,
    })
}

const CHUNK: u64 = 64 * 1024;

/// The offset just past the last newline before `end` (0 when none).
fn end_of_last_line(file: &File, end: u64) -> io::Result<u64> {
    let mut buf = vec![0u8; usize::try_from(CHUNK).unwrap_or(65_536)];
    let mut to = end;
    while to > 0 {
        let from = to.saturating_sub(CHUNK);
        let want = usize::try_from(to - from).unwrap_or(buf.len());
        let chunk = &mut buf[..want];
        file.read_exact_at(chunk, from)?;
        if let Some(at) = memchr::memrchr(b'\n', chunk) {
            return Ok(from + at as u64 + 1);
        }
        to = from;
    }
    Ok(0)
}

/// The hash of the bytes of `file` in `start..end` (a file now shorter
/// hashes what is left, which cannot match).
fn hash_range(file: &File, start: u64, end: u64) -> io::Result<u64> {
    if end <= start {
        return Ok(xxh3_64(b""));
    }
    let mut hasher = Xxh3::new();
    let mut buf = vec![0u8; usize::try_from(CHUNK).unwrap_or(65_536)];
    let mut at = start;
    while at < end {
        let want = usize::try_from((end - at).min(CHUNK)).unwrap_or(buf.len());
        let read = file.read_at(&mut buf[..want], at)?;
        if read == 0 {
            break;
        }
        hasher.update(&buf[..read]);
        at += read as u64;
    }
    Ok(hasher.digest())
}

fn hash_into(hasher: &mut Xxh3, mut file: &File) -> io::Result<()> {
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match file.read(&mut buf)? {
            0 => return Ok(()),
            read => hasher.update(&buf[..read]),
        }
    }
}

/// The cursors of one store: a directory of one file per source.
#[derive(Debug, Clone)]
pub struct Cursors {
    dir: PathBuf,
}

impl Cursors {
    pub fn at(dir: PathBuf) -> Cursors {
        Cursors { dir }
    }

    fn file_of(&self, source: &Path) -> PathBuf {
        let hash = xxh3_64(source.as_os_str().as_encoded_bytes());
        self.dir.join(format!("{hash:016x}.json"))
    }

    /// The cursor of `source`; `None` when there is none, or it cannot be
    /// read, or it is another path's (a full, idempotent read follows).
    pub fn load(&self, source: &Path) -> Option<Cursor> {
        let bytes = std::fs::read(self.file_of(source)).ok()?;
        let cursor: Cursor = serde_json::from_slice(&bytes).ok()?;
        (cursor.path == source).then_some(cursor)
    }

    /// Keeps `cursor`, replacing the one of its source atomically.
    pub fn save(&self, cursor: &Cursor) -> Result<()> {
        let bytes = serde_json::to_vec(cursor).map_err(crate::error::Error::input)?;
        crate::fs::write_atomic(&self.file_of(&cursor.path), &bytes, Durability::Cache)
    }

    /// Forgets the cursor of `source` (it was deleted).
    pub fn forget(&self, source: &Path) {
        let _ = std::fs::remove_file(self.file_of(source));
    }
}

#[cfg(test)]
mod tests;
