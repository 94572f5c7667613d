//! `opencode.db`: the 1.x tables (`session`, `message`, `part`) and 2.x's
//! (`session_v2`, `session_message`). 2.x copies 1.x sessions into
//! `session_v2` under the same id, so a session in both is read once, from
//! `session_v2`.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rusqlite::types::ValueRef;
use rusqlite::{Connection, Row};
use serde_json::Value;

use super::super::bounds;
use super::super::parts::Handing;
use super::super::sqlite::{self, Snapshot};
use super::super::{Part, Role, Skipped, Source, Transcript};
use super::parts::{self, Turn, str_of};
use super::v2;
use crate::error::{Error, Result};
use crate::timestamp::format_millis;

/// What makes a database opencode's: either generation's tables.
pub const LAYOUTS: [&[&str]; 2] = [
    &[
        "session.title",
        "message.session_id",
        "message.data",
        "part.message_id",
        "part.data",
    ],
    &[
        "session_v2.title",
        "session_message.type",
        "session_message.data",
    ],
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Generation {
    V1,
    V2,
}

impl Generation {
    fn table(self) -> &'static str {
        match self {
            Generation::V1 => "session",
            Generation::V2 => "session_v2",
        }
    }
}

/// A session row, before its messages are read.
struct Head {
    id: String,
    title: Option<String>,
    directory: Option<String>,
    parent: Option<String>,
    model: Option<String>,
    created: Option<i64>,
    updated: Option<i64>,
}

/// Reads the database `source`, handing each session over in parts of at
/// most `max_items` items as its rows are read: a message's items (one
/// tool part holds a call and its result) are final once its rows are, so
/// what is held is one message and one part.
pub fn read_parts(
    source: &Source,
    max_items: usize,
    each: &mut dyn FnMut(Part) -> Result<()>,
) -> Result<()> {
    let snapshot = sqlite::open(&source.path)?;
    let conn = &snapshot.conn;
    let fail = |e: rusqlite::Error| db_error(&source.path, &e);
    if !LAYOUTS.iter().any(|names| sqlite::matches(conn, names)) {
        // Neither generation's tables: say what the nearer one lacks.
        let missing = LAYOUTS
            .iter()
            .map(|names| sqlite::missing(conn, names))
            .min_by_key(Vec::len)
            .unwrap_or_default();
        return Err(sqlite::unknown_layout(&source.path, "opencode", &missing));
    }
    let mut seen = HashSet::new();
    for generation in [Generation::V2, Generation::V1] {
        if !sqlite::matches(conn, layout(generation)) {
            continue;
        }
        for head in heads(conn, generation).map_err(fail)? {
            if !seen.insert(head.id.clone()) {
                continue;
            }
            let mut out = Handing::new(max_items, &mut *each);
            let mut transcript = match generation {
                Generation::V1 => read_v1(conn, &source.path, &head, &mut out),
                Generation::V2 => read_v2(conn, &source.path, &head, &mut out),
            }?;
            out.items_done(&mut transcript)?;
            fill_model(&mut transcript, &head);
            out.finish(&mut transcript)?;
        }
    }
    Ok(())
}

fn layout(generation: Generation) -> &'static [&'static str] {
    match generation {
        Generation::V1 => LAYOUTS[0],
        Generation::V2 => LAYOUTS[1],
    }
}

fn db_error(path: &Path, e: &rusqlite::Error) -> Error {
    Error::input(format!("{}: {e}", path.display()))
}

/// The ids of every session the database at `path` holds (to leave their
/// copies in the legacy JSON storage out).
pub fn session_ids(path: &Path) -> Result<HashSet<String>> {
    let snapshot: Snapshot = sqlite::open(path)?;
    let mut ids = HashSet::new();
    for generation in [Generation::V2, Generation::V1] {
        if !sqlite::matches(&snapshot.conn, layout(generation)) {
            continue;
        }
        let sql = format!("SELECT id FROM {}", generation.table());
        let mut stmt = snapshot
            .conn
            .prepare(&sql)
            .map_err(|e| db_error(path, &e))?;
        let rows = stmt
            .query_map([], |r| r.get::<_, String>(0))
            .map_err(|e| db_error(path, &e))?;
        for id in rows.flatten() {
            ids.insert(id);
        }
    }
    Ok(ids)
}

/// A column of `table`, or NULL when this version has no such column.
fn column(conn: &Connection, table: &str, name: &str) -> String {
    if sqlite::has(conn, &format!("{table}.{name}")) {
        format!("\"{name}\"")
    } else {
        "NULL".to_string()
    }
}

fn heads(conn: &Connection, generation: Generation) -> rusqlite::Result<Vec<Head>> {
    let table = generation.table();
    let col = |name| column(conn, table, name);
    let model = col("model");
    // Where a version keeps no directory on the session, its project's
    // work tree is the next best.
    let directory = match (
        col("directory"),
        sqlite::has(conn, "project.worktree") && sqlite::has(conn, &format!("{table}.project_id")),
    ) {
        (dir, true) => format!(
            "COALESCE({dir}, (SELECT worktree FROM project WHERE project.id = s.project_id))"
        ),
        (dir, false) => dir,
    };
    // A title or directory is read no longer than the bound it is cut to
    // (and a byte past it, so that the cut is counted): one hostile row
    // is not held whole.
    let bounded = |column: String, max: usize| format!("substr({column}, 1, {})", max + 1);
    let directory = bounded(directory, bounds::PATH_BYTES);
    let sql = format!(
        "SELECT id, {}, {directory}, {}, {model}, {}, {} FROM {table} s ORDER BY {} , id",
        bounded(col("title"), bounds::TITLE_BYTES),
        col("parent_id"),
        col("time_created"),
        col("time_updated"),
        col("time_created"),
    );
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map([], |r: &Row<'_>| {
        Ok(Head {
            id: r.get(0)?,
            title: text(r, 1).filter(|t| !is_placeholder(t)),
            directory: text(r, 2),
            parent: text(r, 3),
            model: text(r, 4),
            created: r.get::<_, Option<i64>>(5).ok().flatten(),
            updated: r.get::<_, Option<i64>>(6).ok().flatten(),
        })
    })?;
    rows.collect()
}

/// The title opencode gives a session until its title model has named it
/// (`New session - <ISO time>`, `Child session - <ISO time>`): no title.
pub fn is_placeholder(title: &str) -> bool {
    ["New session - ", "Child session - "].iter().any(|prefix| {
        title
            .strip_prefix(prefix)
            .is_some_and(|rest| crate::timestamp::is_valid(rest.trim()))
    })
}

/// A text column, `None` when NULL, empty or not text.
fn text(row: &Row<'_>, index: usize) -> Option<String> {
    row.get::<_, Option<String>>(index)
        .ok()
        .flatten()
        .filter(|t| !t.trim().is_empty())
}

fn transcript(path: &Path, generation: Generation, head: &Head) -> Transcript {
    Transcript {
        source_id: head.id.clone(),
        source: format!("{}#{}/{}", path.display(), generation.table(), head.id),
        title: head.title.clone(),
        cwd: head.directory.as_ref().map(PathBuf::from),
        started: head.created.map(format_millis),
        updated: head.updated.map(format_millis),
        parent_source_id: head.parent.clone(),
        ..Transcript::default()
    }
}

/// A session's model column (`{id, providerID}`), the fallback when no
/// assistant message names one.
fn session_model(head: &Head) -> (Option<String>, Option<String>) {
    let Some(model) = head
        .model
        .as_deref()
        .and_then(|m| serde_json::from_str::<Value>(m).ok())
    else {
        return (None, None);
    };
    (
        str_of(&model, "id").map(Into::into),
        str_of(&model, "providerID").map(Into::into),
    )
}

fn read_v1(
    conn: &Connection,
    path: &Path,
    head: &Head,
    handing: &mut Handing<'_>,
) -> Result<Transcript> {
    let fail = |e: rusqlite::Error| db_error(path, &e);
    let mut out = transcript(path, Generation::V1, head);
    let mut messages = conn
        .prepare(
            "SELECT id, time_created, data FROM message WHERE session_id = ?1 ORDER BY time_created, id",
        )
        .map_err(fail)?;
    let mut part_rows = conn
        .prepare("SELECT id, data FROM part WHERE message_id = ?1 ORDER BY id")
        .map_err(fail)?;
    let mut rows = messages.query([&head.id]).map_err(fail)?;
    while let Some(row) = rows.next().map_err(fail)? {
        let id: String = row.get(0).map_err(fail)?;
        let created: Option<i64> = row.get::<_, Option<i64>>(1).ok().flatten();
        let Some(message) = json_column(row, 2, &mut out.skipped) else {
            continue;
        };
        let Some(role) = parts::role_of(&message) else {
            out.skipped.unknown_kinds += 1;
            continue;
        };
        if role == Role::Assistant
            && let Some((model, provider)) = parts::model_of(&message)
        {
            out.model = Some(model);
            out.provider = provider.or(out.provider.take());
        }
        let time = message
            .pointer("/time/created")
            .and_then(Value::as_i64)
            .or(created)
            .map(format_millis);
        let mut items = Vec::new();
        let mut turn = Turn::new(role, time, &mut items);
        let mut parts_of = part_rows.query([&id]).map_err(fail)?;
        while let Some(part_row) = parts_of.next().map_err(fail)? {
            let part_id: String = part_row.get(0).map_err(fail)?;
            if let Some(part) = json_column(part_row, 1, &mut out.skipped) {
                parts::part(&mut turn, &part_id, &part, &mut out.skipped);
            }
        }
        drop(turn);
        out.items = items;
        handing.items_done(&mut out)?;
    }
    Ok(out)
}

fn fill_model(out: &mut Transcript, head: &Head) {
    if out.model.is_none() {
        let (model, provider) = session_model(head);
        out.model = model;
        out.provider = out.provider.take().or(provider);
    }
}

/// A JSON column; one that is not JSON is counted and skipped.
fn json_column(row: &Row<'_>, index: usize, skipped: &mut Skipped) -> Option<Value> {
    let parsed = match row.get_ref(index) {
        Ok(ValueRef::Text(bytes) | ValueRef::Blob(bytes)) => match std::str::from_utf8(bytes) {
            Ok(text) => serde_json::from_str::<Value>(text).ok(),
            Err(_) => {
                // Read with U+FFFD in place of the bad bytes, and counted.
                skipped.invalid_utf8 += 1;
                serde_json::from_str::<Value>(&String::from_utf8_lossy(bytes)).ok()
            }
        },
        _ => None,
    };
    if parsed.as_ref().is_none_or(|v| !v.is_object()) {
        skipped.unreadable += 1;
        return None;
    }
    parsed
}

fn read_v2(
    conn: &Connection,
    path: &Path,
    head: &Head,
    handing: &mut Handing<'_>,
) -> Result<Transcript> {
    let fail = |e: rusqlite::Error| db_error(path, &e);
    let mut out = transcript(path, Generation::V2, head);
    let order = if sqlite::has(conn, "session_message.seq") {
        "seq, id"
    } else {
        "time_created, id"
    };
    let mut messages = conn
        .prepare(&format!(
            "SELECT id, type, time_created, data FROM session_message WHERE session_id = ?1 ORDER BY {order}"
        ))
        .map_err(fail)?;
    let mut rows = messages.query([&head.id]).map_err(fail)?;
    while let Some(row) = rows.next().map_err(fail)? {
        let id: String = row.get(0).map_err(fail)?;
        let kind: String = row
            .get::<_, Option<String>>(1)
            .map_err(fail)?
            .unwrap_or_default();
        let created = row.get::<_, Option<i64>>(2).ok().flatten();
        let Some(data) = json_column(row, 3, &mut out.skipped) else {
            continue;
        };
        let time = data
            .pointer("/time/created")
            .and_then(Value::as_i64)
            .or(created)
            .map(format_millis);
        v2::message(&mut out, &id, &kind, &data, time);
        handing.items_done(&mut out)?;
    }
    Ok(out)
}
