//! The session format of Requirement 2: the contract with other tools.
//!
//! A [`Session`] serializes to exactly the spec's JSON (`sessionId`,
//! `startTime`, `lastActivity`, `model`, `provider`, `messages`, `toolCalls`,
//! `metadata{tokenCount, compressionCount}`), plus additive fields only
//! (`title`, `parentSessionId`, `branchPoint`, `metadata.compressionHistory`)
//! and whatever unknown fields a file written by another tool carried, kept
//! in place. Messages and tool calls are kept as the JSON objects they were
//! given, so nothing a writer put in them is lost.

pub(crate) mod loaded;
mod schema;
pub(crate) mod snapshot;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use loaded::{Loaded, Stored, rebuild};

use crate::error::{Error, Result};
use crate::timestamp;

/// The roles `record` accepts. Files written by other tools may hold any
/// role string; they still load.
pub const ROLES: &[&str] = &["user", "assistant", "system", "tool"];

/// One message: `{role, parts, timestamp}` and any other fields it carries.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "Map<String, Value>")]
pub struct Message(Map<String, Value>);

/// One tool call with its result: `{id, name, args, result{llmContent,
/// returnDisplay?}, timestamp}` and any other fields it carries.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "Map<String, Value>")]
pub struct ToolCall(Map<String, Value>);

impl Serialize for Message {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl Serialize for ToolCall {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

fn str_field<'a>(map: &'a Map<String, Value>, key: &str) -> &'a str {
    map.get(key).and_then(Value::as_str).unwrap_or("")
}

fn require_str(map: &Map<String, Value>, key: &str, what: &str) -> std::result::Result<(), String> {
    match map.get(key) {
        Some(Value::String(_)) => Ok(()),
        Some(_) => Err(format!("{what} field `{key}` must be a string")),
        None => Err(format!("{what} is missing `{key}`")),
    }
}

impl TryFrom<Map<String, Value>> for Message {
    type Error = String;
    fn try_from(map: Map<String, Value>) -> std::result::Result<Self, String> {
        require_str(&map, "role", "message")?;
        match map.get("parts") {
            Some(Value::Array(_)) => {}
            Some(_) => return Err("message field `parts` must be an array".into()),
            None => return Err("message is missing `parts`".into()),
        }
        require_str(&map, "timestamp", "message")?;
        Ok(Message(map))
    }
}

impl TryFrom<Map<String, Value>> for ToolCall {
    type Error = String;
    fn try_from(map: Map<String, Value>) -> std::result::Result<Self, String> {
        require_str(&map, "id", "tool call")?;
        require_str(&map, "name", "tool call")?;
        if !map.contains_key("args") {
            return Err("tool call is missing `args`".into());
        }
        match map.get("result") {
            Some(Value::Object(result)) => {
                require_str(result, "llmContent", "tool call result")?;
                if let Some(display) = result.get("returnDisplay")
                    && !display.is_string()
                    && !display.is_null()
                {
                    return Err("tool call result field `returnDisplay` must be a string".into());
                }
            }
            Some(_) => return Err("tool call field `result` must be an object".into()),
            None => return Err("tool call is missing `result`".into()),
        }
        require_str(&map, "timestamp", "tool call")?;
        Ok(ToolCall(map))
    }
}

impl Message {
    /// A plain text message.
    pub fn text(role: &str, text: &str, timestamp: &str) -> Message {
        let mut map = Map::new();
        map.insert("role".into(), role.into());
        map.insert(
            "parts".into(),
            serde_json::json!([{"type": "text", "text": text}]),
        );
        map.insert("timestamp".into(), timestamp.into());
        Message(map)
    }

    pub fn role(&self) -> &str {
        str_field(&self.0, "role")
    }

    pub fn parts(&self) -> &[Value] {
        self.0
            .get("parts")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }

    pub fn timestamp(&self) -> &str {
        str_field(&self.0, "timestamp")
    }

    /// The message as its JSON object.
    pub(crate) fn as_map(&self) -> &Map<String, Value> {
        &self.0
    }

    /// The text of its parts (`text` fields, and the strings inside other
    /// part kinds), joined by newlines.
    pub fn text_content(&self) -> String {
        let mut out = Vec::new();
        for part in self.parts() {
            match part.get("text").and_then(Value::as_str) {
                Some(text) => out.push(text.to_string()),
                None => collect_strings(part, &mut out),
            }
        }
        out.join("\n")
    }

    /// Whether this message answers a tool call (role `tool`, or a part
    /// holding a function/tool result), so it belongs to the turn before it.
    pub(crate) fn is_tool_result(&self) -> bool {
        self.role() == "tool"
            || self.parts().iter().any(|part| {
                let kind = part.get("type").and_then(Value::as_str).unwrap_or("");
                matches!(
                    kind,
                    "functionResponse"
                        | "function_response"
                        | "tool_result"
                        | "toolResult"
                        | "tool-result"
                ) || part.get("functionResponse").is_some()
            })
    }
}

impl ToolCall {
    pub fn id(&self) -> &str {
        str_field(&self.0, "id")
    }

    pub fn name(&self) -> &str {
        str_field(&self.0, "name")
    }

    pub fn args(&self) -> &Value {
        self.0.get("args").unwrap_or(&Value::Null)
    }

    pub(crate) fn llm_content(&self) -> &str {
        self.0
            .get("result")
            .and_then(|r| r.get("llmContent"))
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    pub(crate) fn return_display(&self) -> Option<&str> {
        self.0
            .get("result")
            .and_then(|r| r.get("returnDisplay"))
            .and_then(Value::as_str)
    }

    pub fn timestamp(&self) -> &str {
        str_field(&self.0, "timestamp")
    }

    pub(crate) fn as_map(&self) -> &Map<String, Value> {
        &self.0
    }
}

fn collect_strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| collect_strings(v, out)),
        Value::Object(map) => {
            for (key, v) in map {
                if key != "type" {
                    collect_strings(v, out);
                }
            }
        }
        _ => {}
    }
}

/// What a record adds to a session.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    Message(Message),
    ToolCall(ToolCall),
}

impl Entry {
    /// Parses one record given to `record`: an object with `role` is a
    /// message, one with `name` and `result` a tool call. A missing
    /// `timestamp` is filled with `now`; a present one must be ISO 8601.
    pub fn from_input(value: Value, now: &str) -> Result<Entry> {
        let Value::Object(mut map) = value else {
            return Err(Error::input(
                "a record must be a JSON object (a message or a tool call)",
            ));
        };
        match map.get("timestamp") {
            None | Some(Value::Null) => {
                map.insert("timestamp".into(), now.into());
            }
            Some(Value::String(ts)) if timestamp::is_valid(ts) => {}
            Some(Value::String(ts)) => {
                return Err(Error::input(format!(
                    "`timestamp` {ts:?} is not an ISO 8601 date-time"
                )));
            }
            Some(_) => return Err(Error::input("`timestamp` must be a string")),
        }
        if map.contains_key("role") {
            let message = Message::try_from(map).map_err(Error::input)?;
            if !ROLES.contains(&message.role()) {
                return Err(Error::input(format!(
                    "role {:?} is not one of {}",
                    message.role(),
                    ROLES.join(", ")
                )));
            }
            if let Some(bad) = message.parts().iter().position(|p| !p.is_object()) {
                return Err(Error::input(format!("`parts[{bad}]` must be an object")));
            }
            Ok(Entry::Message(message))
        } else if map.contains_key("name") && map.contains_key("result") {
            let call = ToolCall::try_from(map).map_err(Error::input)?;
            if !call.args().is_object() {
                return Err(Error::input("tool call field `args` must be an object"));
            }
            Ok(Entry::ToolCall(call))
        } else {
            Err(Error::input(
                "a record needs `role` and `parts` (a message) or `id`, `name`, `args` and `result` (a tool call)",
            ))
        }
    }

    pub fn timestamp(&self) -> &str {
        match self {
            Entry::Message(m) => m.timestamp(),
            Entry::ToolCall(t) => t.timestamp(),
        }
    }

    /// Replaces the credentials in every string and key of the record, a
    /// string under a secret-named key whole; returns how many were
    /// replaced, and the bytes withheld past the redaction's limit.
    pub fn redact(&mut self, scrubber: &crate::redact::Scrubber) -> crate::redact::Tally {
        let map = match self {
            Entry::Message(m) => &mut m.0,
            Entry::ToolCall(t) => &mut t.0,
        };
        let mut record = Value::Object(std::mem::take(map));
        let tally = scrubber.redact_json_tallied(&mut record);
        if let Value::Object(fields) = record {
            *map = fields;
        }
        tally
    }

    /// The estimated token count of this record; see [`estimate_tokens`].
    pub fn estimated_tokens(&self) -> u64 {
        match self {
            Entry::Message(m) => estimate_tokens(&Value::Array(m.parts().to_vec())),
            Entry::ToolCall(t) => {
                let mut chars = t.name().chars().count();
                chars += text_chars(t.args());
                chars += t.llm_content().chars().count();
                chars.div_ceil(4) as u64
            }
        }
    }
}

/// **An estimate, not a tokenizer's count:** ⌈characters ÷ 4⌉ of the text a
/// value carries (every string inside it, `type` tags excluded). Used for
/// `metadata.tokenCount` until the toolkit's shared BPE tokenizer
/// (`ollm-compress`) is available; a caller with a real count passes it to
/// `record --tokens` instead.
pub(crate) fn estimate_tokens(value: &Value) -> u64 {
    text_chars(value).div_ceil(4) as u64
}

fn text_chars(value: &Value) -> usize {
    let mut strings = Vec::new();
    collect_strings(value, &mut strings);
    strings.iter().map(|s| s.chars().count()).sum()
}

/// `metadata`: the spec's two counts, the compression history this toolkit
/// adds, and any other fields (e.g. `modeHistory`) kept as they were.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, schemars::JsonSchema)]
#[schemars(rename = "SessionMetadata")]
#[serde(rename_all = "camelCase")]
pub struct Metadata {
    #[serde(default)]
    pub token_count: u64,
    #[serde(default)]
    pub compression_count: u64,
    /// One entry per compression: `{timestamp, …details}`. Additive.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compression_history: Vec<Value>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The `metadata` field in which an imported session names its source
/// (`ollm-session import`): such a session is outside `maxSessions`.
pub const IMPORTED_FROM: &str = "importedFrom";

impl Metadata {
    /// Whether the session was imported from another tool's history.
    pub fn is_imported(&self) -> bool {
        self.extra.contains_key(IMPORTED_FROM)
    }
}

/// A session that could not be read while listing.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Problem {
    pub session_id: String,
    pub message: String,
}

/// A whole session in the spec's format (Requirement 2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(transform = crate::schema::skipped_when_none)]
#[schemars(rename = "SessionDocument")]
#[serde(rename_all = "camelCase")]
pub struct Session {
    pub session_id: String,
    pub start_time: String,
    #[serde(default)]
    pub last_activity: String,
    pub model: String,
    #[serde(default)]
    pub provider: String,
    /// A person's name for the session. Additive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The session this one was branched from. Additive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_session_id: Option<String>,
    /// The parent's message index the branch was cut at (messages before
    /// it were copied). Additive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch_point: Option<u64>,
    /// Where the session was made: the git top-level of the working
    /// directory, else the directory itself. Additive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace: Option<String>,
    #[serde(default)]
    pub messages: Vec<Message>,
    #[serde(default)]
    pub tool_calls: Vec<ToolCall>,
    #[serde(default)]
    pub metadata: Metadata,
    /// Fields other tools wrote that this format does not name.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A session without its messages and tool calls: the first record of a
/// journal, and what a summary is built from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionHead {
    pub session_id: String,
    pub start_time: String,
    #[serde(default)]
    pub last_activity: String,
    pub model: String,
    #[serde(default)]
    pub provider: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_session_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch_point: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace: Option<String>,
    #[serde(default)]
    pub metadata: Metadata,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl SessionHead {
    /// Merges a patch of head fields: a key set, `null` removes it
    /// (`sessionId` is never changed; a patch that would make the head
    /// invalid is ignored).
    pub fn apply_patch(&mut self, patch: &Map<String, Value>) {
        let Ok(Value::Object(mut fields)) = serde_json::to_value(&*self) else {
            return;
        };
        for (key, value) in patch {
            if key == "sessionId" {
                continue;
            }
            if value.is_null() {
                fields.remove(key);
            } else {
                fields.insert(key.clone(), value.clone());
            }
        }
        if let Ok(updated) = serde_json::from_value::<SessionHead>(Value::Object(fields)) {
            *self = updated;
        }
    }

    /// The summary of a session that has no records yet.
    pub fn summary(&self) -> SessionSummary {
        SessionSummary {
            session_id: self.session_id.clone(),
            start_time: self.start_time.clone(),
            last_activity: if self.last_activity.is_empty() {
                self.start_time.clone()
            } else {
                self.last_activity.clone()
            },
            model: self.model.clone(),
            message_count: 0,
            token_count: self.metadata.token_count,
            provider: self.provider.clone(),
            tool_call_count: 0,
            compression_count: self.metadata.compression_count,
            title: self.title.clone(),
            workspace: self.workspace.clone(),
            parent_session_id: self.parent_session_id.clone(),
            branch_point: self.branch_point,
        }
    }
}

impl Session {
    /// Assembles a session from its head and its records.
    pub(crate) fn from_head(
        head: SessionHead,
        messages: Vec<Message>,
        tool_calls: Vec<ToolCall>,
    ) -> Session {
        Session {
            session_id: head.session_id,
            start_time: head.start_time,
            last_activity: head.last_activity,
            model: head.model,
            provider: head.provider,
            title: head.title,
            parent_session_id: head.parent_session_id,
            branch_point: head.branch_point,
            workspace: head.workspace,
            messages,
            tool_calls,
            metadata: head.metadata,
            extra: head.extra,
        }
    }

    /// The session without its messages and tool calls.
    pub fn head(&self) -> SessionHead {
        SessionHead {
            session_id: self.session_id.clone(),
            start_time: self.start_time.clone(),
            last_activity: self.last_activity.clone(),
            model: self.model.clone(),
            provider: self.provider.clone(),
            title: self.title.clone(),
            parent_session_id: self.parent_session_id.clone(),
            branch_point: self.branch_point,
            workspace: self.workspace.clone(),
            metadata: self.metadata.clone(),
            extra: self.extra.clone(),
        }
    }
}

/// One row of `list`: the spec's `SessionSummary` plus additive fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(transform = crate::schema::skipped_when_none)]
#[serde(rename_all = "camelCase")]
pub struct SessionSummary {
    pub session_id: String,
    pub start_time: String,
    pub last_activity: String,
    pub model: String,
    pub message_count: u64,
    pub token_count: u64,
    pub provider: String,
    pub tool_call_count: u64,
    pub compression_count: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_session_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch_point: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace: Option<String>,
}

impl Session {
    /// The summary `list` shows for this session.
    pub fn summary(&self) -> SessionSummary {
        SessionSummary {
            session_id: self.session_id.clone(),
            start_time: self.start_time.clone(),
            last_activity: self.last_activity.clone(),
            model: self.model.clone(),
            message_count: self.messages.len() as u64,
            token_count: self.metadata.token_count,
            provider: self.provider.clone(),
            tool_call_count: self.tool_calls.len() as u64,
            compression_count: self.metadata.compression_count,
            title: self.title.clone(),
            parent_session_id: self.parent_session_id.clone(),
            branch_point: self.branch_point,
            workspace: self.workspace.clone(),
        }
    }
}

/// The records of a session document and nothing else: what a reader that
/// only follows the conversation (`ollm-loopcheck`) needs. Both lists may be
/// absent; each record is checked as [`Message`] and [`ToolCall`] check it.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Records {
    #[serde(default)]
    pub messages: Vec<Message>,
    #[serde(default)]
    pub tool_calls: Vec<ToolCall>,
}

impl Records {
    /// The records in the order [`timeline`] gives them.
    pub fn timeline(&self) -> Vec<Place> {
        let messages: Vec<&str> = self.messages.iter().map(Message::timestamp).collect();
        let calls: Vec<&str> = self.tool_calls.iter().map(ToolCall::timestamp).collect();
        timeline(&messages, &calls)
    }
}

/// A record's place in a session: an index into `messages` or `toolCalls`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Message(usize),
    ToolCall(usize),
}

/// The one order of a session's records that every program uses: messages
/// keep their order, tool calls keep theirs, and each tool call goes after
/// the messages stamped at or before it. Timestamps are compared as
/// instants ([`timestamp::parse`]), so `…T12:00:00+02:00` is
/// `…T10:00:00Z` and `…00.5Z` is `…00.500Z`; on a tie the message comes
/// first. A record whose timestamp is missing or unreadable does not move
/// the other list: such a message goes before the next tool call, and such
/// a tool call after the remaining messages.
pub fn timeline(message_times: &[&str], call_times: &[&str]) -> Vec<Place> {
    let messages: Vec<Option<timestamp::Millis>> =
        message_times.iter().map(|t| timestamp::parse(t)).collect();
    let mut out = Vec::with_capacity(message_times.len() + call_times.len());
    let mut next = 0;
    for (c, call) in call_times.iter().enumerate() {
        let at = timestamp::parse(call);
        while next < messages.len() {
            let first = match (messages[next], at) {
                (Some(m), Some(c)) => m <= c,
                _ => true,
            };
            if !first {
                break;
            }
            out.push(Place::Message(next));
            next += 1;
        }
        out.push(Place::ToolCall(c));
    }
    out.extend((next..messages.len()).map(Place::Message));
    out
}

/// Whether `id` is a UUID in its canonical hyphenated form. Session and
/// snapshot ids are only ever UUIDs, so no input names a path.
pub fn is_uuid(id: &str) -> bool {
    id.len() == 36 && uuid::Uuid::try_parse(id).is_ok() && id.as_bytes()[8] == b'-'
}

/// Refuses anything but a UUID as a session id.
pub fn check_id(id: &str, what: &str) -> Result<()> {
    if is_uuid(id) {
        Ok(())
    } else {
        let shown: String = id.chars().take(60).collect();
        Err(Error::input(format!(
            "{what} id {shown:?} is not a UUID (like 550e8400-e29b-41d4-a716-446655440000)"
        )))
    }
}

/// A new random (version 4) UUID.
pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_must_be_uuids() {
        assert!(is_uuid("550e8400-e29b-41d4-a716-446655440000"));
        assert!(is_uuid(&new_id()));
        for bad in [
            "../x",
            "/etc/passwd",
            "550e8400e29b41d4a716446655440000",
            "{550e8400-e29b-41d4-a716-446655440000}",
            "550e8400-e29b-41d4-a716-44665544000/",
            "",
        ] {
            assert!(!is_uuid(bad), "{bad}");
        }
    }

    #[test]
    fn records_are_recognised_and_checked() {
        let now = "2024-01-15T10:30:00.000Z";
        let m = Entry::from_input(
            json!({"role": "user", "parts": [{"type": "text", "text": "hi"}]}),
            now,
        )
        .unwrap();
        assert_eq!(m.timestamp(), now);
        let t = Entry::from_input(
            json!({"id": "c1", "name": "read_file", "args": {"path": "a"}, "result": {"llmContent": "x"}}),
            now,
        )
        .unwrap();
        assert!(matches!(t, Entry::ToolCall(_)));
        for bad in [
            json!([1]),
            json!({"role": "robot", "parts": []}),
            json!({"role": "user", "parts": "hi"}),
            json!({"role": "user", "parts": [], "timestamp": "noon"}),
            json!({"name": "x", "result": {"llmContent": "y"}, "args": {}}),
            json!({"id": "c", "name": "x", "result": {}, "args": {}}),
            json!({"id": "c", "name": "x", "result": {"llmContent": "y"}, "args": 3}),
            json!({"hello": 1}),
        ] {
            assert!(Entry::from_input(bad.clone(), now).is_err(), "{bad}");
        }
    }

    #[test]
    fn token_estimate_is_chars_over_four() {
        let m = Entry::Message(Message::text("user", "abcdefgh", "t"));
        assert_eq!(m.estimated_tokens(), 2);
        assert_eq!(
            estimate_tokens(&json!([{"type": "text", "text": "abcde"}])),
            2
        );
    }

    #[test]
    fn the_timeline_compares_instants_not_strings() {
        // 09:59:59.9Z < 10:00:00Z = 12:00:00+02:00 < 10:00:00.5Z < 10:00:01Z
        let messages = [
            "2026-01-01T10:00:00Z",
            "2026-01-01T10:00:00.5Z",
            "2026-01-01T10:00:01.000Z",
        ];
        let calls = [
            "2026-01-01T09:59:59.9Z",
            "2026-01-01T12:00:00+02:00",
            "2026-01-01T10:00:00.700+00:00",
        ];
        use Place::*;
        assert_eq!(
            timeline(&messages, &calls),
            [
                ToolCall(0),
                Message(0),
                ToolCall(1),
                Message(1),
                ToolCall(2),
                Message(2)
            ]
        );
    }

    #[test]
    fn unreadable_times_do_not_move_the_other_list() {
        use Place::*;
        let messages = ["noon", "2026-01-01T10:00:05Z", "2026-01-01T10:00:09Z"];
        let calls = ["2026-01-01T10:00:06Z", "", "2026-01-01T10:00:07Z"];
        assert_eq!(
            timeline(&messages, &calls),
            [
                Message(0),
                Message(1),
                ToolCall(0),
                Message(2),
                ToolCall(1),
                ToolCall(2)
            ]
        );
    }

    #[test]
    fn tool_results_are_recognised() {
        let m: Message = serde_json::from_value(json!({
            "role": "user", "timestamp": "t",
            "parts": [{"functionResponse": {"name": "f", "response": {}}}]
        }))
        .unwrap();
        assert!(m.is_tool_result());
        assert!(!Message::text("user", "hi", "t").is_tool_result());
    }
}
