//! The conversation as compression sees it: the input (a JSON array of spec
//! messages, or a whole session with `toolCalls`) validated and laid out as
//! one timeline of items, grouped into units that are kept or dropped whole.
//!
//! Items keep their original JSON so anything kept goes out byte-for-byte
//! as it came in (unknown fields included).

use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::session::{self, model::Place};

/// The marker field of a summary message this program wrote; later runs use
/// it to find earlier summaries (the dynamic budget subtracts them).
pub(crate) const SUMMARY_FIELD: &str = "compressionSummary";

/// Part types that carry a tool call inside a message (Gemini-, OpenAI- and
/// Anthropic-style names), and those that carry its result.
const CALL_PARTS: &[&str] = &[
    "tool_call",
    "toolCall",
    "function_call",
    "functionCall",
    "tool_use",
];
const RESULT_PARTS: &[&str] = &[
    "tool_result",
    "toolResult",
    "function_response",
    "functionResponse",
];

#[derive(Debug, Clone, PartialEq)]
pub enum ItemKind {
    /// A message; `index` is its position in the input `messages`.
    Message { index: usize, role: String },
    /// A session tool-call record (call and result in one); `index` is its
    /// position in the input `toolCalls`.
    ToolCall { index: usize },
}

/// One message or tool-call record of the timeline.
#[derive(Debug, Clone)]
pub struct Item {
    pub kind: ItemKind,
    pub value: Value,
}

impl Item {
    pub fn role(&self) -> &str {
        match &self.kind {
            ItemKind::Message { role, .. } => role,
            ItemKind::ToolCall { .. } => "tool",
        }
    }

    pub fn is_user(&self) -> bool {
        matches!(&self.kind, ItemKind::Message { role, .. } if role == "user")
    }

    pub fn is_summary(&self) -> bool {
        self.value.get(SUMMARY_FIELD).is_some()
    }

    pub fn timestamp(&self) -> Option<&str> {
        self.value.get("timestamp").and_then(Value::as_str)
    }

    /// The text a model would read for this item: the parts' text (an
    /// image as `[image]`, other parts as compact JSON), or a tool call's
    /// name, arguments and result.
    pub fn text(&self) -> String {
        match &self.kind {
            ItemKind::Message { .. } => {
                let parts = self.value.get("parts").and_then(Value::as_array);
                let mut out = String::new();
                for part in parts.into_iter().flatten() {
                    if !out.is_empty() {
                        out.push('\n');
                    }
                    match (part.get("type").and_then(Value::as_str), part.get("text")) {
                        (Some("text"), Some(Value::String(text))) => out.push_str(text),
                        _ if session::model::image::is_image(part) => {
                            out.push_str(session::model::image::IMAGE_TEXT);
                        }
                        _ => out.push_str(&part.to_string()),
                    }
                }
                out
            }
            ItemKind::ToolCall { .. } => {
                let name = self.value.get("name").and_then(Value::as_str).unwrap_or("");
                let args = self
                    .value
                    .get("args")
                    .map(Value::to_string)
                    .unwrap_or_default();
                let result = self.value.get("result");
                let content = match result.and_then(|r| r.get("llmContent")) {
                    Some(Value::String(text)) => text.clone(),
                    Some(other) => other.to_string(),
                    None => result.map(Value::to_string).unwrap_or_default(),
                };
                format!("{name}({args})\n{content}")
            }
        }
    }

    fn part_types(&self) -> Vec<&str> {
        self.value
            .get("parts")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|p| p.get("type").and_then(Value::as_str))
            .collect()
    }

    fn opens_tool_call(&self) -> bool {
        matches!(self.kind, ItemKind::Message { .. })
            && self.part_types().iter().any(|t| CALL_PARTS.contains(t))
    }

    fn is_tool_result(&self) -> bool {
        match &self.kind {
            ItemKind::ToolCall { .. } => true,
            ItemKind::Message { role, .. } => {
                role == "tool" || self.part_types().iter().any(|t| RESULT_PARTS.contains(t))
            }
        }
    }
}

/// The parsed input: the timeline, and the rest of a session document.
#[derive(Debug, Clone)]
pub struct History {
    pub items: Vec<Item>,
    /// Whether the input was a session object (it had `messages`).
    pub was_session: bool,
    /// Whether the input carried a `toolCalls` array.
    pub has_tool_calls: bool,
}

impl History {
    /// Parses the input document: an array of messages, or an object with
    /// `messages` (and optionally `toolCalls`), such as a whole session.
    pub fn from_json(value: Value) -> Result<History> {
        match value {
            Value::Array(messages) => Ok(History {
                items: timeline(messages_of(messages, "messages")?, Vec::new()),
                was_session: false,
                has_tool_calls: false,
            }),
            Value::Object(mut object) => {
                let messages = match object.remove("messages") {
                    Some(Value::Array(list)) => messages_of(list, "messages")?,
                    Some(other) => {
                        return Err(Error::input(format!(
                            "`messages` must be an array, not {}",
                            kind_of(&other)
                        )));
                    }
                    None => {
                        return Err(Error::input(
                            "expected a JSON array of messages or an object with `messages`",
                        ));
                    }
                };
                let (calls, has_tool_calls) = match object.remove("toolCalls") {
                    Some(Value::Array(list)) => (tool_calls_of(list)?, true),
                    Some(Value::Null) | None => (Vec::new(), false),
                    Some(other) => {
                        return Err(Error::input(format!(
                            "`toolCalls` must be an array, not {}",
                            kind_of(&other)
                        )));
                    }
                };
                Ok(History {
                    items: timeline(messages, calls),
                    was_session: true,
                    has_tool_calls,
                })
            }
            other => Err(Error::input(format!(
                "expected a JSON array of messages or a session object, not {}",
                kind_of(&other)
            ))),
        }
    }

    /// Builds a history from a stored session's message and tool-call
    /// lists, in the order the store gives (`order`; records it leaves out
    /// follow in [`timeline`] order).
    pub(crate) fn from_stored(
        messages: Vec<Value>,
        tool_calls: Vec<Value>,
        order: &[Place],
    ) -> Result<History> {
        let has_tool_calls = !tool_calls.is_empty();
        let mut messages: Vec<Option<Item>> = messages_of(messages, "messages")?
            .into_iter()
            .map(Some)
            .collect();
        let mut calls: Vec<Option<Item>> =
            tool_calls_of(tool_calls)?.into_iter().map(Some).collect();
        let mut items: Vec<Item> = order
            .iter()
            .filter_map(|place| match *place {
                Place::Message(i) => messages.get_mut(i).and_then(Option::take),
                Place::ToolCall(i) => calls.get_mut(i).and_then(Option::take),
            })
            .collect();
        let rest = timeline(
            messages.into_iter().flatten().collect(),
            calls.into_iter().flatten().collect(),
        );
        items.extend(rest);
        Ok(History {
            items,
            was_session: true,
            has_tool_calls,
        })
    }

    /// 1 when the first item is the system prompt (a message with role
    /// `system`), else 0: a history that starts with a user message (gemini's
    /// shape) has no system prompt to keep.
    pub(crate) fn system_len(&self) -> usize {
        match self.items.first() {
            Some(item) if matches!(&item.kind, ItemKind::Message { role, .. } if role == "system") => {
                1
            }
            _ => 0,
        }
    }

    /// Units after the system prompt: runs of items that are kept or dropped
    /// together. A message that makes a tool call forms one unit with the
    /// tool results (result messages, tool-call records) that follow it, so
    /// a call is never separated from its result. Returns item-index ranges.
    pub fn units(&self) -> Vec<std::ops::Range<usize>> {
        let mut units = Vec::new();
        let mut i = self.system_len();
        while i < self.items.len() {
            let start = i;
            i += 1;
            if self.items[start].opens_tool_call() {
                while i < self.items.len() && self.items[i].is_tool_result() {
                    i += 1;
                }
            } else if self.items[start].is_tool_result() {
                // Consecutive results with no opening message stay together too.
                while i < self.items.len()
                    && self.items[i].is_tool_result()
                    && matches!(self.items[i].kind, ItemKind::Message { .. })
                {
                    i += 1;
                }
            }
            units.push(start..i);
        }
        units
    }

    /// The items as output: messages, and tool-call records when the input had them.
    pub fn split(items: &[Item]) -> (Vec<Value>, Vec<Value>) {
        let mut messages = Vec::new();
        let mut calls = Vec::new();
        for item in items {
            match item.kind {
                ItemKind::Message { .. } => messages.push(item.value.clone()),
                ItemKind::ToolCall { .. } => calls.push(item.value.clone()),
            }
        }
        (messages, calls)
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn messages_of(list: Vec<Value>, name: &str) -> Result<Vec<Item>> {
    list.into_iter()
        .enumerate()
        .map(|(index, value)| {
            let at = format!("{name}[{index}]");
            let object = as_object(&value, &at)?;
            let role = match object.get("role") {
                Some(Value::String(role)) if !role.is_empty() => role.clone(),
                Some(other) => {
                    return Err(Error::input(format!(
                        "`{at}.role` must be a non-empty string, not {}",
                        kind_of(other)
                    )));
                }
                None => return Err(Error::input(format!("`{at}` has no `role`"))),
            };
            check_parts(object, &at)?;
            check_timestamp(object, &at)?;
            Ok(Item {
                kind: ItemKind::Message { index, role },
                value,
            })
        })
        .collect()
}

fn check_parts(object: &Map<String, Value>, at: &str) -> Result<()> {
    let parts = match object.get("parts") {
        Some(Value::Array(parts)) => parts,
        Some(other) => {
            return Err(Error::input(format!(
                "`{at}.parts` must be an array, not {}",
                kind_of(other)
            )));
        }
        None => return Err(Error::input(format!("`{at}` has no `parts`"))),
    };
    for (i, part) in parts.iter().enumerate() {
        let part = as_object(part, &format!("{at}.parts[{i}]"))?;
        if part.get("type").and_then(Value::as_str) == Some("text")
            && !matches!(part.get("text"), Some(Value::String(_)))
        {
            return Err(Error::input(format!(
                "`{at}.parts[{i}].text` must be a string"
            )));
        }
    }
    Ok(())
}

fn check_timestamp(object: &Map<String, Value>, at: &str) -> Result<()> {
    match object.get("timestamp") {
        None | Some(Value::String(_)) => Ok(()),
        Some(other) => Err(Error::input(format!(
            "`{at}.timestamp` must be an ISO 8601 string, not {}",
            kind_of(other)
        ))),
    }
}

fn as_object<'a>(value: &'a Value, at: &str) -> Result<&'a Map<String, Value>> {
    value
        .as_object()
        .ok_or_else(|| Error::input(format!("`{at}` must be an object, not {}", kind_of(value))))
}

fn tool_calls_of(list: Vec<Value>) -> Result<Vec<Item>> {
    list.into_iter()
        .enumerate()
        .map(|(index, value)| {
            let at = format!("toolCalls[{index}]");
            let object = as_object(&value, &at)?;
            if !matches!(object.get("name"), Some(Value::String(_))) {
                return Err(Error::input(format!("`{at}.name` must be a string")));
            }
            check_timestamp(object, &at)?;
            Ok(Item {
                kind: ItemKind::ToolCall { index },
                value,
            })
        })
        .collect()
}

/// Merges tool-call records into the message list in the one order every
/// program uses ([`session::model::timeline`]: parsed instants, a message
/// before a tool call on a tie).
fn timeline(messages: Vec<Item>, calls: Vec<Item>) -> Vec<Item> {
    if calls.is_empty() {
        return messages;
    }
    let message_times: Vec<&str> = messages
        .iter()
        .map(|m| m.timestamp().unwrap_or(""))
        .collect();
    let call_times: Vec<&str> = calls.iter().map(|c| c.timestamp().unwrap_or("")).collect();
    let order = session::model::timeline(&message_times, &call_times);
    let mut messages: Vec<Option<Item>> = messages.into_iter().map(Some).collect();
    let mut calls: Vec<Option<Item>> = calls.into_iter().map(Some).collect();
    order
        .into_iter()
        .filter_map(|place| match place {
            Place::Message(i) => messages[i].take(),
            Place::ToolCall(i) => calls[i].take(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn msg(role: &str, text: &str, ts: &str) -> Value {
        json!({"role": role, "parts": [{"type": "text", "text": text}], "timestamp": ts})
    }

    #[test]
    fn tool_call_records_are_placed_by_timestamp() {
        let session = json!({
            "messages": [
                msg("system", "s", "2026-01-01T10:00:00Z"),
                msg("user", "read it", "2026-01-01T10:00:01.5Z"),
                msg("assistant", "done", "2026-01-01T12:00:03+02:00")
            ],
            "toolCalls": [{"id": "c1", "name": "read_file", "args": {}, "result": {"llmContent": "x"}, "timestamp": "2026-01-01T10:00:02Z"}]
        });
        let history = History::from_json(session).unwrap();
        let roles: Vec<&str> = history.items.iter().map(Item::role).collect();
        assert_eq!(roles, ["system", "user", "tool", "assistant"]);
        assert!(history.has_tool_calls);
    }

    #[test]
    fn a_tool_call_message_and_its_results_form_one_unit() {
        let call = json!({"role": "assistant", "parts": [{"type": "functionCall", "name": "ls"}], "timestamp": "t2"});
        let result =
            json!({"role": "tool", "parts": [{"type": "text", "text": "a b"}], "timestamp": "t3"});
        let list = json!([
            msg("system", "s", "t0"),
            msg("user", "u", "t1"),
            call,
            result,
            msg("assistant", "a", "t4")
        ]);
        let history = History::from_json(list).unwrap();
        assert_eq!(history.units(), vec![1..2, 2..4, 4..5]);
        let list = json!([
            msg("user", "old", "t1"),
            msg("assistant", "a", "t2"),
            msg("user", "new", "t3")
        ]);
        let history = History::from_json(list).unwrap();
        assert_eq!(history.system_len(), 0);
        assert_eq!(history.units(), vec![0..1, 1..2, 2..3]);
    }

    #[test]
    fn wrong_types_are_named_by_path() {
        let err = History::from_json(json!([{"role": "user", "parts": "hi"}])).unwrap_err();
        assert!(err.to_string().contains("messages[0].parts"), "{err}");
        let err = History::from_json(json!([{"role": 3, "parts": []}])).unwrap_err();
        assert!(err.to_string().contains("messages[0].role"), "{err}");
        let err = History::from_json(json!("hello")).unwrap_err();
        assert!(err.to_string().contains("a string"), "{err}");
        let err =
            History::from_json(json!({"messages": [], "toolCalls": [{"id": 1}]})).unwrap_err();
        assert!(err.to_string().contains("toolCalls[0].name"), "{err}");
    }

    #[test]
    fn text_joins_parts_and_renders_tool_calls() {
        let item = Item {
            kind: ItemKind::ToolCall { index: 0 },
            value: json!({"name": "read_file", "args": {"path": "a"}, "result": {"llmContent": "body"}}),
        };
        assert_eq!(item.text(), "read_file({\"path\":\"a\"})\nbody");
        let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
        let picture = Item {
            kind: ItemKind::Message {
                index: 0,
                role: "user".into(),
            },
            value: json!({"role": "user", "parts": [{"type": "text", "text": "see"},
                {"type": "image", "mimeType": "image/png", "data": png}]}),
        };
        assert_eq!(
            picture.text(),
            "see\n[image]",
            "no base64 for a model to read"
        );
    }
}
