//! goose messages (`Message` {id, role, created, content, metadata}) turned
//! into items, tool requests paired with the responses that come in later
//! messages by their id.

use std::collections::{BTreeSet, HashMap, HashSet};

use serde_json::{Value, json};

use super::super::{Body, Call, Item, Outcome, Role, Skipped, arguments};
use crate::session::model::image;
use crate::timestamp::format_millis;

/// A session's items as its messages are read. Items are numbered from
/// the session's first (`base` of them were taken out already), so that a
/// session can be read twice: once learning which calls a later message
/// answers ([`Conversation::answered`]), then handing items over as soon
/// as no later message can change them ([`Conversation::take_ready`]).
#[derive(Default)]
pub struct Conversation {
    pub items: Vec<Item>,
    /// How many items were taken out before `items[0]`.
    base: usize,
    /// Calls waiting for their response: call id → item number.
    pending: HashMap<String, usize>,
    /// The calls a response answered, by item number.
    pub answered: HashSet<usize>,
    /// Read again knowing `answered`: the calls a later message will
    /// answer (held until it does).
    expected: Option<HashSet<usize>>,
    held: BTreeSet<usize>,
    /// The last model and provider a message's `metadata.inference` named.
    pub model: Option<String>,
    pub provider: Option<String>,
}

fn str_of<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value.get(key).and_then(Value::as_str)
}

/// `created` in seconds (milliseconds when it is that large) as RFC 3339.
pub fn time_of(created: i64) -> String {
    if created.abs() >= 100_000_000_000 {
        format_millis(created)
    } else {
        format_millis(created.saturating_mul(1000))
    }
}

impl Conversation {
    /// A conversation read again, `answered` as the first reading found.
    pub fn expecting(answered: HashSet<usize>) -> Conversation {
        Conversation {
            expected: Some(answered),
            ..Conversation::default()
        }
    }

    /// The items no later message can change (all of them when the calls
    /// still waiting are ones nothing answers).
    pub fn take_ready(&mut self) -> Vec<Item> {
        let ready = self
            .held
            .first()
            .map_or(self.items.len(), |&at| at.saturating_sub(self.base))
            .min(self.items.len());
        self.base += ready;
        self.items.drain(..ready).collect()
    }

    /// Drops the items read so far, keeping what pairs later responses.
    pub fn forget_items(&mut self) {
        self.base += self.items.len();
        self.items.clear();
    }

    /// One message: `key` identifies it (its id or row), `content` is its
    /// `MessageContent` list. A message not `userVisible` (a compaction
    /// summary, context only the agent sees) is not imported, but the
    /// responses in it still answer their calls.
    pub fn message(
        &mut self,
        key: &str,
        role: Role,
        created: Option<i64>,
        content: &Value,
        metadata: Option<&Value>,
        skipped: &mut Skipped,
    ) {
        let visible = metadata
            .and_then(|m| m.get("userVisible"))
            .and_then(Value::as_bool)
            != Some(false);
        if let Some(inference) = metadata.and_then(|m| m.get("inference")) {
            if let Some(model) =
                str_of(inference, "resolvedModel").or_else(|| str_of(inference, "requestedModel"))
            {
                self.model = Some(model.to_string());
            }
            if let Some(provider) = str_of(inference, "provider") {
                self.provider = Some(provider.to_string());
            }
        }
        let time = created.map(time_of);
        let Some(blocks) = content.as_array() else {
            skipped.unreadable += 1;
            return;
        };
        if !visible && blocks.iter().any(|b| str_of(b, "type") == Some("text")) {
            // Text only the agent saw (a compaction summary, context).
            skipped.not_typed += 1;
        }
        // The message so far: its key, texts and images.
        let mut text: Option<(String, Vec<&str>, Vec<Value>)> = None;
        for (index, block) in blocks.iter().enumerate() {
            match str_of(block, "type") {
                Some("text") => {
                    let body = str_of(block, "text").unwrap_or_default();
                    if visible && !body.trim().is_empty() {
                        let message = text.get_or_insert_with(|| {
                            (format!("{key}#{index}"), Vec::new(), Vec::new())
                        });
                        if message.1.is_empty() {
                            // Keyed by its first text, as before images
                            // were kept: importing again adds no copy.
                            message.0 = format!("{key}#{index}");
                        }
                        message.1.push(body);
                    }
                }
                Some("toolRequest" | "frontendToolRequest") => {
                    if visible {
                        self.flush(&mut text, role, &time);
                        self.request(format!("{key}#{index}"), block, &time);
                    }
                }
                Some("toolResponse") => self.response(block),
                Some("image") => {
                    if visible {
                        let part = image::part_from_base64(
                            str_of(block, "mimeType").unwrap_or_default(),
                            str_of(block, "data").unwrap_or_default(),
                        );
                        text.get_or_insert_with(|| {
                            (format!("{key}#{index}"), Vec::new(), Vec::new())
                        })
                        .2
                        .push(part);
                    }
                }
                Some(
                    "thinking"
                    | "redactedThinking"
                    | "reasoning"
                    | "toolConfirmationRequest"
                    | "actionRequired"
                    | "systemNotification"
                    | "summarizationRequested"
                    | "contextLengthExceeded"
                    | "conversationCompacted",
                ) => {}
                _ => skipped.unknown_kinds += 1,
            }
        }
        self.flush(&mut text, role, &time);
    }

    fn flush(
        &mut self,
        text: &mut Option<(String, Vec<&str>, Vec<Value>)>,
        role: Role,
        time: &Option<String>,
    ) {
        if let Some((key, texts, images)) = text.take() {
            self.items.push(Item {
                key,
                timestamp: time.clone(),
                body: Body::Message {
                    role,
                    text: texts.join("\n\n"),
                    images,
                },
            });
        }
    }

    /// A `toolRequest`: `toolCall` is `{status:"success", value:{name,
    /// arguments}}`, or `{status:"error", error}` when the model's call
    /// could not be parsed (then it failed before it ran).
    fn request(&mut self, key: String, block: &Value, time: &Option<String>) {
        let id = str_of(block, "id").unwrap_or(&key).to_string();
        let call = block.get("toolCall").unwrap_or(&Value::Null);
        let (name, args, outcome) = match str_of(call, "status") {
            Some("error") => (
                "unknown".to_string(),
                json!({}),
                Outcome::Failed(str_of(call, "error").unwrap_or_default().to_string()),
            ),
            _ => {
                let value = call.get("value").unwrap_or(&Value::Null);
                (
                    str_of(value, "name").unwrap_or("tool").to_string(),
                    arguments(value.get("arguments").cloned().unwrap_or(json!({}))),
                    Outcome::NoResult("interrupted"),
                )
            }
        };
        let at = self.base + self.items.len();
        if matches!(outcome, Outcome::NoResult(_)) {
            self.pending.insert(id.clone(), at);
            if self.expected.as_ref().is_some_and(|e| e.contains(&at)) {
                self.held.insert(at);
            }
        }
        self.items.push(Item {
            key,
            timestamp: time.clone(),
            body: Body::ToolCall(Call {
                call_id: id,
                name,
                args,
                outcome,
            }),
        });
    }

    /// A `toolResponse`: `toolResult` is `{status:"success", value}` with
    /// `value` a `CallToolResult` (`{content, isError}`) or, from older
    /// versions, the content list itself; or `{status:"error", error}`.
    fn response(&mut self, block: &Value) {
        let Some(at) = str_of(block, "id").and_then(|id| self.pending.remove(id)) else {
            return;
        };
        self.answered.insert(at);
        self.held.remove(&at);
        let Some(index) = at.checked_sub(self.base) else {
            return;
        };
        let result = block.get("toolResult").unwrap_or(&Value::Null);
        let outcome = match str_of(result, "status") {
            Some("error") => {
                Outcome::Failed(str_of(result, "error").unwrap_or_default().to_string())
            }
            _ => {
                let value = result.get("value").unwrap_or(&Value::Null);
                let (content, failed) = match value {
                    Value::Array(_) => (value, false),
                    _ => (
                        value.get("content").unwrap_or(&Value::Null),
                        value.get("isError").and_then(Value::as_bool) == Some(true),
                    ),
                };
                let text = content_text(content);
                if failed {
                    Outcome::Failed(text)
                } else {
                    Outcome::Done(text)
                }
            }
        };
        if let Some(Body::ToolCall(call)) = self.items.get_mut(index).map(|i| &mut i.body) {
            call.outcome = outcome;
        }
    }
}

/// MCP content as text: text items as they are, a resource's text, images
/// and blobs named only.
fn content_text(content: &Value) -> String {
    let Some(items) = content.as_array() else {
        return String::new();
    };
    items
        .iter()
        .filter_map(|item| match str_of(item, "type") {
            Some("text") => str_of(item, "text").map(str::to_string),
            Some("resource") => {
                let resource = item.get("resource")?;
                str_of(resource, "text").map(str::to_string).or_else(|| {
                    Some(format!(
                        "[resource {}]",
                        str_of(resource, "uri").unwrap_or_default()
                    ))
                })
            }
            Some("image") => Some("[image]".to_string()),
            Some("audio") => Some("[audio]".to_string()),
            Some("resource_link") => Some(format!(
                "[resource {}]",
                str_of(item, "uri").unwrap_or_default()
            )),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `Role` of a message's `role`.
pub fn role_of(role: &str) -> Option<Role> {
    match role {
        "user" => Some(Role::User),
        "assistant" => Some(Role::Assistant),
        _ => None,
    }
}
