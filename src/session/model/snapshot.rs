//! A snapshot of a session's context (document 003's `ContextSnapshot`):
//! the document every store keeps, whichever keeps it (files under
//! `snapshots.dir`, or a database).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{Entry, Message, ToolCall};
use crate::timestamp;

/// A snapshot file (document 003's `ContextSnapshot`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    pub id: String,
    pub session_id: String,
    pub timestamp: String,
    pub token_count: u64,
    #[serde(default)]
    pub summary: String,
    #[serde(default)]
    pub user_messages: Vec<Message>,
    #[serde(default)]
    pub archived_user_messages: Vec<Value>,
    #[serde(default)]
    pub messages: Vec<Message>,
    /// Positions of the user messages in the whole context. Additive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_message_indices: Option<Vec<usize>>,
    /// The session's tool calls. Additive.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// For each tool call, how many messages were recorded before it. Additive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_positions: Option<Vec<usize>>,
    #[serde(default)]
    pub metadata: Map<String, Value>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One row of the index and of `list`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotInfo {
    pub id: String,
    pub session_id: String,
    pub timestamp: String,
    pub token_count: u64,
    pub summary: String,
    pub message_count: u64,
}

impl Snapshot {
    /// Its row in the index and in `list`.
    pub fn info(&self) -> SnapshotInfo {
        SnapshotInfo {
            id: self.id.clone(),
            session_id: self.session_id.clone(),
            timestamp: self.timestamp.clone(),
            token_count: self.token_count,
            summary: self.summary.clone(),
            message_count: (self.user_messages.len() + self.messages.len()) as u64,
        }
    }

    /// The context the snapshot holds, in its original order.
    pub fn restored_messages(&self) -> Vec<Message> {
        let total = self.user_messages.len() + self.messages.len();
        if let Some(indices) = &self.user_message_indices
            && indices.len() == self.user_messages.len()
            && indices.iter().all(|i| *i < total)
        {
            let mut slots: Vec<Option<Message>> = vec![None; total];
            for (i, m) in indices.iter().zip(&self.user_messages) {
                slots[*i] = Some(m.clone());
            }
            let mut others = self.messages.iter();
            let restored: Option<Vec<Message>> = slots
                .into_iter()
                .map(|slot| slot.or_else(|| others.next().cloned()))
                .collect();
            if let Some(restored) = restored {
                return restored;
            }
        }
        let mut all: Vec<(i64, usize, Message)> = self
            .messages
            .iter()
            .chain(&self.user_messages)
            .enumerate()
            .map(|(i, m)| {
                (
                    timestamp::parse(m.timestamp()).unwrap_or(i64::MIN),
                    i,
                    m.clone(),
                )
            })
            .collect();
        all.sort_by_key(|(t, i, _)| (*t, *i));
        all.into_iter().map(|(_, _, m)| m).collect()
    }

    /// Every record the snapshot holds (messages and tool calls) in the
    /// order they were recorded.
    pub fn restored_entries(&self) -> Vec<Entry> {
        let messages = self.restored_messages();
        let positions = match &self.tool_call_positions {
            Some(p) if p.len() == self.tool_calls.len() => p.clone(),
            // Without positions, tool calls go after the messages.
            _ => vec![messages.len(); self.tool_calls.len()],
        };
        let mut calls = self.tool_calls.iter().zip(positions).peekable();
        let mut out = Vec::with_capacity(messages.len() + self.tool_calls.len());
        for (i, m) in messages.into_iter().enumerate() {
            while let Some((call, _)) = calls.next_if(|(_, at)| *at <= i) {
                out.push(Entry::ToolCall(call.clone()));
            }
            out.push(Entry::Message(m));
        }
        out.extend(calls.map(|(call, _)| Entry::ToolCall(call.clone())));
        out
    }
}
