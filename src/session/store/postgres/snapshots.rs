//! Snapshots in PostgreSQL (schema 2), shared by every machine using the
//! store:
//!
//! ```text
//! ollm_snapshots (id, session_id, seq, at_ms, …, body)   one row a snapshot
//! ```
//!
//! A snapshot row references its session with `ON DELETE CASCADE`, so
//! deleting a session (`delete`, `cleanup`, `maxSessions`) deletes its
//! snapshots in the same transaction and none outlives its session.
//! Snapshot writers of one session take a transaction-scoped advisory lock
//! on it, so the rolling limit (`snapshots.maxCount`) counts every
//! committed snapshot; the new row's reference holds the session row
//! against a concurrent delete. A snapshot is acknowledged once the commit
//! returns.

use postgres::Client;

use super::{Failure, PgStore, not_found, to_i64, to_u64};
use crate::error::{Error, Result};
use crate::session::model::snapshot::{Snapshot, SnapshotInfo};
use crate::session::store::{PutSnapshot, SessionStore, SnapshotStore, encode_snapshot};
use crate::timestamp;

/// The version that added snapshots.
const SNAPSHOTS_VERSION: i32 = 2;

const VERSION: &str = "SELECT max(version) FROM ollm_schema";

/// What schema 2 adds to schema 1.
pub(super) const TABLES: &str = "
CREATE TABLE ollm_snapshots (
    id text PRIMARY KEY,
    session_id text NOT NULL REFERENCES ollm_sessions (id) ON DELETE CASCADE,
    seq bigserial NOT NULL,
    at_ms bigint NOT NULL,
    taken text NOT NULL,
    token_count bigint NOT NULL,
    summary text NOT NULL,
    message_count bigint NOT NULL,
    body text NOT NULL
);
CREATE INDEX ollm_snapshots_session ON ollm_snapshots (session_id, at_ms DESC, seq DESC);
";

/// The schema lock `ensure_schema` creates the schema under.
const SCHEMA_LOCK: &str = "SELECT pg_advisory_lock(7240015)";
const SCHEMA_UNLOCK: &str = "SELECT pg_advisory_unlock(7240015)";

/// Serialises the snapshot writers of one session (the key is the session).
const WRITERS_LOCK: &str = "SELECT pg_advisory_xact_lock(7240017, hashtext($1))";

const NEWEST_FIRST: &str = "ORDER BY at_ms DESC, seq DESC";

impl PgStore {
    /// Brings a schema older than this build's up to date, one process at
    /// a time (the lock the schema is created under); a process that finds
    /// it done already changes nothing.
    pub(super) fn migrate(&self, client: &mut Client) -> Result<()> {
        client
            .execute(SCHEMA_LOCK, &[])
            .map_err(|e| self.fail(&e))?;
        let migrated = migrate_locked(client);
        let unlocked = client.execute(SCHEMA_UNLOCK, &[]);
        migrated.map_err(|e| self.fail(&e))?;
        unlocked.map_err(|e| self.fail(&e))?;
        Ok(())
    }
}

fn migrate_locked(client: &mut Client) -> std::result::Result<(), postgres::Error> {
    let mut tx = client.transaction()?;
    let version: Option<i32> = tx.query_one(VERSION, &[])?.get(0);
    if version.is_some_and(|v| v < SNAPSHOTS_VERSION) {
        tx.batch_execute(TABLES)?;
        tx.execute(
            "INSERT INTO ollm_schema (version) VALUES ($1)",
            &[&SNAPSHOTS_VERSION],
        )?;
    }
    tx.commit()
}

fn no_snapshot(id: &str) -> Failure {
    Failure::Ollm(Error::NotFound(format!("no snapshot {id}")))
}

fn info_of(row: &postgres::Row) -> SnapshotInfo {
    SnapshotInfo {
        id: row.get(0),
        session_id: row.get(1),
        timestamp: row.get(2),
        token_count: to_u64(row.get(3)),
        summary: row.get(4),
        message_count: to_u64(row.get(5)),
    }
}

impl SnapshotStore for PgStore {
    fn put_snapshot(&self, snapshot: &Snapshot, max_count: u64) -> Result<PutSnapshot> {
        encode_snapshot(snapshot)?;
        let info = snapshot.info();
        let body = serde_json::to_string(snapshot)
            .map_err(|e| Error::input(format!("cannot encode the snapshot: {e}")))?;
        let at_ms = timestamp::parse(&info.timestamp).unwrap_or(0);
        let session = info.session_id.as_str();
        self.with(|client| {
            let mut tx = client.transaction()?;
            tx.execute(WRITERS_LOCK, &[&session])?;
            // Held to the commit: a delete of the session waits for it.
            if tx
                .query_opt(
                    "SELECT 1 FROM ollm_sessions WHERE id = $1 FOR KEY SHARE",
                    &[&session],
                )?
                .is_none()
            {
                return Err(not_found(session));
            }
            let stored = tx.execute(
                "INSERT INTO ollm_snapshots \
                 (id, session_id, at_ms, taken, token_count, summary, message_count, body) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING",
                &[
                    &info.id,
                    &session,
                    &at_ms,
                    &info.timestamp,
                    &to_i64(info.token_count),
                    &info.summary,
                    &to_i64(info.message_count),
                    &body,
                ],
            )? == 1;
            let mut removed = Vec::new();
            if max_count > 0 {
                removed = tx
                    .query(
                        &format!(
                            "DELETE FROM ollm_snapshots WHERE session_id = $1 AND id NOT IN \
                             (SELECT id FROM ollm_snapshots WHERE session_id = $1 \
                              {NEWEST_FIRST} LIMIT $2) RETURNING id"
                        ),
                        &[&session, &to_i64(max_count)],
                    )?
                    .iter()
                    .map(|row| row.get(0))
                    .collect();
                removed.sort();
            }
            tx.commit()?;
            Ok(PutSnapshot {
                stored,
                removed,
                path: None,
            })
        })
    }

    fn snapshot_infos(&self, session_id: &str) -> Result<Vec<SnapshotInfo>> {
        self.with(|client| {
            Ok(client
                .query(
                    &format!(
                        "SELECT id, session_id, taken, token_count, summary, message_count \
                         FROM ollm_snapshots WHERE session_id = $1 {NEWEST_FIRST}"
                    ),
                    &[&session_id],
                )?
                .iter()
                .map(info_of)
                .collect())
        })
    }

    fn snapshot(&self, id: &str, session: Option<&str>) -> Result<Snapshot> {
        self.with(|client| {
            let row = client.query_opt(
                "SELECT body FROM ollm_snapshots \
                 WHERE id = $1 AND ($2::text IS NULL OR session_id = $2)",
                &[&id, &session],
            )?;
            let Some(row) = row else {
                return Err(no_snapshot(id));
            };
            serde_json::from_str(row.get(0)).map_err(|e| {
                Failure::Ollm(Error::Corrupt(format!(
                    "snapshot {id} cannot be parsed: {}",
                    crate::text::one_line(&e.to_string())
                )))
            })
        })
    }

    fn delete_snapshot(&self, id: &str, session: Option<&str>) -> Result<()> {
        self.with(|client| {
            match client.execute(
                "DELETE FROM ollm_snapshots WHERE id = $1 AND ($2::text IS NULL OR session_id = $2)",
                &[&id, &session],
            )? {
                0 => Err(no_snapshot(id)),
                _ => Ok(()),
            }
        })
    }

    /// Every session's: their snapshots are in this database.
    fn snapshot_sessions(&self) -> Result<Vec<String>> {
        Ok(SessionStore::list(self)?
            .sessions
            .into_iter()
            .map(|s| s.session_id)
            .collect())
    }
}
