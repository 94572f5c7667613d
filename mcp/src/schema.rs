//! Every tool's arguments and result, with the JSON Schemas `tools/list`
//! gives for them (doc comments become their descriptions). Field names
//! are our JSON's (camelCase).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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

/// One session as listed.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionItem {
    pub session_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub start_time: String,
    pub last_activity: String,
    pub model: String,
    pub provider: String,
    pub message_count: u64,
    pub tool_call_count: u64,
    pub token_count: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workspace: Option<String>,
    /// The resource to read the whole session as Markdown.
    pub uri: String,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionList {
    pub sessions: Vec<SessionItem>,
    /// How many are in `sessions`.
    pub count: usize,
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
}

/// One message of a page.
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

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionPage {
    pub session_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub model: String,
    pub start_time: String,
    pub last_activity: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workspace: Option<String>,
    /// Messages in the whole session.
    pub message_count: u64,
    pub messages: Vec<PageMessage>,
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

/// One context entry.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContextItem {
    pub key: String,
    pub content: String,
    pub priority: i64,
    /// hook, extension, user or system.
    pub source: String,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContextResult {
    /// The system-prompt additions, as `ollm context prompt` renders them.
    pub prompt: String,
    /// The entries in prompt order (highest priority first).
    pub entries: Vec<ContextItem>,
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

/// A file (or directory, or symbolic link) found.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileItem {
    pub relative_path: String,
    /// file, directory or symlink.
    #[serde(rename = "type")]
    pub kind: String,
    pub size: u64,
    pub modified: String,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileList {
    pub root: String,
    pub files: Vec<FileItem>,
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

/// What was recorded.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Recorded {
    pub session_id: String,
    /// The new message's index.
    pub index: u64,
    pub last_activity: String,
    /// How many credentials were replaced before the text was stored.
    pub redacted: u64,
    /// The bytes not stored because the text was longer than redaction
    /// reads (16 MiB), as `ollm session record` says; left out when none.
    #[serde(skip_serializing_if = "ollm::session::store::is_zero")]
    pub withheld: u64,
}

/// `record`'s acknowledgement as this tool gives it: the same counts.
impl From<ollm::session::store::Ack> for Recorded {
    fn from(ack: ollm::session::store::Ack) -> Recorded {
        Recorded {
            session_id: ack.session_id,
            index: ack.index,
            last_activity: ack.last_activity,
            redacted: ack.redacted,
            withheld: ack.withheld,
        }
    }
}

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

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContextAdded {
    pub added: String,
    /// Whether it replaced a live entry with that key.
    pub replaced: bool,
}
