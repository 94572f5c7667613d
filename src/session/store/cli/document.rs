//! What a session document is and how a change is made to it: its
//! head, its records and its counts, in the CLI's layout.

use std::path::Path;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Map, Value};

use super::{CREATED_BY, Document, OLLM, splice};
use crate::error::{Error, Result};
use crate::fs::replace::{Replaced, Stamp, replace_if_unchanged};
use crate::lossless;
use crate::session::model::{Entry, IMPORTED_FROM, Session, SessionHead, SessionSummary};

impl Document {
    /// A new session's document: the CLI's keys in the order its
    /// `createSession` writes them, then the fields it does not know;
    /// `made_here` marks a session ollm made ([`CREATED_BY`]), not one it
    /// copied from elsewhere (which keeps whatever it carried).
    pub fn new(head: &SessionHead, made_here: bool) -> Document {
        let mut fields = Map::new();
        fields.insert("sessionId".into(), head.session_id.clone().into());
        fields.insert("startTime".into(), head.start_time.clone().into());
        fields.insert("lastActivity".into(), head.last_activity.clone().into());
        fields.insert("model".into(), head.model.clone().into());
        fields.insert("provider".into(), head.provider.clone().into());
        fields.insert("messages".into(), Value::Array(Vec::new()));
        fields.insert("toolCalls".into(), Value::Array(Vec::new()));
        let metadata = serde_json::to_value(&head.metadata).unwrap_or_default();
        fields.insert("metadata".into(), metadata);
        if made_here {
            fields.insert(CREATED_BY.into(), OLLM.into());
        }
        if let Ok(Value::Object(rest)) = serde_json::to_value(head) {
            for (key, value) in rest {
                fields.entry(key).or_insert(value);
            }
        }
        Document {
            fields,
            exact: true,
            stamp: None,
            cli_active: false,
            kept: None,
            theirs: false,
            read_bytes: Vec::new(),
        }
    }

    /// The document as the spec's session (`lastActivity` defaults to
    /// `startTime`), or why it is not one.
    pub fn session(&self) -> std::result::Result<Session, String> {
        let mut session: Session =
            serde_path_to_error::deserialize(&self.fields).map_err(|err| {
                let at = err.path().to_string();
                let inner = crate::text::one_line(&err.into_inner().to_string());
                if at.is_empty() || at == "." {
                    inner
                } else {
                    format!("at `{at}`: {inner}")
                }
            })?;
        if session.last_activity.is_empty() {
            session.last_activity = session.start_time.clone();
        }
        Ok(session)
    }

    /// The summary `list` shows, without copying the records (the
    /// document was checked as a session when it was read).
    pub fn summary(&self) -> std::result::Result<SessionSummary, String> {
        #[derive(serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Counted {
            #[serde(flatten)]
            head: SessionHead,
            #[serde(default)]
            messages: Vec<IgnoredAny>,
            #[serde(default)]
            tool_calls: Vec<IgnoredAny>,
        }
        let counted = Counted::deserialize(&self.fields).map_err(|e| e.to_string())?;
        let kept = |key: &str| self.kept.as_ref().map_or(0, |kept| kept.count(key));
        let mut summary = counted.head.summary();
        summary.message_count = counted.messages.len() as u64 + kept("messages");
        summary.tool_call_count = counted.tool_calls.len() as u64 + kept("toolCalls");
        Ok(summary)
    }

    /// Whether ollm created this document (see [`CREATED_BY`]).
    pub fn created_by_ollm(&self) -> bool {
        self.fields.get(CREATED_BY).and_then(Value::as_str) == Some(OLLM)
    }

    /// Whether the session was imported ([`IMPORTED_FROM`] in its
    /// `metadata`).
    pub fn is_imported(&self) -> bool {
        self.fields
            .get("metadata")
            .and_then(Value::as_object)
            .is_some_and(|metadata| metadata.contains_key(IMPORTED_FROM))
    }

    /// The file's identity when it was read (or, after a rewrite, written).
    pub fn stamp(&self) -> Option<Stamp> {
        self.stamp
    }

    /// The session's `lastActivity` (else `startTime`).
    pub fn last_activity(&self) -> &str {
        let text = |key: &str| self.fields.get(key).and_then(Value::as_str).unwrap_or("");
        match text("lastActivity") {
            "" => text("startTime"),
            at => at,
        }
    }

    /// Runs `f` on the array under `key` (made one when it is not).
    fn with_list(&mut self, key: &str, f: impl FnOnce(&mut Vec<Value>)) {
        let slot = self
            .fields
            .entry(key.to_string())
            .or_insert_with(|| Value::Array(Vec::new()));
        if !slot.is_array() {
            *slot = Value::Array(Vec::new());
        }
        if let Value::Array(items) = slot {
            f(items);
        }
    }

    /// Runs `f` on `metadata` (made an object when it is not).
    fn with_metadata(&mut self, f: impl FnOnce(&mut Map<String, Value>)) {
        let slot = self
            .fields
            .entry("metadata".to_string())
            .or_insert_with(|| Value::Object(Map::new()));
        if !slot.is_object() {
            *slot = Value::Object(Map::new());
        }
        if let Value::Object(fields) = slot {
            f(fields);
        }
    }

    fn add_to_count(&mut self, key: &str, by: u64) {
        self.with_metadata(|metadata| {
            let count = metadata.get(key).and_then(Value::as_u64).unwrap_or(0);
            metadata.insert(key.into(), count.saturating_add(by).into());
        });
    }

    /// Sets `lastActivity` to `at`.
    pub fn touch(&mut self, at: &str) {
        self.fields.insert("lastActivity".into(), at.into());
    }

    /// Adds a message or tool call and its tokens to `metadata.tokenCount`.
    pub fn push_entry(&mut self, entry: &Entry, tokens: u64) {
        let (key, record) = match entry {
            Entry::Message(m) => ("messages", m.as_map()),
            Entry::ToolCall(c) => ("toolCalls", c.as_map()),
        };
        self.with_list(key, |items| items.push(Value::Object(record.clone())));
        self.add_to_count("tokenCount", tokens);
    }

    /// Notes a compression: `metadata.compressionCount` + 1 and
    /// `{timestamp, …details}` in `metadata.compressionHistory`.
    pub fn push_compression(&mut self, at: &str, details: &Map<String, Value>) {
        self.add_to_count("compressionCount", 1);
        let mut note = Map::new();
        note.insert("timestamp".into(), at.into());
        note.extend(details.clone());
        self.with_metadata(|metadata| {
            let history = metadata
                .entry("compressionHistory".to_string())
                .or_insert_with(|| Value::Array(Vec::new()));
            if !history.is_array() {
                *history = Value::Array(Vec::new());
            }
            if let Value::Array(items) = history {
                items.push(Value::Object(note));
            }
        });
    }

    /// Merges head fields: a key set, `null` removes it; `sessionId`, the
    /// records and a patch that would make the session invalid are refused.
    pub fn apply_patch(&mut self, patch: &Map<String, Value>) -> Result<()> {
        let mut patched = self.fields.clone();
        for (key, value) in patch {
            if matches!(key.as_str(), "sessionId" | "messages" | "toolCalls") {
                continue;
            }
            if value.is_null() {
                patched.remove(key);
            } else {
                patched.insert(key.clone(), value.clone());
            }
        }
        let before = std::mem::replace(&mut self.fields, patched);
        if let Err(why) = self.session() {
            self.fields = before;
            return Err(Error::input(format!("the change would leave {why}")));
        }
        Ok(())
    }

    /// The document as the CLI writes it.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let head = lossless::to_vec_pretty(&self.fields)
            .map_err(|e| Error::input(format!("cannot encode the session: {e}")))?;
        match &self.kept {
            None => Ok(head),
            Some(kept) => kept
                .merge(&head)
                .ok_or_else(|| Error::input("cannot encode the session: its records were lost")),
        }
    }

    /// Writes the document over the file it was read from, at `path`, and
    /// over no other ([`replace_if_unchanged`]: temp file, fsync, exchange,
    /// fsync of the directory). Refuses a document that would not come
    /// back as it was read; [`Replaced::Changed`] when the file is not the
    /// one read any more (or the document was never read): read again.
    pub fn write(&self, id: &str, path: &Path) -> Result<Replaced> {
        if !self.exact {
            return Err(Error::input(format!(
                "session {id}'s file holds characters of U+10F800..U+10FFFF, which ollm uses to keep lone surrogates; it cannot rewrite {} without changing them",
                path.display()
            )));
        }
        let bytes = self.to_bytes()?;
        let Some(read) = self.stamp else {
            return Ok(Replaced::Changed);
        };
        let replaced = replace_if_unchanged(path, &bytes, read)?;
        if let (Replaced::Written(ours), Some(_)) = (&replaced, &self.kept) {
            splice::remember(path, *ours, bytes);
        }
        Ok(replaced)
    }
}
