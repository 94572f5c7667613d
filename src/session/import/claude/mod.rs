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
//! imported as well. A prompt's image blocks are kept as image parts
//! ([`crate::session::model::image`]). Thinking blocks are not imported,
//! nor images in tool results, nor `toolUseResult` beyond a plain string
//! standing in for a result with no text. A `summary` line naming a leaf
//! in another file (older versions wrote them at the top of the next
//! session) does not title that session.
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

mod find;
mod items;
mod parse;
mod stream;
mod tail;
mod text;
mod tree;
#[cfg(test)]
mod whole;

#[cfg(test)]
mod tests;

use std::collections::{HashMap, HashSet};

use std::path::{Path, PathBuf};

use super::cursor::{Anchor, Tail};
use super::lines::{self, Line};
use super::{Homes, Importer, Part, Skipped, Source, TailRead, Transcript};
use crate::error::Result;
use find::is_agent_file;
use parse::{Content, Head, progress_link};
use tree::{Kind, Link, Tree};

/// Claude Code, as the importers' table holds it.
pub struct Claude;

impl Importer for Claude {
    fn name(&self) -> &'static str {
        "claude"
    }

    fn title(&self) -> &'static str {
        "Claude Code"
    }

    fn variables(&self) -> &'static [&'static str] {
        &[find::CONFIG_DIR]
    }

    fn hook(&self) -> bool {
        true
    }

    /// `$CLAUDE_CONFIG_DIR/projects` (several directories may be given,
    /// separated by commas; a directory named `projects` is taken as it is),
    /// else `~/.claude/projects` and `~/.config/claude/projects`: those that
    /// exist.
    fn default_roots(&self, homes: &Homes) -> Vec<PathBuf> {
        find::default_roots(homes)
    }

    /// The Claude Code transcripts at `path`: the file itself, or every one
    /// under the directory (sessions first, then subagents). A `.jsonl` file is
    /// claimed only when its first lines look like Claude Code's.
    fn sources(&self, path: &Path) -> Result<Vec<Source>> {
        find::sources(path)
    }

    /// Reads the file `source`: its main conversation, then each subagent's
    /// that ran inside it (older versions), handing each conversation
    /// over in parts of at most `max_items` items: the first pass keeps the
    /// tree (a few numbers a line), the second reads the lines on the path a
    /// bounded chunk at a time, by their offsets ([`stream`]).
    fn read_parts(
        &self,
        source: &Source,
        max_items: usize,
        each: &mut dyn FnMut(Part) -> Result<()>,
    ) -> Result<()> {
        self.read_anchored(source, max_items, each).map(drop)
    }

    /// As [`Importer::read_parts`]; the anchor is the main conversation's
    /// last line when it is the file's last and latest ([`tail`]).
    fn read_anchored(
        &self,
        source: &Source,
        max_items: usize,
        each: &mut dyn FnMut(Part) -> Result<()>,
    ) -> Result<Option<Anchor>> {
        let Some(file) = FirstFile::read(&source.path, None)? else {
            return Ok(None);
        };
        file.hand_over(max_items, each)?;
        Ok(tail::anchor_of(&file))
    }

    /// Reads only the lines appended after the anchor, when they continue
    /// the main conversation from it alone ([`tail`]).
    fn read_tail(
        &self,
        source: &Source,
        tail: &Tail,
        max_items: usize,
        each: &mut dyn FnMut(Part) -> Result<()>,
    ) -> Result<TailRead> {
        tail::read(source, tail, max_items, each)
    }
}

/// A transcript's first pass and what it says about its conversations.
struct FirstFile {
    path: PathBuf,
    first: FirstPass,
    skipped: Skipped,
    agent_file: bool,
    session_id: String,
    stem: String,
    conversations: Vec<tree::Conversation>,
}

impl FirstFile {
    /// The first pass over `path` (or only its bytes in `range`); `None`
    /// when it holds no conversation.
    fn read(path: &Path, range: Option<(u64, u64)>) -> Result<Option<FirstFile>> {
        let mut skipped = Skipped::default();
        let mut first = FirstPass::default();
        let mut each = |line: Line<'_>, skipped: &mut Skipped| {
            first.line(&line, skipped);
            Ok(())
        };
        match range {
            None => lines::each_line(path, &mut skipped, &mut each)?,
            Some(range) => lines::each_line_in(path, range, &mut skipped, &mut each)?,
        }
        first.tree.finish();
        let agent_file = is_agent_file(path);
        let conversations = first.tree.conversations(agent_file);
        if conversations.is_empty() {
            return Ok(None);
        }
        skipped.other_branches = first.tree.left_on_other_branches(&conversations);
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let session_id = if agent_file || uuid::Uuid::try_parse(&stem).is_err() {
            first.session_id.clone().unwrap_or_else(|| stem.clone())
        } else {
            stem.clone()
        };
        Ok(Some(FirstFile {
            path: path.to_path_buf(),
            first,
            skipped,
            agent_file,
            session_id,
            stem,
            conversations,
        }))
    }

    /// Hands each conversation over in parts of at most `max_items` items.
    fn hand_over(&self, max_items: usize, each: &mut dyn FnMut(Part) -> Result<()>) -> Result<()> {
        let mut lines = stream::Lines::open(&self.path, &self.first.tree, &self.conversations)?;
        for conversation in &self.conversations {
            let header = self.header(conversation);
            stream::hand_over(
                &self.first.tree,
                conversation,
                header,
                &mut lines,
                max_items,
                each,
            )?;
        }
        Ok(())
    }

    /// The fields of the transcript of `conversation` that are known
    /// before its lines are read again (no items yet).
    fn header(&self, conversation: &tree::Conversation) -> Transcript {
        let first = &self.first;
        let mut transcript = Transcript {
            source: self.path.display().to_string(),
            provider: Some("anthropic".to_owned()),
            ..Transcript::default()
        };
        if self.agent_file {
            transcript.source_id.clone_from(&self.stem);
            transcript.parent_source_id = first
                .sidechain_session
                .clone()
                .or_else(|| first.session_id.clone())
                .or_else(|| {
                    // `<sessionId>/subagents/agent-<id>.jsonl`
                    let dir = self.path.parent()?;
                    (dir.file_name()? == "subagents")
                        .then(|| dir.parent()?.file_name())
                        .flatten()
                        .map(|name| name.to_string_lossy().into_owned())
                });
            transcript.skipped = self.skipped;
        } else if conversation.main {
            transcript.source_id.clone_from(&self.session_id);
            transcript.skipped = self.skipped;
        } else {
            transcript.source_id = first.sidechain_id(conversation, &self.session_id);
            transcript.parent_source_id = Some(self.session_id.clone());
        }
        if conversation.main || self.agent_file {
            transcript.title = first.title(&transcript.source_id, conversation);
        }
        transcript
    }
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
    /// The `uuid` of the last line of the tree, and the `message.id` of
    /// the last assistant line: where a later tail continues ([`tail`]).
    last_uuid: String,
    last_response: Option<String>,
    /// Whether a `system/local_command` line was read: it may be the copy
    /// of a command typed on an earlier line ([`items::CommandCopies`]).
    local_commands: bool,
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
            self.last_uuid.clear();
            self.last_uuid.push_str(uuid);
            self.local_commands |= head.subtype.as_str() == Some("local_command");
            if kind == Kind::Assistant
                && let Some(id) = message.and_then(|m| m.id.as_str())
            {
                self.last_response = Some(id.to_owned());
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
                offset: line.offset,
                length: line.length,
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

pub(super) fn is_call(kind: &str) -> bool {
    matches!(kind, "tool_use" | "server_tool_use" | "mcp_tool_use")
}
