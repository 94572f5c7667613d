//! One message's parts turned into items: text and image parts
//! (consecutive ones joined) and tool parts, each tool part holding its
//! call and its result.

use serde_json::{Value, json};

use super::super::{Body, Call, Item, Outcome, Role, Skipped, arguments};
use crate::session::model::image;
use crate::timestamp::format_millis;

/// Builds the items of one message in order, joining consecutive text and
/// image parts into one message keyed by the first text among them (the
/// key it had before images were kept, so importing again adds no copy).
pub struct Turn<'a> {
    role: Role,
    time: Option<String>,
    items: &'a mut Vec<Item>,
    /// The message so far: its key, texts and images.
    text: Option<(String, Vec<String>, Vec<Value>)>,
}

impl<'a> Turn<'a> {
    pub fn new(role: Role, time: Option<String>, items: &'a mut Vec<Item>) -> Turn<'a> {
        Turn {
            role,
            time,
            items,
            text: None,
        }
    }

    pub fn text(&mut self, key: &str, text: &str) {
        if text.trim().is_empty() {
            return;
        }
        match &mut self.text {
            Some((first, texts, _)) => {
                if texts.is_empty() {
                    *first = key.to_string();
                }
                texts.push(text.to_string());
            }
            None => self.text = Some((key.to_string(), vec![text.to_string()], Vec::new())),
        }
    }

    pub fn image(&mut self, key: &str, part: Value) {
        match &mut self.text {
            Some((_, _, images)) => images.push(part),
            None => self.text = Some((key.to_string(), Vec::new(), vec![part])),
        }
    }

    pub fn call(&mut self, key: String, time: Option<String>, call: Call) {
        self.flush();
        self.items.push(Item {
            key,
            timestamp: time.or_else(|| self.time.clone()),
            body: Body::ToolCall(call),
        });
    }

    fn flush(&mut self) {
        if let Some((key, texts, images)) = self.text.take() {
            self.items.push(Item {
                key,
                timestamp: self.time.clone(),
                body: Body::Message {
                    role: self.role,
                    text: texts.join("\n\n"),
                    images,
                },
            });
        }
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        self.flush();
    }
}

/// A 1.x part (`MessageV2.Part` without its ids) added to `turn`. Text the
/// user did not write (`synthetic`, `ignored`), reasoning, files other than
/// images (an image's `url` is a `data:` URL when pasted) and the
/// bookkeeping parts (steps, snapshots, patches, …) are left out; a kind
/// this reader does not know is counted.
pub fn part(turn: &mut Turn<'_>, id: &str, part: &Value, skipped: &mut Skipped) {
    let flag = |name: &str| part.get(name).and_then(Value::as_bool) == Some(true);
    match str_of(part, "type") {
        Some("text") => {
            if !flag("synthetic") && !flag("ignored") {
                turn.text(id, str_of(part, "text").unwrap_or_default());
            }
        }
        Some("tool") => {
            let state = part.get("state").unwrap_or(&Value::Null);
            let time = state
                .pointer("/time/start")
                .and_then(Value::as_i64)
                .map(format_millis);
            let call = Call {
                call_id: str_of(part, "callID").unwrap_or(id).to_string(),
                name: str_of(part, "tool").unwrap_or("tool").to_string(),
                args: input_of(state),
                outcome: v1_outcome(state),
            };
            turn.call(id.to_string(), time, call);
        }
        // The oldest storage kept AI SDK parts inline in the message.
        Some("tool-invocation") => {
            let invocation = part.get("toolInvocation").unwrap_or(&Value::Null);
            let outcome = match (str_of(invocation, "state"), invocation.get("result")) {
                (Some("result"), Some(result)) => Outcome::Done(text_of(result)),
                _ => Outcome::NoResult("running"),
            };
            let call = Call {
                call_id: str_of(invocation, "toolCallId").unwrap_or(id).to_string(),
                name: str_of(invocation, "toolName").unwrap_or("tool").to_string(),
                args: arguments(invocation.get("args").cloned().unwrap_or(json!({}))),
                outcome,
            };
            turn.call(id.to_string(), None, call);
        }
        Some("file") => {
            if str_of(part, "mime").is_some_and(|mime| mime.starts_with("image/")) {
                turn.image(
                    id,
                    image::part_from_url(str_of(part, "url").unwrap_or_default()),
                );
            }
        }
        Some(
            "reasoning" | "step-start" | "step-finish" | "snapshot" | "patch" | "agent" | "retry"
            | "compaction" | "subtask" | "source-url",
        ) => {}
        _ => skipped.unknown_kinds += 1,
    }
}

/// A tool part's input: what it was called with (`raw`, the input still
/// streaming, when that is all there is).
fn input_of(state: &Value) -> Value {
    match state.get("input") {
        Some(input) if !input.is_null() => arguments(input.clone()),
        _ => state
            .get("raw")
            .cloned()
            .map(arguments)
            .unwrap_or(json!({})),
    }
}

/// `state.status`: `completed` has the output, `error` the error; `pending`
/// and `running` have no result yet.
fn v1_outcome(state: &Value) -> Outcome {
    match str_of(state, "status") {
        Some("completed") => Outcome::Done(state.get("output").map(text_of).unwrap_or_default()),
        Some("error") => Outcome::Failed(state.get("error").map(text_of).unwrap_or_default()),
        Some("pending") => Outcome::NoResult("pending"),
        _ => Outcome::NoResult("running"),
    }
}

/// A 2.x assistant's tool item (`{type:"tool", id, name, state}`): its
/// state is `streaming`, `running`, `completed` (with `content`) or
/// `error` (with `error.message`).
pub fn v2_call(item: &Value, fallback_id: &str) -> Call {
    let state = item.get("state").unwrap_or(&Value::Null);
    let outcome = match str_of(state, "status") {
        Some("completed") => Outcome::Done(content_text(state.get("content"))),
        Some("error") => Outcome::Failed(match state.get("error") {
            Some(error) => str_of(error, "message").map_or_else(|| text_of(error), str::to_string),
            None => String::new(),
        }),
        Some("streaming" | "pending") => Outcome::NoResult("pending"),
        _ => Outcome::NoResult("running"),
    };
    Call {
        call_id: str_of(item, "id").unwrap_or(fallback_id).to_string(),
        name: str_of(item, "name").unwrap_or("tool").to_string(),
        args: input_of(state),
        outcome,
    }
}

/// The text items of a 2.x tool result's `content` (files named only).
fn content_text(content: Option<&Value>) -> String {
    let Some(Value::Array(items)) = content else {
        return content.map(text_of).unwrap_or_default();
    };
    items
        .iter()
        .filter_map(|item| match str_of(item, "type") {
            Some("text") => str_of(item, "text").map(str::to_string),
            Some("file") => Some(format!(
                "[file: {}]",
                str_of(item, "name")
                    .or_else(|| str_of(item, "uri"))
                    .unwrap_or_default()
            )),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A value as the model saw it: a string as it is, anything else as JSON.
pub fn text_of(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

pub fn str_of<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value.get(key).and_then(Value::as_str)
}

/// `Role` of a 1.x message's `role`.
pub fn role_of(message: &Value) -> Option<Role> {
    match str_of(message, "role") {
        Some("user") => Some(Role::User),
        Some("assistant") => Some(Role::Assistant),
        _ => None,
    }
}

/// Model and provider a 1.x message names: an assistant's
/// `modelID`/`providerID`, a user's `model.{modelID,providerID}`.
pub fn model_of(message: &Value) -> Option<(String, Option<String>)> {
    if let Some(model) = str_of(message, "modelID") {
        return Some((model.into(), str_of(message, "providerID").map(Into::into)));
    }
    let meta = message.pointer("/metadata/assistant")?;
    Some((
        str_of(meta, "modelID")?.into(),
        str_of(meta, "providerID").map(Into::into),
    ))
}
