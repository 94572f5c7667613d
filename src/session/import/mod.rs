//! `ollm-session import`: sessions of other agent CLIs (Claude Code, Codex,
//! gemini-cli, opencode, goose) brought into the store, one imported
//! session per source session.
//!
//! Each tool has a module that only reads: it finds the tool's sources
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
pub(crate) mod gemini;
pub(crate) mod goose;
pub(crate) mod lines;
pub(crate) mod opencode;
pub(crate) mod parts;
pub(crate) mod sqlite;
pub(crate) mod write;

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::error::Result;
pub use parts::{PART_BYTES, PART_ITEMS, Part, split};

/// The agent CLIs whose sessions can be imported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tool {
    Claude,
    Codex,
    Gemini,
    Opencode,
    Goose,
}

impl Tool {
    pub(crate) const ALL: [Tool; 5] = [
        Tool::Claude,
        Tool::Codex,
        Tool::Gemini,
        Tool::Opencode,
        Tool::Goose,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Tool::Claude => "claude",
            Tool::Codex => "codex",
            Tool::Gemini => "gemini",
            Tool::Opencode => "opencode",
            Tool::Goose => "goose",
        }
    }

    /// Where the tool keeps its sessions when no path is given.
    pub(crate) fn default_roots(self, homes: &Homes) -> Vec<PathBuf> {
        match self {
            Tool::Claude => claude::default_roots(homes),
            Tool::Codex => codex::default_roots(homes),
            Tool::Gemini => gemini::default_roots(homes),
            Tool::Opencode => opencode::default_roots(homes),
            Tool::Goose => goose::default_roots(homes),
        }
    }

    /// This tool's sources under `path` (a file or a directory); none when
    /// the path holds nothing of this tool's.
    pub fn sources(self, path: &Path) -> Result<Vec<Source>> {
        match self {
            Tool::Claude => claude::sources(path),
            Tool::Codex => codex::sources(path),
            Tool::Gemini => gemini::sources(path),
            Tool::Opencode => opencode::sources(path),
            Tool::Goose => goose::sources(path),
        }
    }

    /// A warning to give about `source` before it is read (a database
    /// whose schema is newer than this version knows).
    pub fn notice(self, source: &Source) -> Option<String> {
        match self {
            Tool::Goose => goose::notice(source),
            _ => None,
        }
    }

    /// Reads `source`, handing over each session it holds in [`Part`]s
    /// as it is read: a Claude Code transcript, a Codex rollout or a
    /// gemini-cli log a bounded part at a time (memory bounded by an index
    /// of the file, not by its size), an opencode or goose database a row
    /// at a time; the legacy one-document files (gemini-cli's `.json`,
    /// opencode's JSON tree, goose's JSONL) are read whole and handed over
    /// in parts.
    pub fn read_parts(
        self,
        source: &Source,
        each: &mut dyn FnMut(Part) -> Result<()>,
    ) -> Result<()> {
        match self {
            Tool::Claude => claude::read_parts(source, PART_ITEMS, each),
            Tool::Codex => codex::read_parts(source, PART_ITEMS, each),
            Tool::Gemini => gemini::read_parts(source, PART_ITEMS, each),
            Tool::Opencode => opencode::read_parts(source, PART_ITEMS, each),
            Tool::Goose => goose::read_parts(source, PART_ITEMS, each),
        }
    }

    /// Reads `source`, handing over each session it holds whole, as it is
    /// read (a database holds many; a file usually one).
    pub fn read(
        self,
        source: &Source,
        each: &mut dyn FnMut(Transcript) -> Result<()>,
    ) -> Result<()> {
        match self {
            Tool::Claude => claude::read(source, each),
            Tool::Codex => codex::read(source, each),
            Tool::Gemini => gemini::read(source, each),
            Tool::Opencode => opencode::read(source, each),
            Tool::Goose => goose::read(source, each),
        }
    }
}

/// The directories the tools' default locations are found from: the home
/// directory and the variables that move them.
#[derive(Debug, Clone, Default)]
pub(crate) struct Homes {
    pub home: Option<PathBuf>,
    /// `CLAUDE_CONFIG_DIR` (else `~/.claude`).
    pub claude_config_dir: Option<PathBuf>,
    /// `CODEX_HOME` (else `~/.codex`).
    pub codex_home: Option<PathBuf>,
    /// `XDG_DATA_HOME` (else `~/.local/share`).
    pub xdg_data_home: Option<PathBuf>,
    /// `XDG_CONFIG_HOME` (else `~/.config`).
    pub xdg_config_home: Option<PathBuf>,
}

impl Homes {
    /// From this process's environment; an empty variable counts as unset.
    pub fn from_env() -> Homes {
        let var = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        Homes {
            home: var("HOME"),
            claude_config_dir: var("CLAUDE_CONFIG_DIR"),
            codex_home: var("CODEX_HOME"),
            xdg_data_home: var("XDG_DATA_HOME"),
            xdg_config_home: var("XDG_CONFIG_HOME"),
        }
    }

    /// `$HOME/<rest>`, when the home is known.
    pub(crate) fn in_home(&self, rest: &str) -> Option<PathBuf> {
        self.home.as_ref().map(|home| home.join(rest))
    }

    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    pub(crate) fn data_home(&self) -> Option<PathBuf> {
        self.xdg_data_home
            .clone()
            .or_else(|| self.in_home(".local/share"))
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    pub(crate) fn config_home(&self) -> Option<PathBuf> {
        self.xdg_config_home
            .clone()
            .or_else(|| self.in_home(".config"))
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
    /// blocks joined with a blank line).
    Message {
        role: Role,
        text: String,
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
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

    #[test]
    fn an_imported_session_id_is_stable_and_differs_by_tool() {
        let a = session_id_for(Tool::Claude, "abc");
        assert_eq!(a, session_id_for(Tool::Claude, "abc"));
        assert_ne!(a, session_id_for(Tool::Codex, "abc"));
        assert_ne!(a, session_id_for(Tool::Claude, "abd"));
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
    fn an_empty_variable_counts_as_unset_and_defaults_follow_home() {
        let homes = Homes {
            home: Some("/h".into()),
            ..Homes::default()
        };
        assert_eq!(homes.data_home(), Some(PathBuf::from("/h/.local/share")));
        assert_eq!(homes.config_home(), Some(PathBuf::from("/h/.config")));
    }
}
