//! The reader as it was before it handed sessions over in parts: every
//! line on the path parsed and kept, then assembled whole. Kept as the
//! reference the parts reader is compared with.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use super::items::{CommandCopies, Parsed};
use super::parse::Entry;
use super::tree::{self, Kind, Tree};
use super::{FirstPass, find::is_agent_file};
use crate::error::Result;
use crate::session::import::lines;
use crate::session::import::{Body, Call, Item, Outcome, Role, Skipped, Source, Transcript};

/// Reads the file `source`: its main conversation, then each subagent's
/// that ran inside it (older versions).
pub fn read(source: &Source, each: &mut dyn FnMut(Transcript) -> Result<()>) -> Result<()> {
    let path = &source.path;
    let mut skipped = Skipped::default();
    let mut first = FirstPass::default();
    lines::each_line(path, &mut skipped, |line, skipped| {
        first.line(&line, skipped);
        Ok(())
    })?;
    first.tree.finish();
    let agent_file = is_agent_file(path);
    let conversations = first.tree.conversations(agent_file);
    if conversations.is_empty() {
        return Ok(());
    }
    skipped.other_branches = first.tree.left_on_other_branches(&conversations);

    // The lines to read again: each path, and the lines holding results
    // of calls on it that the path does not.
    let mut wanted: HashMap<u64, Option<Parsed>> = HashMap::new();
    let mut extra: Vec<Vec<u64>> = Vec::new();
    for conversation in &conversations {
        let mut off_path = Vec::new();
        let on_path: HashSet<u32> = conversation.path.iter().copied().collect();
        for &at in &conversation.path {
            wanted.insert(first.tree.nodes[at as usize].line, None);
            for id in first.tree.uses_of(at) {
                if let Some(holder) = first.tree.result_of(id)
                    && !on_path.contains(&holder)
                {
                    let line = first.tree.nodes[holder as usize].line;
                    wanted.insert(line, None);
                    off_path.push(line);
                }
            }
        }
        extra.push(off_path);
    }
    let mut again = Skipped::default();
    lines::each_line(path, &mut again, |line, again| {
        if let Some(slot) = wanted.get_mut(&line.number)
            && let Some(entry) = line.parse::<Entry>(again)
        {
            *slot = Some(Parsed::of(entry));
        }
        Ok(())
    })?;

    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let session_id = if agent_file || uuid::Uuid::try_parse(&stem).is_err() {
        first.session_id.clone().unwrap_or_else(|| stem.clone())
    } else {
        stem.clone()
    };
    for (conversation, off_path) in conversations.iter().zip(extra) {
        let mut transcript = Transcript {
            source: path.display().to_string(),
            provider: Some("anthropic".to_owned()),
            ..Transcript::default()
        };
        if agent_file {
            transcript.source_id.clone_from(&stem);
            transcript.parent_source_id = first
                .sidechain_session
                .clone()
                .or_else(|| first.session_id.clone())
                .or_else(|| {
                    // `<sessionId>/subagents/agent-<id>.jsonl`
                    let dir = path.parent()?;
                    (dir.file_name()? == "subagents")
                        .then(|| dir.parent()?.file_name())
                        .flatten()
                        .map(|name| name.to_string_lossy().into_owned())
                });
            transcript.skipped = skipped;
        } else if conversation.main {
            transcript.source_id.clone_from(&session_id);
            transcript.skipped = skipped;
        } else {
            transcript.source_id = first.sidechain_id(conversation, &session_id);
            transcript.parent_source_id = Some(session_id.clone());
        }
        assemble(
            &mut transcript,
            &first.tree,
            conversation,
            &off_path,
            &mut wanted,
        );
        if conversation.main || agent_file {
            transcript.title = first.title(&transcript.source_id, conversation);
        }
        if transcript.items.is_empty() {
            continue;
        }
        each(transcript)?;
    }
    Ok(())
}

/// The items of `conversation` from the parsed lines, in order.
fn assemble(
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
    let mut commands = CommandCopies::default();
    for &at in &conversation.path {
        let node = &tree.nodes[at as usize];
        let Some(mut line) = parsed.get_mut(&node.line).and_then(Option::take) else {
            continue;
        };
        transcript.skipped.copies += commands.take_copy(&mut line, node.kind == Kind::Assistant);
        transcript.skipped.not_typed += line.not_typed;
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
        let mut images = std::mem::take(&mut line.images);
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
                body: Body::Message {
                    role,
                    text,
                    images: if role == Role::User {
                        std::mem::take(&mut images)
                    } else {
                        Vec::new()
                    },
                },
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
                    images: Vec::new(),
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
        .retain(|item| !matches!(&item.body, Body::Message { text, images, .. } if text.trim().is_empty() && images.is_empty()));
    transcript.items = items;
}
