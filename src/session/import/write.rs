//! A [`Transcript`] stored as a session, a [`super::Part`] at a time
//! ([`SessionWriter`]): new through [`crate::session::Store::import`] with its first part
//! and [`crate::session::Store::record_many`] with the rest (the store's redaction applies
//! to both), or, when the source session was imported before, only the
//! records it gained since.

mod writer;

use std::borrow::Cow;
use std::path::Path;

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::{Body, Call, Item, Outcome, Skipped, Tool, Transcript};
use crate::error::Result;
use crate::session::model::{Entry, IMPORTED_FROM, Loaded, Metadata, SessionHead, Stored, rebuild};
use crate::session::select::workspace_of;
use crate::timestamp::{self, Millis};

pub use writer::SessionWriter;
#[cfg(test)]
pub use writer::store_transcript;

/// The field of an imported record that names what it came from
/// (redaction, a layer below, keeps it as the toolkit's own).
pub(crate) use crate::redact::structure::SOURCE_KEY;

/// What importing one source session did (one NDJSON line of `import`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Imported {
    pub tool: Tool,
    pub source: String,
    pub source_id: String,
    pub session_id: String,
    pub status: Status,
    /// The source session's messages and tool calls.
    pub messages: u64,
    pub tool_calls: u64,
    /// Records written by this import (all of them for a new session,
    /// what the source gained for an updated one).
    pub added: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workspace: Option<String>,
    pub skipped: Skipped,
}

/// What happened to a source session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Status {
    /// Stored as a new session.
    Imported,
    /// Imported before; what it gained since was appended.
    Updated,
    /// Imported before and unchanged since: nothing written.
    Unchanged,
    /// `--dry-run`: would be stored as a new session.
    WouldImport,
    /// `--dry-run`: imported before; `added` records would be appended.
    WouldUpdate,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Imported => "imported",
            Status::Updated => "updated",
            Status::Unchanged => "unchanged",
            Status::WouldImport => "wouldImport",
            Status::WouldUpdate => "wouldUpdate",
        }
    }
}

/// The messages and tool calls `items` become ([`entries_of`] leaves out
/// a message with no text).
pub(super) fn counts(items: &[Item]) -> (u64, u64) {
    items
        .iter()
        .fold((0, 0), |(messages, calls), item| match &item.body {
            Body::Message { text, images, .. } if text.trim().is_empty() && images.is_empty() => {
                (messages, calls)
            }
            Body::Message { .. } => (messages + 1, calls),
            Body::ToolCall(_) => (messages, calls + 1),
        })
}

/// The workspace a source's working directory belongs to: its git top
/// level when the directory is still there, else the directory as given.
pub(super) fn workspace(cwd: Option<&Path>) -> Option<String> {
    let cwd = cwd?;
    if cwd.as_os_str().is_empty() {
        return None;
    }
    let dir = if cwd.is_dir() {
        workspace_of(cwd)
    } else {
        cwd.to_path_buf()
    };
    Some(dir.display().to_string())
}

/// The session a source session's first part makes: its head, from the
/// transcript, and `entries` folded in by the store's one fold
/// ([`rebuild`]), each counting its estimated tokens. Its last activity is
/// the later of the source's update time and its last record's.
pub(super) fn new_session(
    session_id: &str,
    tool: Tool,
    transcript: &Transcript,
    report: &Imported,
    entries: Vec<Entry>,
) -> Loaded {
    let now = timestamp::now_iso();
    let start_time = transcript
        .started
        .clone()
        .or_else(|| entries.first().map(|e| e.timestamp().to_string()))
        .unwrap_or_else(|| now.clone());
    let last_activity = [
        transcript.updated.as_deref(),
        entries.last().map(Entry::timestamp),
    ]
    .into_iter()
    .flatten()
    .max_by_key(|t| timestamp::parse(t))
    .map_or_else(|| start_time.clone(), str::to_string);
    let mut origin = Map::new();
    origin.insert("tool".into(), tool.name().into());
    origin.insert("source".into(), transcript.source.clone().into());
    origin.insert(
        "sourceSessionId".into(),
        transcript.source_id.clone().into(),
    );
    if let Some(parent) = &transcript.parent_source_id {
        origin.insert("parentSourceSessionId".into(), parent.clone().into());
    }
    origin.insert("importedAt".into(), now.into());
    let mut metadata = Metadata::default();
    metadata
        .extra
        .insert(IMPORTED_FROM.into(), Value::Object(origin));
    let head = SessionHead {
        session_id: session_id.to_string(),
        start_time,
        last_activity: last_activity.clone(),
        model: transcript.model.clone().unwrap_or_default(),
        provider: transcript.provider.clone().unwrap_or_default(),
        title: transcript.title.clone(),
        parent_session_id: None,
        branch_point: None,
        workspace: report.workspace.clone(),
        metadata,
        extra: Map::new(),
    };
    let last = entries.len().saturating_sub(1);
    let records = entries
        .into_iter()
        .enumerate()
        .map(|(i, entry)| Stored::Entry {
            at: if i == last {
                last_activity.clone()
            } else {
                entry.timestamp().to_string()
            },
            tokens: Some(entry.estimated_tokens()),
            entry,
        });
    rebuild(head, records)
}

/// `items` as records, in order, each stamped strictly later than the one
/// before (and than `after`): a session document orders its messages and
/// tool calls by time, so equal or backward stamps would reorder the
/// conversation. A message with no text and no image is left out.
pub(super) fn entries_of(items: &[Item], after: Option<Millis>) -> Result<Vec<Entry>> {
    let mut last = after;
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        if let Body::Message { text, images, .. } = &item.body
            && text.trim().is_empty()
            && images.is_empty()
        {
            continue;
        }
        let given = item.timestamp.as_deref().and_then(timestamp::parse);
        let at = match (given, last) {
            (Some(t), Some(l)) if t <= l => l + 1,
            (Some(t), _) => t,
            (None, Some(l)) => l + 1,
            (None, None) => timestamp::now_millis(),
        };
        last = Some(at);
        out.push(entry(item, &timestamp::format_millis(at))?);
    }
    Ok(out)
}

/// The record `item` becomes, as `record` would take it. Arguments that
/// are not an object (a free-form patch, a plain string) are kept under
/// `input`, since a stored tool call's `args` is always an object.
fn entry(item: &Item, at: &str) -> Result<Entry> {
    let mut record = Map::new();
    match &item.body {
        Body::Message { role, text, images } => {
            record.insert("role".into(), role.as_str().into());
            let mut parts = Vec::with_capacity(images.len() + 1);
            if !text.trim().is_empty() {
                parts.push(json!({"type": "text", "text": text}));
            }
            parts.extend(images.iter().cloned());
            record.insert("parts".into(), Value::Array(parts));
        }
        Body::ToolCall(call) => tool_call_record(call, &mut record),
    }
    record.insert("timestamp".into(), at.into());
    record.insert(SOURCE_KEY.into(), stored_key(item).into_owned().into());
    Entry::from_input(Value::Object(record), at)
}

/// The key an item is stored under. A tool call seen without its result
/// (still running, or cut off) is stored under a key of its own, so that
/// once a later import finds its result, the finished call is added too;
/// a stored record is never changed.
pub(super) fn stored_key(item: &Item) -> Cow<'_, str> {
    match &item.body {
        Body::ToolCall(Call {
            outcome: Outcome::NoResult(_),
            ..
        }) => Cow::Owned(format!("{}#no-result", item.key)),
        _ => Cow::Borrowed(&item.key),
    }
}

fn tool_call_record(call: &Call, record: &mut Map<String, Value>) {
    let (content, status) = match &call.outcome {
        Outcome::Done(text) => (text.as_str(), None),
        Outcome::Failed(text) => (text.as_str(), Some("error")),
        Outcome::NoResult(why) => ("", Some(*why)),
    };
    let args = match &call.args {
        Value::Object(_) => call.args.clone(),
        Value::Null => json!({}),
        other => json!({"input": other}),
    };
    record.insert("id".into(), call.call_id.clone().into());
    record.insert("name".into(), call.name.clone().into());
    record.insert("args".into(), args);
    record.insert("result".into(), json!({"llmContent": content}));
    if let Some(status) = status {
        record.insert("status".into(), status.into());
    }
}

#[cfg(test)]
mod tests;
