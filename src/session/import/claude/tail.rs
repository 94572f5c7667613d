//! Reading only the lines appended to a transcript since it was last read
//! (a hook call, a watcher's round), when they can be known without the
//! earlier ones; the whole file is read otherwise.
//!
//! A whole read leaves an [`Anchor`] when the main conversation ends at the
//! file's last tree line and that line is the latest: the next lines Claude
//! Code writes hang off it. The new lines are then read alone when they
//! continue the conversation from it and from nothing else earlier:
//! - the first of them (a prompt or a response) names the anchor as its
//!   parent, each other names one of them (over progress lines, which
//!   are links); none is a sidechain's or a compaction boundary (those
//!   reach back);
//! - their times do not go back (a whole read takes the latest message
//!   as the conversation's end), and none is of the anchor's response
//!   (a response's lines merge into one message, keyed by its first);
//! - every result they hold answers a call among them;
//! - no title line (`custom-title`, `ai-title`, `summary`) is among them:
//!   a title is the last of those in the whole file; nor a slash command's
//!   `system/local_command` line, which may copy a command typed before;
//! - they are one conversation and every line is on it (nothing left on
//!   another branch, which only the whole file can settle).
//!
//! The whole conversation is then the earlier one followed by theirs, so
//! the items they make are those a whole read adds. A transcript of a
//! subagent (its ids come from its first lines) is always read whole.

use super::find::is_agent_file;
use super::tree::{Kind, NONE, hash64};
use super::{FirstFile, FirstPass};
use crate::error::Result;
use crate::session::import::cursor::{self, Anchor, Tail};
use crate::session::import::{Part, Source, TailRead};

/// Where a later tail of the file read into `file` can continue from.
pub(super) fn anchor_of(file: &FirstFile) -> Option<Anchor> {
    if !tail_readable(file) {
        return None;
    }
    let tree = &file.first.tree;
    let last = u32::try_from(tree.nodes.len().checked_sub(1)?).ok()?;
    let main = file.conversations.iter().find(|c| c.main)?;
    if main.path.last() != Some(&last) {
        return None;
    }
    let time = tree.nodes.iter().map(|node| node.ts).max()?;
    (tree.nodes[last as usize].ts == time && !file.first.last_uuid.is_empty()).then(|| Anchor {
        id: file.first.last_uuid.clone(),
        time,
        response: file.first.last_response.clone(),
        state: None,
    })
}

/// Reads the lines `tail` names alone when they continue from its anchor
/// (see the module's comment); [`TailRead::Whole`] otherwise.
pub(super) fn read(
    source: &Source,
    tail: &Tail,
    max_items: usize,
    each: &mut dyn FnMut(Part) -> Result<()>,
) -> Result<TailRead> {
    let path = &source.path;
    if !cursor::is_lines(path) || is_agent_file(path) {
        return Ok(TailRead::Whole);
    }
    let Some(file) = FirstFile::read(path, Some((tail.from, tail.to)))? else {
        // Nothing but lines outside the tree (snapshots, queue operations),
        // or a title: which, a whole read tells.
        return Ok(if read_nothing(path, tail)? {
            TailRead::Read(Some(tail.anchor.clone()))
        } else {
            TailRead::Whole
        });
    };
    if !tail_readable(&file)
        || names_a_title(&file.first)
        || file.first.local_commands
        || !continues(&file, &tail.anchor)
    {
        return Ok(TailRead::Whole);
    }
    let tree = &file.first.tree;
    let last = tree.nodes.len() - 1;
    let anchor = Anchor {
        id: file.first.last_uuid.clone(),
        time: tree.nodes[last].ts,
        response: file
            .first
            .last_response
            .clone()
            .or_else(|| tail.anchor.response.clone()),
        state: None,
    };
    file.hand_over(max_items, each)?;
    Ok(TailRead::Read(Some(anchor)))
}

/// Whether the file's sessions are named after it (a session's own
/// transcript, not a subagent's, and uncompressed).
fn tail_readable(file: &FirstFile) -> bool {
    !file.agent_file
        && file.session_id == file.stem
        && uuid::Uuid::try_parse(&file.stem).is_ok()
        && cursor::is_lines(&file.path)
}

/// Whether the lines of `tail` hold no tree line and nothing that reaches
/// back (then there is nothing to add).
fn read_nothing(path: &std::path::Path, tail: &Tail) -> Result<bool> {
    let mut first = FirstPass::default();
    let mut skipped = crate::session::import::Skipped::default();
    crate::session::import::lines::each_line_in(
        path,
        (tail.from, tail.to),
        &mut skipped,
        |line, skipped| {
            first.line(&line, skipped);
            Ok(())
        },
    )?;
    Ok(first.tree.nodes.is_empty() && !names_a_title(&first))
}

/// Whether lines that may title the session were read: the title is the
/// last of those in the whole file.
fn names_a_title(first: &FirstPass) -> bool {
    !first.summaries.is_empty() || !first.custom_title.is_empty() || !first.ai_title.is_empty()
}

/// Whether the tree of `file` (the new lines alone) continues the
/// conversation from `anchor` and from nothing else before it.
fn continues(file: &FirstFile, anchor: &Anchor) -> bool {
    let tree = &file.first.tree;
    let response = anchor.response.as_deref().map(hash64);
    let mut time = anchor.time;
    for (i, node) in tree.nodes.iter().enumerate() {
        let at = i as u32;
        let linked = if i == 0 {
            matches!(node.kind, Kind::User | Kind::Assistant)
                && node.parent == NONE
                && tree.parent_is(at, &anchor.id)
        } else {
            node.parent != NONE
        };
        if !linked
            || tree.is_boundary_or_sidechain(at)
            || node.ts < time
            || (node.kind == Kind::Assistant && node.msg_id != 0 && Some(node.msg_id) == response)
        {
            return false;
        }
        time = node.ts;
    }
    let [conversation] = file.conversations.as_slice() else {
        return false;
    };
    conversation.main && conversation.path.len() == tree.nodes.len() && tree.results_all_called()
}

#[cfg(test)]
mod tests;
