//! Scrubbing a stored session in place (`ollm-session redact`): its head,
//! records and snapshots rewritten in one transaction, so a reader sees the
//! session either as it was or fully scrubbed.

use serde_json::Value;

use super::{Failure, PgStore, corrupt, encode, entry_columns, not_found, write_head};
use crate::error::Result;
use crate::session::model::{Entry, SessionHead};

impl PgStore {
    /// See [`crate::session::store::SessionStore::scrub`].
    pub(super) fn scrub_session(&self, id: &str, scrub: &dyn Fn(&mut Value) -> u64) -> Result<u64> {
        self.with(|client| {
            let mut tx = client.transaction()?;
            let Some(row) = tx.query_opt(
                "SELECT head FROM ollm_sessions WHERE id = $1 FOR UPDATE",
                &[&id],
            )?
            else {
                return Err(not_found(id));
            };
            let mut replaced = 0;
            let mut head = parse(id, "the head", &row.get::<_, String>(0))?;
            let count = scrub(&mut head);
            if count > 0 {
                replaced += count;
                let head: SessionHead =
                    serde_json::from_value(head).map_err(|e| corrupt(id, "the head", e))?;
                write_head(&mut tx, id, &head, "")?;
            }
            let records = tx.query(
                "SELECT seq, kind, body FROM ollm_records WHERE session_id = $1 ORDER BY seq",
                &[&id],
            )?;
            for record in &records {
                let (seq, kind): (i64, String) = (record.get(0), record.get(1));
                let mut body = parse(id, "a record", &record.get::<_, String>(2))?;
                let count = scrub(&mut body);
                if count == 0 {
                    continue;
                }
                replaced += count;
                let entry = match kind.as_str() {
                    "message" => serde_json::from_value(body.clone()).map(Entry::Message),
                    "toolCall" => serde_json::from_value(body.clone()).map(Entry::ToolCall),
                    _ => {
                        tx.execute(
                            "UPDATE ollm_records SET body = $3 WHERE session_id = $1 AND seq = $2",
                            &[&id, &seq, &encode(&body)?],
                        )?;
                        continue;
                    }
                }
                .map_err(|e| corrupt(id, "a record", e))?;
                let (_, _, text) = entry_columns(&entry);
                tx.execute(
                    "UPDATE ollm_records SET body = $3, search_text = $4 \
                     WHERE session_id = $1 AND seq = $2",
                    &[&id, &seq, &encode(&body)?, &text],
                )?;
            }
            let snapshots = tx.query(
                "SELECT id, summary, body FROM ollm_snapshots WHERE session_id = $1",
                &[&id],
            )?;
            for snapshot in &snapshots {
                let snapshot_id: String = snapshot.get(0);
                let mut summary = Value::String(snapshot.get(1));
                let mut body = parse(id, "a snapshot", &snapshot.get::<_, String>(2))?;
                let count = scrub(&mut summary) + scrub(&mut body);
                if count == 0 {
                    continue;
                }
                replaced += count;
                tx.execute(
                    "UPDATE ollm_snapshots SET summary = $2, body = $3 WHERE id = $1",
                    &[
                        &snapshot_id,
                        &summary.as_str().unwrap_or_default(),
                        &encode(&body)?,
                    ],
                )?;
            }
            tx.commit()?;
            Ok(replaced)
        })
    }
}

fn parse(id: &str, what: &str, text: &str) -> std::result::Result<Value, Failure> {
    serde_json::from_str(text).map_err(|e| corrupt(id, what, e))
}
