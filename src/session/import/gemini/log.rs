//! gemini-cli's operation log replayed into the conversation it ends with,
//! as `loadConversationRecord` does, holding only what is imported.

use std::collections::HashMap;
use std::path::Path;

use serde_json::{Map, Value};

use super::project;
use crate::session::import::{Body, Call, Item, Outcome, Role, Skipped, Transcript};
use crate::session::model::image;

/// The session's fields the log sets (its first line and `$set`s).
#[derive(Debug, Default, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Meta {
    session_id: Option<String>,
    project_hash: Option<String>,
    start_time: Option<String>,
    last_updated: Option<String>,
    summary: Option<String>,
    directories: Vec<String>,
}

impl Meta {
    /// Takes the fields `fields` sets (its `messages` already taken out).
    pub fn set(&mut self, fields: &Map<String, Value>) {
        let text = |key: &str| fields.get(key).and_then(Value::as_str).map(str::to_string);
        self.session_id = text("sessionId").or(self.session_id.take());
        self.project_hash = text("projectHash").or(self.project_hash.take());
        self.start_time = text("startTime").or(self.start_time.take());
        self.last_updated = text("lastUpdated").or(self.last_updated.take());
        self.summary = text("summary")
            .filter(|s| !s.trim().is_empty())
            .or(self.summary.take());
        if let Some(Value::Array(dirs)) = fields.get("directories") {
            self.directories = dirs
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect();
        }
    }

    /// The transcript's fields besides its items and model; a session
    /// whose metadata line did not survive is named after its file.
    pub fn header(&self, path: &Path) -> Transcript {
        let source_id = self
            .session_id
            .clone()
            .filter(|id| !id.is_empty())
            .unwrap_or_else(|| {
                path.file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default()
            });
        Transcript {
            source_id,
            source: path.display().to_string(),
            title: self.summary.clone(),
            provider: Some("google".into()),
            started: self.start_time.clone(),
            updated: self.last_updated.clone(),
            parent_source_id: project::parent_session(path),
            cwd: project::cwd(path, self.project_hash.as_deref(), &self.directories),
            ..Transcript::default()
        }
    }
}

/// What a record of the log is, as `loadConversationRecord` tells it.
pub enum Record {
    /// `$rewindTo`: that message and everything after it are gone.
    RewindTo(String),
    /// A message (added, or replacing the one with its id).
    Message(Map<String, Value>),
    /// Metadata, with the messages it lists (`$set.messages` is a
    /// checkpoint: the conversation is exactly those from there on).
    Metadata {
        fields: Map<String, Value>,
        messages: Option<Vec<Value>>,
        checkpoint: bool,
    },
    Unknown,
}

impl Record {
    pub fn of(record: Value) -> Record {
        let Value::Object(mut record) = record else {
            return Record::Unknown;
        };
        if let Some(Value::String(id)) = record.get("$rewindTo") {
            return Record::RewindTo(id.clone());
        }
        if record.get("id").is_some_and(Value::is_string) {
            return Record::Message(record);
        }
        let (mut fields, checkpoint) = match record.remove("$set") {
            Some(Value::Object(set)) => (set, true),
            _ if record.get("sessionId").is_some_and(Value::is_string)
                && record.get("projectHash").is_some_and(Value::is_string) =>
            {
                (record, false)
            }
            _ => return Record::Unknown,
        };
        let messages = match fields.remove("messages") {
            Some(Value::Array(messages)) => Some(messages),
            _ => None,
        };
        Record::Metadata {
            fields,
            messages,
            checkpoint,
        }
    }
}

/// Whether a listed message counts as one (an object with a string id).
pub fn is_message(message: &Value) -> bool {
    message.get("id").is_some_and(Value::is_string) && message.is_object()
}

/// The whole log replayed in memory: the reader of a legacy one-document
/// file (and, in tests, the reference the two-pass reader is held to).
#[derive(Debug, Default)]
pub struct Conversation {
    meta: Meta,
    /// The messages in the order they were first added (a replaced
    /// message keeps its place, as in a JS `Map`).
    messages: Vec<Message>,
    position: HashMap<String, usize>,
}

#[derive(Debug)]
pub struct Message {
    id: String,
    timestamp: Option<String>,
    /// `None`: a message of a kind that is not imported.
    role: Option<Role>,
    text: String,
    /// The images of its parts (`inlineData`), as stored.
    images: Vec<Value>,
    model: Option<String>,
    calls: Vec<(Option<String>, Call)>,
    /// User text gemini-cli does not resume, left out (and why).
    left_out: Option<LeftOut>,
}

/// Why a user's text is left out, as gemini-cli's resume leaves it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LeftOut {
    /// A command to gemini-cli (`/stats`, `?`).
    Command,
    /// Context the tool added (`<session_context>`, `<hook_context>`).
    NotTyped,
}

impl Conversation {
    /// Applies one record of the log (or a whole legacy document).
    pub fn apply(&mut self, record: Value, skipped: &mut Skipped) {
        match Record::of(record) {
            Record::RewindTo(id) => self.rewind(&id),
            Record::Message(record) => self.put(record),
            Record::Metadata {
                fields,
                messages,
                checkpoint,
            } => {
                if let Some(messages) = messages {
                    if checkpoint {
                        self.messages.clear();
                        self.position.clear();
                    }
                    for message in messages {
                        if is_message(&message)
                            && let Value::Object(message) = message
                        {
                            self.put(message);
                        }
                    }
                }
                self.meta.set(&fields);
            }
            Record::Unknown => skipped.unknown_kinds += 1,
        }
    }

    /// The message `id` and everything after it are gone; an id not in the
    /// conversation empties it (as gemini-cli does).
    fn rewind(&mut self, id: &str) {
        let keep = self.position.get(id).copied().unwrap_or(0);
        for gone in self.messages.drain(keep..) {
            self.position.remove(&gone.id);
        }
    }

    fn put(&mut self, record: Map<String, Value>) {
        let message = message_of(record);
        match self.position.get(&message.id) {
            Some(&at) => self.messages[at] = message,
            None => {
                self.position
                    .insert(message.id.clone(), self.messages.len());
                self.messages.push(message);
            }
        }
    }

    pub fn into_transcript(self, path: &Path) -> Transcript {
        let mut transcript = self.meta.header(path);
        for message in self.messages {
            message.into_items(
                &mut transcript.model,
                &mut transcript.skipped,
                &mut transcript.items,
            );
        }
        transcript
    }
}

impl Message {
    /// The message's items (its text, then its calls), added to `items`;
    /// `model` becomes the one it names. A message of a kind that is not
    /// imported adds nothing.
    pub fn into_items(
        self,
        model: &mut Option<String>,
        skipped: &mut Skipped,
        items: &mut Vec<Item>,
    ) {
        let Some(role) = self.role else {
            return;
        };
        match self.left_out {
            Some(LeftOut::Command) => skipped.commands += 1,
            Some(LeftOut::NotTyped) => skipped.not_typed += 1,
            None => {}
        }
        if self.model.is_some() {
            *model = self.model;
        }
        if !self.text.trim().is_empty() || !self.images.is_empty() {
            items.push(Item {
                key: self.id.clone(),
                timestamp: self.timestamp.clone(),
                body: Body::Message {
                    role,
                    text: self.text,
                    images: self.images,
                },
            });
        }
        for (at, call) in self.calls {
            items.push(Item {
                key: format!("{}:{}", self.id, call.call_id),
                timestamp: at.or_else(|| self.timestamp.clone()),
                body: Body::ToolCall(call),
            });
        }
    }
}

pub fn message_of(mut record: Map<String, Value>) -> Message {
    let take_text = |record: &mut Map<String, Value>, key: &str| match record.remove(key) {
        Some(Value::String(s)) => Some(s),
        _ => None,
    };
    let id = take_text(&mut record, "id").unwrap_or_default();
    let timestamp = take_text(&mut record, "timestamp");
    let model = take_text(&mut record, "model").filter(|m| !m.is_empty());
    let content = record.remove("content").unwrap_or(Value::Null);
    let role = match record.get("type").and_then(Value::as_str) {
        Some("user") => Some(Role::User),
        Some("gemini") => Some(Role::Assistant),
        _ => None,
    };
    let mut text = text_of(&content);
    let left_out = (role == Some(Role::User))
        .then(|| left_out_user_text(&text))
        .flatten();
    let mut images = images_of(&content);
    if left_out.is_some() {
        text.clear();
        images.clear();
    }
    let mut calls: Vec<(Option<String>, Call)> = match record.remove("toolCalls") {
        Some(Value::Array(calls)) => calls.into_iter().filter_map(call_of).collect(),
        _ => Vec::new(),
    };
    if role == Some(Role::Assistant) {
        // A call the model made that never reached `toolCalls`.
        for part in parts(&content) {
            if let Some(call) = part.get("functionCall") {
                let id = call.get("id").and_then(Value::as_str).unwrap_or_default();
                if !id.is_empty() && calls.iter().all(|(_, c)| c.call_id != id) {
                    calls.push((
                        None,
                        Call {
                            call_id: id.to_string(),
                            name: string(call.get("name")),
                            args: call.get("args").cloned().unwrap_or(Value::Null),
                            outcome: Outcome::NoResult("interrupted"),
                        },
                    ));
                }
            }
        }
    } else {
        calls.clear();
    }
    Message {
        id,
        timestamp,
        role,
        text,
        images,
        model: model.filter(|_| role == Some(Role::Assistant)),
        calls,
        left_out,
    }
}

/// User text gemini-cli does not resume (`isIgnoredUserContent`), and why.
fn left_out_user_text(text: &str) -> Option<LeftOut> {
    let text = text.trim();
    if text.starts_with('/') || text.starts_with('?') {
        Some(LeftOut::Command)
    } else if text.starts_with("<session_context>") || text.starts_with("<hook_context>") {
        Some(LeftOut::NotTyped)
    } else {
        None
    }
}

fn call_of(call: Value) -> Option<(Option<String>, Call)> {
    let Value::Object(mut call) = call else {
        return None;
    };
    let call_id = string(call.get("id"));
    if call_id.is_empty() {
        return None;
    }
    let result = result_text(call.get("result").unwrap_or(&Value::Null));
    let status = call
        .get("status")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let outcome = match status {
        "success" => Outcome::Done(result),
        "error" => Outcome::Failed(result),
        "cancelled" if !result.is_empty() => Outcome::Failed(result),
        "cancelled" => Outcome::NoResult("cancelled"),
        _ if !result.is_empty() => Outcome::Done(result),
        _ => Outcome::NoResult("interrupted"),
    };
    Some((
        call.get("timestamp")
            .and_then(Value::as_str)
            .map(str::to_string),
        Call {
            call_id,
            name: string(call.get("name")),
            args: call.remove("args").unwrap_or(Value::Null),
            outcome,
        },
    ))
}

fn string(value: Option<&Value>) -> String {
    value
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// A `PartListUnion` (a string, a part, or a list of either) as parts.
fn parts(content: &Value) -> Vec<&Value> {
    match content {
        Value::Array(items) => items.iter().collect(),
        Value::Null => Vec::new(),
        other => vec![other],
    }
}

/// The images of a message's parts: each `inlineData` of base64 (a
/// `fileData` names a file by URI, stored as its address, never read).
fn images_of(content: &Value) -> Vec<Value> {
    let str_in = |value: &Value, key: &str| {
        value
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    parts(content)
        .into_iter()
        .filter_map(|part| {
            if let Some(data) = part.get("inlineData") {
                let mime = str_in(data, "mimeType");
                return mime
                    .starts_with("image/")
                    .then(|| image::part_from_base64(&mime, &str_in(data, "data")));
            }
            let file = part.get("fileData")?;
            str_in(file, "mimeType")
                .starts_with("image/")
                .then(|| image::part_from_url(&str_in(file, "fileUri")))
        })
        .collect()
}

/// The text of a message's parts, thoughts left out.
fn text_of(content: &Value) -> String {
    let texts: Vec<&str> = parts(content)
        .into_iter()
        .filter_map(|part| match part {
            Value::String(text) => Some(text.as_str()),
            Value::Object(part) if part.get("thought").and_then(Value::as_bool) != Some(true) => {
                part.get("text").and_then(Value::as_str)
            }
            _ => None,
        })
        .filter(|text| !text.trim().is_empty())
        .collect();
    texts.join("\n\n")
}

/// What a tool call returned to the model: its function responses' output
/// (or error), and any text parts.
fn result_text(result: &Value) -> String {
    let texts: Vec<String> = parts(result)
        .into_iter()
        .filter_map(|part| match part {
            Value::String(text) => Some(text.clone()),
            Value::Object(part) => {
                if let Some(text) = part.get("text").and_then(Value::as_str) {
                    return Some(text.to_string());
                }
                let response = part.get("functionResponse")?.get("response")?;
                ["output", "error"]
                    .iter()
                    .find_map(|key| response.get(*key).and_then(Value::as_str))
                    .map(str::to_string)
                    .or_else(|| Some(response.to_string()))
            }
            _ => None,
        })
        .filter(|text| !text.is_empty())
        .collect();
    texts.join("\n\n")
}
