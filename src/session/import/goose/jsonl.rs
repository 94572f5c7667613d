//! goose's session files from before `sessions.db`: `<id>.jsonl` in the
//! sessions directory, the first line the session's metadata
//! (`working_dir`, `description`, `message_count`, token counts), then one
//! `Message` a line. The session's id is the file's stem (what goose's own
//! migration into the database kept).

use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::super::lines::{self, each_line};
use super::super::{Skipped, Source, Transcript};
use super::content::{Conversation, role_of};
use crate::error::Result;

pub const KIND: &str = "jsonl";

/// The most of a first line looked at to tell whose file it is.
const FIRST_LINE_LIMIT: u64 = 1 << 20;

/// Whether the first line of `path` is goose's: session metadata, or (a
/// file without it) a message.
pub fn is_goose(path: &Path) -> bool {
    let Ok(reader) = lines::open(path) else {
        return false;
    };
    let mut first = Vec::new();
    if reader
        .take(FIRST_LINE_LIMIT)
        .read_until(b'\n', &mut first)
        .is_err()
    {
        return false;
    }
    let body = first.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&first);
    let Ok(value) = serde_json::from_slice::<Value>(body) else {
        return false;
    };
    is_metadata(&value) || is_message(&value)
}

fn is_metadata(value: &Value) -> bool {
    value.get("role").is_none()
        && value.get("description").is_some_and(Value::is_string)
        && (value.get("message_count").is_some() || value.get("working_dir").is_some())
}

fn is_message(value: &Value) -> bool {
    value
        .get("role")
        .and_then(Value::as_str)
        .and_then(role_of)
        .is_some()
        && value.get("created").is_some_and(Value::is_i64)
        && value.get("content").is_some_and(Value::is_array)
}

pub fn read(source: &Source, each: &mut dyn FnMut(Transcript) -> Result<()>) -> Result<()> {
    let path = &source.path;
    let id = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut out = Transcript {
        source_id: id,
        source: path.display().to_string(),
        ..Transcript::default()
    };
    let mut conversation = Conversation::default();
    let mut skipped = Skipped::default();
    each_line(path, &mut skipped, |line, skipped| {
        let Some(value) = line.parse::<Value>(skipped) else {
            return Ok(());
        };
        if line.number == 1 && is_metadata(&value) {
            out.title = value
                .get("description")
                .and_then(Value::as_str)
                .filter(|t| !t.trim().is_empty())
                .map(str::to_string);
            out.cwd = value
                .get("working_dir")
                .and_then(Value::as_str)
                .filter(|t| !t.is_empty())
                .map(PathBuf::from);
            return Ok(());
        }
        let Some(role) = value.get("role").and_then(Value::as_str).and_then(role_of) else {
            skipped.unknown_kinds += 1;
            return Ok(());
        };
        // The files were rewritten whole but only ever grew at the end, so
        // a line's number names its message when it has no id.
        let key = value
            .get("id")
            .and_then(Value::as_str)
            .map_or_else(|| format!("line{}", line.number), str::to_string);
        let content = value.get("content").unwrap_or(&Value::Null);
        let created = value.get("created").and_then(Value::as_i64);
        conversation.message(&key, role, created, content, value.get("metadata"), skipped);
        Ok(())
    })?;
    out.skipped = skipped;
    out.model = conversation.model.take();
    out.provider = conversation.provider.take();
    out.items = conversation.items;
    each(out)
}
