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

/// What a session's row stores beside its summary's fields: its place,
/// its line as `list` writes it, its checksum. Made by [`row_values`]
/// where the summary is read (a build's reading threads), so that the one
/// thread writing the rows only binds them.
pub struct RowValues {
    last_ms: Option<i64>,
    key: (i64, i64),
    json: String,
    sum: i64,
}

impl RowValues {
    /// [`listing_key`] of the row.
    pub fn key(&self) -> (i64, i64) {
        self.key
    }
}

/// [`RowValues`] of `row`.
pub fn row_values(row: &IndexRow<'_>) -> Result<RowValues> {
    let s = row.summary;
    let key @ (last_key, start_key) = listing_key(s);
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
    Ok(RowValues {
        last_ms: timestamp::parse(&s.last_activity),
        key,
        json,
        sum,
    })
}

/// Stores session `row.summary`'s row, replacing what was there.
pub fn put(conn: &Connection, row: &IndexRow<'_>) -> Result<()> {
    put_values(conn, row, &row_values(row)?)
}

/// [`put`] of a row whose [`RowValues`] are made.
pub fn put_values(conn: &Connection, row: &IndexRow<'_>, values: &RowValues) -> Result<()> {
    let s = row.summary;
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
            values.key.0,
            values.key.1,
            values.last_ms,
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
            values.json,
            values.sum,
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
