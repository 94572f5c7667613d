//! Where sessions are kept: the [`Store`] handle every command uses, over
//! one of the stores behind the [`SessionStore`] trait ([`api`]), each in a
//! folder of its own:
//!
//! - [`file`]: the data directory, where a session is either the OLLM
//!   CLI's `<id>.json` ([`cli`], its format) or our append-only journal
//!   (`file::journal`); the default;
//! - [`postgres`]: a PostgreSQL database shared by many machines.
//!
//! `services.session.store` (`OLLM_SESSION_STORE`, `--store`) selects one:
//! `file` or a `postgres://` / `postgresql://` URL. What is the same
//! whatever the storage (creating, branching, the acknowledgement of a
//! record, the most recent session) is written once, in [`Store`]. The
//! file store keeps snapshots in `snapshots.dir`; a store that keeps them
//! itself (PostgreSQL, shared by every machine) offers its own
//! [`SnapshotStore`] ([`crate::session::Snapshots`] uses it in front of
//! the directory). Adding a store is one new folder implementing
//! [`SessionStore`] and one line in the table of kinds ([`kinds`]).

pub(crate) mod api;
mod branch;
pub(crate) mod cli;
pub mod file;
pub(crate) mod kinds;
pub mod pages;
pub mod postgres;
pub(crate) mod snapshot_store;

#[cfg(test)]
mod batch_tests;
/// The PostgreSQL test schemas the library's tests share with the test
/// binaries.
#[cfg(test)]
#[path = "../../../tests/support/pg.rs"]
pub(crate) mod test_pg;

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Map, Value};

pub use api::{
    Ack, Append, CleanupReport, Clock, Created, JsonLines, ListQuery, Listing, Naming, NewFormat,
    NewSession, Publish, RecordKeys, SessionLock, SessionStore, SetAside, SnapshotStore,
    StoreOptions, is_zero,
};
pub(crate) use file::FileStore;
pub use file::{JOURNAL, SUMMARY};
use postgres::url as pgurl;
pub use snapshot_store::{PutSnapshot, encode_snapshot};

use super::model::{
    Entry, Loaded, Message, Metadata, Session, SessionHead, SessionSummary, check_id, new_id,
};
use super::query::{Found, Query};
use super::rendered_hits::{Render, RenderedHits};
use crate::error::{Error, Result};
use crate::redact::Tally;
use crate::timestamp;

/// A session store, whichever it is.
#[derive(Clone)]
pub struct Store {
    inner: Arc<dyn SessionStore>,
}

impl Store {
    /// The journal store at `dir`; nothing is touched until it is used.
    pub fn new(dir: impl Into<PathBuf>, options: StoreOptions) -> Store {
        Store {
            inner: Arc::new(FileStore::new(dir, options)),
        }
    }

    /// Whether `location` names a kind of store ([`Store::open`] opens it)
    /// rather than a directory.
    pub fn names_a_store(location: &str) -> bool {
        kinds::opener(location).is_some()
    }

    /// The store at `location`, of one of the kinds of [`kinds::OPENERS`]:
    /// `file` (the journal store at `dir`) or a PostgreSQL URL (connected
    /// on first use).
    pub fn open(location: &str, dir: impl Into<PathBuf>, options: StoreOptions) -> Result<Store> {
        match kinds::opener(location) {
            Some(opener) => Ok(Store {
                inner: (opener.open)(location, dir.into(), options)?,
            }),
            None => Err(Error::Config(format!(
                "services.session.store: {:?} is neither {}",
                pgurl::redact(location),
                kinds::locations(" nor ")
            ))),
        }
    }

    /// The store the configuration names (`services.session.store`,
    /// `dataDir`, `maxSessions`, `snapshots.dir`).
    pub fn from_config(config: &crate::config::Config) -> Result<Store> {
        Store::open(
            &config.services.session.store,
            crate::config::session_data_dir(config),
            Self::options_from(config),
        )
    }

    /// The options the configuration gives any store.
    pub(crate) fn options_from(config: &crate::config::Config) -> StoreOptions {
        StoreOptions {
            max_sessions: config.services.session.max_sessions,
            snapshots_dir: Some(crate::paths::expand(&config.snapshots.dir)),
            format: config.services.session.format,
            redaction: config.services.session.redact.then(|| {
                Arc::new(crate::redact::policy::Redaction::for_environment(
                    &config.services.environment,
                    |message| crate::diag::warn(message),
                ))
            }),
            run_dir: Some(crate::paths::ollm_home().join("run")),
            ..StoreOptions::default()
        }
    }

    /// `entry` as it is stored: its credentials replaced (unless redaction
    /// is off), and how many were. A text past the redaction's limit is
    /// stored cut, with one warning.
    pub fn redacted(&self, entry: &Entry) -> (Entry, Tally) {
        let mut entry = entry.clone();
        let tally = match &self.options().redaction {
            Some(redaction) => entry.redact(redaction.scrubber()),
            None => Tally::default(),
        };
        if tally.withheld > 0 {
            crate::diag::warn(format!(
                "a text of the record is longer than redaction reads ({} MiB): its last {} bytes were not stored",
                crate::redact::PRECISE_LIMIT >> 20,
                tally.withheld
            ));
        }
        (entry, tally)
    }

    /// Replaces the credentials in every string of `value` (unless
    /// redaction is off); returns how many were replaced.
    pub(crate) fn redact_json(&self, value: &mut Value) -> u64 {
        self.options().redaction.as_ref().map_or(0, |redaction| {
            redaction.scrubber().redact_json(value) as u64
        })
    }

    fn redact_text(&self, text: Option<String>) -> Option<String> {
        let mut value = Value::from(text?);
        self.redact_json(&mut value);
        value.as_str().map(str::to_string)
    }

    /// `head` with the credentials of what a source may have written into
    /// it replaced (model, provider, title, workspace, metadata, other
    /// fields): an imported transcript's `cwd` or model name is text a
    /// tool chose. Its ids and times are the store's own.
    fn redacted_head(&self, mut head: SessionHead) -> SessionHead {
        if self.options().redaction.is_none() {
            return head;
        }
        let redact_map = |map: &mut Map<String, Value>| {
            let mut value = Value::Object(std::mem::take(map));
            self.redact_json(&mut value);
            if let Value::Object(fields) = value {
                *map = fields;
            }
        };
        head.model = self.redact_text(Some(head.model)).unwrap_or_default();
        head.provider = self.redact_text(Some(head.provider)).unwrap_or_default();
        head.title = self.redact_text(head.title);
        head.workspace = self.redact_text(head.workspace);
        redact_map(&mut head.metadata.extra);
        redact_map(&mut head.extra);
        for entry in &mut head.metadata.compression_history {
            self.redact_json(entry);
        }
        head
    }

    /// Keeps a PostgreSQL store's connections open between commands
    /// (`ollm-session keep`); the file store has none to keep.
    pub(crate) fn keep(
        &self,
        idle: Option<std::time::Duration>,
        ready: impl FnOnce(postgres::keeper::Ready<'_>) -> Result<()>,
    ) -> Result<(postgres::keeper::Stopped, u64)> {
        match self.inner.as_any().downcast_ref::<postgres::PgStore>() {
            Some(pg) => pg.keep(idle, ready),
            None => Err(Error::Usage(
                "keep: the file store opens no connections; keep serves a PostgreSQL store \
                 (--store postgresql://…)"
                    .into(),
            )),
        }
    }

    /// The file store, when this is one: for this module and tests, which
    /// reach its files (code elsewhere asks [`SessionStore`]'s abilities).
    pub fn as_file(&self) -> Option<&FileStore> {
        self.inner.as_any().downcast_ref()
    }

    /// [`SessionStore::rebuild_derived`].
    pub fn rebuild_derived(&self) -> Option<Result<(usize, usize)>> {
        self.inner.rebuild_derived()
    }

    /// [`SessionStore::forget_derived`].
    pub fn forget_derived(&self) -> Result<()> {
        self.inner.forget_derived()
    }

    /// [`SessionStore::local_dir`].
    pub fn local_dir(&self) -> Option<&std::path::Path> {
        self.inner.local_dir()
    }

    /// `query`'s listing as NDJSON pages read by one statement, where the
    /// store can ([`SessionStore::list_json_pages`]).
    pub(crate) fn stream_json_pages(
        &self,
        query: &ListQuery,
        first: usize,
        page: &mut dyn FnMut(JsonLines) -> bool,
    ) -> Option<Result<()>> {
        self.inner.list_json_pages(query, first, page)
    }

    /// Where the store is (a URL's password redacted).
    pub fn location(&self) -> String {
        self.inner.location()
    }

    pub fn options(&self) -> &StoreOptions {
        self.inner.options()
    }

    fn now(&self) -> String {
        timestamp::format_millis((self.options().clock)())
    }

    /// Whether session `id` is live (else [`Error::NotFound`]).
    pub fn exists(&self, id: &str) -> Result<()> {
        check_id(id, "session")?;
        self.inner.exists(id)
    }

    pub(crate) fn has_any(&self, id: &str) -> bool {
        check_id(id, "session").is_ok() && self.inner.has_any(id)
    }

    /// Held by an import for its whole run where imports on other
    /// machines write into the same store (see [`SessionStore::import_lock`]).
    pub(crate) fn import_lock(&self) -> Result<Option<SessionLock>> {
        self.inner.import_lock()
    }

    pub(crate) fn lock_session(&self, id: &str) -> Result<SessionLock> {
        check_id(id, "session")?;
        self.inner.lock_session(id)
    }

    /// [`SessionStore::snapshots`].
    pub(crate) fn snapshots(&self) -> Option<&dyn SnapshotStore> {
        self.inner.snapshots()
    }

    // ----- creating -------------------------------------------------------

    fn new_head(&self, new: &NewSession, parent: Option<&str>) -> SessionHead {
        let now = self.now();
        let head = SessionHead {
            session_id: new_id(),
            start_time: now.clone(),
            last_activity: now,
            model: new.model.clone(),
            provider: new.provider.clone(),
            title: new.title.clone(),
            parent_session_id: parent.map(str::to_string),
            branch_point: None,
            workspace: new.workspace.clone(),
            metadata: Metadata::default(),
            extra: Map::new(),
        };
        self.redacted_head(head)
    }

    /// Creates a session and enforces `maxSessions` (oldest by
    /// `lastActivity` first, never the new one, never a locked one).
    pub fn create(&self, new: &NewSession) -> Result<Created> {
        self.create_from(new, None, &[])
    }

    /// Creates a session already holding `entries` (e.g. a restored
    /// snapshot), optionally naming the session it came from.
    pub(crate) fn create_from(
        &self,
        new: &NewSession,
        parent: Option<&str>,
        entries: &[Entry],
    ) -> Result<Created> {
        let entries = entries
            .iter()
            .map(|e| (self.redacted(e).0, Some(e.estimated_tokens())))
            .collect();
        self.inner.publish(Publish {
            head: self.new_head(new, parent),
            entries,
            enforce_max: true,
        })
    }

    /// Stores a session copied from another store under its own id, as it
    /// was (`false`: the session is already here, nothing was written).
    pub fn import(&self, loaded: &Loaded) -> Result<bool> {
        match self.exists(&loaded.session.session_id) {
            Ok(()) => return Ok(false),
            Err(Error::NotFound(_)) => {}
            Err(err) => return Err(err),
        }
        self.inner.publish(self.copied(loaded))?;
        Ok(true)
    }

    /// [`Store::import`] of each of `sessions`, in their order, into a
    /// store that can write them together in one durable step (PostgreSQL:
    /// one transaction, so a copy killed half way has stored whole batches
    /// and the next run goes on after them); elsewhere, or when that step
    /// fails, one at a time, each with its own answer.
    pub fn import_many(&self, sessions: &[Loaded]) -> Vec<Result<bool>> {
        let one_by_one = || sessions.iter().map(|loaded| self.import(loaded)).collect();
        let valid = sessions
            .iter()
            .all(|loaded| check_id(&loaded.session.session_id, "session").is_ok());
        if !self.inner.publishes_copies_together() || sessions.len() < 2 || !valid {
            return one_by_one();
        }
        let copies = sessions.iter().map(|loaded| self.copied(loaded)).collect();
        match self.inner.publish_copies(copies) {
            Ok(stored) => stored.into_iter().map(Ok).collect(),
            Err(_) => one_by_one(),
        }
    }

    /// `loaded` as a copy publishes it: redacted, its head counting only
    /// the tokens its records do not.
    fn copied(&self, loaded: &Loaded) -> Publish {
        let mut head = loaded.session.head();
        // Records copied without their tokens are counted in the head.
        let recorded: u64 = loaded.tokens.iter().flatten().sum();
        head.metadata.token_count = head.metadata.token_count.saturating_sub(recorded);
        let head = self.redacted_head(head);
        let entries = loaded
            .entries()
            .into_iter()
            .map(|(entry, tokens)| (self.redacted(&entry).0, tokens))
            .collect();
        Publish {
            head,
            entries,
            enforce_max: false,
        }
    }

    // ----- recording ------------------------------------------------------

    /// Appends a message or tool call; returns once it is stored durably.
    /// `tokens` overrides the estimate of the record's tokens.
    pub fn record(&self, id: &str, entry: &Entry, tokens: Option<u64>) -> Result<Ack> {
        check_id(id, "session")?;
        let tokens = tokens.unwrap_or_else(|| entry.estimated_tokens());
        let (entry, tally) = self.redacted(entry);
        let entry = &entry;
        let summary = self.inner.append(id, Append::Entry { entry, tokens })?;
        let (recorded, index) = match entry {
            Entry::Message(_) => ("message", summary.message_count - 1),
            Entry::ToolCall(_) => ("toolCall", summary.tool_call_count - 1),
        };
        Ok(Ack {
            session_id: id.to_string(),
            recorded,
            index,
            last_activity: summary.last_activity,
            token_count: summary.token_count,
            redacted: tally.replaced,
            withheld: tally.withheld,
        })
    }

    /// Appends `entries` in order as one durable write (one fsync of the
    /// journal, one transaction), each redacted and counted as `record`
    /// does. The records' `at` (the new lastActivity) is `not_before` when
    /// later than the current one (else now when `None`). Returns how many
    /// credentials were replaced, and the summary after.
    pub fn record_many(
        &self,
        id: &str,
        entries: &[Entry],
        not_before: Option<timestamp::Millis>,
    ) -> Result<(u64, SessionSummary)> {
        check_id(id, "session")?;
        let mut redacted = 0;
        let entries: Vec<(Entry, u64)> = entries
            .iter()
            .map(|entry| {
                let tokens = entry.estimated_tokens();
                let (entry, tally) = self.redacted(entry);
                redacted += tally.replaced;
                (entry, tokens)
            })
            .collect();
        let summary = self.inner.append_entries(id, &entries, not_before)?;
        Ok((redacted, summary))
    }

    /// See [`SessionStore::record_keys`].
    pub fn record_keys(&self, id: &str, field: &str) -> Result<RecordKeys> {
        check_id(id, "session")?;
        self.inner.record_keys(id, field)
    }

    /// Notes one compression in the session's history and increases
    /// `metadata.compressionCount` by exactly one. `details` (strategy,
    /// token counts, …) is kept in `metadata.compressionHistory` with the
    /// time. The messages themselves are never changed. Returns the new count.
    pub fn record_compression(&self, id: &str, details: &Map<String, Value>) -> Result<u64> {
        check_id(id, "session")?;
        let mut details = Value::Object(details.clone());
        self.redact_json(&mut details);
        let details = details.as_object().cloned().unwrap_or_default();
        Ok(self
            .inner
            .append(id, Append::Compression(&details))?
            .compression_count)
    }

    /// See [`SessionStore::update_metadata`].
    pub fn update_metadata(&self, id: &str, patch: &Map<String, Value>) -> Result<SessionSummary> {
        check_id(id, "session")?;
        let mut patch = Value::Object(patch.clone());
        self.redact_json(&mut patch);
        let patch = patch.as_object().cloned().unwrap_or_default();
        self.inner.update_metadata(id, &patch)
    }

    /// Renames a session (`None` removes its title). An update of the
    /// head, not activity: `lastActivity` is unchanged, so renaming does not
    /// make a session the latest.
    pub fn rename(&self, id: &str, title: Option<&str>) -> Result<SessionSummary> {
        let mut patch = Map::new();
        patch.insert("title".into(), title.map_or(Value::Null, Value::from));
        self.update_metadata(id, &patch)
    }

    // ----- reading --------------------------------------------------------

    pub fn summary(&self, id: &str) -> Result<SessionSummary> {
        check_id(id, "session")?;
        self.inner.summary(id)
    }

    /// The complete session in the spec's format.
    pub fn get(&self, id: &str) -> Result<Session> {
        Ok(self.load(id)?.session)
    }

    /// Just the session's messages (what `ollm-compress` works on).
    pub fn messages(&self, id: &str) -> Result<Vec<Message>> {
        Ok(self.load(id)?.session.messages)
    }

    /// The complete session and the order of its records.
    pub fn load(&self, id: &str) -> Result<Loaded> {
        self.load_held(id, None)
    }

    /// [`Store::load`] by a caller holding the session's lock.
    pub(crate) fn load_held(&self, id: &str, held: Option<&SessionLock>) -> Result<Loaded> {
        check_id(id, "session")?;
        self.inner.load_held(id, held)
    }

    pub fn list(&self) -> Result<Listing> {
        self.inner.list()
    }

    /// See [`SessionStore::list_where`].
    pub fn list_where(&self, query: &ListQuery) -> Result<Listing> {
        self.inner.list_where(query)
    }

    /// See [`SessionStore::named`].
    pub fn named(&self, naming: &Naming<'_>) -> Result<Vec<SessionSummary>> {
        self.inner.named(naming)
    }

    pub fn count(&self) -> Result<usize> {
        self.inner.count()
    }

    pub fn corrupt(&self) -> Result<Vec<SetAside>> {
        self.inner.corrupt()
    }

    /// Records matching `query`, and (unless a role other than `title` is
    /// asked for) the sessions whose title matches, newest first: each
    /// store finds titles its own way (the journal store in the journals
    /// it reads anyway, PostgreSQL in the sessions table).
    pub fn search(&self, query: &Query) -> Result<Found> {
        self.inner.search(query)
    }

    /// [`Store::search`] with each hit rendered by `render`: the file
    /// store renders each on the core that found it and keeps only its
    /// bytes; another store renders its hits once found.
    pub fn search_rendered(&self, query: &Query, render: &Render<'_>) -> Result<RenderedHits> {
        match self.as_file() {
            Some(file) => file::search::search_rendered(file, query, render),
            None => RenderedHits::of_found(self.inner.search(query)?, render),
        }
    }

    /// The text of the session's first user message: the preview of an
    /// untitled session in a listing and the picker.
    pub fn first_user_text(&self, id: &str) -> Result<Option<String>> {
        check_id(id, "session")?;
        self.inner.first_user_text(id)
    }

    /// The id of the most recently active session.
    pub fn last(&self) -> Result<String> {
        self.list_where(&ListQuery::newest(1, None))?
            .sessions
            .into_iter()
            .next()
            .map(|s| s.session_id)
            .ok_or_else(|| Error::NotFound(format!("no sessions in {}", self.location())))
    }

    // ----- deleting -------------------------------------------------------

    pub fn delete(&self, id: &str) -> Result<()> {
        check_id(id, "session")?;
        self.inner.delete(id)
    }

    /// See [`SessionStore::raw_document`].
    pub(crate) fn raw_document(&self, id: &str) -> Result<Option<Vec<u8>>> {
        check_id(id, "session")?;
        self.inner.raw_document(id)
    }

    /// See [`SessionStore::scrub`].
    pub(crate) fn scrub(&self, id: &str, scrub: &dyn Fn(&mut Value) -> u64) -> Result<u64> {
        check_id(id, "session")?;
        self.inner.scrub(id, scrub)
    }

    pub fn cleanup(&self, keep: u64, dry_run: bool) -> Result<CleanupReport> {
        self.inner.cleanup(keep, dry_run)
    }
}
