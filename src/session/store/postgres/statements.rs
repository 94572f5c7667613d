//! The statements the store runs most, and a session's row read as the
//! summary `list` shows.

use postgres::Row;

use crate::session::model::SessionSummary;

/// Appends one record: the session's next `seq`, `lastActivity` never
/// going back, the counts, and the record itself, in one statement.
pub(super) const APPEND: &str = "
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
pub(super) const SUMMARY_COLUMNS: &str = "id, start_time, last_activity, model, message_count, token_count, \
     provider, tool_call_count, compression_count, title, parent_id, branch_point, workspace";

pub(super) const NEWEST_FIRST: &str = "ORDER BY last_ms DESC, start_ms DESC, id";

/// A whole session in one statement: its row as seq 0 (`lastActivity`,
/// the token count and the head), then its records.
pub(super) const LOAD: &str = "
SELECT 0::bigint, 'head', last_activity, token_count, head FROM ollm_sessions WHERE id = $1
UNION ALL
(SELECT seq, kind, at, tokens, body FROM ollm_records WHERE session_id = $1 ORDER BY seq)";

pub(super) fn to_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

pub(super) fn to_u64(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

pub(super) fn summary_of(row: &Row) -> SessionSummary {
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
