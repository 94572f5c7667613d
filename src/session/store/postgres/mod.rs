//! The PostgreSQL session store: one database shared by every machine.
//!
//! ```text
//! ollm_schema (version)                       the schema's version; a newer one is refused
//! ollm_sessions (id, head, counts, last_ms…)  one row a session: its head and list's summary
//! ollm_records (session_id, seq, kind, …)     its records, totally ordered by seq
//! ollm_snapshots (id, session_id, …, body)    its snapshots (schema 2, see `snapshots`)
//! ```
//!
//! Recording locks the session's row (`SELECT … FOR UPDATE`), so writers on
//! any host append one at a time: the next `seq`, the summary updated in
//! the same transaction, acknowledged once the commit returns. Deleting
//! takes the same row lock (a delete waits for the writer); retention
//! skips rows a writer holds (`FOR UPDATE SKIP LOCKED`). `list` reads only
//! `ollm_sessions`, and a page of it (`list --limit`, `--last`, `--here`,
//! a prefix, a title) only the rows it shows, through an index (see
//! `listing`); `search` asks the database for the records that can
//! match (a trigram index, `pg_trgm`, serves `LIKE`) and checks those.
//! Snapshots live in `ollm_snapshots`, shared like the sessions; an older
//! schema is brought up to date on first use.

use std::path::PathBuf;
use std::sync::Mutex;

use postgres::fallible_iterator::FallibleIterator;
use postgres::types::{ToSql, Type};
use postgres::{Client, Row, Transaction};
use serde_json::{Map, Value};

pub mod tls;
pub mod url;

use super::api::{
    Append, CleanupReport, Created, ListQuery, Listing, Naming, Publish, SessionLock, SessionStore,
    SetAside, StoreOptions,
};
use crate::error::{Error, Result};
use crate::fs as sfs;
use crate::fs::lock::Lock;
use crate::session::model::{
    Entry, Loaded, Message, Place, Problem, SessionHead, SessionSummary, Stored, rebuild,
};
use crate::session::query::{self, Found, Hit, Matcher, Query};
use crate::timestamp;
use tls as pgtls;
use url::{self as pgurl, PgUrl};

mod batch;
mod copies;
pub(crate) mod keeper;
mod listing;
mod scrub;
mod snapshots;
mod stream;

/// The schema this build creates and reads (1: sessions; 2: snapshots).
pub(crate) const SCHEMA_VERSION: i32 = 2;

const SCHEMA: &str = "
CREATE TABLE ollm_schema (version integer NOT NULL);
CREATE TABLE ollm_sessions (
    id text PRIMARY KEY,
    head text NOT NULL,
    start_time text NOT NULL,
    start_ms bigint NOT NULL,
    last_activity text NOT NULL,
    last_ms bigint NOT NULL,
    model text NOT NULL,
    provider text NOT NULL,
    title text,
    parent_id text,
    branch_point bigint,
    workspace text,
    message_count bigint NOT NULL DEFAULT 0,
    tool_call_count bigint NOT NULL DEFAULT 0,
    compression_count bigint NOT NULL DEFAULT 0,
    token_count bigint NOT NULL DEFAULT 0,
    seq bigint NOT NULL DEFAULT 0
);
CREATE INDEX ollm_sessions_parent ON ollm_sessions (parent_id);
CREATE TABLE ollm_records (
    session_id text NOT NULL REFERENCES ollm_sessions (id) ON DELETE CASCADE,
    seq bigint NOT NULL,
    kind text NOT NULL,
    kind_index bigint,
    at text NOT NULL,
    tokens bigint,
    body text NOT NULL,
    role text,
    search_text text,
    PRIMARY KEY (session_id, seq)
);
";

/// What `pg_trgm` adds when it can be installed (search works without it,
/// scanning the records instead of the index).
const TRIGRAM_INDEX: &str = "CREATE INDEX IF NOT EXISTS ollm_records_text \
     ON ollm_records USING gin (search_text gin_trgm_ops)";

const VERSION: &str = "SELECT max(version) FROM ollm_schema";

/// The schema's version, and how many of the listing indexes
/// (`listing::INDEX_NAMES`, `$1`) it lacks.
const STATE: &str = "SELECT max(version), \
     (SELECT count(*) FROM unnest($1::text[]) AS i(name) WHERE to_regclass(i.name) IS NULL) \
     FROM ollm_schema";

/// Appends one record: the session's next `seq`, `lastActivity` never
/// going back, the counts, and the record itself, in one statement.
const APPEND: &str = "
WITH p AS (SELECT $1::text AS id, $2::bigint AS now, $3::text AS kind, $4::bigint AS tokens,
                  $5::text AS body, $6::text AS role, $7::text AS text),
s AS (
    UPDATE ollm_sessions SET
        seq = seq + 1,
        last_ms = greatest(last_ms, p.now),
        last_activity = to_char(timestamp 'epoch' + greatest(last_ms, p.now) * interval '1 millisecond',
                                'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'),
        message_count = message_count + (CASE WHEN p.kind = 'message' THEN 1 ELSE 0 END),
        tool_call_count = tool_call_count + (CASE WHEN p.kind = 'toolCall' THEN 1 ELSE 0 END),
        compression_count = compression_count + (CASE WHEN p.kind = 'compression' THEN 1 ELSE 0 END),
        token_count = CASE WHEN token_count > 9223372036854775807 - coalesce(p.tokens, 0)
                           THEN 9223372036854775807 ELSE token_count + coalesce(p.tokens, 0) END
    FROM p WHERE ollm_sessions.id = p.id
    RETURNING ollm_sessions.*
), r AS (
    INSERT INTO ollm_records (session_id, seq, kind, kind_index, at, tokens, body, role, search_text)
    SELECT p.id, s.seq, p.kind,
           CASE p.kind WHEN 'message' THEN s.message_count - 1
                   WHEN 'toolCall' THEN s.tool_call_count - 1 END,
           s.last_activity, p.tokens, p.body, p.role, p.text
    FROM s, p
)
SELECT id, start_time, last_activity, model, message_count, token_count,
       provider, tool_call_count, compression_count, title, parent_id, branch_point, workspace
FROM s";

/// Sessions as listing reads them.
const SUMMARY_COLUMNS: &str = "id, start_time, last_activity, model, message_count, token_count, \
     provider, tool_call_count, compression_count, title, parent_id, branch_point, workspace";

const NEWEST_FIRST: &str = "ORDER BY last_ms DESC, start_ms DESC, id";

/// A whole session in one statement: its row as seq 0 (`lastActivity`,
/// the token count and the head), then its records.
const LOAD: &str = "
SELECT 0::bigint, 'head', last_activity, token_count, head FROM ollm_sessions WHERE id = $1
UNION ALL
(SELECT seq, kind, at, tokens, body FROM ollm_records WHERE session_id = $1 ORDER BY seq)";

/// A PostgreSQL session store; connects on first use.
pub(crate) struct PgStore {
    url: PgUrl,
    options: StoreOptions,
    client: Mutex<Option<Client>>,
}

impl PgStore {
    pub fn new(url: &str, options: StoreOptions) -> Result<PgStore> {
        Ok(PgStore {
            url: pgurl::parse(url)?,
            options,
            client: Mutex::new(None),
        })
    }

    /// Keeps this store's connections between commands (`ollm-session
    /// keep`) until a signal, `idle` without a command, or its socket's
    /// removal.
    pub(crate) fn keep(
        &self,
        idle: Option<std::time::Duration>,
        ready: impl FnOnce(keeper::Ready<'_>) -> Result<()>,
    ) -> Result<(keeper::Stopped, u64)> {
        let Some(run_dir) = &self.options.run_dir else {
            return Err(Error::Config("keep: no run directory (OLLM_HOME)".into()));
        };
        keeper::keep(&self.url, run_dir, idle, ready)
    }

    /// A storage failure, one line, naming the store (password redacted).
    fn fail(&self, err: &postgres::Error) -> Error {
        let mut message = err.to_string();
        if let Some(source) = std::error::Error::source(err) {
            message = format!("{message}: {source}");
        }
        let mut message = crate::text::one_line(&message);
        if let Some(db) = err.as_db_error() {
            message = crate::text::one_line(db.message());
            if db.code() == &postgres::error::SqlState::READ_ONLY_SQL_TRANSACTION {
                message = format!("the server is read-only (a replica?): {message}");
            } else if db.code() == &postgres::error::SqlState::QUERY_CANCELED {
                message = format!("{message} (statement_timeout in the store URL)");
            }
        } else if let Some(hint) = pgtls::hint(&message) {
            message = format!("TLS: {message} ({hint})");
        } else if let Some(why) = keeper::stalled() {
            message = why.to_string();
        } else if err.is_closed() || message.contains("error connecting") {
            message = format!("cannot reach the database: {message}");
        }
        Error::Io {
            path: PathBuf::from(self.url.shown()),
            message: crate::redact::scrub_message(&message),
        }
    }

    fn failure(&self, failure: Failure) -> Error {
        match failure {
            Failure::Ollm(err) => err,
            Failure::Db(err) => self.fail(&err),
        }
    }

    /// Runs `work` on the connection, connecting (and creating the
    /// schema) first when needed. A connection that failed is dropped, so
    /// the next call connects anew.
    fn with<R>(
        &self,
        work: impl FnOnce(&mut Client) -> std::result::Result<R, Failure>,
    ) -> Result<R> {
        let mut slot = self
            .client
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if slot.as_ref().is_none_or(Client::is_closed) {
            *slot = Some(self.connect()?);
        }
        let Some(client) = slot.as_mut() else {
            return Err(Error::Io {
                path: PathBuf::from(self.url.shown()),
                message: "no connection".into(),
            });
        };
        match work(client) {
            Ok(value) => Ok(value),
            Err(Failure::Db(err)) => {
                if err.is_closed() || err.as_db_error().is_none() {
                    *slot = None;
                }
                Err(self.fail(&err))
            }
            Err(Failure::Ollm(err)) => Err(err),
        }
    }

    fn connect(&self) -> Result<Client> {
        let kept = (self.options.run_dir.as_deref())
            .and_then(|run_dir| keeper::connect_kept(run_dir, &self.url));
        let mut client = match kept {
            Some(client) => client,
            None => pgtls::connect(&self.url.config, &self.url.tls)?.map_err(|e| self.fail(&e))?,
        };
        self.ensure_schema(&mut client)?;
        Ok(client)
    }

    /// Creates the schema on first use (one process at a time), or checks
    /// that the existing one is not newer than this build and brings an
    /// older one up to date (its tables, then the listing indexes).
    fn ensure_schema(&self, client: &mut Client) -> Result<()> {
        let names: &[&str] = &listing::INDEX_NAMES;
        let state = |client: &mut Client| {
            client
                .query_typed_one(STATE, &[(&names, Type::TEXT_ARRAY)])
                .map(|row| (row.get::<_, Option<i32>>(0), row.get::<_, i64>(1)))
        };
        let (version, missing) = match state(client) {
            Ok(state) => state,
            Err(err) if err.code() == Some(&postgres::error::SqlState::UNDEFINED_TABLE) => {
                // Held across the transaction, which then starts with the
                // catalog as the process that made the schema left it.
                client
                    .execute("SELECT pg_advisory_lock(7240015)", &[])
                    .map_err(|e| self.fail(&e))?;
                let made = self.create_schema(client);
                if let Ok(true) = made
                    && client
                        .batch_execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
                        .is_ok()
                {
                    // Optional: without it, search scans the records.
                    let _ = client.batch_execute(TRIGRAM_INDEX);
                }
                let unlocked = client.execute("SELECT pg_advisory_unlock(7240015)", &[]);
                made?;
                unlocked.map_err(|e| self.fail(&e))?;
                state(client).map_err(|e| self.fail(&e))?
            }
            Err(err) => return Err(self.fail(&err)),
        };
        let checked = match version {
            Some(v) if v > SCHEMA_VERSION => Err(Error::Io {
                path: PathBuf::from(self.url.shown()),
                message: format!(
                    "written by a newer ollm (store schema {v}, this one knows {SCHEMA_VERSION}); upgrade ollm"
                ),
            }),
            Some(v) if v < SCHEMA_VERSION => self.migrate(client),
            Some(_) => Ok(()),
            None => Err(Error::Corrupt(format!(
                "{}: the ollm_schema table names no version",
                self.url.shown()
            ))),
        };
        checked?;
        if missing > 0 {
            add_indexes(client);
        }
        Ok(())
    }

    /// Creates the tables unless a process holding the lock before us did
    /// (`false`).
    fn create_schema(&self, client: &mut Client) -> Result<bool> {
        let mut tx = client.transaction().map_err(|e| self.fail(&e))?;
        let raced = tx
            .query_one("SELECT to_regclass('ollm_schema') IS NOT NULL", &[])
            .map_err(|e| self.fail(&e))?
            .get::<_, bool>(0);
        if !raced {
            tx.batch_execute(SCHEMA).map_err(|e| self.fail(&e))?;
            tx.batch_execute(listing::INDEXES)
                .map_err(|e| self.fail(&e))?;
            tx.batch_execute(snapshots::TABLES)
                .map_err(|e| self.fail(&e))?;
            tx.execute(
                "INSERT INTO ollm_schema (version) VALUES ($1)",
                &[&SCHEMA_VERSION],
            )
            .map_err(|e| self.fail(&e))?;
        }
        tx.commit().map_err(|e| self.fail(&e))?;
        Ok(!raced)
    }

    fn now(&self) -> i64 {
        (self.options.clock)()
    }

    /// The summaries `select` selects, in its order.
    fn summaries(&self, select: &listing::Select) -> Result<Vec<SessionSummary>> {
        self.with(|client| {
            let rows = client.query_typed_raw(select.sql.as_str(), select.typed())?;
            Ok(rows.map(|row| Ok(summary_of(&row))).collect()?)
        })
    }
}

/// Adds the listing indexes to a database made before them, one process
/// at a time (the schema's lock). Optional, as `pg_trgm` is: a role that
/// may not create indexes, or a read-only server, still gets every answer
/// (by reading the table), and the next connection tries again. Building
/// them holds the sessions' writers for as long as it takes (well under a
/// second at 100,000 sessions), once; `statement_timeout` does not cut it
/// short, which would only make every later command try again.
fn add_indexes(client: &mut Client) {
    let add = |client: &mut Client| -> std::result::Result<(), postgres::Error> {
        let mut tx = client.transaction()?;
        tx.batch_execute("SELECT pg_advisory_xact_lock(7240015); SET LOCAL statement_timeout = 0")?;
        tx.batch_execute(listing::INDEXES)?;
        tx.commit()
    };
    let _ = add(client);
}

/// A failure inside a unit of work: the database's, or ours.
enum Failure {
    Db(postgres::Error),
    Ollm(Error),
}

impl From<postgres::Error> for Failure {
    fn from(err: postgres::Error) -> Failure {
        Failure::Db(err)
    }
}

impl From<Error> for Failure {
    fn from(err: Error) -> Failure {
        Failure::Ollm(err)
    }
}

fn not_found(id: &str) -> Failure {
    Failure::Ollm(Error::NotFound(format!("no session {id}")))
}

fn to_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn to_u64(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

fn summary_of(row: &Row) -> SessionSummary {
    SessionSummary {
        session_id: row.get(0),
        start_time: row.get(1),
        last_activity: row.get(2),
        model: row.get(3),
        message_count: to_u64(row.get(4)),
        token_count: to_u64(row.get(5)),
        provider: row.get(6),
        tool_call_count: to_u64(row.get(7)),
        compression_count: to_u64(row.get(8)),
        title: row.get(9),
        parent_session_id: row.get(10),
        branch_point: row.get::<_, Option<i64>>(11).map(to_u64),
        workspace: row.get(12),
    }
}

fn encode(value: &impl serde::Serialize) -> std::result::Result<String, Failure> {
    serde_json::to_string(value)
        .map_err(|e| Failure::Ollm(Error::input(format!("cannot encode the record: {e}"))))
}

fn corrupt(id: &str, what: &str, err: impl std::fmt::Display) -> Failure {
    Failure::Ollm(Error::Corrupt(format!(
        "session {id}: {what} cannot be read ({})",
        crate::text::one_line(&err.to_string())
    )))
}

/// The record's row: kind, role and the text search looks in.
fn entry_columns(entry: &Entry) -> (&'static str, String, String) {
    match entry {
        Entry::Message(m) => ("message", m.role().to_string(), m.text_content()),
        Entry::ToolCall(c) => ("toolCall", "tool".to_string(), query::tool_text(c)),
    }
}

/// A message's or tool call's JSON, no deeper than a session keeps.
fn entry_body(entry: &Entry) -> std::result::Result<String, Failure> {
    let body = match entry {
        Entry::Message(m) => encode(m)?,
        Entry::ToolCall(c) => encode(c)?,
    };
    crate::input::check_record_nesting(body.as_bytes(), 0).map_err(Failure::Ollm)?;
    Ok(body)
}

/// A new session's records as columns, for one insert.
#[derive(Default)]
struct RecordRows {
    seq: Vec<i64>,
    kind: Vec<&'static str>,
    kind_index: Vec<i64>,
    tokens: Vec<Option<i64>>,
    body: Vec<String>,
    role: Vec<String>,
    text: Vec<String>,
    messages: i64,
    calls: i64,
    token_sum: u64,
}

impl RecordRows {
    /// Adds `other`'s rows after these (the counts are left as they are).
    fn append(&mut self, other: RecordRows) {
        self.seq.extend(other.seq);
        self.kind.extend(other.kind);
        self.kind_index.extend(other.kind_index);
        self.tokens.extend(other.tokens);
        self.body.extend(other.body);
        self.role.extend(other.role);
        self.text.extend(other.text);
    }

    fn of(entries: &[(Entry, Option<u64>)]) -> std::result::Result<RecordRows, Failure> {
        RecordRows::after(entries, 0, 0, 0)
    }

    /// The rows of `entries` following `seq` records, `messages` of them
    /// messages and `calls` tool calls (the counts end up including them).
    fn after(
        entries: &[(Entry, Option<u64>)],
        seq: i64,
        messages: i64,
        calls: i64,
    ) -> std::result::Result<RecordRows, Failure> {
        let mut rows = RecordRows {
            seq: Vec::new(),
            kind: Vec::new(),
            kind_index: Vec::new(),
            tokens: Vec::new(),
            body: Vec::new(),
            role: Vec::new(),
            text: Vec::new(),
            messages,
            calls,
            token_sum: 0,
        };
        for (n, (entry, tokens)) in entries.iter().enumerate() {
            let (kind, role, text) = entry_columns(entry);
            let index = match entry {
                Entry::Message(_) => &mut rows.messages,
                Entry::ToolCall(_) => &mut rows.calls,
            };
            rows.kind_index.push(*index);
            *index += 1;
            rows.seq.push(seq + n as i64 + 1);
            rows.kind.push(kind);
            rows.tokens.push(tokens.map(to_i64));
            rows.body.push(entry_body(entry)?);
            rows.role.push(role);
            rows.text.push(text);
            rows.token_sum = rows.token_sum.saturating_add(tokens.unwrap_or(0));
        }
        Ok(rows)
    }

    /// Inserts the rows as session `id`'s records, each stamped `at`: one
    /// statement, the columns passed as arrays.
    fn insert(
        &self,
        tx: &mut Transaction<'_>,
        id: &str,
        at: &str,
    ) -> std::result::Result<u64, postgres::Error> {
        tx.execute(
            "INSERT INTO ollm_records \
             (session_id, seq, kind, kind_index, at, tokens, body, role, search_text) \
             SELECT $1, r.seq, r.kind, r.kind_index, $2, r.tokens, r.body, r.role, r.search_text \
             FROM unnest($3::bigint[], $4::text[], $5::bigint[], $6::bigint[], \
                         $7::text[], $8::text[], $9::text[]) \
             AS r(seq, kind, kind_index, tokens, body, role, search_text)",
            &[
                &id,
                &at,
                &self.seq,
                &self.kind,
                &self.kind_index,
                &self.tokens,
                &self.body,
                &self.role,
                &self.text,
            ],
        )
    }
}

/// Which sessions [`trim`] counts and may delete.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Counted {
    /// `cleanup --keep N`: every session.
    All,
    /// `maxSessions`: not the imported ones (`metadata.importedFrom`; the
    /// head is compact JSON, where that key cannot appear in a string
    /// unescaped, and a match elsewhere only spares a session).
    NotImported,
}

/// Deletes the oldest sessions beyond `keep` (never `spare`) of those
/// `counted`, skipping those a writer holds. Returns (deleted, skipped).
fn trim(
    tx: &mut Transaction<'_>,
    keep: u64,
    spare: Option<&str>,
    counted: Counted,
) -> std::result::Result<(Vec<String>, Vec<String>), Failure> {
    let spare = spare.unwrap_or("");
    let only = match counted {
        Counted::All => "",
        Counted::NotImported => "AND strpos(head, '\"importedFrom\":') = 0",
    };
    let due: Vec<String> = tx
        .query(
            &format!("SELECT id FROM ollm_sessions WHERE id <> $2 {only} {NEWEST_FIRST} OFFSET $1"),
            &[
                &to_i64(keep.saturating_sub(u64::from(!spare.is_empty()))),
                &spare,
            ],
        )?
        .iter()
        .map(|row| row.get(0))
        .collect();
    if due.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let free: Vec<String> = tx
        .query(
            "SELECT id FROM ollm_sessions WHERE id = ANY($1) FOR UPDATE SKIP LOCKED",
            &[&due],
        )?
        .iter()
        .map(|row| row.get(0))
        .collect();
    tx.execute("DELETE FROM ollm_sessions WHERE id = ANY($1)", &[&free])?;
    let deleted: Vec<String> = due.iter().filter(|id| free.contains(id)).cloned().collect();
    let skipped = due.into_iter().filter(|id| !free.contains(id)).collect();
    Ok((deleted, skipped))
}

impl SessionStore for PgStore {
    fn scrub(&self, id: &str, scrub: &dyn Fn(&mut Value) -> u64) -> Result<u64> {
        self.scrub_session(id, scrub)
    }

    fn location(&self) -> String {
        self.url.shown().to_string()
    }

    fn options(&self) -> &StoreOptions {
        &self.options
    }

    fn exists(&self, id: &str) -> Result<()> {
        self.with(|client| {
            match client.query_typed_opt(
                "SELECT 1 FROM ollm_sessions WHERE id = $1",
                &[(&id, Type::TEXT)],
            )? {
                Some(_) => Ok(()),
                None => Err(not_found(id)),
            }
        })
    }

    fn has_any(&self, id: &str) -> bool {
        // When the database cannot say, assume the session is there: the
        // callers only hide snapshots of sessions that are gone.
        !matches!(self.exists(id), Err(Error::NotFound(_)))
    }

    fn publish(&self, new: Publish) -> Result<Created> {
        let head = new.head;
        let id = head.session_id.clone();
        let head_text = encode(&head).map_err(|f| self.failure(f))?;
        let at = head.last_activity.clone();
        let at_ms = timestamp::parse(&at).unwrap_or(0);
        let start_ms = timestamp::parse(&head.start_time).unwrap_or(0);
        let max = self.options.max_sessions;
        let removed = self.with(|client| {
            let mut tx = client.transaction()?;
            if new.enforce_max && max > 0 {
                // One create at a time counts the sessions, as the file
                // store's store lock does.
                tx.execute("SELECT pg_advisory_xact_lock(7240016)", &[])?;
            }
            let inserted = tx.execute(
                "INSERT INTO ollm_sessions (id, head, start_time, start_ms, last_activity, last_ms, \
                 model, provider, title, parent_id, branch_point, compression_count, token_count, \
                 workspace) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) \
                 ON CONFLICT (id) DO NOTHING",
                &[
                    &id,
                    &head_text,
                    &head.start_time,
                    &start_ms,
                    &at,
                    &at_ms,
                    &head.model,
                    &head.provider,
                    &head.title,
                    &head.parent_session_id,
                    &head.branch_point.map(to_i64),
                    &to_i64(head.metadata.compression_count),
                    &to_i64(head.metadata.token_count),
                    &head.workspace,
                ],
            )?;
            if inserted == 0 {
                return Err(Failure::Ollm(Error::input(format!(
                    "session {id} is already in the store"
                ))));
            }
            let rows = RecordRows::of(&new.entries)?;
            rows.insert(&mut tx, &id, &at)?;
            let (messages, calls, tokens) = (rows.messages, rows.calls, rows.token_sum);
            tx.execute(
                "UPDATE ollm_sessions SET seq = $2, message_count = $3, tool_call_count = $4, \
                 token_count = token_count + $5 WHERE id = $1",
                &[&id, &(new.entries.len() as i64), &messages, &calls, &to_i64(tokens)],
            )?;
            let removed = if new.enforce_max && max > 0 {
                trim(&mut tx, max, Some(&id), Counted::NotImported)?.0
            } else {
                Vec::new()
            };
            tx.commit()?;
            Ok(removed)
        })?;
        Ok(Created {
            session_id: id,
            parent_session_id: head.parent_session_id,
            branch_point: head.branch_point,
            removed,
        })
    }

    fn list_json_pages(
        &self,
        query: &ListQuery,
        first: usize,
        page: &mut dyn FnMut(super::JsonLines) -> bool,
    ) -> Option<Result<()>> {
        Some(self.stream_json_pages(query, first, page))
    }

    fn publish_copies(&self, copies: Vec<Publish>) -> Result<Vec<bool>> {
        self.copies(copies)
    }

    fn append(&self, id: &str, record: Append<'_>) -> Result<SessionSummary> {
        let now = self.now();
        let (kind, body, role, text, tokens) = match record {
            Append::Entry { entry, tokens } => {
                let (kind, role, text) = entry_columns(entry);
                let body = entry_body(entry).map_err(|f| self.failure(f))?;
                (kind, body, Some(role), Some(text), Some(to_i64(tokens)))
            }
            Append::Compression(details) => {
                let body = encode(details).map_err(|f| self.failure(f))?;
                ("compression", body, None, None, None)
            }
        };
        self.with(|client| {
            // One statement, so one round trip: the row lock orders the
            // writers, and the commit that ends it is the acknowledgement.
            let row = client.query_typed_opt(
                APPEND,
                &[
                    (&id, Type::TEXT),
                    (&now, Type::INT8),
                    (&kind, Type::TEXT),
                    (&tokens, Type::INT8),
                    (&body, Type::TEXT),
                    (&role, Type::TEXT),
                    (&text, Type::TEXT),
                ],
            )?;
            row.map(|row| summary_of(&row)).ok_or_else(|| not_found(id))
        })
    }

    fn append_entries(
        &self,
        id: &str,
        entries: &[(Entry, u64)],
        not_before: Option<timestamp::Millis>,
    ) -> Result<SessionSummary> {
        self.append_batch(id, entries, not_before)
    }

    fn record_keys(&self, id: &str, field: &str) -> Result<super::api::RecordKeys> {
        self.keys_of(id, field)
    }

    fn update_metadata(&self, id: &str, patch: &Map<String, Value>) -> Result<SessionSummary> {
        self.with(|client| {
            let mut tx = client.transaction()?;
            let Some(row) = tx.query_opt(
                "SELECT head FROM ollm_sessions WHERE id = $1 FOR UPDATE",
                &[&id],
            )?
            else {
                return Err(not_found(id));
            };
            let text: String = row.get(0);
            let mut head: SessionHead =
                serde_json::from_str(&text).map_err(|e| corrupt(id, "the head", e))?;
            head.apply_patch(patch);
            let row = tx.query_one(
                &format!(
                    "UPDATE ollm_sessions SET head = $2, title = $3, model = $4, provider = $5, \
                     workspace = $6 WHERE id = $1 RETURNING {SUMMARY_COLUMNS}"
                ),
                &[
                    &id,
                    &encode(&head)?,
                    &head.title,
                    &head.model,
                    &head.provider,
                    &head.workspace,
                ],
            )?;
            let summary = summary_of(&row);
            tx.commit()?;
            Ok(summary)
        })
    }

    fn summary(&self, id: &str) -> Result<SessionSummary> {
        self.with(|client| {
            let row = client.query_typed_opt(
                &format!("SELECT {SUMMARY_COLUMNS} FROM ollm_sessions WHERE id = $1"),
                &[(&id, Type::TEXT)],
            )?;
            row.map(|row| summary_of(&row)).ok_or_else(|| not_found(id))
        })
    }

    fn load_held(&self, id: &str, _held: Option<&SessionLock>) -> Result<Loaded> {
        self.with(|client| {
            // One statement, so one snapshot and one round trip: the
            // session's row (seq 0) and its records (seq 1…).
            let mut rows = client.query_typed(LOAD, &[(&id, Type::TEXT)])?;
            // Each part comes in order; the parts of a UNION ALL in any.
            rows.sort_by_key(|row| row.get::<_, i64>(0));
            let Some((head_row, records)) =
                rows.split_first().filter(|(h, _)| h.get::<_, i64>(0) == 0)
            else {
                return Err(not_found(id));
            };
            let head_text: &str = head_row.get(4);
            let head: SessionHead =
                serde_json::from_str(head_text).map_err(|e| corrupt(id, "the head", e))?;
            let last_activity: String = head_row.get(2);
            let token_count = head_row.get::<_, Option<i64>>(3).map_or(0, to_u64);
            let mut stored = Vec::with_capacity(records.len());
            for row in records {
                let seq: i64 = row.get(0);
                let kind: &str = row.get(1);
                let at: String = row.get(2);
                let tokens = row.get::<_, Option<i64>>(3).map(to_u64);
                let body: &str = row.get(4);
                let what = format!("record {seq}");
                let parse = |e| corrupt(id, &what, e);
                stored.push(match kind {
                    "message" => Stored::Entry {
                        at,
                        tokens,
                        entry: Entry::Message(serde_json::from_str(body).map_err(parse)?),
                    },
                    "toolCall" => Stored::Entry {
                        at,
                        tokens,
                        entry: Entry::ToolCall(serde_json::from_str(body).map_err(parse)?),
                    },
                    "compression" => Stored::Compression {
                        at,
                        details: serde_json::from_str(body).map_err(parse)?,
                    },
                    _ => Stored::Other { at: None }, // a kind a newer ollm writes
                });
            }
            let mut loaded = rebuild(head, stored);
            // The session's row is what every writer brings up to date in
            // the record's transaction: it wins over what the records add up to.
            loaded.session.last_activity = last_activity;
            loaded.session.metadata.token_count = token_count;
            Ok(loaded)
        })
    }

    fn list(&self) -> Result<Listing> {
        self.with(|client| {
            // Each row becomes its summary as it arrives: the raw rows of
            // every session are never all held at once.
            let rows = client.query_typed_raw(
                &format!("SELECT {SUMMARY_COLUMNS} FROM ollm_sessions {NEWEST_FIRST}"),
                std::iter::empty::<(&(dyn ToSql + Sync), Type)>(),
            )?;
            let sessions = rows.map(|row| Ok(summary_of(&row))).collect()?;
            Ok(Listing {
                sessions,
                problems: Vec::new(),
            })
        })
    }

    /// Only the page's rows: the filters, the order and `LIMIT`/`OFFSET`
    /// in SQL, served by an index (see `listing`).
    fn list_where(&self, query: &ListQuery) -> Result<Listing> {
        let Some((select, cut)) = listing::page(query) else {
            return Ok(Listing::default());
        };
        let sessions = self.with(|client| {
            let rows = client
                .query_typed_raw(select.sql.as_str(), select.typed())?
                .map(|row| Ok(summary_of(&row)));
            Ok(match cut {
                listing::Cut::Exact => rows.collect()?,
                listing::Cut::Confirm => rows
                    .filter(|s| Ok(query.keeps(s)))
                    .skip(query.offset)
                    .take(query.limit.unwrap_or(usize::MAX))
                    .collect()?,
            })
        })?;
        Ok(Listing {
            sessions,
            problems: Vec::new(),
        })
    }

    /// Sessions with the title, or an id in the prefix's range (indexes on
    /// both), newest first.
    fn named(&self, naming: &Naming<'_>) -> Result<Vec<SessionSummary>> {
        match listing::named(naming) {
            Some(select) => self.summaries(&select),
            None => Ok(Vec::new()),
        }
    }

    fn children(&self, id: &str) -> Result<Vec<SessionSummary>> {
        self.summaries(&listing::children(id))
    }

    fn count(&self) -> Result<usize> {
        self.with(|client| {
            let n: i64 = client
                .query_one("SELECT count(*) FROM ollm_sessions", &[])?
                .get(0);
            Ok(usize::try_from(n).unwrap_or(0))
        })
    }

    fn corrupt(&self) -> Result<Vec<SetAside>> {
        // Rows are checked by the database: nothing is ever set aside.
        Ok(Vec::new())
    }

    fn delete(&self, id: &str) -> Result<()> {
        self.with(|client| {
            match client.execute("DELETE FROM ollm_sessions WHERE id = $1", &[&id])? {
                0 => Err(not_found(id)),
                _ => Ok(()),
            }
        })
    }

    fn cleanup(&self, keep: u64, dry_run: bool) -> Result<CleanupReport> {
        let (deleted, skipped, total) = self.with(|client| {
            let mut tx = client.transaction()?;
            let total: i64 = tx
                .query_one("SELECT count(*) FROM ollm_sessions", &[])?
                .get(0);
            let (deleted, skipped) = if dry_run {
                let due = tx
                    .query(
                        &format!("SELECT id FROM ollm_sessions {NEWEST_FIRST} OFFSET $1"),
                        &[&to_i64(keep)],
                    )?
                    .iter()
                    .map(|row| row.get(0))
                    .collect();
                (due, Vec::new())
            } else {
                trim(&mut tx, keep, None, Counted::All)?
            };
            tx.commit()?;
            Ok((deleted, skipped, to_u64(total)))
        })?;
        Ok(CleanupReport {
            dry_run,
            kept: total - deleted.len() as u64,
            deleted,
            skipped_locked: skipped,
            ..CleanupReport::default()
        })
    }

    fn search(&self, query: &Query) -> Result<Found> {
        let matcher = Matcher::new(query)?;
        let like = if query.ignore_case { "ILIKE" } else { "LIKE" };
        let pieces: Option<Vec<String>> = if query.regex {
            query::required_literals(&query.pattern, query.ignore_case).map(|pieces| {
                pieces
                    .iter()
                    .map(|p| String::from_utf8_lossy(p).into_owned())
                    .collect()
            })
        } else {
            Some(vec![query.pattern.clone()])
        };
        // What can match: a text column holding one of the pieces ($1…).
        let can_match = |column: &str| -> String {
            pieces.as_ref().map_or_else(String::new, |pieces| {
                let tests: Vec<String> = (1..=pieces.len())
                    .map(|n| format!("{column} {like} ${n}"))
                    .collect();
                format!(" AND ({})", tests.join(" OR "))
            })
        };
        let like_params: Vec<String> = pieces
            .iter()
            .flatten()
            .map(|p| format!("%{}%", escape_like(p)))
            .collect();
        let mut sql = "SELECT session_id, kind, kind_index, body FROM ollm_records \
                       WHERE kind IN ('message', 'toolCall')"
            .to_string();
        sql.push_str(&can_match("search_text"));
        let mut params = like_params.clone();
        // Titles (unless another role is asked for), found the same way:
        // a listing of every session is not read for them.
        let titles = query.role.as_deref().is_none_or(|r| r == "title").then(|| {
            format!(
                "SELECT id, title, last_activity FROM ollm_sessions WHERE title IS NOT NULL{}",
                can_match("title")
            )
        });
        if let Some(role) = &query.role {
            params.push(role.clone());
            sql.push_str(&format!(" AND role = ${}", params.len()));
        }
        let mut hits: Vec<Hit> = Vec::new();
        let mut problems = Vec::new();
        self.with(|client| {
            if let Some(titles) = &titles {
                for row in client.query_typed(titles.as_str(), &typed(&like_params))? {
                    matcher.title_hit(row.get(0), row.get(1), row.get(2), &mut hits);
                }
            }
            for row in client.query_typed(sql.as_str(), &typed(&params))? {
                let id: &str = row.get(0);
                let kind: &str = row.get(1);
                let index = to_u64(row.get::<_, Option<i64>>(2).unwrap_or(0)) as usize;
                let body: &str = row.get(3);
                let (place, entry) = match kind {
                    "message" => (
                        Place::Message(index),
                        serde_json::from_str(body).map(Entry::Message),
                    ),
                    _ => (
                        Place::ToolCall(index),
                        serde_json::from_str(body).map(Entry::ToolCall),
                    ),
                };
                match entry {
                    Ok(entry) => matcher.check(id, place, &entry, &mut hits),
                    Err(err) => problems.push(Problem {
                        session_id: id.to_string(),
                        message: format!(
                            "session {id}: a record cannot be read ({})",
                            crate::text::one_line(&err.to_string())
                        ),
                    }),
                }
            }
            Ok(())
        })?;
        query::sort_hits(&mut hits);
        Ok(Found { hits, problems })
    }

    /// One query for the one record: a listing of untitled sessions does
    /// not load whole sessions for their previews.
    fn first_user_text(&self, id: &str) -> Result<Option<String>> {
        self.with(|client| {
            let row = client.query_typed_opt(
                "SELECT body FROM ollm_records WHERE session_id = $1 AND kind = 'message' \
                 AND role = 'user' ORDER BY seq LIMIT 1",
                &[(&id, Type::TEXT)],
            )?;
            let Some(row) = row else {
                let known = client.query_typed_opt(
                    "SELECT 1 FROM ollm_sessions WHERE id = $1",
                    &[(&id, Type::TEXT)],
                )?;
                return known.map(|_| None).ok_or_else(|| not_found(id));
            };
            let message: Message = serde_json::from_str(row.get(0))
                .map_err(|e| corrupt(id, "its first user message", e))?;
            Ok(Some(message.text_content()))
        })
    }

    fn lock_session(&self, id: &str) -> Result<SessionLock> {
        let Some(root) = &self.options.snapshots_dir else {
            return Err(Error::Config(
                "snapshots.dir is needed to lock a session's snapshots".into(),
            ));
        };
        let locks = root.join(".locks");
        sfs::create_private_dir_all(&locks)?;
        Lock::exclusive(&locks.join(format!("{id}.lock"))).map(SessionLock::new)
    }

    /// A session-level advisory lock on a connection of its own, keyed by
    /// the store's schema (stores in other schemas of the database are not
    /// held up), released when that connection closes: when the import
    /// ends, or its process dies.
    fn import_lock(&self) -> Result<Option<SessionLock>> {
        let mut client =
            pgtls::connect(&self.url.config, &self.url.tls)?.map_err(|e| self.fail(&e))?;
        client
            .execute(
                "SELECT pg_advisory_lock($1, hashtext(coalesce(current_schema(), '')))",
                &[&IMPORT_LOCK],
            )
            .map_err(|e| self.fail(&e))?;
        Ok(Some(SessionLock::new(ImportLock {
            _connection: Mutex::new(client),
        })))
    }

    fn shared_snapshots(&self) -> Option<&dyn super::SharedSnapshots> {
        Some(self)
    }
}

/// The first key of the import lock (the second is the schema's).
const IMPORT_LOCK: i32 = 7_240_016;

/// The connection holding an import's advisory lock (held, never used).
struct ImportLock {
    _connection: Mutex<Client>,
}

impl super::api::Guard for ImportLock {
    fn discard(self: Box<Self>) {}
}

/// Text parameters as the driver takes them, typed.
fn typed(params: &[String]) -> Vec<(&(dyn ToSql + Sync), Type)> {
    params
        .iter()
        .map(|p| (p as &(dyn ToSql + Sync), Type::TEXT))
        .collect()
}

/// `text` as a LIKE pattern matching itself.
fn escape_like(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
