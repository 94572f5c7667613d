//! Every tool's arguments and result, with the JSON Schemas `tools/list`
//! gives for them (doc comments become their descriptions). Field names
//! are our JSON's (camelCase). What a result holds of a session, a hit, a
//! context entry, a file or an acknowledgement is the library's wire type
//! itself (flattened, or [`Served`] where fields naming this machine's
//! paths are left out), so its fields are declared once, there.

use ollm::session::model::SessionSummary;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::served::Served;

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ListSessionsArgs {
    /// Only sessions made in this workspace: a directory (its git top
    /// level is used), or "." for the server's own workspace.
    pub workspace: Option<String>,
    /// Only sessions active since then: a duration back from now (2h, 3d,
    /// 1week) or a date (2026-01-15).
    pub since: Option<String>,
    /// Only sessions with this model.
    pub model: Option<String>,
    /// At most this many, newest first (default 50, at most 1000).
    pub limit: Option<usize>,
    /// Skip this many newest sessions first.
    #[serde(default)]
    pub offset: usize,
}

/// One session as listed: `ollm-session list`'s row, and where to read it.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionItem {
    #[serde(flatten)]
    pub summary: SessionSummary,
    /// The resource to read the whole session as Markdown.
    pub uri: String,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionList {
    pub sessions: Vec<SessionItem>,
    /// How many are in `sessions`.
    pub count: usize,
    /// When nothing was found: which store was read, and what to check.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchSessionsArgs {
    /// What to look for: text, or a regular expression with `regex`.
    pub query: String,
    /// `query` is a regular expression (Rust regex syntax).
    #[serde(default)]
    pub regex: bool,
    /// Match regardless of case.
    #[serde(default)]
    pub ignore_case: bool,
    /// Only messages of this role (user, assistant, system, tool; `title`
    /// searches titles only).
    pub role: Option<String>,
    /// Only sessions made in this workspace (as in list_sessions).
    pub workspace: Option<String>,
    /// At most this many hits, newest first (default 20, at most 500).
    pub limit: Option<usize>,
}

/// A place a search matched: the wire type `ollm-session search` prints
/// (and the clients' `SearchHit`), with its schema from the same derive.
pub use ollm::session::query::Hit as SearchHit;

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchResult {
    pub hits: Vec<SearchHit>,
    pub count: usize,
    /// Whether more hits were found than `limit` let through.
    pub truncated: bool,
    /// When nothing was found: which store was read, and what to check.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GetSessionArgs {
    /// A session id, a unique prefix of one (4+ hex digits), or a title.
    pub session: Option<String>,
    /// The most recently active session (instead of `session`).
    #[serde(default)]
    pub latest: bool,
    /// The first message (0-based) of the range wanted (default 0).
    pub from: Option<u64>,
    /// The message after the last one wanted (default: the end).
    pub to: Option<u64>,
    /// The most tokens (of the configured tokenizer) one page may hold
    /// (default 4000, 100 to 100000). A longer range comes in pages.
    pub max_tokens: Option<u64>,
    /// The `nextCursor` of the previous page: continues where it stopped.
    pub cursor: Option<String>,
    /// Read the session's tool calls (name, arguments, result) instead of
    /// its messages: `from` and `to` then count tool calls, as a search
    /// hit's `toolCallIndex` does.
    #[serde(default)]
    pub tool_calls: bool,
}

/// One message of a page: its text as fitted to the page's budget (not the
/// stored message's parts, which could exceed any budget).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PageMessage {
    pub index: u64,
    pub role: String,
    pub timestamp: String,
    pub text: String,
    /// The message was cut to fit the budget alone.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

/// One tool call of a page: its name and the text it is searched in (name,
/// arguments as JSON, result), fitted to the page's budget.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PageToolCall {
    pub index: u64,
    pub name: String,
    pub timestamp: String,
    pub text: String,
    /// The tool call was cut to fit the budget alone.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

/// A page of a session: its summary (as `ollm-session list` gives it;
/// `messageCount` counts the whole session) and the messages that fit, or
/// (asked with `toolCalls`) the tool calls.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionPage {
    #[serde(flatten)]
    pub summary: SessionSummary,
    pub messages: Vec<PageMessage>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<PageToolCall>,
    /// Tokens in this page (with each message's overhead).
    pub tokens: u64,
    /// The tokenizer they were counted with.
    pub tokenizer: String,
    pub max_tokens: u64,
    /// Pass as `cursor` for the next page; absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GetContextArgs {}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContextResult {
    /// The system-prompt additions, as `ollm context prompt` renders them.
    pub prompt: String,
    /// The entries in prompt order (highest priority first).
    pub entries: Vec<ollm::context::entry::Entry>,
    /// Whether the workspace's own entries are used: an untrusted
    /// workspace contributes only the entries you added there yourself
    /// (`ollm trust` trusts it).
    pub trusted: bool,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DiscoverFilesArgs {
    /// The directory to list, inside the server's working directory
    /// (default: that directory).
    pub root: Option<String>,
    /// Report only entries matching these globs (without `/`, a name at any
    /// depth; with `/`, the path below the root).
    #[serde(default)]
    pub include: Vec<String>,
    /// Skip entries matching these globs (a matching directory is not entered).
    #[serde(default)]
    pub exclude: Vec<String>,
    /// Directory levels entered below the root (0: only its own entries).
    pub max_depth: Option<u64>,
    /// At most this many entries, sorted by path (default 500, at most 10000).
    pub limit: Option<usize>,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileList {
    pub root: String,
    /// As `ollm discover` prints them, without their absolute paths.
    pub files: Vec<Served<ollm::discover::Entry>>,
    pub count: usize,
    /// Whether more entries were found than `limit` let through.
    pub truncated: bool,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RecordMessageArgs {
    /// A session id, a unique prefix of one (4+ hex digits), or a title.
    pub session: Option<String>,
    /// The most recently active session (instead of `session`).
    #[serde(default)]
    pub latest: bool,
    /// user, assistant or system.
    pub role: String,
    pub text: String,
}

/// What `record_message` answers: `ollm-session record`'s acknowledgement.
pub use ollm::session::store::Ack as Recorded;

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AddContextArgs {
    /// A unique key; also the section heading in the prompt.
    pub key: String,
    pub content: String,
    /// Higher priorities come first in the prompt (default 50).
    pub priority: Option<i64>,
    /// Drop the entry after this long: 30s, 10m, 2h, 1d.
    pub ttl: Option<String>,
}

/// What `add_context` answers: `ollm context add`'s, without the store's path.
pub type ContextAdded = Served<ollm::context::ops::Added>;
