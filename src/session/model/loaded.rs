//! A whole session as a store hands it over, and the one function that
//! rebuilds it from the records a store keeps (the journal's lines, the
//! database's rows) in the order they were written.

use serde_json::{Map, Value};

use super::{Entry, Message, Place, Session, SessionHead, ToolCall};

/// A whole session and the order of its records.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub session: Session,
    /// Messages and tool calls in the order they were recorded (for a
    /// document that does not record it, merged by timestamp).
    pub order: Vec<Place>,
    /// Each place's recorded token count (`None`: counted in the head).
    pub tokens: Vec<Option<u64>>,
}

impl Loaded {
    /// A session that does not record the interleaving of its messages and
    /// tool calls (the OLLM CLI's document): ordered by [`super::timeline`],
    /// every token counted in its metadata.
    pub fn from_session(session: Session) -> Loaded {
        let messages: Vec<&str> = session.messages.iter().map(Message::timestamp).collect();
        let calls: Vec<&str> = session.tool_calls.iter().map(ToolCall::timestamp).collect();
        let order = super::timeline(&messages, &calls);
        let tokens = vec![None; order.len()];
        Loaded {
            session,
            order,
            tokens,
        }
    }

    /// The records in their order, each with its token count.
    pub fn entries(&self) -> Vec<(Entry, Option<u64>)> {
        self.order
            .iter()
            .zip(&self.tokens)
            .map(|(place, tokens)| (self.entry(*place), *tokens))
            .collect()
    }

    /// The message or tool call at `place`.
    pub fn entry(&self, place: Place) -> Entry {
        match place {
            Place::Message(i) => Entry::Message(self.session.messages[i].clone()),
            Place::ToolCall(i) => Entry::ToolCall(self.session.tool_calls[i].clone()),
        }
    }
}

/// One record a store keeps after a session's head.
#[derive(Debug, Clone, PartialEq)]
pub enum Stored {
    /// A message or tool call; `at` is the session's lastActivity once it
    /// was recorded, `tokens` its share of `metadata.tokenCount` (`None`:
    /// already counted in the head).
    Entry {
        at: String,
        tokens: Option<u64>,
        entry: Entry,
    },
    /// A compression noted in `metadata.compressionHistory`.
    Compression {
        at: String,
        details: Map<String, Value>,
    },
    /// Head fields changed (see [`SessionHead::apply_patch`]).
    Update {
        at: String,
        patch: Map<String, Value>,
    },
    /// A kind this version does not know (a newer writer's): skipped.
    Other { at: Option<String> },
}

/// The session `head` and its `records` (in the order they were written)
/// make: every store that keeps records rebuilds a session through this.
pub fn rebuild(head: SessionHead, records: impl IntoIterator<Item = Stored>) -> Loaded {
    let mut head = head;
    let (mut messages, mut tool_calls) = (Vec::new(), Vec::new());
    let (mut order, mut tokens, mut history) = (Vec::new(), Vec::new(), Vec::new());
    let mut token_sum = 0u64;
    let mut last_at: Option<String> = None;
    for record in records {
        match record {
            Stored::Entry {
                at,
                tokens: t,
                entry,
            } => {
                match entry {
                    Entry::Message(m) => {
                        order.push(Place::Message(messages.len()));
                        messages.push(m);
                    }
                    Entry::ToolCall(c) => {
                        order.push(Place::ToolCall(tool_calls.len()));
                        tool_calls.push(c);
                    }
                }
                tokens.push(t);
                token_sum = token_sum.saturating_add(t.unwrap_or(0));
                last_at = Some(at);
            }
            Stored::Compression { at, details } => {
                let mut note = Map::new();
                note.insert("timestamp".into(), Value::String(at.clone()));
                note.extend(details);
                history.push(Value::Object(note));
                last_at = Some(at);
            }
            Stored::Update { at, patch } => {
                head.apply_patch(&patch);
                last_at = Some(at);
            }
            Stored::Other { at } => {
                if at.is_some() {
                    last_at = at;
                }
            }
        }
    }
    let mut session = Session::from_head(head, messages, tool_calls);
    if session.last_activity.is_empty() {
        session.last_activity = session.start_time.clone();
    }
    if let Some(at) = last_at {
        session.last_activity = at;
    }
    session.metadata.token_count = session.metadata.token_count.saturating_add(token_sum);
    session.metadata.compression_count += history.len() as u64;
    session.metadata.compression_history.extend(history);
    Loaded {
        session,
        order,
        tokens,
    }
}
