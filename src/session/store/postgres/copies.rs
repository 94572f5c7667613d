//! Sessions copied in from another store, many in one transaction: one
//! statement inserts their rows, one their records (columns passed as
//! arrays), one commit makes them durable together. A copy of 100,000
//! sessions then waits for a few hundred commits, not 100,000.

use std::collections::HashSet;

use super::{Failure, PgStore, RecordRows, encode, to_i64};
use crate::error::Result;
use crate::session::store::api::Publish;
use crate::timestamp;

/// The sessions' rows, column by column.
#[derive(Default)]
struct SessionRows {
    id: Vec<String>,
    head: Vec<String>,
    start_time: Vec<String>,
    start_ms: Vec<i64>,
    last_activity: Vec<String>,
    last_ms: Vec<i64>,
    model: Vec<String>,
    provider: Vec<String>,
    title: Vec<Option<String>>,
    parent_id: Vec<Option<String>>,
    branch_point: Vec<Option<i64>>,
    workspace: Vec<Option<String>>,
    message_count: Vec<i64>,
    tool_call_count: Vec<i64>,
    compression_count: Vec<i64>,
    token_count: Vec<i64>,
    seq: Vec<i64>,
}

/// Every session's records, column by column, each naming its session.
#[derive(Default)]
struct AllRecords {
    session_id: Vec<String>,
    at: Vec<String>,
    rows: RecordRows,
}

impl AllRecords {
    fn add(&mut self, id: &str, at: &str, rows: RecordRows) {
        let n = rows.seq.len();
        self.session_id
            .extend(std::iter::repeat_n(id.to_string(), n));
        self.at.extend(std::iter::repeat_n(at.to_string(), n));
        self.rows.append(rows);
    }
}

const INSERT_SESSIONS: &str = "
INSERT INTO ollm_sessions (id, head, start_time, start_ms, last_activity, last_ms, model, provider,
                           title, parent_id, branch_point, workspace, message_count,
                           tool_call_count, compression_count, token_count, seq)
SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::bigint[],
                     $7::text[], $8::text[], $9::text[], $10::text[], $11::bigint[], $12::text[],
                     $13::bigint[], $14::bigint[], $15::bigint[], $16::bigint[], $17::bigint[])
ON CONFLICT (id) DO NOTHING
RETURNING id";

const INSERT_RECORDS: &str = "
INSERT INTO ollm_records (session_id, at, seq, kind, kind_index, tokens, body, role, search_text)
SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::bigint[],
                     $6::bigint[], $7::text[], $8::text[], $9::text[])";

impl PgStore {
    /// See [`crate::session::store::SessionStore::publish_copies`]: the
    /// rows of sessions not yet here and their records, as `publish` writes
    /// each, in one transaction. An id given twice is stored once (`true`
    /// at its first place).
    pub(super) fn copies(&self, copies: Vec<Publish>) -> Result<Vec<bool>> {
        let mut sessions = SessionRows::default();
        let mut records = Vec::with_capacity(copies.len());
        for copy in &copies {
            let head = &copy.head;
            let rows = RecordRows::of(&copy.entries).map_err(|f| self.failure(f))?;
            sessions.id.push(head.session_id.clone());
            sessions
                .head
                .push(encode(head).map_err(|f| self.failure(f))?);
            sessions.start_time.push(head.start_time.clone());
            sessions
                .start_ms
                .push(timestamp::parse(&head.start_time).unwrap_or(0));
            sessions.last_activity.push(head.last_activity.clone());
            sessions
                .last_ms
                .push(timestamp::parse(&head.last_activity).unwrap_or(0));
            sessions.model.push(head.model.clone());
            sessions.provider.push(head.provider.clone());
            sessions.title.push(head.title.clone());
            sessions.parent_id.push(head.parent_session_id.clone());
            sessions.branch_point.push(head.branch_point.map(to_i64));
            sessions.workspace.push(head.workspace.clone());
            sessions.message_count.push(rows.messages);
            sessions.tool_call_count.push(rows.calls);
            sessions
                .compression_count
                .push(to_i64(head.metadata.compression_count));
            sessions.token_count.push(to_i64(
                head.metadata.token_count.saturating_add(rows.token_sum),
            ));
            sessions.seq.push(copy.entries.len() as i64);
            records.push(rows);
        }
        self.with(|client| {
            let mut tx = client.transaction()?;
            let s = &sessions;
            let inserted: HashSet<String> = tx
                .query(
                    INSERT_SESSIONS,
                    &[
                        &s.id,
                        &s.head,
                        &s.start_time,
                        &s.start_ms,
                        &s.last_activity,
                        &s.last_ms,
                        &s.model,
                        &s.provider,
                        &s.title,
                        &s.parent_id,
                        &s.branch_point,
                        &s.workspace,
                        &s.message_count,
                        &s.tool_call_count,
                        &s.compression_count,
                        &s.token_count,
                        &s.seq,
                    ],
                )?
                .iter()
                .map(|row| row.get(0))
                .collect();
            let mut stored = Vec::with_capacity(copies.len());
            let mut all = AllRecords::default();
            let mut given = HashSet::new();
            for ((id, at), rows) in s.id.iter().zip(&s.last_activity).zip(records) {
                let new = inserted.contains(id) && given.insert(id.as_str());
                if new {
                    all.add(id, at, rows);
                }
                stored.push(new);
            }
            tx.execute(
                INSERT_RECORDS,
                &[
                    &all.session_id,
                    &all.at,
                    &all.rows.seq,
                    &all.rows.kind,
                    &all.rows.kind_index,
                    &all.rows.tokens,
                    &all.rows.body,
                    &all.rows.role,
                    &all.rows.text,
                ],
            )?;
            tx.commit()?;
            Ok::<_, Failure>(stored)
        })
    }
}
