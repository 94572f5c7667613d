//! gemini-cli chats: `~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl`
//! (a sub-agent's under `chats/<parent session id>/<id>.jsonl`), and the
//! legacy one-document `session-*.json` of releases before April 2026.
//!
//! Read from `google-gemini/gemini-cli` (to August 2026):
//! `packages/core/src/services/chatRecordingService.ts` and
//! `chatRecordingTypes.ts` (the records, `loadConversationRecord`),
//! `packages/core/src/utils/sessionUtils.ts` (`isIgnoredUserContent`),
//! `packages/core/src/config/storage.ts`, `projectRegistry.ts` and
//! `packages/core/src/utils/paths.ts` (where a project's directory is):
//!
//! - The JSONL file is an operation log: a metadata line
//!   `{sessionId, projectHash, startTime, …}`, message records (a record
//!   with an `id` already seen replaces that message in place),
//!   `{"$set": {…}}` metadata updates (a `$set.messages` is a checkpoint:
//!   the conversation is exactly that list from there on) and
//!   `{"$rewindTo": id}` (that message and everything after it are gone).
//!   The conversation is the log replayed to its end, as gemini-cli does.
//! - `user` and `gemini` messages are imported; `info`/`error`/`warning`
//!   are the UI's and are not, nor user text gemini-cli itself does not
//!   resume (slash commands, `?`, `<session_context>`, `<hook_context>`).
//!   A gemini message's tool calls are in its `toolCalls`, each holding its
//!   own `result` and `status`; they follow the message's text. Thoughts
//!   are not imported; an image part (`inlineData` of an image type) is
//!   kept as an image (`model::image`), a `fileData` image as its address,
//!   other inline data (a PDF, audio) left out.
//! - The working directory: a `tmp/<slug>/` directory names its project in
//!   `.project_root`; an older `tmp/<sha256 of the project path>/` does not,
//!   so the record's `projectHash` is matched against the hashes of the
//!   record's `directories`, the paths `~/.gemini/projects.json` lists, and
//!   the home directory and its subdirectories two levels deep. Unmatched,
//!   the session has no directory.
//! - Resuming a legacy `.json` session writes a `.jsonl` beside it with the
//!   same `sessionId` and everything the `.json` held, and other versions
//!   could leave two files of one session: of the files of one
//!   `sessionId` found together, only the last written is imported.
//! - Item keys are message ids (plus the call id for a tool call). Since a
//!   stored item is never replaced, a message the log later replaces keeps
//!   the content it had when first imported; one rewound away stays.
//! - The model is the last gemini message's `model`; the provider
//!   `google`; the title the session's `summary`.

mod log;
mod project;
mod stream;
mod tail;

use std::collections::HashMap;
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

use serde_json::Value;

#[cfg(test)]
use super::Transcript;
use super::cursor::{Anchor, Tail};
use super::{Homes, Importer, Part, Skipped, Source, TailRead, Tool, files_under, lines, split};
use crate::error::{Error, Result};

const JSONL: &str = "jsonl";
const LEGACY_JSON: &str = "legacy-json";

/// A legacy document is read whole; larger ones are refused.
const LEGACY_LIMIT: u64 = 64 << 20;

/// How deep under a given directory chats are looked for
/// (`tmp/<project>/chats/<parent>/` is four below `~/.gemini`).
const MAX_DEPTH: usize = 6;

/// How much of a file is looked at to tell whether it is gemini-cli's.
const PEEK: u64 = 64 << 10;

/// The variable that moves gemini-cli's home (else `~`).
const CLI_HOME: &str = "GEMINI_CLI_HOME";

/// gemini-cli, as the importers' table holds it.
pub struct Gemini;

impl Importer for Gemini {
    fn name(&self) -> &'static str {
        "gemini"
    }

    fn title(&self) -> &'static str {
        "gemini-cli"
    }

    fn variables(&self) -> &'static [&'static str] {
        &[CLI_HOME]
    }

    /// `~/.gemini/tmp`, where gemini-cli's home is `GEMINI_CLI_HOME` when set
    /// (read here: [`Homes`] does not carry it).
    /// gemini-cli's hooks hand over the same JSON as Claude Code's
    /// (`transcript_path`, `session_id`, `cwd`, `hook_event_name`).
    fn hook(&self) -> bool {
        true
    }

    fn default_roots(&self, homes: &Homes) -> Vec<PathBuf> {
        roots(homes.var(CLI_HOME).map(Path::to_path_buf), homes)
    }

    fn sources(&self, path: &Path) -> Result<Vec<Source>> {
        let meta = std::fs::metadata(path).map_err(|e| Error::io(path, &e))?;
        let mut candidates = Vec::new();
        if meta.is_file() {
            candidates.push(path.to_path_buf());
        } else {
            candidates = files_under(path, MAX_DEPTH)?;
            candidates.retain(|file| may_be_a_chat(file));
        }
        let mut found: Vec<(Source, String, Option<std::time::SystemTime>)> = Vec::new();
        for file in candidates {
            let Some((kind, session_id)) = peek(&file) else {
                continue;
            };
            let Ok(meta) = std::fs::metadata(&file) else {
                continue;
            };
            let source = Source {
                tool: Tool::new(&Gemini),
                path: file,
                kind,
                bytes: meta.len(),
            };
            found.push((source, session_id, meta.modified().ok()));
        }
        Ok(one_file_per_session(found))
    }

    /// Reads `source`, handing its session over in parts of at most
    /// `max_items` items: a JSONL log in two passes ([`stream`]), a legacy
    /// document (at most [`LEGACY_LIMIT`]) whole.
    fn read_parts(
        &self,
        source: &Source,
        max_items: usize,
        each: &mut dyn FnMut(Part) -> Result<()>,
    ) -> Result<()> {
        let mut skipped = Skipped::default();
        if source.kind == LEGACY_JSON {
            let mut conversation = log::Conversation::default();
            if let Some(document) = lines::read_document(&source.path, LEGACY_LIMIT, &mut skipped)?
            {
                conversation.apply(document, &mut skipped);
            }
            let mut transcript = conversation.into_transcript(&source.path);
            transcript.skipped.add(&skipped);
            return split(transcript, max_items, each);
        }
        tail::whole(source, max_items, each).map(drop)
    }

    /// As [`Importer::read_parts`]; for a JSONL log, the anchor holds what
    /// a read of only the lines appended later needs of these ([`tail`]).
    fn read_anchored(
        &self,
        source: &Source,
        max_items: usize,
        each: &mut dyn FnMut(Part) -> Result<()>,
    ) -> Result<Option<Anchor>> {
        if source.kind == LEGACY_JSON {
            self.read_parts(source, max_items, each)?;
            return Ok(None);
        }
        tail::whole(source, max_items, each)
    }

    /// Reads only the lines appended to a log after the anchor, when they
    /// can be read alone ([`tail`]).
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

fn roots(cli_home: Option<PathBuf>, homes: &Homes) -> Vec<PathBuf> {
    cli_home
        .or_else(|| homes.home().map(Path::to_path_buf))
        .map(|h| h.join(".gemini").join("tmp"))
        .filter(|tmp| tmp.is_dir())
        .into_iter()
        .collect()
}

/// The log replayed whole in memory, as the reader did before it read in
/// two passes: the reference the two-pass reader is compared with.
#[cfg(test)]
pub fn read_whole(source: &Source) -> Result<Transcript> {
    let mut skipped = Skipped::default();
    let mut conversation = log::Conversation::default();
    if source.kind == LEGACY_JSON {
        if let Some(document) = lines::read_document(&source.path, LEGACY_LIMIT, &mut skipped)? {
            conversation.apply(document, &mut skipped);
        }
    } else {
        lines::each_line(&source.path, &mut skipped, |line, skipped| {
            if let Some(record) = line.parse::<Value>(skipped) {
                conversation.apply(record, skipped);
            }
            Ok(())
        })?;
    }
    let mut transcript = conversation.into_transcript(&source.path);
    transcript.skipped.add(&skipped);
    Ok(transcript)
}

/// Whether `path` may be a chat: `session-*.json(l)` anywhere, and any
/// `.jsonl` in a `chats/` directory or one below it (a sub-agent's).
fn may_be_a_chat(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let in_chats = path
        .ancestors()
        .skip(1)
        .take(2)
        .any(|dir| dir.file_name().is_some_and(|n| n == "chats"));
    let session_file =
        name.starts_with("session-") && (name.ends_with(".json") || name.ends_with(".jsonl"));
    session_file || (in_chats && name.ends_with(".jsonl"))
}

/// The kind and session id of a gemini-cli chat file; `None` for anything
/// else (another tool's JSONL has no `sessionId` with a `projectHash`).
fn peek(path: &Path) -> Option<(&'static str, String)> {
    let name = path.file_name()?.to_string_lossy().into_owned();
    if name.ends_with(".jsonl") {
        let reader = lines::open(path).ok()?;
        let mut first = Vec::new();
        reader.take(PEEK).read_until(b'\n', &mut first).ok()?;
        let text = String::from_utf8_lossy(&first);
        let text = text.trim_start_matches('\u{feff}').replace('\0', "");
        if first.last() != Some(&b'\n') && first.len() as u64 == PEEK {
            // A first line longer than the peek (a whole legacy record on
            // one line): its head names the session.
            return (text.starts_with('{') && text.contains("\"projectHash\""))
                .then(|| string_field(&text, "sessionId"))
                .flatten()
                .map(|id| (JSONL, id));
        }
        let value: Value = serde_json::from_str(text.trim()).ok()?;
        let id = value.get("sessionId")?.as_str()?;
        value.get("projectHash")?.as_str()?;
        Some((JSONL, id.to_string()))
    } else if name.ends_with(".json") {
        // Written with JSON.stringify(record, null, 2): `sessionId` and
        // `projectHash` are its first fields.
        let mut head = Vec::new();
        std::fs::File::open(path)
            .ok()?
            .take(PEEK)
            .read_to_end(&mut head)
            .ok()?;
        let head = String::from_utf8_lossy(&head);
        if !head
            .trim_start_matches('\u{feff}')
            .trim_start()
            .starts_with('{')
            || !head.contains("\"projectHash\"")
        {
            return None;
        }
        Some((LEGACY_JSON, string_field(&head, "sessionId")?))
    } else {
        None
    }
}

/// The string value of `"field": "…"` in a JSON text's head.
fn string_field(text: &str, field: &str) -> Option<String> {
    let key = format!("\"{field}\"");
    let rest = text[text.find(&key)? + key.len()..].trim_start();
    let rest = rest.strip_prefix(':')?.trim_start().strip_prefix('"')?;
    let value = &rest[..rest.find('"')?];
    (!value.is_empty()).then(|| value.to_string())
}

/// Of the files holding one session, the last written (a `.jsonl` over a
/// `.json` written at the same time), in path order.
fn one_file_per_session(
    found: Vec<(Source, String, Option<std::time::SystemTime>)>,
) -> Vec<Source> {
    let mut best: HashMap<String, (Source, Option<std::time::SystemTime>)> = HashMap::new();
    for (source, id, modified) in found {
        let newer = match best.get(&id) {
            None => true,
            Some((kept, kept_modified)) => {
                (modified, source.kind == JSONL) > (*kept_modified, kept.kind == JSONL)
            }
        };
        if newer {
            best.insert(id, (source, modified));
        }
    }
    let mut sources: Vec<Source> = best.into_values().map(|(s, _)| s).collect();
    sources.sort_by(|a, b| a.path.cmp(&b.path));
    sources
}

#[cfg(test)]
mod tests;
