//! Claude Code sessions: `~/.claude/projects/<project>/<sessionId>.jsonl`
//! (the project directory is named after the working directory with `/`
//! and `.` replaced by `-`; the `cwd` of each line is used instead), and
//! subagents' runs in `<project>/<sessionId>/subagents/agent-<id>.jsonl`
//! (older versions: `<project>/agent-<id>.jsonl`, or `isSidechain` lines in
//! the session's own file), each imported as a session of its own whose
//! parent is the session it ran in.
//!
//! A file is read twice, streaming: the first pass keeps only the
//! `parentUuid` tree (a few numbers per line, see [`tree`]); the second
//! parses in full only the lines on the conversation's path (and those
//! holding a result of a call on it). One model response spread over
//! several lines sharing `message.id` becomes one assistant message and its
//! tool calls; each `tool_use` is paired with the `tool_result` naming it
//! (`is_error` → failed; none → interrupted). What a `user` line is decides
//! what it becomes ([`text::classify`]): a prompt; a slash command as the
//! command typed (`/compact focus`); a command's or `!` shell escape's
//! output as a `system` message without terminal escapes; nothing for
//! `isMeta` text (skill bodies, caveats) and `[Request interrupted by
//! user]` markers. The summary a compaction leaves (`isCompactSummary`) is
//! kept as a `system` message, since the conversation before it is
//! imported as well. Thinking blocks and images are not imported, nor
//! `toolUseResult` beyond a plain string standing in for a result with no
//! text. A `summary` line naming a leaf in another file (older versions
//! wrote them at the top of the next session) does not title that session.
//!
//! Title: the last `custom-title` (`/rename`), else the last `ai-title`,
//! else the last `summary` line whose `leafUuid` is on the path. Model: the
//! last `message.model` of an assistant line (not `<synthetic>`, Claude
//! Code's name for messages it makes up itself).
//!
//! Item keys are the line's `uuid` (a merged response: its first line's),
//! a tool call's `tool_use` id, and `<uuid>#<n>` for a second message of
//! one line: none changes when the file grows.
//!
//! The format as read from: Claude Code's `sessionStorage` (the 2.1 bundle:
//! `loadTranscriptFile`, `buildConversationChain`,
//! `recoverOrphanedParallelToolResults`,
//! `getFirstMeaningfulUserMessageTextContent`, `insertMessageChain`, as
//! public de-minified copies hold them), ryoppippi/ccusage
//! (`rust/crates/ccusage/src/adapter/claude/paths.rs`, June 2026: the
//! comma-separated `CLAUDE_CONFIG_DIR` and `~/.config/claude`),
//! block/braindump (`internal/claude/reader.go`, February 2026: the
//! `subagents/` layout), simonw/claude-code-transcripts (January 2026) and
//! daaain/claude-code-log (June 2025).

mod parse;
mod text;
mod tree;

#[cfg(test)]
mod tests;

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::lines::{self, Line};
use super::{Body, Call, Homes, Item, Outcome, Role, Skipped, Source, Tool, Transcript};
use crate::error::{Error, Result};
use parse::{Block, Content, Entry, Head, Part};
use tree::{Kind, Link, Tree};

/// `$CLAUDE_CONFIG_DIR/projects` (several directories may be given,
/// separated by commas; a directory named `projects` is taken as it is),
/// else `~/.claude/projects` and `~/.config/claude/projects`: those that
/// exist.
pub fn default_roots(homes: &Homes) -> Vec<PathBuf> {
    let mut roots = Vec::new();
    match &homes.claude_config_dir {
        Some(dirs) => {
            let dirs = dirs.to_string_lossy();
            for dir in dirs.split(',').map(str::trim).filter(|d| !d.is_empty()) {
                let dir = expand_home(dir, homes);
                if dir.file_name().is_some_and(|name| name == "projects") && dir.is_dir() {
                    roots.push(dir);
                } else {
                    roots.push(dir.join("projects"));
                }
            }
        }
        None => {
            roots.extend(homes.in_home(".claude/projects"));
            roots.extend(homes.config_home().map(|c| c.join("claude/projects")));
        }
    }
    let mut seen = HashSet::new();
    roots.retain(|root| root.is_dir() && seen.insert(root.clone()));
    roots
}

fn expand_home(dir: &str, homes: &Homes) -> PathBuf {
    match (dir.strip_prefix("~/"), &homes.home) {
        (Some(rest), Some(home)) => home.join(rest),
        _ if dir == "~" => homes.home.clone().unwrap_or_else(|| PathBuf::from(dir)),
        _ => PathBuf::from(dir),
    }
}

/// The Claude Code transcripts at `path`: the file itself, or every one
/// under the directory. A `.jsonl` file is claimed only when its first
/// lines look like Claude Code's.
pub fn sources(path: &Path) -> Result<Vec<Source>> {
    let meta = fs::metadata(path).map_err(|e| Error::io(path, &e))?;
    let mut files = Vec::new();
    if meta.is_dir() {
        walk(path, &mut files);
        // Sessions before the subagents that ran in them.
        files.sort_by(|a, b| (is_agent_file(a), a).cmp(&(is_agent_file(b), b)));
    } else {
        files.push(path.to_path_buf());
    }
    Ok(files
        .into_iter()
        .filter(|file| file.extension().is_some_and(|ext| ext == "jsonl") && is_claude(file))
        .map(|file| Source {
            tool: Tool::Claude,
            kind: if is_agent_file(&file) {
                "subagent"
            } else {
                "session"
            },
            bytes: fs::metadata(&file).map_or(0, |m| m.len()),
            path: file,
        })
        .collect())
}

/// Every file under `dir` (symbolic links to directories not followed;
/// what cannot be listed is passed over).
fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        if kind.is_dir() {
            walk(&path, files);
        } else if kind.is_file() || (kind.is_symlink() && path.is_file()) {
            files.push(path);
        }
    }
}

fn is_agent_file(path: &Path) -> bool {
    path.file_stem()
        .and_then(|s| s.to_str())
        .is_some_and(|s| s.starts_with("agent-"))
}

/// Whether the first lines of `path` are Claude Code transcript lines.
fn is_claude(path: &Path) -> bool {
    const SNIFF: u64 = 64 * 1024;
    let Ok(file) = fs::File::open(path) else {
        return false;
    };
    let mut head = Vec::new();
    if file.take(SNIFF).read_to_end(&mut head).is_err() {
        return false;
    }
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&head);
    let mut lines = head.split(|&b| b == b'\n').peekable();
    let mut looked = 0;
    while let Some(line) = lines.next() {
        let complete = lines.peek().is_some();
        let line = line.trim_ascii();
        if line.is_empty() {
            continue;
        }
        if !complete {
            // A first line longer than what was read: Claude Code writes
            // `parentUuid` first.
            return looked == 0 && line.starts_with(b"{\"parentUuid\":");
        }
        if let Ok(sniff) = serde_json::from_slice::<parse::Sniff>(line)
            && sniff.is_claude()
        {
            return true;
        }
        looked += 1;
        if looked == 20 {
            break;
        }
    }
    false
}

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

/// What the first pass keeps besides the tree.
#[derive(Default)]
struct FirstPass {
    tree: Tree,
    session_id: Option<String>,
    /// The `sessionId` of sidechain lines: the session a subagent ran in.
    sidechain_session: Option<String>,
    agents: HashMap<u64, String>,
    custom_title: Vec<(Option<String>, String)>,
    ai_title: Vec<(Option<String>, String)>,
    /// `summary` lines: (`leafUuid`, summary).
    summaries: Vec<(String, String)>,
}

/// Line kinds that are neither part of the conversation nor unknown.
const KNOWN: &[&str] = &[
    "file-history-snapshot",
    "queue-operation",
    "last-prompt",
    "tag",
    "agent-name",
    "agent-color",
    "agent-setting",
    "mode",
    "permission-mode",
    "worktree-state",
    "pr-link",
    "attribution-snapshot",
    "content-replacement",
    "marble-origami-commit",
    "marble-origami-snapshot",
    "task-summary",
    "cost-state",
];

impl FirstPass {
    fn line(&mut self, line: &Line<'_>, skipped: &mut Skipped) {
        if line.complete
            && let Some((uuid, parent)) = progress_link(line.bytes)
        {
            self.tree.add_progress(uuid, parent);
            return;
        }
        let Some(head) = line.parse::<Head>(skipped) else {
            return;
        };
        let Some(kind) = head.kind.as_str() else {
            skipped.unknown_kinds += 1;
            return;
        };
        let session = head.session_id.as_str();
        if let Some(kind) = Kind::of(kind) {
            let Some(uuid) = head.uuid.as_str() else {
                return;
            };
            let (mut uses, mut results) = (Vec::new(), Vec::new());
            let message = head.message.0.as_ref();
            if let Some(Content::List(blocks)) = message.map(|m| &m.content) {
                for block in blocks.iter().filter_map(|b| b.0.as_ref()) {
                    let block_kind = block.kind.as_str().unwrap_or("");
                    if let Some(id) = block.tool_use_id.as_str() {
                        results.push(id);
                    } else if is_call(block_kind)
                        && let Some(id) = block.id.as_str()
                    {
                        uses.push(id);
                    }
                }
            }
            if head.is_sidechain.0 {
                if self.sidechain_session.is_none() {
                    self.sidechain_session = session.map(str::to_owned);
                }
            } else if self.session_id.is_none() {
                self.session_id = session.map(str::to_owned);
            }
            if let Some(agent) = head.agent_id.as_str() {
                self.agents
                    .entry(tree::hash64(agent))
                    .or_insert_with(|| agent.to_owned());
            }
            self.tree.add(Link {
                kind,
                uuid,
                parent: head.parent_uuid.as_str(),
                logical_parent: head.logical_parent_uuid.as_str(),
                line: line.number,
                timestamp: head.timestamp.as_str(),
                msg_id: message.and_then(|m| m.id.as_str()),
                agent: head.agent_id.as_str(),
                sidechain: head.is_sidechain.0,
                compact_boundary: head.subtype.as_str() == Some("compact_boundary"),
                uses,
                results,
            });
            return;
        }
        if self.session_id.is_none() && kind != "summary" {
            self.session_id = session.map(str::to_owned);
        }
        let session = session.map(str::to_owned);
        match kind {
            "progress" => {
                if let Some(uuid) = head.uuid.as_str() {
                    self.tree.add_progress(uuid, head.parent_uuid.as_str());
                }
            }
            "summary" => {
                if let (Some(leaf), Some(summary)) =
                    (head.leaf_uuid.as_str(), head.summary.as_str())
                {
                    self.summaries.push((leaf.to_owned(), summary.to_owned()));
                }
            }
            "custom-title" => {
                let title = head.custom_title.as_str().unwrap_or("").trim().to_owned();
                self.custom_title.push((session, title));
            }
            "ai-title" => {
                let title = head.ai_title.as_str().unwrap_or("").trim().to_owned();
                self.ai_title.push((session, title));
            }
            kind if KNOWN.contains(&kind) => {}
            _ => skipped.unknown_kinds += 1,
        }
    }

    fn sidechain_id(&self, conversation: &tree::Conversation, session_id: &str) -> String {
        let agent = conversation
            .path
            .first()
            .and_then(|&at| self.tree.agent_of(at))
            .and_then(|hash| self.agents.get(&hash));
        match (agent, conversation.root) {
            (Some(agent), _) => format!("agent-{agent}"),
            (None, Some(root)) => format!(
                "{session_id}:sidechain:{}",
                uuid::Uuid::from_u128(root).hyphenated()
            ),
            (None, None) => format!("{session_id}:sidechain"),
        }
    }

    fn title(&self, session_id: &str, conversation: &tree::Conversation) -> Option<String> {
        let named = |titles: &[(Option<String>, String)]| {
            titles
                .iter()
                .rev()
                .find(|(session, _)| session.as_deref().is_none_or(|s| s == session_id))
                .map(|(_, title)| title.clone())
                .filter(|title| !title.is_empty())
        };
        named(&self.custom_title)
            .or_else(|| named(&self.ai_title))
            .or_else(|| {
                let on_path: HashSet<u32> = conversation.path.iter().copied().collect();
                self.summaries
                    .iter()
                    .rev()
                    .find(|(leaf, _)| self.tree.find(leaf).is_some_and(|at| on_path.contains(&at)))
                    .map(|(_, summary)| summary.trim().to_owned())
                    .filter(|summary| !summary.is_empty())
            })
    }
}

/// The uuid and parent of a `progress` line, read without parsing it: a
/// progress line is mostly its `data` (a tool's output so far, a
/// subagent's whole messages), and all the tree needs is two ids. Claude
/// Code writes `parentUuid` first and `type` before `data`; a line shaped otherwise (or not a progress line) gives `None` and
/// is parsed in full.
fn progress_link(bytes: &[u8]) -> Option<(&str, Option<&str>)> {
    const PARENT: &[u8] = b"{\"parentUuid\":";
    const KIND: &[u8] = b"\"type\":\"progress\"";
    const UUID: &[u8] = b"\"uuid\":\"";
    let rest = bytes.strip_prefix(PARENT)?;
    if bytes.last() != Some(&b'}') {
        return None;
    }
    // `"type":"…"` can only be a key (a quote inside a string is escaped);
    // with no object or array opened before it, it is the line's own.
    let kind = memchr::memmem::find(bytes, b"\"type\":\"")?;
    if !bytes[kind..].starts_with(KIND) || memchr::memchr2(b'{', b'[', &bytes[1..kind]).is_some() {
        return None;
    }
    let parent = if rest.starts_with(b"null") {
        None
    } else {
        Some(plain_string(rest.strip_prefix(b"\"")?)?)
    };
    // The first `"uuid":"` with nothing opened before it, or the last with
    // nothing nested after it, is the line's own.
    let first = memchr::memmem::find(bytes, UUID)?;
    if memchr::memchr2(b'{', b'[', &bytes[1..first]).is_none() {
        return Some((plain_string(&bytes[first + UUID.len()..])?, parent));
    }
    let at = memchr::memmem::rfind(bytes, UUID)? + UUID.len();
    let uuid = plain_string(&bytes[at..])?;
    let after = &bytes[at + uuid.len()..bytes.len() - 1];
    if memchr::memchr3(b'{', b'}', b'[', after).is_some() || memchr::memchr(b']', after).is_some() {
        return None;
    }
    Some((uuid, parent))
}

/// The string up to the next quote, when it holds no escape.
fn plain_string(bytes: &[u8]) -> Option<&str> {
    let end = memchr::memchr2(b'"', b'\\', bytes)?;
    if bytes[end] != b'"' {
        return None;
    }
    std::str::from_utf8(&bytes[..end]).ok()
}

fn is_call(kind: &str) -> bool {
    matches!(kind, "tool_use" | "server_tool_use" | "mcp_tool_use")
}

/// A line on a path, parsed, owning only what is imported.
#[derive(Debug, Default)]
struct Parsed {
    uuid: String,
    timestamp: Option<String>,
    cwd: Option<String>,
    model: Option<String>,
    messages: Vec<(Role, String)>,
    calls: Vec<(String, String, Value)>,
    results: Vec<(String, Outcome)>,
}

impl Parsed {
    fn of(entry: Entry<'_>) -> Parsed {
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
            let args = super::arguments(block.input.unwrap_or(Value::Null));
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
