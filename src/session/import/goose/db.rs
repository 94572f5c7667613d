//! goose's `sessions.db`: `sessions` (id, name / description, working_dir,
//! created_at, updated_at, provider_name, model_config_json, …) and
//! `messages` (id, message_id, session_id, role, content_json,
//! created_timestamp, metadata_json), columns added by migrations over
//! time, so each optional one is looked for.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rusqlite::types::ValueRef;
use rusqlite::{Connection, Row};
use serde_json::Value;

use super::super::parts::Handing;
use super::super::sqlite;
use super::super::{Part, Skipped, Source, Transcript};
use super::content::{Conversation, role_of};
use crate::error::{Error, Result};
use crate::timestamp::{self, format_millis};

/// What makes a database goose's.
pub const LAYOUT: &[&str] = &[
    "sessions.working_dir",
    "messages.session_id",
    "messages.content_json",
];

struct Head {
    id: String,
    title: Option<String>,
    cwd: Option<String>,
    created: Option<String>,
    updated: Option<String>,
    provider: Option<String>,
    model_config: Option<String>,
    parent: Option<String>,
}

fn db_error(path: &Path, e: &rusqlite::Error) -> Error {
    Error::input(format!("{}: {e}", path.display()))
}

fn column(conn: &Connection, table: &str, name: &str) -> String {
    if sqlite::has(conn, &format!("{table}.{name}")) {
        format!("\"{name}\"")
    } else {
        "NULL".to_string()
    }
}

/// Reads the database `source`, handing each session over in parts of at
/// most `max_items` items.
pub fn read_parts(
    source: &Source,
    max_items: usize,
    each: &mut dyn FnMut(Part) -> Result<()>,
) -> Result<()> {
    let path = &source.path;
    let snapshot = sqlite::open(path)?;
    let conn = &snapshot.conn;
    let missing = sqlite::missing(conn, LAYOUT);
    if !missing.is_empty() {
        return Err(sqlite::unknown_layout(path, "goose", &missing));
    }
    let fail = |e: rusqlite::Error| db_error(path, &e);
    for head in heads(conn).map_err(fail)? {
        session(conn, path, head, max_items, each)?;
    }
    Ok(())
}

/// The newest `schema_version` whose tables this reader is known to read
/// (`session_manager.rs`'s, as `shared/importer-fixtures`' goose store).
pub const KNOWN_SCHEMA: i64 = 16;

/// A warning for a database whose schema is newer than [`KNOWN_SCHEMA`]:
/// it is read as far as its tables are known, and the user is told.
pub fn schema_notice(path: &Path) -> Option<String> {
    let version = sqlite::max_in_place(path, "schema_version", "version")?;
    (version > KNOWN_SCHEMA).then(|| {
        format!(
            "{}: goose schema version {version} is newer than the {KNOWN_SCHEMA} this version knows; \
             what it added is not read",
            path.display()
        )
    })
}

/// The ids of the sessions in the database at `path`.
pub fn session_ids(path: &Path) -> Result<HashSet<String>> {
    let snapshot = sqlite::open(path)?;
    let mut stmt = snapshot
        .conn
        .prepare("SELECT id FROM sessions")
        .map_err(|e| db_error(path, &e))?;
    let ids = stmt
        .query_map([], |r| r.get::<_, String>(0))
        .map_err(|e| db_error(path, &e))?
        .flatten()
        .collect();
    Ok(ids)
}

fn heads(conn: &Connection) -> rusqlite::Result<Vec<Head>> {
    let col = |name| column(conn, "sessions", name);
    let sql = format!(
        "SELECT id, {}, {}, working_dir, {}, {}, {}, {}, {} FROM sessions s
         WHERE EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id)
         ORDER BY {}, id",
        col("name"),
        col("description"),
        col("created_at"),
        col("updated_at"),
        col("provider_name"),
        col("model_config_json"),
        col("parent_session_id"),
        col("created_at"),
    );
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map([], |r| {
        Ok(Head {
            id: r.get(0)?,
            title: text(r, 1).or_else(|| text(r, 2)),
            cwd: text(r, 3),
            created: time(r, 4),
            updated: time(r, 5),
            provider: text(r, 6),
            model_config: text(r, 7),
            parent: text(r, 8),
        })
    })?;
    rows.collect()
}

fn text(row: &Row<'_>, index: usize) -> Option<String> {
    match row.get_ref(index).ok()? {
        ValueRef::Text(bytes) => {
            Some(String::from_utf8_lossy(bytes).into_owned()).filter(|t| !t.trim().is_empty())
        }
        _ => None,
    }
}

/// A `TIMESTAMP` column: SQLite's `YYYY-MM-DD HH:MM:SS` (UTC) or an RFC
/// 3339 text, or a number of seconds.
fn time(row: &Row<'_>, index: usize) -> Option<String> {
    match row.get_ref(index).ok()? {
        ValueRef::Text(bytes) => {
            let text = String::from_utf8_lossy(bytes);
            timestamp::parse(text.trim()).map(format_millis)
        }
        ValueRef::Integer(n) => Some(super::content::time_of(n)),
        _ => None,
    }
}

fn header(path: &Path, head: Head) -> Transcript {
    Transcript {
        source_id: head.id.clone(),
        source: format!("{}#sessions/{}", path.display(), head.id),
        title: head.title,
        cwd: head.cwd.map(PathBuf::from),
        started: head.created,
        updated: head.updated,
        provider: head.provider,
        model: head
            .model_config
            .and_then(|json| serde_json::from_str::<Value>(&json).ok())
            .and_then(|config| {
                config
                    .get("model_name")
                    .and_then(Value::as_str)
                    .map(str::to_string)
            }),
        parent_source_id: head.parent,
        ..Transcript::default()
    }
}

/// One session read twice, a row at a time: first to learn its model and
/// which calls a later message answers (the items are dropped as they are
/// made), then handing its items over in parts as soon as no later
/// message can change them. So what is held is one row, and the items
/// between a call and its response.
fn session(
    conn: &Connection,
    path: &Path,
    head: Head,
    max_items: usize,
    each: &mut dyn FnMut(Part) -> Result<()>,
) -> Result<()> {
    let mut header = header(path, head);
    let mut first = Conversation::default();
    messages(
        conn,
        path,
        &header.source_id,
        &mut first,
        &mut header.skipped,
        |c| {
            c.forget_items();
            Ok(())
        },
    )?;
    finish_header(&mut header, &mut first);
    let mut second = Conversation::expecting(std::mem::take(&mut first.answered));
    drop(first);
    let mut handing = Handing::new(max_items, each);
    let id = header.source_id.clone();
    let mut again = Skipped::default();
    messages(conn, path, &id, &mut second, &mut again, |c| {
        header.items = c.take_ready();
        handing.items_done(&mut header)
    })?;
    header.items = second.items;
    handing.finish(&mut header)
}

/// The session read whole, as the reader did before it read sessions in
/// parts: the reference the parts are compared with.
#[cfg(test)]
pub fn read_whole(source: &Source) -> Result<Vec<Transcript>> {
    let path = &source.path;
    let snapshot = sqlite::open(path)?;
    let conn = &snapshot.conn;
    let mut out = Vec::new();
    for head in heads(conn).map_err(|e| db_error(path, &e))? {
        let mut transcript = header(path, head);
        let mut conversation = Conversation::default();
        let id = transcript.source_id.clone();
        messages(
            conn,
            path,
            &id,
            &mut conversation,
            &mut transcript.skipped,
            |_| Ok(()),
        )?;
        finish_header(&mut transcript, &mut conversation);
        transcript.items = conversation.items;
        out.push(transcript);
    }
    Ok(out)
}

/// The model and provider the messages named, where the session row
/// names none.
fn finish_header(header: &mut Transcript, conversation: &mut Conversation) {
    if conversation.model.is_some() && header.model.is_none() {
        header.model = conversation.model.take();
    }
    if header.provider.is_none() {
        header.provider = conversation.provider.take();
    }
}

/// Reads the messages of session `id` into `conversation` in order,
/// calling `after` after each.
fn messages(
    conn: &Connection,
    path: &Path,
    id: &str,
    conversation: &mut Conversation,
    skipped: &mut Skipped,
    mut after: impl FnMut(&mut Conversation) -> Result<()>,
) -> Result<()> {
    let fail = |e: rusqlite::Error| db_error(path, &e);
    let sql = format!(
        "SELECT id, {}, role, content_json, {}, {} FROM messages WHERE session_id = ?1 ORDER BY id",
        column(conn, "messages", "message_id"),
        column(conn, "messages", "created_timestamp"),
        column(conn, "messages", "metadata_json"),
    );
    let mut stmt = conn.prepare(&sql).map_err(fail)?;
    let mut rows = stmt.query([id]).map_err(fail)?;
    while let Some(row) = rows.next().map_err(fail)? {
        let row_id: i64 = row.get(0).map_err(fail)?;
        // Row ids change when goose rewrites a conversation; a message's
        // own id (since schema 7) does not.
        let key = text(row, 1).unwrap_or_else(|| format!("row{row_id}"));
        let role = text(row, 2).unwrap_or_default();
        let Some(role) = role_of(&role) else {
            skipped.unknown_kinds += 1;
            continue;
        };
        let Some(content) = text(row, 3).and_then(|json| serde_json::from_str::<Value>(&json).ok())
        else {
            skipped.unreadable += 1;
            continue;
        };
        if let Ok(ValueRef::Text(bytes)) = row.get_ref(3)
            && std::str::from_utf8(bytes).is_err()
        {
            skipped.invalid_utf8 += 1; // read with U+FFFD in their place
        }
        let created = row.get::<_, Option<i64>>(4).ok().flatten();
        let metadata = text(row, 5).and_then(|json| serde_json::from_str::<Value>(&json).ok());
        conversation.message(&key, role, created, &content, metadata.as_ref(), skipped);
        after(conversation)?;
    }
    Ok(())
}
