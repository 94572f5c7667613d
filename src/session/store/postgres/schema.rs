//! The store's tables: made on first use by one process at a time,
//! checked against this build's version, brought up to date when older.

use std::path::PathBuf;

use postgres::Client;
use postgres::types::Type;

use super::{PgStore, listing, snapshots};
use crate::error::{Error, Result};

/// The schema this build creates and reads (1: sessions; 2: snapshots).
const SCHEMA_VERSION: i32 = 2;

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

/// The schema's version, and how many of the listing indexes
/// (`listing::INDEX_NAMES`, `$1`) it lacks.
const STATE: &str = "SELECT max(version), \
     (SELECT count(*) FROM unnest($1::text[]) AS i(name) WHERE to_regclass(i.name) IS NULL) \
     FROM ollm_schema";

impl PgStore {
    /// Creates the schema on first use (one process at a time), or checks
    /// that the existing one is not newer than this build and brings an
    /// older one up to date (its tables, then the listing indexes).
    pub(super) fn ensure_schema(&self, client: &mut Client) -> Result<()> {
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
