//! Codex CLI rollouts: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`
//! and `$CODEX_HOME/archived_sessions/`, one session per file. A
//! zstd-compressed `rollout-*.jsonl.zst` is read wherever it is found (the
//! Codex sources read here did not show which release writes them); one
//! kept both plain and compressed is read once, from the plain file.
//!
//! The format is the one `openai/codex` writes (read in `codex-rs/protocol/
//! src/protocol.rs`: `RolloutLine`, `RolloutItem`, `SessionMeta`,
//! `TurnContextItem`, `CompactedItem`; `codex-rs/protocol/src/models.rs`:
//! `ResponseItem`, `FunctionCallOutputPayload`; `codex-rs/core/src/rollout/`
//! `recorder.rs`, `list.rs`, `session_index.rs`; the contextual-message
//! prefixes of `codex-rs/core/src/context/`; releases up to 0.128):
//!
//! - Each line is `{timestamp, type, payload}`. `response_item` records are
//!   the conversation; `event_msg` repeats it for the UI and is not read,
//!   except `thread_name_updated` (the title).
//! - Rollouts from before September 2025 have no envelope: a first line
//!   `{id, timestamp, instructions, git}`, then bare response items and
//!   `{"record_type":"state"}` markers. Both are read.
//! - `developer`/`system` messages and the harness text Codex sends as user
//!   messages (`<environment_context>`, `# AGENTS.md instructions`,
//!   `<user_instructions>`, `<turn_aborted>`, …) are not prompts and are
//!   not imported. Reasoning and ghost snapshots are not imported; a
//!   prompt's `input_image` (a data URL) is kept as an image part
//!   ([`crate::session::model::image`]).
//! - A `function_call`'s `arguments` is a JSON string and is parsed; its
//!   `function_call_output` (paired by `call_id`) may be a string, a list
//!   of content items or `{content, success}`; `success: false` is a
//!   failure. A `web_search_call` has no output record, and a call whose
//!   output never came (interrupted, or still running when read) is
//!   imported without a result; when a later import finds its output, the
//!   finished call is added beside it (see `write::stored_key`).
//! - A `compacted` record's summary (`message`) is imported as a system
//!   message where it stood; its `replacement_history` is not, since every
//!   record it condenses is already earlier in the file.
//! - A `thread_rolled_back` event takes the last `num_turns` user turns
//!   out of the conversation, as Codex does (what an earlier import stored
//!   of them stays: a stored item is never removed).
//! - The working directory is `session_meta.cwd` (the directory Codex's own
//!   resume picker files the session under), else the first
//!   `turn_context.cwd`, else the `<cwd>` of the first environment context
//!   (old rollouts). The model is the last `turn_context.model`, the
//!   provider `session_meta.model_provider`. `originator` and `source`
//!   (cli, vscode, exec, …) are not kept, except that a sub-agent's parent
//!   thread (and a fork's origin) becomes the parent session.
//! - The title is the last `thread_name_updated` in the file, else the
//!   newest entry for the thread in `$CODEX_HOME/session_index.jsonl`.
//!
//! Item keys are the record's line number (plus the `call_id` for a call):
//! a rollout is only appended to, so they stay put as it grows.

mod index;
mod record;
mod tail;

use std::path::{Path, PathBuf};

#[cfg(test)]
use super::Transcript;
use super::cursor::{Anchor, Tail};
use super::{Homes, Importer, Part, Source, TailRead, Tool, files_under, lines};
use crate::error::{Error, Result};

/// The `kind` of a plain rollout and of a zstd-compressed one.
const JSONL: &str = "jsonl";
const JSONL_ZST: &str = "jsonl.zst";

/// How deep under a given directory rollouts are looked for
/// (`sessions/YYYY/MM/DD` is four below `$CODEX_HOME`).
const MAX_DEPTH: usize = 8;

/// The variable that moves Codex's home (else `~/.codex`).
const CODEX_HOME: &str = "CODEX_HOME";

/// Codex, as the importers' table holds it.
pub struct Codex;

impl Importer for Codex {
    fn name(&self) -> &'static str {
        "codex"
    }

    fn title(&self) -> &'static str {
        "Codex"
    }

    fn variables(&self) -> &'static [&'static str] {
        &[CODEX_HOME]
    }

    fn default_roots(&self, homes: &Homes) -> Vec<PathBuf> {
        let Some(home) = homes
            .var(CODEX_HOME)
            .map(Path::to_path_buf)
            .or_else(|| homes.in_home(".codex"))
        else {
            return Vec::new();
        };
        ["sessions", "archived_sessions"]
            .into_iter()
            .map(|dir| home.join(dir))
            .filter(|dir| dir.is_dir())
            .collect()
    }

    fn sources(&self, path: &Path) -> Result<Vec<Source>> {
        let meta = std::fs::metadata(path).map_err(|e| Error::io(path, &e))?;
        let mut found = Vec::new();
        if meta.is_file() {
            let name = file_name(path);
            if let Some(kind) = rollout_kind(&name).or_else(|| starts_like_a_rollout(path)) {
                found.push(source(path, kind, meta.len()));
            }
            return Ok(found);
        }
        for file in files_under(path, MAX_DEPTH)? {
            if let Some(kind) = rollout_kind(&file_name(&file)) {
                let bytes = std::fs::metadata(&file).map_or(0, |m| m.len());
                found.push(source(&file, kind, bytes));
            }
        }
        // A rollout kept both plain and compressed is one session: the plain
        // file is read.
        let plain: std::collections::HashSet<PathBuf> = found
            .iter()
            .filter(|s| s.kind == JSONL)
            .map(|s| s.path.clone())
            .collect();
        found.retain(|s| s.kind == JSONL || !plain.contains(&s.path.with_extension("")));
        found.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(found)
    }

    /// Reads the rollout `source`, handing it over in parts of at most
    /// `max_items` items as it is read ([`tail`]).
    fn read_parts(
        &self,
        source: &Source,
        max_items: usize,
        each: &mut dyn FnMut(Part) -> Result<()>,
    ) -> Result<()> {
        tail::whole(source, max_items, each).map(drop)
    }

    /// As [`Importer::read_parts`]; the anchor holds what a read of only
    /// the lines appended later needs of these ([`tail`]).
    fn read_anchored(
        &self,
        source: &Source,
        max_items: usize,
        each: &mut dyn FnMut(Part) -> Result<()>,
    ) -> Result<Option<Anchor>> {
        tail::whole(source, max_items, each)
    }

    /// Reads only the lines appended after the anchor, when they can be
    /// read alone ([`tail`]).
    fn read_tail(
        &self,
        source: &Source,
        tail: &Tail,
        max_items: usize,
        each: &mut dyn FnMut(Part) -> Result<()>,
    ) -> Result<TailRead> {
        tail::tail(source, tail, max_items, each)
    }
}

/// The reader as it was before it handed rollouts over in parts: the
/// reference the parts reader is compared with.
#[cfg(test)]
pub fn read_whole(source: &Source) -> Result<Transcript> {
    let mut reader = record::Reader::new(source);
    let mut skipped = super::Skipped::default();
    lines::each_line(&source.path, &mut skipped, |line, skipped| {
        if let Some(value) = line.parse::<serde_json::Value>(skipped) {
            reader.record(line.number, value, skipped);
        }
        Ok(())
    })?;
    let mut transcript = reader.finish();
    transcript.skipped.add(&skipped);
    if transcript.title.is_none()
        && let Some(home) = codex_home_of(&source.path)
    {
        transcript.title = index::thread_name(&home, &transcript.source_id);
    }
    Ok(transcript)
}

fn source(path: &Path, kind: &'static str, bytes: u64) -> Source {
    Source {
        tool: Tool::new(&Codex),
        path: path.to_path_buf(),
        kind,
        bytes,
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The kind of a file named as Codex names rollouts, else `None`.
fn rollout_kind(name: &str) -> Option<&'static str> {
    if !name.starts_with("rollout-") {
        return None;
    }
    if name.ends_with(".jsonl") {
        Some(JSONL)
    } else if name.ends_with(".jsonl.zst") {
        Some(JSONL_ZST)
    } else {
        None
    }
}

/// A file given by name that is not named like a rollout is still one when
/// its first line is a `session_meta` record.
fn starts_like_a_rollout(path: &Path) -> Option<&'static str> {
    use std::io::{BufRead, Read};
    let name = file_name(path);
    let kind = if name.ends_with(".jsonl.zst") {
        JSONL_ZST
    } else if name.ends_with(".jsonl") {
        JSONL
    } else {
        return None;
    };
    let reader = lines::open(path).ok()?;
    let mut first = Vec::new();
    reader.take(1 << 20).read_until(b'\n', &mut first).ok()?;
    let value: serde_json::Value = serde_json::from_slice(first.trim_ascii()).ok()?;
    (value.get("type").and_then(|t| t.as_str()) == Some("session_meta")
        && value.get("payload").is_some())
    .then_some(kind)
}

/// `$CODEX_HOME` of a rollout under its `sessions/` or `archived_sessions/`.
fn codex_home_of(path: &Path) -> Option<PathBuf> {
    path.ancestors()
        .skip(1)
        .find(|dir| {
            dir.file_name()
                .is_some_and(|n| n == "sessions" || n == "archived_sessions")
        })
        .and_then(Path::parent)
        .map(Path::to_path_buf)
}

#[cfg(test)]
mod tests;
