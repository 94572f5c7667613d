//! The session format of Requirement 2: the contract with other tools.
//!
//! A [`Session`] serializes to exactly the spec's JSON (`sessionId`,
//! `startTime`, `lastActivity`, `model`, `provider`, `messages`, `toolCalls`,
//! `metadata{tokenCount, compressionCount}`), plus additive fields only
//! (`title`, `parentSessionId`, `branchPoint`, `metadata.compressionHistory`)
//! and whatever unknown fields a file written by another tool carried, kept
//! in place. Messages and tool calls are kept as the JSON objects they were
//! given, so nothing a writer put in them is lost.

pub mod image;
pub(crate) mod loaded;
mod record;
mod schema;
pub(crate) mod snapshot;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use loaded::{Loaded, Stored, rebuild};
pub(crate) use record::estimate_tokens;
pub use record::{Entry, Message, ROLES, ToolCall};

use crate::timestamp;

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

pub use crate::paths::{check_id, is_uuid};

/// A new random (version 4) UUID.
pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
