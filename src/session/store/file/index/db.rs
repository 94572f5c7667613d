//! The index's database: one row per session (its summary in columns,
//! how it is stored, the stamp of its files), or per session that could
//! not be read (its problem), in SQLite. The table is kept in listing
//! order (newest first is its primary key), so a listing or a page of one
//! reads consecutive rows, with no lookup per row; indexed for each other
//! way a session is found: by id (and prefix), workspace, title, model and
//! parent. Each row holds the `xxh3` of what it stores (`sum`), checked
//! whenever the row is read: a row whose bytes changed while SQLite's pages
//! stayed valid is not answered from ([`Found::damaged`]).

use std::path::Path;

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::error::{Error, Result};
use crate::fs as sfs;
use crate::session::model::{Problem, SessionSummary};
use crate::session::store::api::{ListQuery, Naming};

mod fresh;
mod sum;
mod write;
pub use fresh::Fresh;
use sum::{Checker, row_sum};
pub use write::{PROBLEM_KEY, RowValues, put, put_problem, put_values, remove, row_values};

/// Bumped when the schema changes: an index of another version is rebuilt.
pub const VERSION: i64 = 7;

const SCHEMA: &str = "
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE sessions (
    id TEXT NOT NULL,
    plain INTEGER NOT NULL,
    stamp TEXT NOT NULL,
    problem TEXT,
    last_key INTEGER NOT NULL,
    start_key INTEGER NOT NULL,
    last_ms INTEGER,
    start_time TEXT NOT NULL,
    last_activity TEXT NOT NULL,
    model TEXT NOT NULL,
    provider TEXT NOT NULL,
    message_count INTEGER NOT NULL,
    token_count INTEGER NOT NULL,
    tool_call_count INTEGER NOT NULL,
    compression_count INTEGER NOT NULL,
    title TEXT,
    parent TEXT,
    branch_point INTEGER,
    workspace TEXT,
    -- The row as `list` writes it in NDJSON (the summary's compact JSON),
    -- written out as it is stored by a long listing.
    json TEXT NOT NULL,
    -- The xxh3 of the columns read back (`row_sum`).
    sum INTEGER NOT NULL,
    PRIMARY KEY (last_key DESC, start_key DESC, id)
) WITHOUT ROWID;
-- A row's place changes with its lastActivity: `INSERT OR REPLACE` finds
-- the row it replaces through this index. Each index also holds the
-- primary key, so its entries are in listing order after its own column.
CREATE UNIQUE INDEX sessions_id ON sessions (id);
CREATE INDEX sessions_workspace ON sessions (workspace);
CREATE INDEX sessions_model ON sessions (model);
CREATE INDEX sessions_title ON sessions (title);
CREATE INDEX sessions_parent ON sessions (parent);
CREATE INDEX sessions_plain ON sessions (plain) WHERE plain = 1;
CREATE INDEX sessions_problems ON sessions (id) WHERE problem IS NOT NULL;
-- Search's trigram bits (see `prefilter`): each session's slot in the
-- bits file, what its bits cover and how it is stored (its row's `plain`,
-- kept here so that a search's candidates are found by slot alone, with
-- no lookup in `sessions`); slots freed; sessions whose row changed since
-- their bits were made, marked by the triggers.
CREATE TABLE grams (slot INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, covered TEXT NOT NULL,
    plain INTEGER NOT NULL);
CREATE TABLE gram_free (slot INTEGER PRIMARY KEY);
CREATE TABLE gram_dirty (id TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TRIGGER sessions_put AFTER INSERT ON sessions
    BEGIN INSERT OR IGNORE INTO gram_dirty (id) VALUES (NEW.id); END;
CREATE TRIGGER sessions_gone AFTER DELETE ON sessions
    BEGIN INSERT OR IGNORE INTO gram_dirty (id) VALUES (OLD.id); END;
";

const COLUMNS: &str = "id, start_time, last_activity, model, provider, message_count, \
     token_count, tool_call_count, compression_count, title, parent, branch_point, workspace, \
     plain, stamp, last_key, start_key, json, problem, sum";
/// Where [`COLUMNS`] put what is read without the summary.
const ID: usize = 0;
const MODEL: usize = 3;
const TITLE: usize = 9;
const PARENT: usize = 10;
const WORKSPACE: usize = 12;
const PLAIN: usize = 13;
const STAMP: usize = 14;
const LAST_KEY: usize = 15;
const JSON: usize = 17;
const PROBLEM: usize = 18;
/// The columns of [`COLUMNS`] that `sum` covers, and where it is.
const SUMMED: usize = 19;
const SUM: usize = 19;
const NEWEST_FIRST: &str = "ORDER BY last_key DESC, start_key DESC, id";

/// The most rows in a page of [`Db::list_pages`]: a page is kept in
/// memory while the one before is shown.
pub const MAX_PAGE: usize = 4096;

/// The size of the page after one of `size` rows: twice as many, up to
/// [`MAX_PAGE`] (or `first`, when that is more).
pub fn next_page_size(size: usize, first: usize) -> usize {
    size.saturating_mul(2).min(MAX_PAGE.max(first))
}

/// A session's row as found: its summary, and how its file was stamped.
pub struct Found {
    pub summary: SessionSummary,
    pub plain: bool,
    pub stamp: String,
    /// Its bytes are not those written (its checksum does not match): the
    /// session is read from its files instead.
    pub damaged: bool,
}

/// Past this size the WAL is emptied once a transaction commits
/// ([`Db::settle`]): the first connection of every process reads the whole
/// WAL to recover its index, so a WAL left large by one big transaction (a
/// build of search's bits at 100,000 sessions left 12 MB) costs every
/// command after it (`get --last` took 7 ms of CPU instead of 2). 64
/// frames cost a process ~0.1 ms to recover; a fold of one record writes
/// ~7, so the checkpoint (three fsyncs) comes every ~9 records.
const SETTLE_WAL_BYTES: u64 = 64 * (4096 + 24) + 32;
/// SQLite's own checkpoint after a commit, only a backstop for a commit
/// that no [`Db::settle`] follows. It leaves the WAL to be reused by the
/// next writer of the same process, but every command is a new process
/// whose recovery forgets what was copied: at 16 frames, each fold of a
/// record found the previous fold's frames, passed 16, and copied them all
/// again with three fsyncs (the WAL's, the index directory's, the
/// database's), every record.
const AUTOCHECKPOINT_FRAMES: u32 = 1000;

/// How long a statement waits for another process's lock on the index.
const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// A row of a listing as the statement holds it ([`Db::each_listed`]).
pub struct Listed<'r> {
    row: &'r Row<'r>,
    intact: bool,
}

impl Listed<'_> {
    pub fn id(&self) -> rusqlite::Result<&str> {
        self.row.get_ref(ID)?.as_str().map_err(Into::into)
    }

    pub fn plain(&self) -> rusqlite::Result<bool> {
        Ok(self.row.get::<_, i64>(PLAIN)? != 0)
    }

    pub fn stamp(&self) -> rusqlite::Result<&str> {
        self.row.get_ref(STAMP)?.as_str().map_err(Into::into)
    }

    /// The summary's compact JSON, as `list` writes it.
    pub fn json(&self) -> rusqlite::Result<&str> {
        self.row.get_ref(JSON)?.as_str().map_err(Into::into)
    }

    pub fn found(&self) -> rusqlite::Result<Found> {
        Ok(Found {
            summary: summary_of(self.row)?,
            plain: self.plain()?,
            stamp: self.stamp()?.to_string(),
            damaged: !self.intact,
        })
    }

    /// Whether the row's bytes are those written ([`row_sum`]).
    pub fn intact(&self) -> bool {
        self.intact
    }
}

/// Whether an intact row is a session's (not a problem's) and `query`
/// keeps it. Only the condition an index answers is asked of SQLite: the
/// others are checked here, on bytes the checksum vouched for, so that a
/// row whose bytes changed is handed on as damaged, never silently left
/// out by a `WHERE` that read a changed column.
fn kept(r: &Row<'_>, query: &ListQuery) -> rusqlite::Result<bool> {
    if r.get_ref(PROBLEM)? != ValueRef::Null {
        return Ok(false);
    }
    if let Some(model) = &query.model
        && r.get_ref(MODEL)?.as_str()? != model
    {
        return Ok(false);
    }
    if let Some(workspace) = &query.workspace
        && r.get_ref(WORKSPACE)?.as_str_or_null()? != Some(workspace.as_str())
    {
        return Ok(false);
    }
    // `last_key` is the last activity in ms, or `i64::MIN` when unknown.
    if let Some(since) = query.since {
        let last = r.get::<_, i64>(LAST_KEY)?;
        if last == i64::MIN || last < since {
            return Ok(false);
        }
    }
    Ok(true)
}

/// An open index database.
pub struct Db {
    conn: Connection,
    wal: std::path::PathBuf,
}

fn failed(path: &Path) -> impl Fn(rusqlite::Error) -> Error + '_ {
    move |e| Error::io(path, &std::io::Error::other(format!("session index: {e}")))
}

/// The path of an error of the index's database ([`sql`]), and of one that
/// says the database is damaged (SQLite's `SQLITE_CORRUPT`, `SQLITE_NOTADB`).
pub const SQL_ERROR: &str = "session index";
pub const DAMAGED: &str = "session index (damaged)";

/// An error of the index's database.
pub fn sql(e: rusqlite::Error) -> Error {
    let corrupt = matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase)
    );
    Error::Io {
        path: if corrupt { DAMAGED } else { SQL_ERROR }.into(),
        message: e.to_string(),
    }
}

/// Whether `err` says the index's database is damaged.
pub fn is_damaged(err: &Error) -> bool {
    matches!(err, Error::Io { path, .. } if path.as_os_str() == DAMAGED)
}

/// A row of the index as written.
pub struct IndexRow<'a> {
    pub summary: &'a SessionSummary,
    pub plain: bool,
    pub stamp: &'a str,
}

impl Db {
    /// Opens the database at `path` (creating it, 0600), or `None` when it
    /// is of another version or damaged: the caller removes it and builds
    /// a new one.
    pub fn open(path: &Path) -> Result<Option<Db>> {
        if !path.exists() {
            // Created 0600 before SQLite opens it (its -wal and -shm take
            // the same mode).
            sfs::open_append(path, true)?;
        }
        let conn = Connection::open(path).map_err(failed(path))?;
        let configured = (|| -> rusqlite::Result<()> {
            conn.busy_timeout(BUSY_TIMEOUT)?;
            // Closing must not checkpoint: every command opens the index.
            conn.set_db_config(
                rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
                true,
            )?;
            conn.pragma_update(None, "journal_mode", "WAL")?;
            // Derived data: a transaction lost to a power failure is found
            // by the boot check (see `refresh`), so no commit waits for an
            // fsync. Not OFF: a checkpoint without its fsyncs, torn by a
            // power failure, could leave rows and their indexes of
            // different versions, which no cheap check after the reboot
            // finds (`PRAGMA integrity_check` took 4.5 s at 100,000
            // sessions, as long as a build).
            conn.pragma_update(None, "synchronous", "NORMAL")?;
            // The first connection of every process reads the whole WAL
            // to recover its index (5 MB after a build of 10,000 sessions
            // made `--last` take 10 ms): it is kept to a few pages by
            // `settle`, which empties it.
            conn.pragma_update(None, "wal_autocheckpoint", AUTOCHECKPOINT_FRAMES)?;
            conn.pragma_update(None, "journal_size_limit", 1 << 20)?;
            // Pages read through a mapping, not a read(2) each.
            conn.pragma_update(None, "mmap_size", 1 << 30)?;
            // A statement that may fail halfway (`INSERT OR REPLACE`, with
            // its triggers) keeps the pages it changes in a statement
            // journal: in a temporary file, a first build wrote 90 times
            // the database's size there.
            conn.pragma_update(None, "temp_store", "MEMORY")?;
            Ok(())
        })();
        if configured.is_err() {
            return Ok(None);
        }
        let mut wal = path.as_os_str().to_owned();
        wal.push("-wal");
        let db = Db {
            conn,
            wal: wal.into(),
        };
        match db.version() {
            Ok(Some(VERSION)) => Ok(Some(db)),
            Ok(None) => match db.conn.execute_batch(SCHEMA) {
                Ok(()) => {
                    db.set_meta("version", &VERSION.to_string())?;
                    Ok(Some(db))
                }
                Err(_) => Ok(None),
            },
            Ok(Some(_)) => Ok(None),
            Err(err) => {
                // Pages SQLite cannot read where the version is kept (after a
                // `reindex`, whose WAL is empty, every page is read from the
                // file): said, as any other damage is.
                super::warn_once(format_args!(
                    "the session index is damaged ({err}); it is built again from the sessions' files"
                ));
                Ok(None)
            }
        }
    }

    fn version(&self) -> rusqlite::Result<Option<i64>> {
        let tables: i64 = self.conn.query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'",
            [],
            |r| r.get(0),
        )?;
        if tables == 0 {
            return Ok(None);
        }
        let version: Option<String> = self
            .conn
            .query_row("SELECT value FROM meta WHERE key = 'version'", [], |r| {
                r.get(0)
            })
            .optional()?;
        Ok(Some(version.and_then(|v| v.parse().ok()).unwrap_or(-1)))
    }

    pub fn meta(&self, key: &str) -> Result<Option<String>> {
        self.conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()
            .map_err(sql)
    }

    pub fn set_meta(&self, key: &str, value: &str) -> Result<()> {
        self.conn
            .execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
                params![key, value],
            )
            .map(drop)
            .map_err(sql)
    }

    pub fn begin(&mut self) -> Result<rusqlite::Transaction<'_>> {
        self.conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(sql)
    }

    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    /// Moves what the WAL holds into the database and empties it (after a
    /// build, which writes a WAL as large as the database).
    pub fn checkpoint(&self) -> Result<()> {
        self.conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
            .map_err(sql)
    }

    /// After a commit: empties the WAL into the database when it holds
    /// more than [`SETTLE_WAL_BYTES`], truncating it, so that the next
    /// process recovers nothing and writes from its start. The
    /// checkpoint's fsyncs (the WAL before the database is written, the
    /// database before the WAL is reused, and SQLite's of the index's
    /// directory on the WAL's first sync in a process) keep the database
    /// whole through a power failure; a commit itself waits for none (see
    /// `Db::open`). Never waits: while another process
    /// reads an older snapshot (a listing still being written to a pipe)
    /// the WAL is left as it is, and a later commit tries again.
    pub fn settle(&self) -> Result<()> {
        let large = std::fs::metadata(&self.wal).is_ok_and(|m| m.len() > SETTLE_WAL_BYTES);
        if !large {
            return Ok(());
        }
        self.conn
            .busy_timeout(std::time::Duration::ZERO)
            .map_err(sql)?;
        // A checkpoint held up by a reader is reported in its row, not as
        // an error; any other failure leaves the WAL as it was, which is
        // only slower.
        let _ = self.checkpoint();
        self.conn.busy_timeout(BUSY_TIMEOUT).map_err(sql)
    }

    /// Runs `load`, a first build's inserts into the empty `sessions`,
    /// without the table's secondary indexes and triggers, then makes them
    /// again from their statements in the schema and marks every session
    /// for search's bits, as the triggers would have. Kept up row by row,
    /// the indexes were most of the build's one writing thread (moving
    /// entries within their pages at every insert); made once, each is
    /// one sort.
    pub fn bulk_load(conn: &Connection, load: impl FnOnce() -> Result<()>) -> Result<()> {
        let kept: Vec<(String, String, String)> = conn
            .prepare(
                "SELECT type, name, sql FROM sqlite_master
                 WHERE tbl_name = 'sessions' AND type IN ('index', 'trigger') AND sql IS NOT NULL",
            )
            .and_then(|mut s| {
                s.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                    .collect()
            })
            .map_err(sql)?;
        for (kind, name, _) in &kept {
            conn.execute_batch(&format!("DROP {kind} \"{name}\""))
                .map_err(sql)?;
        }
        load()?;
        for (_, _, statement) in &kept {
            conn.execute_batch(statement).map_err(sql)?;
        }
        // In the order of `gram_dirty`'s key: appended, not inserted all over it.
        conn.execute_batch(
            "INSERT OR IGNORE INTO gram_dirty (id) SELECT id FROM sessions ORDER BY id",
        )
        .map_err(sql)
    }

    // ----- reading --------------------------------------------------------

    /// The sessions `query` keeps, newest first, and every problem.
    /// The sessions `query` keeps, newest first.
    pub fn list(&self, query: &ListQuery) -> Result<Vec<Found>> {
        let mut sessions = Vec::new();
        self.list_pages(query, usize::MAX, |page| {
            sessions.extend(page);
            true
        })?;
        Ok(sessions)
    }

    /// The sessions `query` keeps, newest first, handed to `page` in pages
    /// of `first` rows, then twice as many each time up to [`MAX_PAGE`],
    /// until it returns false. One statement reads them all, so the pages
    /// are one snapshot of the index (the table is in this order: no row is
    /// looked up).
    pub fn list_pages(
        &self,
        query: &ListQuery,
        first: usize,
        mut page: impl FnMut(Vec<Found>) -> bool,
    ) -> Result<()> {
        let mut size = first.max(1);
        let mut rows_of_page = Vec::with_capacity(size.min(MAX_PAGE));
        self.each_listed(query, |row| {
            rows_of_page.push(row.found().map_err(sql)?);
            if rows_of_page.len() < size {
                return Ok(true);
            }
            size = next_page_size(size, first);
            let full = std::mem::replace(&mut rows_of_page, Vec::with_capacity(size.min(MAX_PAGE)));
            Ok(page(full))
        })?;
        if !rows_of_page.is_empty() {
            page(rows_of_page);
        }
        Ok(())
    }

    /// Hands each row `query` keeps to `visit`, newest first, as one
    /// statement reads them (one snapshot of the index; the table is in this
    /// order, so no row is looked up), until `visit` returns false.
    pub fn each_listed(
        &self,
        query: &ListQuery,
        mut visit: impl FnMut(Listed<'_>) -> Result<bool>,
    ) -> Result<()> {
        // One equality, answered by its column's index ([`kept`] checks
        // the rest); a damaged row counts towards the page like any other.
        let (condition, value) = match (&query.model, &query.workspace) {
            (Some(model), _) => ("WHERE model = ?1", Some(model)),
            (None, Some(workspace)) => ("WHERE workspace = ?1", Some(workspace)),
            (None, None) => ("", None),
        };
        let text = format!("SELECT {COLUMNS} FROM sessions {condition} {NEWEST_FIRST}");
        let mut statement = self.conn.prepare_cached(&text).map_err(sql)?;
        let mut rows = match value {
            Some(value) => statement.query([value]),
            None => statement.query([]),
        }
        .map_err(sql)?;
        let mut checker = Checker::default();
        let mut skip = query.offset;
        let mut left = query.limit.unwrap_or(usize::MAX);
        while left > 0 {
            let Some(row) = rows.next().map_err(sql)? else {
                break;
            };
            let intact = checker.intact(row).map_err(sql)?;
            if intact && !kept(row, query).map_err(sql)? {
                continue;
            }
            if skip > 0 {
                skip -= 1;
                continue;
            }
            left -= 1;
            if !visit(Listed { row, intact })? {
                break;
            }
        }
        Ok(())
    }

    /// The sessions `naming` may mean, newest first.
    pub fn named(&self, naming: &Naming<'_>) -> Result<Vec<Found>> {
        // Ids are lowercase hex and dashes: every id starting with the
        // prefix sorts between it and the prefix followed by '~'.
        let (low, high) = match naming.prefix {
            Some(prefix) => (prefix.to_string(), format!("{prefix}~")),
            None => (String::new(), String::new()),
        };
        let text = format!(
            "SELECT {COLUMNS} FROM sessions WHERE id IN (
                 SELECT id FROM sessions WHERE title = ?1
                 UNION SELECT id FROM sessions WHERE id >= ?2 AND id < ?3) {NEWEST_FIRST}"
        );
        self.summaries(&text, params![naming.title, low, high], |r| {
            let title = r.get_ref(TITLE)?.as_str_or_null()?;
            let id = r.get_ref(ID)?.as_str()?;
            let workspace = r.get_ref(WORKSPACE)?.as_str_or_null()?;
            Ok(
                (title == Some(naming.title) || naming.prefix.is_some_and(|p| id.starts_with(p)))
                    && naming.workspace.is_none_or(|w| workspace == Some(w)),
            )
        })
    }

    /// The sessions whose parent is `id`, newest first.
    pub fn children(&self, id: &str) -> Result<Vec<Found>> {
        let text = format!("SELECT {COLUMNS} FROM sessions WHERE parent = ?1 {NEWEST_FIRST}");
        self.summaries(&text, [id], |r| {
            Ok(r.get_ref(PARENT)?.as_str_or_null()? == Some(id))
        })
    }

    /// The sessions that could not be read, as their intact rows say, and
    /// whether a row was damaged (left out here: a whole listing hands it
    /// on as damaged, and its session is read from its files there).
    pub fn problems(&self) -> Result<(Vec<Problem>, bool)> {
        let mut statement = self
            .conn
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM sessions WHERE problem IS NOT NULL ORDER BY id"
            ))
            .map_err(sql)?;
        let mut rows = statement.query([]).map_err(sql)?;
        let mut problems = Vec::new();
        let mut damaged = false;
        let mut checker = Checker::default();
        while let Some(row) = rows.next().map_err(sql)? {
            if !checker.intact(row).map_err(sql)? {
                damaged = true;
                continue;
            }
            if let Some(message) = row.get::<_, Option<String>>(PROBLEM).map_err(sql)? {
                problems.push(Problem {
                    session_id: row.get(ID).map_err(sql)?,
                    message,
                });
            }
        }
        Ok((problems, damaged))
    }

    /// The rows `text` selects ([`COLUMNS`]) that are damaged, or intact,
    /// a session's, and kept by `keep` (see [`kept`]).
    fn summaries(
        &self,
        text: &str,
        values: impl rusqlite::Params,
        keep: impl Fn(&Row<'_>) -> rusqlite::Result<bool>,
    ) -> Result<Vec<Found>> {
        let mut statement = self.conn.prepare_cached(text).map_err(sql)?;
        let mut rows = statement.query(values).map_err(sql)?;
        let mut found = Vec::new();
        let mut checker = Checker::default();
        while let Some(row) = rows.next().map_err(sql)? {
            let intact = checker.intact(row).map_err(sql)?;
            let session = || Ok(row.get_ref(PROBLEM)? == ValueRef::Null && keep(row)?);
            if intact && !session().map_err(sql)? {
                continue;
            }
            found.push(Listed { row, intact }.found().map_err(sql)?);
        }
        Ok(found)
    }
}

fn summary_of(r: &Row<'_>) -> rusqlite::Result<SessionSummary> {
    let count = |i: usize| r.get::<_, i64>(i).map(unsigned);
    Ok(SessionSummary {
        session_id: r.get(0)?,
        start_time: r.get(1)?,
        last_activity: r.get(2)?,
        model: r.get(3)?,
        provider: r.get(4)?,
        message_count: count(5)?,
        token_count: count(6)?,
        tool_call_count: count(7)?,
        compression_count: count(8)?,
        title: r.get(9)?,
        parent_session_id: r.get(10)?,
        branch_point: r.get::<_, Option<i64>>(11)?.map(unsigned),
        workspace: r.get(12)?,
    })
}

/// A count as SQLite stores it: the same 64 bits (counts are never
/// compared in SQL, and a saturated count is `u64::MAX`).
fn signed(n: u64) -> i64 {
    i64::from_ne_bytes(n.to_ne_bytes())
}

fn unsigned(n: i64) -> u64 {
    u64::from_ne_bytes(n.to_ne_bytes())
}
