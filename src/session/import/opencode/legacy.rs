//! opencode's JSON storage from before its database, one file per record
//! under `<data>/storage`. Two layouts:
//!
//! - `session/<projectID>/<id>.json`, `message/<sessionID>/<id>.json`,
//!   `part/<messageID>/<id>.json` (up to 1.x's move to SQLite);
//! - older: `session/info/<id>.json`, `session/message/<sessionID>/<id>.json`,
//!   `session/part/<sessionID>/<messageID>/<id>.json`, and before parts had
//!   files of their own, a message's `parts` inline.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::super::lines::read_document;
use super::super::{Role, Skipped, Source, Transcript};
use super::parts::{self, Turn, str_of};
use crate::error::{Error, Result};
use crate::timestamp::format_millis;

pub const KIND: &str = "legacy-json";

/// The most one record file may hold before it is counted unreadable.
const RECORD_LIMIT: u64 = 256 << 20;

/// The storage directory `dir` is or holds (`<data>/storage`).
pub fn storage_root(dir: &Path) -> Option<PathBuf> {
    let inner = dir.join("storage");
    if inner.join("session").is_dir() {
        return Some(inner);
    }
    (dir.file_name().is_some_and(|n| n == "storage") && dir.join("session").is_dir())
        .then(|| dir.to_path_buf())
}

/// Whether `file` sits where a session record does: `session/<x>/<id>.json`
/// under a storage directory.
pub fn is_session_file(file: &Path) -> bool {
    file.extension().is_some_and(|e| e == "json")
        && file
            .parent()
            .and_then(Path::parent)
            .is_some_and(|session| session.file_name().is_some_and(|n| n == "session"))
}

/// The storage directory of a session record (three levels up).
pub fn storage_of(file: &Path) -> Option<&Path> {
    file.parent()?.parent()?.parent()
}

/// Every session record under `storage`, in path order.
pub fn session_files(storage: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in sorted_entries(&storage.join("session")) {
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned());
        // `share/<id>.json` holds a session's share link, not the session.
        if matches!(name.as_deref(), Some("message" | "part" | "share")) || !dir.is_dir() {
            continue;
        }
        out.extend(
            sorted_entries(&dir)
                .into_iter()
                .filter(|f| f.is_file() && f.extension().is_some_and(|e| e == "json")),
        );
    }
    out
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    entries.sort();
    entries
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    sorted_entries(dir)
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "json") && f.is_file())
        .collect()
}

/// A record file; one that cannot be read or is not a JSON object is
/// counted and skipped.
fn record(path: &Path, skipped: &mut Skipped) -> Option<Value> {
    match read_document(path, RECORD_LIMIT, skipped) {
        Ok(Some(value)) if value.is_object() => Some(value),
        Ok(Some(_)) => {
            skipped.unreadable += 1;
            None
        }
        Ok(None) => None,
        Err(_) => {
            skipped.unreadable += 1;
            None
        }
    }
}

pub fn read(source: &Source, each: &mut dyn FnMut(Transcript) -> Result<()>) -> Result<()> {
    let path = &source.path;
    let mut skipped = Skipped::default();
    let info = match read_document(path, RECORD_LIMIT, &mut skipped)? {
        Some(info) if info.get("id").is_some_and(Value::is_string) => info,
        _ => {
            return Err(Error::input(format!(
                "{}: not an opencode session record",
                path.display()
            )));
        }
    };
    let id = str_of(&info, "id").unwrap_or_default().to_string();
    let storage = storage_of(path).unwrap_or(Path::new("."));
    let old = path
        .parent()
        .is_some_and(|p| p.file_name().is_some_and(|n| n == "info"));
    let (messages_dir, parts_dir) = if old {
        (
            storage.join("session/message").join(&id),
            storage.join("session/part").join(&id),
        )
    } else {
        (storage.join("message").join(&id), storage.join("part"))
    };
    let time = |key: &str| {
        info.pointer(&format!("/time/{key}"))
            .and_then(Value::as_i64)
            .map(format_millis)
    };
    let text = |key: &str| {
        str_of(&info, key)
            .filter(|t| !t.trim().is_empty())
            .map(str::to_string)
    };
    let mut out = Transcript {
        source_id: id.clone(),
        source: path.display().to_string(),
        title: text("title").filter(|t| !super::db::is_placeholder(t)),
        cwd: text("directory").map(PathBuf::from),
        started: time("created"),
        updated: time("updated"),
        parent_source_id: text("parentID"),
        skipped,
        ..Transcript::default()
    };

    let mut messages: Vec<(i64, String, Value)> = Vec::new();
    for file in json_files(&messages_dir) {
        if let Some(message) = record(&file, &mut out.skipped) {
            let created = message
                .pointer("/time/created")
                .or_else(|| message.pointer("/metadata/time/created"))
                .and_then(Value::as_i64)
                .unwrap_or(0);
            let id = str_of(&message, "id")
                .map(str::to_string)
                .or_else(|| file.file_stem().map(|s| s.to_string_lossy().into_owned()))
                .unwrap_or_default();
            messages.push((created, id, message));
        }
    }
    messages.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));

    for (created, message_id, message) in messages {
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
        if out.cwd.is_none() {
            out.cwd = message
                .pointer("/path/cwd")
                .or_else(|| message.pointer("/metadata/assistant/path/cwd"))
                .and_then(Value::as_str)
                .map(PathBuf::from);
        }
        let time = (created > 0).then(|| format_millis(created));
        let mut turn = Turn::new(role, time, &mut out.items);
        if let Some(inline) = message.get("parts").and_then(Value::as_array) {
            for (index, part) in inline.iter().enumerate() {
                let key = format!("{message_id}#{index}");
                parts::part(&mut turn, &key, part, &mut out.skipped);
            }
            continue;
        }
        for file in json_files(&parts_dir.join(&message_id)) {
            if let Some(part) = record(&file, &mut out.skipped) {
                let key = str_of(&part, "id")
                    .map(str::to_string)
                    .or_else(|| file.file_stem().map(|s| s.to_string_lossy().into_owned()))
                    .unwrap_or_default();
                parts::part(&mut turn, &key, &part, &mut out.skipped);
            }
        }
    }
    each(out)
}
