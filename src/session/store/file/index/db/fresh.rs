//! A first build's database, filled in a file of its own and renamed into
//! place once complete. Nothing reads that file while it is filled, and
//! an interrupted build leaves it under its own name (never the index's),
//! where the next build removes it and starts again: so it is written
//! without a journal and without waiting for the disk at each commit
//! (`journal_mode=OFF`, `synchronous=OFF`, one process holding it), and
//! synced once, before the rename that makes it the index. Through a
//! write-ahead log, as the index is kept afterwards, a build wrote every
//! page twice (the log, then the database) and its one writing thread
//! waited on SQLite's page bookkeeping for both.

use std::path::{Path, PathBuf};

use rusqlite::Connection;

use super::{Db, SCHEMA, VERSION, sql};
use crate::error::{Error, Result};
use crate::fs as sfs;

/// The page cache of a build, in KiB (negative: SQLite's unit for KiB):
/// the rows of 100,000 sessions take about 100 MB.
const BUILD_CACHE_KIB: i64 = -256 * 1024;

/// A database being built at `path`, inside one transaction.
pub struct Fresh {
    conn: Connection,
    path: PathBuf,
}

impl Fresh {
    /// Starts a database at `path` (0600), removing what an interrupted
    /// build left there.
    pub fn create(path: &Path) -> Result<Fresh> {
        match std::fs::remove_file(path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(path, &e)),
        }
        sfs::open_append(path, true)?;
        let conn = Connection::open(path).map_err(sql)?;
        conn.execute_batch(&format!(
            "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
             PRAGMA locking_mode = EXCLUSIVE; PRAGMA temp_store = MEMORY;
             PRAGMA cache_size = {BUILD_CACHE_KIB};
             BEGIN; {SCHEMA}
             INSERT INTO meta (key, value) VALUES ('version', '{VERSION}');"
        ))
        .map_err(sql)?;
        Ok(Fresh {
            conn,
            path: path.to_path_buf(),
        })
    }

    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    /// Commits, makes the database one that is kept through a write-ahead
    /// log (as [`Db::open`] keeps it), syncs it and renames it to `into`;
    /// returns it opened there.
    pub fn finish(self, into: &Path) -> Result<Db> {
        self.conn
            .execute_batch("COMMIT; PRAGMA journal_mode = WAL;")
            .map_err(sql)?;
        self.conn.close().map_err(|(_, e)| sql(e))?;
        let file = std::fs::File::open(&self.path).map_err(|e| Error::io(&self.path, &e))?;
        file.sync_all().map_err(|e| Error::io(&self.path, &e))?;
        std::fs::rename(&self.path, into).map_err(|e| Error::io(into, &e))?;
        Db::open(into)?.ok_or_else(|| {
            Error::io(
                into,
                &std::io::Error::other("the session index just built cannot be opened"),
            )
        })
    }
}
