//! An independent reading of a transcript, to check an import against: what
//! a person counting the raw JSON by a few plain rules finds in it (not the
//! importer's code, which follows the `parentUuid` tree, replays logs and
//! classifies text its own way).

use std::collections::HashSet;

use serde_json::Value;

/// What a conversation holds: prompts typed, answers given (a response
/// with text), tool calls made, and the calls that got a result.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub prompts: usize,
    pub answers: usize,
    pub calls: usize,
    pub pairs: usize,
}

/// The same counts of a session as `ollm-session get` shows it.
pub fn of_session(session: &Value) -> Counts {
    let messages = session["messages"].as_array().expect("messages");
    let calls = session["toolCalls"].as_array().expect("toolCalls");
    let role = |name: &str| messages.iter().filter(|m| m["role"] == name).count();
    Counts {
        prompts: role("user"),
        answers: role("assistant"),
        calls: calls.len(),
        // A call without a result carries why in `status` (`interrupted`,
        // `noOutputRecorded`, …); a failed one has its error as result.
        pairs: calls
            .iter()
            .filter(|c| c["status"].is_null() || c["status"] == "error")
            .count(),
    }
}

fn records(text: &str) -> impl Iterator<Item = Value> + '_ {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| serde_json::from_str(l).ok())
}

fn blocks(content: &Value) -> &[Value] {
    content.as_array().map_or(&[], Vec::as_slice)
}

/// A Claude Code transcript, every line in file order (lines on a
/// sidechain belong to a subagent's session, except in a subagent's own
/// file, `agent_file`). A prompt: a `user` line that is not `isMeta`, with
/// no tool result, whose text is not an interruption marker or a command's
/// output; an image with no text counts. A slash command is one prompt,
/// whether Claude Code wrote it as a `user` line, as a `system`
/// `local_command` line, or both (the second right after the first). An
/// answer: a `message.id` with some text; a call: a `tool_use` id; a pair:
/// a call some line holds a `tool_result` for.
pub fn claude(text: &str, agent_file: bool) -> Counts {
    let (mut prompts, mut answers, mut calls, mut results) =
        (0, HashSet::new(), HashSet::new(), HashSet::new());
    let mut typed_command: Option<String> = None;
    for line in records(text) {
        if !agent_file && line["isSidechain"] == true {
            continue;
        }
        let content = &line["message"]["content"];
        match line["type"].as_str() {
            Some("assistant") => {
                typed_command = None;
                for block in blocks(content) {
                    let kind = block["type"].as_str().unwrap_or("");
                    if kind == "text" && !block["text"].as_str().unwrap_or("").trim().is_empty() {
                        let id = line["message"]["id"].as_str().or(line["uuid"].as_str());
                        answers.insert(id.unwrap_or("").to_string());
                    } else if kind.ends_with("tool_use") {
                        calls.insert(block["id"].as_str().unwrap_or("").to_string());
                    }
                }
            }
            Some("user") if line["isMeta"] != true && line["isCompactSummary"] != true => {
                let tool_results: Vec<&str> = blocks(content)
                    .iter()
                    .filter_map(|b| b["tool_use_id"].as_str())
                    .collect();
                if !tool_results.is_empty() {
                    results.extend(tool_results.into_iter().map(str::to_string));
                    continue;
                }
                let said = match content {
                    Value::String(text) => text.clone(),
                    _ => {
                        let texts: Vec<&str> = blocks(content)
                            .iter()
                            .filter_map(|b| b["text"].as_str())
                            .collect();
                        let images = blocks(content).iter().filter(|b| b["type"] == "image");
                        if texts.concat().trim().is_empty() && images.count() > 0 {
                            "an image".to_string()
                        } else {
                            texts.join("\n")
                        }
                    }
                };
                if is_typed(&said) {
                    prompts += 1;
                    typed_command = command_name(&said);
                }
            }
            Some("system") if line["subtype"] == "local_command" => {
                let said = line["content"].as_str().unwrap_or("");
                if let Some(name) = command_name(said) {
                    if typed_command.take().as_deref() != Some(name.as_str()) {
                        prompts += 1;
                    }
                } else {
                    typed_command = None;
                }
            }
            _ => {}
        }
    }
    Counts {
        prompts,
        answers: answers.len(),
        pairs: calls.intersection(&results).count(),
        calls: calls.len(),
    }
}

/// Text a person typed: not empty, not Claude Code's note of an
/// interruption, not a command's output or its caveat.
fn is_typed(text: &str) -> bool {
    let text = text.trim();
    !text.is_empty()
        && !text.starts_with("[Request interrupted by user")
        && !text.starts_with("<local-command-caveat>")
        && ![
            "<local-command-stdout>",
            "<local-command-stderr>",
            "<bash-stdout>",
            "<bash-stderr>",
        ]
        .iter()
        .any(|tag| text.contains(tag))
}

fn command_name(text: &str) -> Option<String> {
    let start = text.find("<command-name>")? + "<command-name>".len();
    let end = start + text[start..].find("</command-name>")?;
    Some(text[start..end].trim().trim_start_matches('/').to_string())
}

/// A Codex rollout's top-level records in file order. A prompt: a `user`
/// `response_item` message with a text that does not open with a tag or a
/// heading (what Codex itself sends: environment, instructions), or an
/// `event_msg/user_message` not just after such a message (the UI's copy
/// of it). An answer: an `assistant` message with text; a call: a
/// `*_call` item; a pair: a call with an `*_output` record of its id.
pub fn codex(text: &str) -> Counts {
    let (mut counts, mut calls, mut outputs) = (Counts::default(), HashSet::new(), HashSet::new());
    let mut copy_due = false;
    for (number, record) in records(text).enumerate() {
        let payload = &record["payload"];
        let kind = payload["type"].as_str().unwrap_or("");
        match record["type"].as_str() {
            Some("response_item") if kind == "message" => {
                let texts: Vec<&str> = blocks(&payload["content"])
                    .iter()
                    .filter_map(|b| b["text"].as_str())
                    .filter(|t| !t.trim().is_empty())
                    .collect();
                match payload["role"].as_str() {
                    Some("user")
                        if texts
                            .iter()
                            .any(|t| !t.trim_start().starts_with(['<', '#']))
                            || (texts.is_empty() && !blocks(&payload["content"]).is_empty()) =>
                    {
                        counts.prompts += 1;
                        copy_due = true;
                    }
                    Some("assistant") if !texts.is_empty() => {
                        counts.answers += 1;
                        copy_due = false;
                    }
                    _ => {}
                }
            }
            Some("response_item") if kind.ends_with("_call") => {
                copy_due = false;
                let id = payload["call_id"].as_str().or(payload["id"].as_str());
                calls.insert(id.map_or_else(|| format!("line {number}"), str::to_string));
            }
            Some("response_item") if kind.ends_with("_output") => {
                outputs.insert(payload["call_id"].as_str().unwrap_or("").to_string());
            }
            Some("event_msg") if kind == "user_message" => {
                let a_copy = std::mem::take(&mut copy_due);
                counts.prompts += usize::from(!a_copy);
            }
            _ => {}
        }
    }
    counts.calls = calls.len();
    counts.pairs = calls.intersection(&outputs).count();
    counts
}

/// gemini-cli's legacy one-document chat: a `user` message is a prompt, a
/// `gemini` message with text an answer, each of its `toolCalls` a call,
/// paired when it has a `result`.
pub fn gemini_document(text: &str) -> Counts {
    let document: Value = serde_json::from_str(text).expect("a JSON document");
    gemini_messages(document["messages"].as_array().map_or(&[], Vec::as_slice))
}

fn gemini_messages(messages: &[Value]) -> Counts {
    let mut counts = Counts::default();
    for message in messages {
        let text = match &message["content"] {
            Value::String(text) => text.clone(),
            content => blocks(content)
                .iter()
                .filter_map(|p| p["text"].as_str())
                .collect(),
        };
        match message["type"].as_str() {
            Some("user") if !text.trim().is_empty() => counts.prompts += 1,
            Some("gemini") => {
                counts.answers += usize::from(!text.trim().is_empty());
                for call in blocks(&message["toolCalls"]) {
                    counts.calls += 1;
                    counts.pairs += usize::from(!call["result"].is_null());
                }
            }
            _ => {}
        }
    }
    counts
}
