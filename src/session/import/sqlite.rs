//! Reading another program's live SQLite database without writing a byte
//! next to it or in it.
//!
//! A read-only open is not enough: a WAL-mode reader still writes its read
//! marks into the `-shm` file (and creates that file, or recovers the WAL
//! index into it, when the writer is gone), and `immutable=1` ignores the
//! `-wal`, losing every transaction not yet checkpointed. So a database is
//! read from a private copy: the main file with its `-wal` (and a hot
//! `-journal`, if any) copied into a temporary directory that is removed
//! when the [`Snapshot`] is dropped; SQLite replays the copied WAL there.
//! The copy is streamed (no memory held), and taken again when the files
//! changed while they were copied, so a checkpoint in between cannot give a
//! torn snapshot.
//!
//! Only [`has_tables`] looks at the database in place, with `immutable=1`
//! (no lock, no `-shm`, the WAL not read) to tell cheaply whose database a
//! file is; when that finds nothing and a `-wal` is there, it looks at a
//! copy instead (a new database's schema may still be only in its WAL).

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use rusqlite::{Connection, OpenFlags};

use crate::error::{Error, Result, describe_io};

/// The first 16 bytes of every SQLite database file.
const HEADER: &[u8; 16] = b"SQLite format 3\0";

/// The companions SQLite keeps beside a database, copied with it.
const COMPANIONS: [&str; 2] = ["-wal", "-journal"];

/// A private copy of a database, open.
pub struct Snapshot {
    pub conn: Connection,
    _dir: tempfile::TempDir,
}

/// Whether `path` is a file that starts as a SQLite database does.
pub fn is_sqlite(path: &Path) -> bool {
    let mut head = [0u8; 16];
    File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| &head == HEADER)
}

/// Opens a private copy of the database at `path` (with its WAL). An
/// error names the path: it cannot be read, or it is not a database.
pub fn open(path: &Path) -> Result<Snapshot> {
    if !is_sqlite(path) {
        if let Err(e) = File::open(path) {
            return Err(Error::io(path, &e));
        }
        return Err(Error::input(format!(
            "{}: not a SQLite database",
            path.display()
        )));
    }
    let dir = tempfile::Builder::new()
        .prefix("ollm-import-")
        .tempdir()
        .map_err(|e| Error::io(std::env::temp_dir(), &e))?;
    let copy = dir.path().join("db");
    copy_consistent(path, &copy)?;
    let conn = Connection::open_with_flags(
        &copy,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| not_a_database(path, &e))?;
    conn.execute_batch("PRAGMA query_only = 1;")
        .and_then(|()| conn.query_row("SELECT count(*) FROM sqlite_master", [], |_| Ok(())))
        .map_err(|e| not_a_database(path, &e))?;
    Ok(Snapshot { conn, _dir: dir })
}

fn not_a_database(path: &Path, e: &rusqlite::Error) -> Error {
    Error::input(format!(
        "{}: not a readable SQLite database ({e})",
        path.display()
    ))
}

/// What a file looked like: its length and modification time, or absent.
type Stamp = Option<(u64, Option<SystemTime>)>;

fn stamps(path: &Path) -> Vec<Stamp> {
    std::iter::once(path.to_path_buf())
        .chain(COMPANIONS.iter().map(|suffix| with_suffix(path, suffix)))
        .map(|p| {
            std::fs::metadata(&p)
                .ok()
                .map(|m| (m.len(), m.modified().ok()))
        })
        .collect()
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Copies the database and its companions to `copy`, again when any of
/// them changed meanwhile (a few tries; the last copy is kept).
fn copy_consistent(path: &Path, copy: &Path) -> Result<()> {
    for _ in 0..4 {
        let before = stamps(path);
        copy_set(path, copy)?;
        if stamps(path) == before {
            break;
        }
    }
    Ok(())
}

fn copy_set(path: &Path, copy: &Path) -> Result<()> {
    // The WAL first: a checkpoint while the main file is copied then only
    // moves pages the copied WAL holds too, which replaying it overwrites.
    for suffix in COMPANIONS {
        let from = with_suffix(path, suffix);
        let to = with_suffix(copy, suffix);
        let _ = std::fs::remove_file(&to);
        match File::open(&from) {
            Ok(mut source) => copy_file(&mut source, &from, &to)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(&from, &e)),
        }
    }
    let mut source = File::open(path).map_err(|e| Error::io(path, &e))?;
    copy_file(&mut source, path, copy)
}

fn copy_file(source: &mut File, from: &Path, to: &Path) -> Result<()> {
    let copied = File::create(to).and_then(|mut target| std::io::copy(source, &mut target));
    copied.map(drop).map_err(|e| Error::Io {
        path: from.to_path_buf(),
        message: format!(
            "cannot copy it to a private snapshot in {}: {}",
            to.parent().unwrap_or(to).display(),
            describe_io(&e)
        ),
    })
}

/// Whether the database at `path` has every table of one of `layouts`
/// (each a list of `table` or `table.column` names).
pub fn has_tables(path: &Path, layouts: &[&[&str]]) -> bool {
    if !is_sqlite(path) {
        return false;
    }
    if let Some(conn) = open_immutable(path)
        && matches_any(&conn, layouts)
    {
        return true;
    }
    let wal = with_suffix(path, "-wal");
    if std::fs::metadata(&wal).is_ok_and(|m| m.len() > 0) {
        return open(path).is_ok_and(|snapshot| matches_any(&snapshot.conn, layouts));
    }
    false
}

fn matches_any(conn: &Connection, layouts: &[&[&str]]) -> bool {
    layouts.iter().any(|names| matches(conn, names))
}

/// Which of `names` (see [`has`]) `conn` lacks.
pub fn missing<'n>(conn: &Connection, names: &[&'n str]) -> Vec<&'n str> {
    names
        .iter()
        .copied()
        .filter(|name| !has(conn, name))
        .collect()
}

/// The error for a database of `tool`'s that lacks `missing` (a table or
/// column renamed or dropped by a version this one does not know).
pub fn unknown_layout(path: &Path, tool: &str, missing: &[&str]) -> Error {
    Error::input(format!(
        "{}: not a {tool} database this version can read: no {} (a newer or older schema)",
        path.display(),
        missing.join(", no ")
    ))
}

/// The largest `column` of `table` in the database at `path`, read in
/// place without a lock (see [`open_immutable`]): a schema version.
pub fn max_in_place(path: &Path, table: &str, column: &str) -> Option<i64> {
    let conn = open_immutable(path)?;
    conn.query_row(
        &format!("SELECT max(\"{column}\") FROM \"{table}\""),
        [],
        |r| r.get::<_, Option<i64>>(0),
    )
    .ok()
    .flatten()
}

/// Whether `conn` has every one of `names` (see [`has`]).
pub fn matches(conn: &Connection, names: &[&str]) -> bool {
    names.iter().all(|name| has(conn, name))
}

/// Whether `conn` has the table (`table`) or column (`table.column`).
pub fn has(conn: &Connection, name: &str) -> bool {
    let (table, column) = match name.split_once('.') {
        Some((table, column)) => (table, Some(column)),
        None => (name, None),
    };
    match column {
        None => conn
            .query_row(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1",
                [table],
                |_| Ok(()),
            )
            .is_ok(),
        Some(column) => conn
            .query_row(
                "SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2",
                [table, column],
                |_| Ok(()),
            )
            .is_ok(),
    }
}

/// The database opened in place as an unchanging file: no lock taken, no
/// `-shm` made, the WAL not read. Only for telling whose it is.
fn open_immutable(path: &Path) -> Option<Connection> {
    let text = path.to_str()?;
    let mut uri = String::from("file:");
    for c in text.chars() {
        match c {
            '%' | '?' | '#' => uri.push_str(&format!("%{:02X}", c as u32)),
            c => uri.push(c),
        }
    }
    uri.push_str("?mode=ro&immutable=1");
    Connection::open_with_flags(
        uri,
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .ok()
}
