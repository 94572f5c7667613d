//! The records of a session: a message and a tool call, each kept as the
//! JSON object it was given (so nothing a writer put in it is lost), and
//! what `record` accepts as one ([`Entry`]) with its token estimate.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::image::{IMAGE_TEXT, IMAGE_TOKENS, is_image};
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
    /// part kinds), joined by newlines; an image is `[image]`, its data
    /// never text.
    pub fn text_content(&self) -> String {
        let mut out = Vec::new();
        for part in self.parts() {
            match part.get("text").and_then(Value::as_str) {
                Some(text) => out.push(text.to_string()),
                None if is_image(part) => out.push(IMAGE_TEXT.to_string()),
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

/// The strings inside `value`, `type` tags and images' data left out.
fn collect_strings(value: &Value, out: &mut Vec<String>) {
    if is_image(value) {
        return;
    }
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
/// value carries (every string inside it, `type` tags excluded), and
/// [`IMAGE_TOKENS`] for each image part in it. Used for
/// `metadata.tokenCount` until the toolkit's shared BPE tokenizer
/// (`ollm-compress`) is available; a caller with a real count passes it to
/// `record --tokens` instead.
pub(crate) fn estimate_tokens(value: &Value) -> u64 {
    text_chars(value).div_ceil(4) as u64 + images_in(value) * IMAGE_TOKENS
}

fn images_in(value: &Value) -> u64 {
    match value {
        _ if is_image(value) => 1,
        Value::Array(items) => items.iter().map(images_in).sum(),
        Value::Object(map) => map.values().map(images_in).sum(),
        _ => 0,
    }
}

fn text_chars(value: &Value) -> usize {
    let mut strings = Vec::new();
    collect_strings(value, &mut strings);
    strings.iter().map(|s| s.chars().count()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
    fn tool_results_are_recognised() {
        let m: Message = serde_json::from_value(json!({
            "role": "user", "timestamp": "t",
            "parts": [{"functionResponse": {"name": "f", "response": {}}}]
        }))
        .unwrap();
        assert!(m.is_tool_result());
        assert!(!Message::text("user", "hi", "t").is_tool_result());
    }

    #[test]
    fn an_image_is_a_fixed_cost_and_no_text() {
        let data = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
        let m: Message = serde_json::from_value(json!({
            "role": "user", "timestamp": "t",
            "parts": [{"type": "text", "text": "abcdefgh"},
                      {"type": "image", "mimeType": "image/png", "data": data}]
        }))
        .unwrap();
        assert_eq!(m.text_content(), "abcdefgh\n[image]");
        assert_eq!(
            Entry::Message(m).estimated_tokens(),
            2 + IMAGE_TOKENS,
            "the base64 is not counted as text"
        );
    }
}
