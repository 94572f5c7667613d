//! A line on a conversation's path, parsed into what it imports.

use serde_json::Value;

use super::parse::{self, Block, Content, Entry, Part};
use super::{is_call, text};
use crate::session::import::{Outcome, Role};
use crate::session::model::image;

/// A line on a path, parsed, owning only what is imported.
#[derive(Debug, Default)]
pub struct Parsed {
    pub(super) uuid: String,
    pub(super) timestamp: Option<String>,
    pub(super) cwd: Option<String>,
    pub(super) model: Option<String>,
    pub(super) messages: Vec<(Role, String)>,
    /// The images of the user's prompt, as the parts they are stored as
    /// (on the line's first user message).
    pub(super) images: Vec<Value>,
    pub(super) calls: Vec<(String, String, Value)>,
    pub(super) results: Vec<(String, Outcome)>,
    /// The slash command the line records (as typed), and whether the line
    /// is a `system/local_command` (Claude Code's copy of one).
    pub(super) command: Option<String>,
    pub(super) local_command: bool,
    /// Texts recorded as the user's that they did not type (`isMeta`
    /// lines, interruption markers), left out.
    pub(super) not_typed: u64,
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
                    parsed.not_typed += 1;
                    return parsed;
                }
                let Some(message) = message else {
                    return parsed;
                };
                let mut texts = Vec::new();
                let fallback = entry.tool_use_result.as_str();
                let mut images = Vec::new();
                match message.content {
                    Content::Text(text) => texts.push(text.into_owned()),
                    Content::List(blocks) => {
                        for block in blocks.into_iter().filter_map(|b| b.0) {
                            if block.kind.as_str() == Some("image") {
                                images.push(image_part(block.source.as_ref()));
                            }
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
                    if !images.is_empty() && parsed.results.is_empty() {
                        // A prompt's images (pasted or dropped) go with its
                        // text, or make a message of their own.
                        if !parsed.messages.iter().any(|(role, _)| *role == Role::User) {
                            parsed.messages.insert(0, (Role::User, String::new()));
                        }
                        parsed.images = images;
                    }
                }
            }
            "system" if entry.subtype.as_str() == Some("local_command") => {
                parsed.local_command = true;
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
                Some((Role::User, typed)) => {
                    if text::is_command(&text) {
                        self.command = Some(typed.clone());
                    }
                    user.push(typed);
                }
                Some((role, text)) if !text.trim().is_empty() => self.messages.push((role, text)),
                None if text::is_marker(text.trim()) => self.not_typed += 1,
                _ => {}
            }
        }
        let user = join(user);
        if !user.is_empty() {
            self.messages.insert(0, (Role::User, user));
        }
    }
}

/// The part an image block is stored as ([`image`]).
fn image_part(source: Option<&Value>) -> Value {
    let field = |name: &str| source.and_then(|s| s.get(name)).and_then(Value::as_str);
    match field("type") {
        Some("base64") => image::part_from_base64(
            field("media_type").unwrap_or(""),
            field("data").unwrap_or(""),
        ),
        Some("url") => image::part_from_url(field("url").unwrap_or("")),
        _ => serde_json::json!({"type": "text", "text": image::IMAGE_TEXT}),
    }
}

/// The slash commands of the lines on a path, to leave out Claude Code's
/// `system/local_command` copy of one typed just before (written as a
/// `user` line and then again as a `system` line).
#[derive(Debug, Default)]
pub struct CommandCopies {
    last: Option<String>,
}

impl CommandCopies {
    /// Takes the copy of the command just typed out of `line` (of an
    /// assistant line when `assistant`); returns how many records that
    /// left out (0 or 1).
    pub fn take_copy(&mut self, line: &mut Parsed, assistant: bool) -> u64 {
        if line.local_command {
            // A copy answers one `user` line; two commands recorded only
            // as `system` lines are two commands.
            let typed = self.last.take();
            if let Some(command) = &line.command
                && typed.as_ref() == Some(command)
            {
                line.messages
                    .retain(|(role, text)| !(*role == Role::User && text == command));
                return 1;
            }
        } else if assistant || line.messages.iter().any(|(role, _)| *role == Role::User) {
            self.last.clone_from(&line.command);
        }
        0
    }
}

fn join(texts: Vec<String>) -> String {
    let mut texts: Vec<String> = texts.into_iter().filter(|t| !t.trim().is_empty()).collect();
    if texts.len() == 1 {
        return texts.pop().unwrap_or_default();
    }
    texts.join("\n\n")
}
