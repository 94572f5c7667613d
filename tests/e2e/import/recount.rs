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

/// A gemini-cli JSONL log replayed by its plain rules: a record with an
/// `id` and a `type` is a message (an `id` seen before replaces it where
/// it stood), a `$set.messages` is the whole conversation from there on,
/// a `$rewindTo` takes that message and what follows away. A `user`
/// message opening with `/`, `?` or a tag is the CLI's, not a prompt.
pub fn gemini_log(text: &str) -> Counts {
    let mut messages: Vec<Value> = Vec::new();
    for record in records(text) {
        let at = |messages: &[Value], id: &Value| messages.iter().position(|m| m["id"] == *id);
        if let Some(list) = record["$set"]["messages"].as_array() {
            messages.clone_from(list);
        } else if !record["$rewindTo"].is_null() {
            if let Some(cut) = at(&messages, &record["$rewindTo"]) {
                messages.truncate(cut);
            }
        } else if record["id"].is_string() && record["type"].is_string() {
            match at(&messages, &record["id"]) {
                Some(i) => messages[i] = record,
                None => messages.push(record),
            }
        }
    }
    messages.retain(|m| {
        let first = blocks(&m["content"])
            .first()
            .and_then(|p| p["text"].as_str());
        !(m["type"] == "user" && first.is_some_and(|t| t.trim_start().starts_with(['/', '?', '<'])))
    });
    gemini_messages(&messages)
}

/// The database at `db`, opened as an unchanging file: nothing is
/// written beside it (the fixtures are read in place).
fn read_only(db: &std::path::Path) -> rusqlite::Connection {
    let uri = format!("file:{}?mode=ro&immutable=1", db.display());
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_URI;
    rusqlite::Connection::open_with_flags(uri, flags).expect("a SQLite database")
}

/// A goose `sessions.db`, every session: a prompt is a `user` row with
/// text, an answer an `assistant` row with text (neither counted when its
/// metadata says it is not `userVisible`); a call a `toolRequest`, paired
/// when some row holds a `toolResponse` of its id.
pub fn goose(db: &std::path::Path) -> Counts {
    let conn = read_only(db);
    let mut rows = conn
        .prepare("SELECT role, content_json, metadata_json FROM messages ORDER BY id")
        .unwrap();
    let rows: Vec<(String, String, Option<String>)> = rows
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let (mut counts, mut requests, mut responses) = (Counts::default(), Vec::new(), HashSet::new());
    for (role, content, metadata) in rows {
        let content: Value = serde_json::from_str(&content).unwrap();
        let metadata: Value = metadata.map_or(Value::Null, |m| serde_json::from_str(&m).unwrap());
        let visible = metadata["userVisible"] != false;
        let has_text = blocks(&content)
            .iter()
            .any(|b| b["type"] == "text" && !b["text"].as_str().unwrap_or("").trim().is_empty());
        match (role.as_str(), visible && has_text) {
            ("user", true) => counts.prompts += 1,
            ("assistant", true) => counts.answers += 1,
            _ => {}
        }
        for block in blocks(&content) {
            let id = block["id"].as_str().unwrap_or("").to_string();
            match block["type"].as_str() {
                Some("toolRequest") if visible => requests.push(id),
                Some("toolResponse") => drop(responses.insert(id)),
                _ => {}
            }
        }
    }
    counts.calls = requests.len();
    counts.pairs = requests.iter().filter(|id| responses.contains(*id)).count();
    counts
}

/// An `opencode.db` (1.x tables), every session: a prompt is a `user`
/// message with a text part, an answer an `assistant` message with one, a
/// call a `tool` part, paired when its state is `completed` or `error`.
pub fn opencode(db: &std::path::Path) -> Counts {
    let conn = read_only(db);
    let mut statement = conn
        .prepare(
            "SELECT m.data, p.data FROM message m LEFT JOIN part p ON p.message_id = m.id
             ORDER BY m.id, p.id",
        )
        .unwrap();
    let rows: Vec<(String, Option<String>)> = statement
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let (mut counts, mut with_text) = (Counts::default(), HashSet::new());
    for (message, part) in rows {
        let part: Value = part.map_or(Value::Null, |p| serde_json::from_str(&p).unwrap());
        match part["type"].as_str() {
            Some("text") if !part["text"].as_str().unwrap_or("").trim().is_empty() => {
                // A message with several text parts is one message.
                let first_text = with_text.insert(message.clone());
                let message: Value = serde_json::from_str(&message).unwrap();
                match message["role"].as_str() {
                    Some("user") if first_text => counts.prompts += 1,
                    Some("assistant") if first_text => counts.answers += 1,
                    _ => {}
                }
            }
            Some("tool") => {
                counts.calls += 1;
                let status = &part["state"]["status"];
                counts.pairs += usize::from(*status == "completed" || *status == "error");
            }
            _ => {}
        }
    }
    counts
}
