//! The lines on a conversation's path, parsed, and the items they make.

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::Value;

use super::parse::{self, Block, Content, Entry, Part};
use super::tree::{self, Kind, Tree};
use super::{is_call, text};
use crate::session::import::{Body, Call, Item, Outcome, Role, Transcript};

/// A line on a path, parsed, owning only what is imported.
#[derive(Debug, Default)]
pub struct Parsed {
    uuid: String,
    timestamp: Option<String>,
    cwd: Option<String>,
    model: Option<String>,
    messages: Vec<(Role, String)>,
    calls: Vec<(String, String, Value)>,
    results: Vec<(String, Outcome)>,
}

impl Parsed {
    pub fn of(entry: Entry<'_>) -> Parsed {
        let owned = |t: &parse::Text<'_>| t.as_str().map(str::to_owned);
        let mut parsed = Parsed {
            uuid: owned(&entry.uuid).unwrap_or_default(),
            timestamp: owned(&entry.timestamp),
            cwd: owned(&entry.cwd).filter(|cwd| !cwd.is_empty()),
            ..Parsed::default()
        };
        let kind = entry.kind.as_str().unwrap_or("");
        let message = entry.message.0;
        match kind {
            "assistant" => {
                let Some(message) = message else {
                    return parsed;
                };
                parsed.model = owned(&message.model).filter(|m| m != "<synthetic>");
                let mut texts = Vec::new();
                match message.content {
                    Content::Text(text) => texts.push(text.into_owned()),
                    Content::List(blocks) => {
                        for block in blocks.into_iter().filter_map(|b| b.0) {
                            parsed.block(block, &mut texts, None);
                        }
                    }
                    Content::Other => {}
                }
                let text = join(texts);
                if !text.is_empty() {
                    parsed.messages.push((Role::Assistant, text));
                }
            }
            "user" => {
                if entry.is_meta.0 {
                    return parsed;
                }
                let Some(message) = message else {
                    return parsed;
                };
                let mut texts = Vec::new();
                let fallback = entry.tool_use_result.as_str();
                match message.content {
                    Content::Text(text) => texts.push(text.into_owned()),
                    Content::List(blocks) => {
                        for block in blocks.into_iter().filter_map(|b| b.0) {
                            parsed.block(block, &mut texts, fallback);
                        }
                    }
                    Content::Other => {}
                }
                if entry.is_compact_summary.0 {
                    let summary = join(texts);
                    if !summary.trim().is_empty() {
                        parsed.messages.push((Role::System, summary));
                    }
                } else {
                    parsed.classify(texts);
                }
            }
            "system" if entry.subtype.as_str() == Some("local_command") => {
                if let Some(content) = entry.content.as_str() {
                    parsed.classify(vec![content.to_owned()]);
                }
            }
            _ => {}
        }
        parsed
    }

    fn block(&mut self, block: Block<'_>, texts: &mut Vec<String>, fallback: Option<&str>) {
        let kind = block.kind.as_str().unwrap_or("");
        if let Some(id) = block.tool_use_id.as_str() {
            let mut text = match block.content {
                Content::Text(text) => text.into_owned(),
                Content::List(parts) => join(
                    parts
                        .into_iter()
                        .filter_map(|p| p.0)
                        .filter_map(|Part { kind, text }| {
                            (kind.as_str() == Some("text")).then_some(text.0?.into_owned())
                        })
                        .collect(),
                ),
                Content::Other => String::new(),
            };
            if text.is_empty() {
                fallback.unwrap_or("").clone_into(&mut text);
            }
            let outcome = if block.is_error.0 {
                Outcome::Failed(text)
            } else {
                Outcome::Done(text)
            };
            self.results.push((id.to_owned(), outcome));
        } else if is_call(kind) {
            let id = block.id.as_str().unwrap_or("").to_owned();
            let name = block.name.as_str().unwrap_or(kind).to_owned();
            let args = crate::session::import::arguments(block.input.unwrap_or(Value::Null));
            self.calls.push((id, name, args));
        } else if kind == "text"
            && let Some(text) = block.text.0
        {
            texts.push(text.into_owned());
        }
    }

    /// A user line's texts, as the messages they are.
    fn classify(&mut self, texts: Vec<String>) {
        let mut user = Vec::new();
        for text in texts {
            match text::classify(&text) {
                Some((Role::User, text)) => user.push(text),
                Some((role, text)) if !text.trim().is_empty() => self.messages.push((role, text)),
                _ => {}
            }
        }
        let user = join(user);
        if !user.is_empty() {
            self.messages.insert(0, (Role::User, user));
        }
    }
}

fn join(texts: Vec<String>) -> String {
    let mut texts: Vec<String> = texts.into_iter().filter(|t| !t.trim().is_empty()).collect();
    if texts.len() == 1 {
        return texts.pop().unwrap_or_default();
    }
    texts.join("\n\n")
}

/// The items of `conversation` from the parsed lines, in order.
pub fn assemble(
    transcript: &mut Transcript,
    tree: &Tree,
    conversation: &tree::Conversation,
    off_path: &[u64],
    parsed: &mut HashMap<u64, Option<Parsed>>,
) {
    let mut items: Vec<Item> = Vec::new();
    let mut response_at: HashMap<u64, usize> = HashMap::new();
    let mut calls: HashMap<String, usize> = HashMap::new();
    let mut results: HashMap<String, Outcome> = HashMap::new();
    for &at in &conversation.path {
        let node = &tree.nodes[at as usize];
        let Some(line) = parsed.get_mut(&node.line).and_then(Option::take) else {
            continue;
        };
        if transcript.started.is_none() {
            transcript.started.clone_from(&line.timestamp);
        }
        if line.timestamp.is_some() {
            transcript.updated.clone_from(&line.timestamp);
        }
        if transcript.cwd.is_none() {
            transcript.cwd = line.cwd.as_ref().map(PathBuf::from);
        }
        if line.model.is_some() {
            transcript.model = line.model;
        }
        let timestamp = line.timestamp;
        let response = (node.kind == Kind::Assistant && node.msg_id != 0).then_some(node.msg_id);
        for (n, (role, text)) in line.messages.into_iter().enumerate() {
            if let (Role::Assistant, Some(id)) = (role, response)
                && let Some(&i) = response_at.get(&id)
            {
                if let Body::Message { text: merged, .. } = &mut items[i].body {
                    if !merged.is_empty() {
                        merged.push_str("\n\n");
                    }
                    merged.push_str(&text);
                }
                continue;
            }
            if let (Role::Assistant, Some(id)) = (role, response) {
                response_at.insert(id, items.len());
            }
            let key = if n == 0 {
                line.uuid.clone()
            } else {
                format!("{}#{n}", line.uuid)
            };
            items.push(Item {
                key,
                timestamp: timestamp.clone(),
                body: Body::Message { role, text },
            });
        }
        if let Some(id) = response
            && !response_at.contains_key(&id)
        {
            // A response whose first line holds no text (thinking, a call)
            // still keys its merged message by that first line.
            response_at.insert(id, items.len());
            items.push(Item {
                key: line.uuid.clone(),
                timestamp: timestamp.clone(),
                body: Body::Message {
                    role: Role::Assistant,
                    text: String::new(),
                },
            });
        }
        for (n, (call_id, name, args)) in line.calls.into_iter().enumerate() {
            let key = if call_id.is_empty() {
                format!("{}#call{n}", line.uuid)
            } else {
                call_id.clone()
            };
            if calls.contains_key(&key) {
                continue;
            }
            calls.insert(key.clone(), items.len());
            items.push(Item {
                key,
                timestamp: timestamp.clone(),
                body: Body::ToolCall(Call {
                    call_id,
                    name,
                    args,
                    outcome: Outcome::NoResult("interrupted"),
                }),
            });
        }
        for (id, outcome) in line.results {
            results.insert(id, outcome);
        }
    }
    for line in off_path {
        if let Some(Some(holder)) = parsed.get(line) {
            for (id, outcome) in &holder.results {
                results.entry(id.clone()).or_insert_with(|| outcome.clone());
            }
        }
    }
    for item in &mut items {
        if let Body::ToolCall(call) = &mut item.body
            && let Some(outcome) = results.remove(&call.call_id)
        {
            call.outcome = outcome;
        }
    }
    items
        .retain(|item| !matches!(&item.body, Body::Message { text, .. } if text.trim().is_empty()));
    transcript.items = items;
}
