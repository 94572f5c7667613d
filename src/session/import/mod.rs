//! `ollm-session import`: sessions of other agent CLIs (Claude Code, Codex,
//! gemini-cli, opencode, goose) brought into the store, one imported
//! session per source session.
//!
//! Each tool has a module that only reads, an [`Importer`] listed in the
//! one table [`IMPORTERS`] (from which `--from`, the help and the MCP
//! server's descriptions are made): it finds the tool's sources
//! ([`Source`]: a JSONL file, a JSON document, a SQLite database) and turns
//! each session in them into a [`Transcript`], the conversation in order
//! with every tool call paired with its result. [`write`] stores a
//! transcript through [`crate::session::Store::import`], so the store's
//! redaction applies to everything imported. An imported session's id is
//! derived from the tool and the source session's id ([`session_id_for`]),
//! and every record carries the key of what it came from (`sourceKey`), so
//! importing again adds only what the source gained since.

pub(crate) mod batch;
pub(crate) mod bounds;
pub(crate) mod claude;
pub(crate) mod codex;
pub(crate) mod cursor;
pub(crate) mod gemini;
pub(crate) mod goose;
#[cfg(test)]
mod growing_tests;
mod homes;
pub(crate) mod hook;
mod importer;
pub(crate) mod lines;
pub(crate) mod live;
pub(crate) mod opencode;
pub(crate) mod parts;
pub(crate) mod sqlite;
#[cfg(test)]
mod textlog;
pub(crate) mod watch;
pub(crate) mod write;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::Result;
pub use homes::Homes;
pub use importer::{Importer, TailRead, Tool};
pub use parts::{PART_BYTES, PART_ITEMS, Part, split};

/// Every importer, in the order `--from` lists them and `auto` reads them:
/// a new one is its folder plus one line here.
static IMPORTERS: &[&dyn Importer] = &[
    &claude::Claude,
    &codex::Codex,
    &gemini::Gemini,
    &opencode::Opencode,
    &goose::Goose,
    #[cfg(test)]
    &textlog::TextLog,
];

/// The importers of [`IMPORTERS`], in its order.
pub fn tools() -> impl Iterator<Item = Tool> {
    IMPORTERS.iter().map(|&importer| Tool::new(importer))
}

/// The importer called `name` on the command line.
pub fn named(name: &str) -> Option<Tool> {
    tools().find(|tool| tool.name() == name)
}

/// The importers as a person reads them: "Claude Code, Codex and goose".
pub fn listed() -> String {
    let titles: Vec<&str> = tools().map(|tool| tool.title()).collect();
    match titles.split_last() {
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// One thing a tool's sessions are read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    pub tool: Tool,
    pub path: PathBuf,
    /// What the module found there (e.g. `jsonl`, `legacy-json`,
    /// `sqlite`): the module's own distinction, shown in errors.
    pub kind: &'static str,
    /// Its size in bytes when it was found (progress, `--dry-run`).
    pub bytes: u64,
}

/// One session read from another tool: its conversation in order, with
/// where it came from.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Transcript {
    /// The tool's own id for the session (a UUID, a rollout id, a row id).
    pub source_id: String,
    /// Where it was read: a file, or `<database>#<table>/<row id>`.
    pub source: String,
    /// The source session's title, where the tool keeps one.
    pub title: Option<String>,
    /// The model that answered (the last one named, when it changed).
    pub model: Option<String>,
    /// Who served it (`anthropic`, `openai`, `google`, `ollama`, …).
    pub provider: Option<String>,
    /// The working directory the session ran in.
    pub cwd: Option<PathBuf>,
    /// When the session started and last changed (RFC 3339; `None`: taken
    /// from the first and last items).
    pub started: Option<String>,
    pub updated: Option<String>,
    /// For a session of its own split off another (a Claude Code subagent,
    /// a sidechain): the source id of the session it ran in.
    pub parent_source_id: Option<String>,
    pub items: Vec<Item>,
    /// What was read but not imported, by reason.
    pub skipped: Skipped,
}

/// One message or tool call of a transcript.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// What identifies it in the source, unique within the session and
    /// stable as the source grows (a line's uuid, a row id, the index of a
    /// record in an append-only file): importing again skips items whose
    /// key is already stored.
    pub key: String,
    /// When it happened (RFC 3339), if the source says.
    pub timestamp: Option<String>,
    pub body: Body,
}

/// A message, or a tool call with its result.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// `user`, `assistant` or `system`; the message's text (several text
    /// blocks joined with a blank line), and its images, each the part
    /// it is stored as ([`crate::session::model::image`]: the image, or
    /// a text saying why it is not kept), stored after the text.
    Message {
        role: Role,
        text: String,
        images: Vec<Value>,
    },
    ToolCall(Call),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
    System,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::System => "system",
        }
    }
}

/// A tool call and what came back.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The tool's call id (pairs the call with its result in the source).
    pub call_id: String,
    pub name: String,
    /// The arguments as JSON (a JSON string in the source is parsed; one
    /// that is not JSON is kept as a string).
    pub args: Value,
    pub outcome: Outcome,
}

/// What a tool call returned.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Its result, as the model saw it.
    Done(String),
    /// It failed; the error text the model saw.
    Failed(String),
    /// No result was recorded: interrupted, still running, or a call the
    /// provider ran itself (Codex's `web_search_call`). Says which.
    NoResult(&'static str),
}

/// What was read but not imported, counted by reason. Never fatal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Skipped {
    /// A last line cut off mid-write (the tool was still writing).
    pub torn_lines: u64,
    /// A line or row that is not valid JSON (besides a torn last line).
    pub unreadable: u64,
    /// A record of a kind this version does not know.
    pub unknown_kinds: u64,
    /// NUL bytes removed from the input.
    pub nul_bytes: u64,
    /// A UTF-8 byte order mark at the start of a file.
    pub byte_order_marks: u64,
    /// A line or value holding bytes that are not UTF-8: imported with
    /// U+FFFD in their place (counted, not left out).
    pub invalid_utf8: u64,
    /// A message on a branch the conversation left (Claude Code: a prompt
    /// edited or rewound, and what followed it).
    pub other_branches: u64,
    /// A record repeating one already imported (a slash command's
    /// `system/local_command` copy; Codex's `event_msg` copy of a prompt).
    pub copies: u64,
    /// Text the user did not type, recorded as theirs: Claude Code's
    /// `isMeta` lines (skill bodies, caveats) and interruption markers,
    /// Codex's harness messages (`<environment_context>`, instructions),
    /// goose's messages that are not `userVisible`.
    pub not_typed: u64,
    /// A command to the tool itself that its own resume leaves out of the
    /// conversation (gemini-cli's `/…` and `?` prompts).
    pub commands: u64,
    /// A title, working directory, model, provider or where it was read
    /// longer than its bound ([`bounds`]), stored cut with a marker; or an
    /// id (of the session, its parent, a record, a tool call), stored as
    /// its head and a digest; or a start or update time that is not a time,
    /// dropped (the records' times are used).
    pub cut_fields: u64,
}

impl Skipped {
    pub fn add(&mut self, other: &Skipped) {
        self.torn_lines += other.torn_lines;
        self.unreadable += other.unreadable;
        self.unknown_kinds += other.unknown_kinds;
        self.nul_bytes += other.nul_bytes;
        self.byte_order_marks += other.byte_order_marks;
        self.invalid_utf8 += other.invalid_utf8;
        self.other_branches += other.other_branches;
        self.copies += other.copies;
        self.not_typed += other.not_typed;
        self.commands += other.commands;
        self.cut_fields += other.cut_fields;
    }

    /// Lines (and bytes) that could not be read, or of an unknown kind.
    pub fn unread(&self) -> u64 {
        self.torn_lines
            + self.unreadable
            + self.unknown_kinds
            + self.nul_bytes
            + self.byte_order_marks
    }

    /// Records read and left out on purpose.
    pub fn left_out(&self) -> u64 {
        self.other_branches + self.copies + self.not_typed + self.commands
    }
}

/// Every file under `dir` (a link to a file counts; a link to a directory
/// is not followed), at most `max_depth` directories down. `dir` must be
/// readable; a directory below it that is not is passed over.
pub(crate) fn files_under(dir: &Path, max_depth: usize) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).map_err(|e| crate::error::Error::io(dir, &e))?;
    let (mut files, mut links) = (Vec::new(), Vec::new());
    collect_files(entries, max_depth, &mut files, &mut links);
    Ok(files)
}

/// The symbolic links under `dir` (as [`files_under`] walks it) that are
/// not followed: those to a directory, and those to nothing.
pub(crate) fn links_not_followed(dir: &Path, max_depth: usize) -> Vec<PathBuf> {
    let (mut files, mut links) = (Vec::new(), Vec::new());
    if let Ok(entries) = std::fs::read_dir(dir) {
        collect_files(entries, max_depth, &mut files, &mut links);
    }
    links.sort();
    links
}

fn collect_files(
    entries: std::fs::ReadDir,
    depth_left: usize,
    files: &mut Vec<PathBuf>,
    links: &mut Vec<PathBuf>,
) {
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        if kind.is_dir() {
            if depth_left > 0
                && let Ok(inner) = std::fs::read_dir(&path)
            {
                collect_files(inner, depth_left - 1, files, links);
            }
        } else if kind.is_file() || (kind.is_symlink() && path.is_file()) {
            files.push(path);
        } else if kind.is_symlink() {
            links.push(path);
        }
    }
}

/// How deep [`links_not_followed`] looks: as deep as any tool's walk.
pub(crate) const MAX_WALK_DEPTH: usize = 8;

/// The id an imported session gets: the same for the same source session
/// every time (a UUID v5 of the tool and its session id), so a second
/// import finds the first.
pub(crate) fn session_id_for(tool: Tool, source_id: &str) -> String {
    const NAMESPACE: uuid::Uuid = uuid::Uuid::from_u128(0x6f6c_6c6d_2d69_6d70_6f72_742d_7631_0000);
    // The bounded form, as the writer stores it: the batch holds a session
    // by the id made from the source's own, the writer after bounding.
    let name = format!("{}:{}", tool.name(), bounds::id(source_id));
    uuid::Uuid::new_v5(&NAMESPACE, name.as_bytes()).to_string()
}

/// `args` as JSON: a JSON string holding JSON is parsed (Codex, OpenAI
/// style); anything else is kept as it is.
pub fn arguments(args: Value) -> Value {
    match args {
        Value::String(text) => serde_json::from_str(&text).unwrap_or(Value::String(text)),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claude() -> Tool {
        Tool::new(&claude::Claude)
    }

    #[test]
    fn an_imported_session_id_is_stable_and_differs_by_tool() {
        let a = session_id_for(claude(), "abc");
        assert_eq!(a, session_id_for(claude(), "abc"));
        assert_ne!(a, session_id_for(Tool::new(&codex::Codex), "abc"));
        assert_ne!(a, session_id_for(claude(), "abd"));
        assert!(crate::session::model::is_uuid(&a));
    }

    #[test]
    fn arguments_given_as_a_json_string_are_parsed() {
        assert_eq!(
            arguments(Value::from(r#"{"cmd":"ls"}"#)),
            serde_json::json!({"cmd": "ls"})
        );
        assert_eq!(arguments(Value::from("not json")), Value::from("not json"));
        assert_eq!(
            arguments(serde_json::json!({"a": 1})),
            serde_json::json!({"a": 1})
        );
    }

    #[test]
    fn the_table_names_each_importer_once_and_lists_them_for_people() {
        let names: Vec<&str> = tools().map(|tool| tool.name()).collect();
        let unique: std::collections::BTreeSet<&str> = names.iter().copied().collect();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        for name in names {
            assert_eq!(named(name).map(|tool| tool.name()), Some(name));
        }
        assert_eq!(named("auto"), None);
        let listed = listed();
        assert!(
            listed.starts_with("Claude Code, Codex, gemini-cli, opencode"),
            "{listed}"
        );
        let last = tools().last().map(|tool| tool.title()).unwrap();
        assert!(
            listed.ends_with(&format!("goose and {last}")) || listed.ends_with(" and goose"),
            "{listed}"
        );
    }
}
