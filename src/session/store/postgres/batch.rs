//! Many records appended in one transaction (an import's parts), and the
//! keys of a stored session's records selected without its bodies.

use super::{PgStore, RecordRows, SUMMARY_COLUMNS, not_found, summary_of, to_i64};
use crate::error::Result;
use crate::session::model::{Entry, SessionSummary};
use crate::session::store::api::RecordKeys;
use crate::timestamp::{self, Millis};

impl PgStore {
    /// See [`crate::session::store::SessionStore::append_entries`]: the
    /// session's row is locked, the records inserted after its `seq` and
    /// its counts brought up to date, in one transaction.
    pub(super) fn append_batch(
        &self,
        id: &str,
        entries: &[(Entry, u64)],
        not_before: Option<Millis>,
    ) -> Result<SessionSummary> {
        let to = not_before.unwrap_or_else(|| self.now());
        let entries: Vec<(Entry, Option<u64>)> = entries
            .iter()
            .map(|(entry, tokens)| (entry.clone(), Some(*tokens)))
            .collect();
        self.with(|client| {
            let mut tx = client.transaction()?;
            let Some(row) = tx.query_opt(
                "SELECT seq, message_count, tool_call_count, last_ms FROM ollm_sessions \
                 WHERE id = $1 FOR UPDATE",
                &[&id],
            )?
            else {
                return Err(not_found(id));
            };
            let (seq, messages, calls, last_ms): (i64, i64, i64, i64) =
                (row.get(0), row.get(1), row.get(2), row.get(3));
            let at_ms = last_ms.max(to);
            let at = timestamp::format_millis(at_ms);
            let rows = RecordRows::after(&entries, seq, messages, calls)?;
            rows.insert(&mut tx, id, &at)?;
            let row = tx.query_one(
                &format!(
                    "UPDATE ollm_sessions SET seq = $2, message_count = $3, tool_call_count = $4, \
                     last_ms = $5, last_activity = $6, \
                     token_count = CASE WHEN token_count > 9223372036854775807 - $7 \
                                        THEN 9223372036854775807 ELSE token_count + $7 END \
                     WHERE id = $1 RETURNING {SUMMARY_COLUMNS}"
                ),
                &[
                    &id,
                    &(seq + entries.len() as i64),
                    &rows.messages,
                    &rows.calls,
                    &at_ms,
                    &at,
                    &to_i64(rows.token_sum),
                ],
            )?;
            let summary = summary_of(&row);
            tx.commit()?;
            Ok(summary)
        })
    }

    /// See [`crate::session::store::SessionStore::record_keys`]: only the
    /// field and the timestamp of each message and tool call are selected.
    pub(super) fn keys_of(&self, id: &str, field: &str) -> Result<RecordKeys> {
        self.with(|client| {
            let mut tx = client
                .build_transaction()
                .isolation_level(postgres::IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()?;
            if tx
                .query_opt("SELECT 1 FROM ollm_sessions WHERE id = $1", &[&id])?
                .is_none()
            {
                return Err(not_found(id));
            }
            let rows = tx.query(
                "SELECT b ->> $2, b ->> 'timestamp' \
                 FROM (SELECT body::json AS b FROM ollm_records \
                       WHERE session_id = $1 AND kind IN ('message', 'toolCall')) AS r",
                &[&id, &field],
            )?;
            tx.commit()?;
            let mut keys = RecordKeys::default();
            for row in &rows {
                keys.note(row.get(0), row.get(1));
            }
            Ok(keys)
        })
    }
}
