//! What every session store offers: the [`SessionStore`] trait (the
//! branching plan's store abstraction) and the values its operations take
//! and return. Its signatures carry no file-lock type: a store's own locks
//! stay inside it ([`SessionLock`] is what a caller holds).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::redact::policy::Redaction;
use crate::session::model::{Entry, Loaded, Message, Problem, SessionHead, SessionSummary};
use crate::session::query::{Found, Query};
use crate::timestamp::{self, Millis};

pub use super::snapshot_store::SnapshotStore;

/// A session held against its other writers until dropped: what
/// [`SessionStore::lock_session`] gives, whatever the store holds inside.
pub struct SessionLock {
    guard: Box<dyn Guard>,
}

/// A store's own lock behind a [`SessionLock`].
pub trait Guard: Send + Sync {
    /// Releases it for a session that is not there, leaving nothing behind.
    fn discard(self: Box<Self>);
}

impl Guard for crate::fs::lock::Lock {
    fn discard(self: Box<Self>) {
        self.remove();
    }
}

impl SessionLock {
    /// Holds `guard` (a store's own lock) for as long as this lives.
    pub fn new(guard: impl Guard + 'static) -> SessionLock {
        SessionLock {
            guard: Box::new(guard),
        }
    }

    /// Releases the lock of a session found missing, leaving nothing
    /// behind (a file store removes its lock file).
    pub fn discard(self) {
        self.guard.discard();
    }
}

impl std::fmt::Debug for SessionLock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SessionLock")
    }
}

/// The clock a store stamps `lastActivity` with (tests pin it).
pub type Clock = Arc<dyn Fn() -> Millis + Send + Sync>;

/// How a store behaves besides where it lives.
#[derive(Clone)]
pub struct StoreOptions {
    /// Sessions kept when one is created; 0 disables the limit.
    pub max_sessions: u64,
    /// Where snapshots live (`<dir>/<sessionId>/snapshots/`) on the file
    /// store, and older ones taken here on a store sharing them; deleting a
    /// session deletes its snapshots there.
    pub snapshots_dir: Option<PathBuf>,
    /// The format the file store writes new sessions in.
    pub format: NewFormat,
    /// What replaces credentials in what is written (`None`: they are
    /// stored verbatim, `services.session.redact: false`).
    pub redaction: Option<Arc<Redaction>>,
    pub clock: Clock,
    /// Where `ollm-session keep` puts its socket (`$OLLM_HOME/run`), and
    /// where a PostgreSQL store looks for one; `None`: it connects directly.
    pub run_dir: Option<PathBuf>,
    /// The data directory's size (`st_size`, bytes) from which a file
    /// store's write watches the directory, so that the next read need not
    /// compare the directory's entries with the index's rows (see
    /// `index::watch`). The watch costs every write a clock tick and a
    /// kernel grace period (2–6 ms); the comparison it saves costs about a
    /// microsecond per entry, less than the watch below a few thousand
    /// sessions (the default `maxSessions` keeps 100).
    pub watch_writes_from: u64,
}

/// [`StoreOptions::watch_writes_from`]'s default: about 2,000 entries of
/// `<id>.json` in an ext4 directory, 1,600 on btrfs, 6,500 on tmpfs.
pub const WATCH_WRITES_FROM: u64 = 128 * 1024;

/// The format of the sessions a file store creates (`services.session.format`).
pub use crate::config::SessionFormat as NewFormat;

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            max_sessions: 100,
            snapshots_dir: None,
            format: NewFormat::default(),
            redaction: Some(Arc::new(Redaction::default())),
            clock: Arc::new(timestamp::now_millis),
            run_dir: None,
            watch_writes_from: WATCH_WRITES_FROM,
        }
    }
}

/// What `create` and `branch` made, and what `maxSessions` removed.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[schemars(transform = crate::schema::skipped_when_none)]
#[serde(rename_all = "camelCase")]
pub struct Created {
    pub session_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_session_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch_point: Option<u64>,
    /// Sessions deleted to keep within `maxSessions`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
}

/// A new session's fields.
#[derive(Debug, Clone, Default)]
pub struct NewSession {
    pub model: String,
    pub provider: String,
    pub title: Option<String>,
    /// Where the session is made (see [`Session::workspace`]).
    pub workspace: Option<String>,
}

/// What `record` acknowledges once the record is stored durably.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[schemars(rename = "RecordAck")]
#[serde(rename_all = "camelCase")]
pub struct Ack {
    pub session_id: String,
    /// `message` or `toolCall`.
    #[schemars(extend("enum" = ["message", "toolCall"]))]
    pub recorded: &'static str,
    /// The index of the record in `messages` or `toolCalls`.
    pub index: u64,
    pub last_activity: String,
    pub token_count: u64,
    /// How many credentials were replaced in the record before it was
    /// stored (never what they were).
    pub redacted: u64,
    /// The bytes not stored because a text of the record was longer than
    /// redaction reads ([`crate::redact::PRECISE_LIMIT`]); left out when
    /// none.
    #[serde(skip_serializing_if = "is_zero")]
    pub withheld: u64,
}

/// For `skip_serializing_if` (serde passes a reference).
#[allow(clippy::trivially_copy_pass_by_ref)]
#[must_use]
pub fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Every readable session's summary, and the ones that were not readable.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    /// Newest `lastActivity` first.
    pub sessions: Vec<SessionSummary>,
    pub problems: Vec<Problem>,
}

/// A page of a listing as the NDJSON lines `list` writes: each session's
/// summary as compact JSON, newest first, a line each.
#[derive(Debug, Clone, Default)]
pub struct JsonLines {
    pub text: Vec<u8>,
    /// Lines in `text`.
    pub count: usize,
    pub problems: Vec<Problem>,
}

impl JsonLines {
    /// Adds a line stored as it is written.
    pub fn push_line(&mut self, json: &str) {
        self.text.extend_from_slice(json.as_bytes());
        self.text.push(b'\n');
        self.count += 1;
    }

    /// Adds `summary`'s line.
    pub fn push(&mut self, summary: &SessionSummary) -> crate::error::Result<()> {
        crate::lossless::to_writer(&mut self.text, summary)
            .map_err(|e| crate::error::Error::input(format!("cannot encode a session: {e}")))?;
        self.text.push(b'\n');
        self.count += 1;
        Ok(())
    }

    /// The lines of `listing`'s sessions.
    pub fn of(listing: Listing) -> crate::error::Result<JsonLines> {
        let mut lines = JsonLines {
            text: Vec::with_capacity(listing.sessions.len() * 256),
            count: 0,
            problems: listing.problems,
        };
        for summary in &listing.sessions {
            lines.push(summary)?;
        }
        Ok(lines)
    }
}

/// Which sessions a listing keeps, and which page of them (newest first).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListQuery {
    /// Only sessions with this model.
    pub model: Option<String>,
    /// Only sessions active at or after this time.
    pub since: Option<Millis>,
    /// Only sessions made in this workspace.
    pub workspace: Option<String>,
    /// Sessions skipped first.
    pub offset: usize,
    /// At most this many (`None`: all).
    pub limit: Option<usize>,
}

impl ListQuery {
    /// The `limit` newest sessions (of `workspace` when given).
    pub fn newest(limit: usize, workspace: Option<&str>) -> ListQuery {
        ListQuery {
            workspace: workspace.map(str::to_string),
            limit: Some(limit),
            ..ListQuery::default()
        }
    }

    /// Whether `s` passes the query's filters (model, since, workspace).
    pub fn keeps(&self, s: &SessionSummary) -> bool {
        self.model.as_deref().is_none_or(|m| s.model == m)
            && self
                .since
                .is_none_or(|since| timestamp::parse(&s.last_activity).is_some_and(|t| t >= since))
            && self
                .workspace
                .as_deref()
                .is_none_or(|w| s.workspace.as_deref() == Some(w))
    }

    /// The query's page of a whole listing (newest first).
    pub fn page(&self, listing: Listing) -> Listing {
        Listing {
            sessions: listing
                .sessions
                .into_iter()
                .filter(|s| self.keeps(s))
                .skip(self.offset)
                .take(self.limit.unwrap_or(usize::MAX))
                .collect(),
            problems: listing.problems,
        }
    }
}

/// The sessions a reference may name: a title, or an id prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Naming<'a> {
    /// Sessions titled exactly this.
    pub title: &'a str,
    /// Sessions whose id starts with this (lowercase), when the reference
    /// can be one.
    pub prefix: Option<&'a str>,
    /// Only sessions made in this workspace.
    pub workspace: Option<&'a str>,
}

impl Naming<'_> {
    pub fn keeps(&self, s: &SessionSummary) -> bool {
        (s.title.as_deref() == Some(self.title)
            || self.prefix.is_some_and(|p| s.session_id.starts_with(p)))
            && self
                .workspace
                .is_none_or(|w| s.workspace.as_deref() == Some(w))
    }
}

/// What `cleanup` or `clear` deleted (or would delete, dry run).
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
#[schemars(rename = "CleanupResult")]
#[serde(rename_all = "camelCase")]
pub struct CleanupReport {
    pub dry_run: bool,
    pub deleted: Vec<String>,
    pub kept: u64,
    /// Sessions that were due for deletion but locked by a writer.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped_locked: Vec<String>,
    /// Sessions set aside as corrupt that were deleted (their paths).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub deleted_corrupt: Vec<PathBuf>,
    /// Snapshot directories of sessions no longer in the store, removed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub orphaned_snapshots: Vec<String>,
}

/// A session set aside as corrupt (`list --corrupt`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetAside {
    pub session_id: String,
    pub path: PathBuf,
    /// `journal` (a session directory) or `plain` (a spec-format file).
    pub format: &'static str,
}

/// One record appended to a session.
#[derive(Debug, Clone, Copy)]
pub enum Append<'a> {
    /// A message or tool call and its share of `metadata.tokenCount`.
    Entry { entry: &'a Entry, tokens: u64 },
    /// A compression noted in `metadata.compressionHistory`.
    Compression(&'a Map<String, Value>),
}

/// The values one string field takes in a session's messages and tool
/// calls, and the latest record `timestamp`: what an import asks of a
/// session it stored before ([`SessionStore::record_keys`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RecordKeys {
    pub keys: std::collections::HashSet<String>,
    pub latest: Option<Millis>,
}

impl RecordKeys {
    /// Takes in one record's `field` and `timestamp`.
    pub fn note(&mut self, key: Option<&str>, timestamp: Option<&str>) {
        if let Some(key) = key {
            self.keys.insert(key.to_owned());
        }
        if let Some(at) = timestamp.and_then(timestamp::parse) {
            self.latest = self.latest.max(Some(at));
        }
    }

    /// From a session read whole (a store that keeps no lighter way).
    pub fn of(loaded: &Loaded, field: &str) -> RecordKeys {
        let mut keys = RecordKeys::default();
        let session = &loaded.session;
        let records = session
            .messages
            .iter()
            .map(|m| (m.as_map(), m.timestamp()))
            .chain(
                session
                    .tool_calls
                    .iter()
                    .map(|c| (c.as_map(), c.timestamp())),
            );
        for (record, at) in records {
            keys.note(record.get(field).and_then(Value::as_str), Some(at));
        }
        keys
    }
}

/// A new session as a store writes it: its head and its first records.
/// Every record's `at` is the head's `lastActivity`.
#[derive(Debug, Clone)]
pub struct Publish {
    pub head: SessionHead,
    pub entries: Vec<(Entry, Option<u64>)>,
    /// A session ollm made (create, branch, restore), not one copied in:
    /// the oldest sessions ollm made beyond `maxSessions` are deleted
    /// (never this one), and a file store marks it as made here.
    pub enforce_max: bool,
}

/// The storage operations of a session store. Every write is durable when
/// it returns; readers see a session's records in the one order in which
/// they were acknowledged.
pub trait SessionStore: Send + Sync {
    /// The store itself, for code inside `store/` that must reach a
    /// concrete store's own abilities (a downcast); code elsewhere asks
    /// the trait.
    fn as_any(&self) -> &dyn std::any::Any;
    /// Where the store is, for messages (a URL's password redacted).
    fn location(&self) -> String;
    fn options(&self) -> &StoreOptions;
    /// `Ok` when session `id` is live, [`Error::NotFound`] when it is not.
    fn exists(&self, id: &str) -> Result<()>;
    /// Whether anything of session `id` (live or set aside) is stored.
    fn has_any(&self, id: &str) -> bool;
    /// Stores a new session under its head's id.
    fn publish(&self, new: Publish) -> Result<Created>;
    /// Stores sessions copied from another store (`enforce_max` unset), as
    /// `publish` does each, but one that is already here is left as it is
    /// (`false` in its place of the answer). A store that can makes them
    /// durable together, all or none; the default stores them one by one.
    fn publish_copies(&self, copies: Vec<Publish>) -> Result<Vec<bool>> {
        copies
            .into_iter()
            .map(|copy| match self.exists(&copy.head.session_id) {
                Ok(()) => Ok(false),
                Err(Error::NotFound(_)) => self.publish(copy).map(|_| true),
                Err(err) => Err(err),
            })
            .collect()
    }
    /// Whether [`SessionStore::publish_copies`] makes many copies durable
    /// in one step, so a caller hands them over together (the default
    /// stores them one by one, and a caller may as well ask for each).
    fn publishes_copies_together(&self) -> bool {
        false
    }
    /// Appends one record under the session's lock; returns the summary
    /// after it, once the record is durable.
    fn append(&self, id: &str, record: Append<'_>) -> Result<SessionSummary>;
    /// Appends `entries` (each with its share of `metadata.tokenCount`) in
    /// order as one write under the session's lock: durable together when
    /// it returns (one fsync, one transaction). Their `at` is the session's
    /// lastActivity moved forward to `not_before`, else to now.
    fn append_entries(
        &self,
        id: &str,
        entries: &[(Entry, u64)],
        not_before: Option<Millis>,
    ) -> Result<SessionSummary>;
    /// The values of the string field `field` of every message and tool
    /// call of session `id`, without building the session where the store
    /// can (an import asking which records it stored before).
    fn record_keys(&self, id: &str, field: &str) -> Result<RecordKeys> {
        Ok(RecordKeys::of(&self.load_held(id, None)?, field))
    }
    /// Changes the session's head fields: `patch` is a JSON object of
    /// head keys (`title`, `metadata`, … or additive ones), merged into the
    /// head (a `null` removes a key). Records are never changed.
    fn update_metadata(&self, id: &str, patch: &Map<String, Value>) -> Result<SessionSummary>;
    fn summary(&self, id: &str) -> Result<SessionSummary>;
    /// The session, by a caller holding its lock when `held`.
    fn load_held(&self, id: &str, held: Option<&SessionLock>) -> Result<Loaded>;
    /// Every session's summary, newest first, without reading records.
    fn list(&self) -> Result<Listing>;
    /// The page of sessions `query` keeps, newest first. A store that can
    /// filter and cut before reading every summary does.
    fn list_where(&self, query: &ListQuery) -> Result<Listing> {
        Ok(query.page(self.list()?))
    }
    /// `query`'s listing as NDJSON pages (the first of `first` lines)
    /// handed to `page` until it returns `false`, read by one statement,
    /// where the store can (`None`: the caller reads pages by offset). The
    /// caller uses the store for nothing else until it returns.
    fn list_json_pages(
        &self,
        _query: &ListQuery,
        _first: usize,
        _page: &mut dyn FnMut(JsonLines) -> bool,
    ) -> Option<Result<()>> {
        None
    }
    /// The sessions `naming` may mean, newest first.
    fn named(&self, naming: &Naming<'_>) -> Result<Vec<SessionSummary>> {
        let mut sessions = self.list()?.sessions;
        sessions.retain(|s| naming.keeps(s));
        Ok(sessions)
    }
    /// The sessions branched from session `id`, newest first.
    fn children(&self, id: &str) -> Result<Vec<SessionSummary>> {
        let mut sessions = self.list()?.sessions;
        sessions.retain(|s| s.parent_session_id.as_deref() == Some(id));
        Ok(sessions)
    }
    /// How many sessions (live and set aside) the store holds.
    fn count(&self) -> Result<usize>;
    fn corrupt(&self) -> Result<Vec<SetAside>>;
    /// Deletes a session and its snapshots, waiting for its writers.
    fn delete(&self, id: &str) -> Result<()>;
    /// Keeps the `keep` most recently active sessions, skipping any being
    /// written.
    fn cleanup(&self, keep: u64, dry_run: bool) -> Result<CleanupReport>;
    fn search(&self, query: &Query) -> Result<Found>;
    /// Passes every JSON value stored for session `id` (its head, each
    /// record, and the snapshots the store keeps itself) through `scrub`,
    /// and stores the result in one atomic step when `scrub` replaced
    /// anything: a reader, or a crash, finds it as it was or fully
    /// scrubbed. Returns how many spans `scrub` replaced.
    fn scrub(&self, id: &str, scrub: &dyn Fn(&mut Value) -> u64) -> Result<u64>;
    /// The stored bytes of session `id` when it is one JSON text the store
    /// keeps whole or line by line (a file), for a scan to look through
    /// before parsing it; `None` when the store keeps no such text.
    fn raw_document(&self, _id: &str) -> Result<Option<Vec<u8>>> {
        Ok(None)
    }
    /// The lock that snapshot writers of session `id` hold.
    fn lock_session(&self, id: &str) -> Result<SessionLock>;
    /// Waits until no other import into this store runs, on any machine,
    /// and holds that until dropped; `None` where a lock on this machine
    /// (the import's file lock) already covers every writer.
    fn import_lock(&self) -> Result<Option<SessionLock>> {
        Ok(None)
    }
    /// The store's own snapshot storage, shared by every machine using
    /// the store (`None`: snapshots live in this machine's `snapshots.dir`).
    fn snapshots(&self) -> Option<&dyn SnapshotStore> {
        None
    }
    /// Builds what the store derives from its sessions (an index) again
    /// from them, returning how many sessions it holds and how many could
    /// not be read; `None` where it derives nothing (a database answers
    /// from its own tables).
    fn rebuild_derived(&self) -> Option<Result<(usize, usize)>> {
        None
    }
    /// After credentials were scrubbed from sessions: builds again what was
    /// derived from them before, forgetting it (an index keeps titles and
    /// workspaces as they were).
    fn forget_derived(&self) -> Result<()> {
        Ok(())
    }
    /// The directory on this machine that holds the sessions (`None`: they
    /// are elsewhere, a database).
    fn local_dir(&self) -> Option<&Path> {
        None
    }
    /// The text of the session's first user message (`None`: there is none).
    fn first_user_text(&self, id: &str) -> Result<Option<String>> {
        Ok(self
            .load_held(id, None)?
            .session
            .messages
            .iter()
            .find(|m| m.role() == "user")
            .map(Message::text_content))
    }
}
