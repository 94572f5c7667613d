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

use std::sync::Mutex;

use postgres::Client;
use postgres::fallible_iterator::FallibleIterator;
use postgres::types::{ToSql, Type};
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
use crate::session::model::{Entry, Loaded, Message, SessionHead, SessionSummary, Stored, rebuild};
use crate::session::query::{Found, Query};
use crate::timestamp;
use tls as pgtls;
use url::{self as pgurl, PgUrl};

mod batch;
mod connection;
mod copies;
mod hosts;
pub(crate) mod keeper;
mod listing;
mod records;
mod schema;
mod scrub;
mod search;
mod snapshots;
mod statements;
mod stream;

use connection::{Failure, not_found};
use records::{Counted, RecordRows, corrupt, encode, entry_body, entry_columns, trim};
use statements::{APPEND, LOAD, NEWEST_FIRST, SUMMARY_COLUMNS, summary_of, to_i64, to_u64};

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

/// The store at the PostgreSQL URL `location` ([`super::kinds`]),
/// connected on first use.
pub(crate) fn open(
    location: &str,
    _dir: std::path::PathBuf,
    options: StoreOptions,
) -> Result<std::sync::Arc<dyn SessionStore>> {
    Ok(std::sync::Arc::new(PgStore::new(location, options)?))
}

impl SessionStore for PgStore {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

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

    fn publishes_copies_together(&self) -> bool {
        true
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
            let rows = write_head(&mut tx, id, &head, &format!(" RETURNING {SUMMARY_COLUMNS}"))?;
            let row = rows.first().ok_or_else(|| not_found(id))?;
            let summary = summary_of(row);
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
        self.search_records(query)
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
        let mut client = pgtls::connect(&self.url)?.map_err(|e| self.fail(&e))?;
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

    fn snapshots(&self) -> Option<&dyn super::SnapshotStore> {
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

/// Writes `head` as session `id`'s, with every column copied out of it
/// (a column left behind keeps what the head no longer says: a scrubbed
/// workspace stayed stored); `returning` is appended to the statement.
fn write_head(
    tx: &mut postgres::Transaction<'_>,
    id: &str,
    head: &SessionHead,
    returning: &str,
) -> std::result::Result<Vec<postgres::Row>, Failure> {
    Ok(tx.query(
        &format!(
            "UPDATE ollm_sessions SET head = $2, title = $3, model = $4, provider = $5, \
             workspace = $6 WHERE id = $1{returning}"
        ),
        &[
            &id,
            &encode(head)?,
            &head.title,
            &head.model,
            &head.provider,
            &head.workspace,
        ],
    )?)
}
