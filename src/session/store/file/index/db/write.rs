//! Writing the index's rows, inside the caller's transaction: a
//! session's summary (with its checksum, [`super::row_sum`]), a problem,
//! a removal.

use rusqlite::types::ValueRef;
use rusqlite::{Connection, params};

use super::{IndexRow, row_sum, signed, sql};
use crate::error::{Error, Result};
use crate::session::model::SessionSummary;
use crate::timestamp;

fn text(t: &str) -> ValueRef<'_> {
    ValueRef::Text(t.as_bytes())
}

fn optional(t: Option<&String>) -> ValueRef<'_> {
    t.map_or(ValueRef::Null, |t| text(t))
}

/// Where session `summary`'s row is in the table (`last_key`,
/// `start_key`: newest first is the primary key's order, descending).
pub fn listing_key(summary: &SessionSummary) -> (i64, i64) {
    (
        timestamp::parse(&summary.last_activity).unwrap_or(i64::MIN),
        timestamp::parse(&summary.start_time).unwrap_or(i64::MIN),
    )
}

/// [`listing_key`] of a problem's row: after every session's.
pub const PROBLEM_KEY: (i64, i64) = (i64::MIN, i64::MIN);

/// Stores session `row.summary`'s row, replacing what was there.
pub fn put(conn: &Connection, row: &IndexRow<'_>) -> Result<()> {
    let s = row.summary;
    let last_ms = timestamp::parse(&s.last_activity);
    let (last_key, start_key) = listing_key(s);
    let json =
        String::from_utf8(crate::lossless::to_vec(s).map_err(|e| Error::input(e.to_string()))?)
            .map_err(|e| Error::input(e.to_string()))?;
    let sum = row_sum([
        text(&s.session_id),
        text(&s.start_time),
        text(&s.last_activity),
        text(&s.model),
        text(&s.provider),
        ValueRef::Integer(signed(s.message_count)),
        ValueRef::Integer(signed(s.token_count)),
        ValueRef::Integer(signed(s.tool_call_count)),
        ValueRef::Integer(signed(s.compression_count)),
        optional(s.title.as_ref()),
        optional(s.parent_session_id.as_ref()),
        s.branch_point
            .map_or(ValueRef::Null, |b| ValueRef::Integer(signed(b))),
        optional(s.workspace.as_ref()),
        ValueRef::Integer(i64::from(row.plain)),
        text(row.stamp),
        ValueRef::Integer(last_key),
        ValueRef::Integer(start_key),
        text(&json),
        ValueRef::Null,
    ]);
    let mut statement = conn
        .prepare_cached(
            "INSERT OR REPLACE INTO sessions (id, plain, stamp, problem, last_key, start_key,
                 last_ms, start_time, last_activity, model, provider, message_count, token_count,
                 tool_call_count, compression_count, title, parent, branch_point, workspace, json,
                 sum)
             VALUES (?1, ?2, ?3, NULL, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15,
                 ?16, ?17, ?18, ?19, ?20)",
        )
        .map_err(sql)?;
    statement
        .execute(params![
            s.session_id,
            row.plain,
            row.stamp,
            last_key,
            start_key,
            last_ms,
            s.start_time,
            s.last_activity,
            s.model,
            s.provider,
            signed(s.message_count),
            signed(s.token_count),
            signed(s.tool_call_count),
            signed(s.compression_count),
            s.title,
            s.parent_session_id,
            s.branch_point.map(signed),
            s.workspace,
            json,
            sum,
        ])
        .map(drop)
        .map_err(sql)
}

/// Stores that session `id` could not be read, and why.
pub fn put_problem(conn: &Connection, id: &str, plain: bool, stamp: &str, why: &str) -> Result<()> {
    let empty = ValueRef::Text(b"");
    let zero = ValueRef::Integer(0);
    let sum = row_sum([
        ValueRef::Text(id.as_bytes()),
        empty,
        empty,
        empty,
        empty,
        zero,
        zero,
        zero,
        zero,
        ValueRef::Null,
        ValueRef::Null,
        ValueRef::Null,
        ValueRef::Null,
        ValueRef::Integer(i64::from(plain)),
        ValueRef::Text(stamp.as_bytes()),
        ValueRef::Integer(PROBLEM_KEY.0),
        ValueRef::Integer(PROBLEM_KEY.1),
        empty,
        ValueRef::Text(why.as_bytes()),
    ]);
    conn.prepare_cached(
        "INSERT OR REPLACE INTO sessions (id, plain, stamp, problem, last_key, start_key,
             start_time, last_activity, model, provider, message_count, token_count,
             tool_call_count, compression_count, json, sum)
         VALUES (?1, ?2, ?3, ?4, ?5, ?5, '', '', '', '', 0, 0, 0, 0, '', ?6)",
    )
    .and_then(|mut s| s.execute(params![id, plain, stamp, why, PROBLEM_KEY.0, sum]))
    .map(drop)
    .map_err(sql)
}

pub fn remove(conn: &Connection, id: &str) -> Result<()> {
    conn.prepare_cached("DELETE FROM sessions WHERE id = ?1")
        .and_then(|mut s| s.execute([id]))
        .map(drop)
        .map_err(sql)
}

pub fn clear(conn: &Connection) -> Result<()> {
    conn.execute("DELETE FROM sessions", [])
        .map(drop)
        .map_err(sql)
}
