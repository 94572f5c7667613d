//! The session store: one directory per session holding an append-only
//! journal and a summary, plus plain spec-format `<id>.json` files written by
//! other tools. See the module documentation of [`crate::session`] for the
//! layout and the guarantees.

use std::collections::HashSet;
use std::fs::File;
use std::io::Read;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

mod batch;
mod create;
mod delete;
pub mod index;
pub mod journal;
mod plain_line;
pub(crate) mod plain_read;
mod read;
mod record;
mod scrub;
pub(crate) mod search;

use index::Index;
use journal::Record;

use super::api::{
    Append, CleanupReport, Created, ListQuery, Listing, Naming, Publish, SessionLock, SessionStore,
    SetAside, StoreOptions,
};
use super::cli::{self};
use crate::error::{Error, Result};
use crate::fs::lock::Lock;
use crate::fs::slots::{self, Contents, Slots};
use crate::fs::{self as sfs, Durability};
use crate::session::model::{Entry, Loaded, Message, SessionSummary, Stored, check_id, is_uuid};
use crate::session::query::{Found, Query};
use crate::timestamp::{self, Millis};

/// The journal of a session, inside its directory.
pub const JOURNAL: &str = "journal.ndjson";
/// The summary of a session (a cache of its journal), inside its directory:
/// its JSON in two checksummed slots ([`crate::fs::slots`]), written in
/// place without an fsync (a torn slot fails its checksum, the other holds
/// the previous version, and a summary that does not fit the journal is
/// rebuilt from it). Earlier versions wrote plain JSON, renamed into place:
/// it is still read, and replaced by the next write.
pub const SUMMARY: &str = "summary.json";
/// How far (bytes) the summary may lag behind the journal before a record
/// rewrites it. Readers tally the lagging tail themselves; renaming a new
/// summary into place with every record made each record's fsync commit
/// that metadata too (about as costly as the fsync itself on ext4).
pub(crate) const SUMMARY_LAG: u64 = 1024;
/// The smallest slot of a summary file (a summary's JSON is ~400 bytes, and
/// `list` reads every session's).
const SUMMARY_SLOT: usize = 512;
/// Lock files live here, inside the data directory.
pub(crate) const LOCKS: &str = ".locks";

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SummaryFile {
    format: u64,
    journal_bytes: u64,
    #[serde(flatten)]
    summary: SessionSummary,
}

/// A whole-file session's rewrite under way ([`FileStore::mark_writing`]):
/// its mark is removed when it drops, and stays when the writer is killed.
struct WritingMark(Option<PathBuf>);

impl WritingMark {
    /// Leaves the mark where it is (after an error, which may have left
    /// what the next writer's sweep removes).
    fn keep(mut self) {
        self.0 = None;
    }
}

impl Drop for WritingMark {
    fn drop(&mut self) {
        if let Some(mark) = &self.0 {
            let _ = std::fs::remove_file(mark);
        }
    }
}

/// How a session is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Our directory with a journal.
    Journal,
    /// The OLLM CLI's `<id>.json` ([`cli`]): written by the CLI, or by us
    /// in its format.
    Plain,
}

/// The journal store rooted at a data directory.
#[derive(Clone)]
pub struct FileStore {
    dir: PathBuf,
    options: StoreOptions,
    /// The sessions set aside as corrupt when this handle first looked:
    /// sessions copied in (many at a time, by `copy` or `import`) read the
    /// whole directory for these only once.
    set_aside: Arc<OnceLock<Option<HashSet<String>>>>,
    index: Index,
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |e| Error::io(path, &e)
}

impl FileStore {
    /// A store at `dir`; nothing is touched until it is used.
    pub fn new(dir: impl Into<PathBuf>, options: StoreOptions) -> FileStore {
        let dir = dir.into();
        FileStore {
            index: Index::new(&dir),
            dir,
            options,
            set_aside: Arc::new(OnceLock::new()),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn options(&self) -> &StoreOptions {
        &self.options
    }

    fn now(&self) -> Millis {
        (self.options.clock)()
    }

    /// The directory of a journal session.
    pub fn session_dir(&self, id: &str) -> PathBuf {
        self.dir.join(id)
    }

    /// The path of a plain spec-format session file.
    pub fn plain_path(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}.json"))
    }

    fn lock_path(&self, id: &str) -> PathBuf {
        self.dir.join(LOCKS).join(format!("{id}.lock"))
    }

    fn store_lock(&self) -> Result<Lock> {
        self.check_locks_dir()?;
        Lock::exclusive(&self.dir.join(LOCKS).join("store.lock"))
    }

    /// The lock directory is inside the store: a link there is refused.
    fn check_locks_dir(&self) -> Result<()> {
        sfs::check_dir_or_absent(&self.dir.join(LOCKS))
    }

    /// Creates the data directory (0700) or tightens an existing one.
    fn ensure_dir(&self) -> Result<()> {
        sfs::create_private_dir_all(&self.dir)?;
        sfs::tighten_store(&self.dir);
        Ok(())
    }

    /// Takes session `id`'s exclusive lock (held by every writer of the
    /// session and of its snapshots).
    pub(crate) fn lock_session(&self, id: &str) -> Result<Lock> {
        check_id(id, "session")?;
        self.check_locks_dir()?;
        Lock::exclusive(&self.lock_path(id))
    }

    /// How session `id` is stored, or not found. A session directory or
    /// file that is a link or a special file is refused, never followed.
    pub fn kind(&self, id: &str) -> Result<Kind> {
        check_id(id, "session")?;
        let dir = self.session_dir(id);
        sfs::check_dir_or_absent(&dir)?;
        if sfs::is_real_dir(&dir) {
            let journal = dir.join(JOURNAL);
            sfs::check_regular_or_absent(&journal)?;
            if sfs::is_regular_file(&journal) {
                return Ok(Kind::Journal);
            }
        }
        let plain = self.plain_path(id);
        sfs::check_regular_or_absent(&plain)?;
        if sfs::is_regular_file(&plain) {
            Ok(Kind::Plain)
        } else {
            Err(not_found(id))
        }
    }
}

/// Sorts summaries newest `lastActivity` first (ties: newest start, then id).
pub(crate) fn sort_newest_first(sessions: &mut [SessionSummary]) {
    let key = |s: &SessionSummary| {
        (
            timestamp::parse(&s.last_activity).unwrap_or(i64::MIN),
            timestamp::parse(&s.start_time).unwrap_or(i64::MIN),
        )
    };
    sessions.sort_by(|a, b| {
        key(b)
            .cmp(&key(a))
            .then_with(|| a.session_id.cmp(&b.session_id))
    });
}

/// Refuses a message or tool call nested deeper than a session keeps
/// ([`crate::input::MAX_RECORD_NESTING`]), whatever the store's format.
fn check_record_nesting(entry: &Entry) -> Result<()> {
    let bytes = match entry {
        Entry::Message(m) => serde_json::to_vec(m.as_map()),
        Entry::ToolCall(c) => serde_json::to_vec(c.as_map()),
    }
    .map_err(|e| Error::input(format!("cannot encode the record: {e}")))?;
    crate::input::check_record_nesting(&bytes, 0)
}

/// The session id of a temp file written for `<id>.json`
/// (`.<id>.json.ollm-tmp-…`, or `.<id>.json.tmp-PID` of earlier versions).
fn cli_temp_of(name: &str) -> Option<&str> {
    let id = name.strip_prefix('.')?.get(..36).filter(|id| is_uuid(id))?;
    name[37..].starts_with(".json.").then_some(id)
}

fn not_found(id: &str) -> Error {
    Error::NotFound(format!("no session {id}"))
}

fn newer(path: &Path, format: u64) -> Error {
    Error::Io {
        path: path.to_path_buf(),
        message: format!(
            "written by a newer ollm (journal format {format}, this one reads {}); upgrade ollm",
            journal::FORMAT
        ),
    }
}

fn read_summary(dir: &Path) -> Option<SummaryFile> {
    let file = sfs::open_regular(&dir.join(SUMMARY)).ok()??;
    // Sized from the file, so it is read in one call rather than in doubling steps.
    let size = file.metadata().map_or(0, |m| m.len()).min(1 << 20);
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0) + 1);
    file.take(1 << 20).read_to_end(&mut bytes).ok()?;
    decode_summary(&bytes)
}

/// A summary file's contents: slotted, or the plain JSON of earlier versions.
fn decode_summary(bytes: &[u8]) -> Option<SummaryFile> {
    let json = if slots::is_slotted(bytes) {
        slots::current(bytes).ok()?
    } else {
        bytes
    };
    serde_json::from_slice(json).ok()
}

/// Writes the summary into the summary file's free slot, or creates the
/// file (atomically replacing one of an earlier version, or one whose slots
/// it outgrew). Never synced: see [`SUMMARY`].
fn write_summary(dir: &Path, summary: &SessionSummary, journal_bytes: u64) -> Result<()> {
    let file = SummaryFile {
        format: journal::FORMAT,
        journal_bytes,
        summary: summary.clone(),
    };
    let json = serde_json::to_vec(&file)
        .map_err(|e| Error::input(format!("cannot encode the summary: {e}")))?;
    let path = dir.join(SUMMARY);
    if let Some(Contents::Slotted(mut slots, _)) = Slots::open(&path)?
        && slots.write_with(&path, &json, Durability::Cache)?
    {
        return Ok(());
    }
    slots::create_with(&path, &json, SUMMARY_SLOT, Durability::Cache)
}

/// What the summary file of the session directory `dir` says (`None` when
/// missing or unreadable), for tests that read or doctor it.
#[cfg(test)]
pub(crate) fn summary_json(dir: &Path) -> Option<serde_json::Value> {
    let bytes = std::fs::read(dir.join(SUMMARY)).ok()?;
    serde_json::to_value(decode_summary(&bytes)?).ok()
}

fn read_range(file: &File, start: u64, end: u64) -> std::io::Result<Vec<u8>> {
    let len = end.saturating_sub(start) as usize;
    let mut bytes = vec![0; len];
    let mut done = 0;
    while done < len {
        let n = file.read_at(&mut bytes[done..], start + done as u64)?;
        if n == 0 {
            bytes.truncate(done);
            break;
        }
        done += n;
    }
    Ok(bytes)
}

impl FileStore {
    /// Appends one record to a session in either format.
    fn append_record(&self, id: &str, record: Append<'_>) -> Result<SessionSummary> {
        if self.kind(id)? == Kind::Plain {
            if let Append::Entry { entry, .. } = record {
                check_record_nesting(entry)?;
            }
            return self.rewrite_plain(id, Some(self.now()), |document, at| {
                match record {
                    Append::Entry { entry, tokens } => document.push_entry(entry, tokens),
                    Append::Compression(details) => document.push_compression(at, details),
                }
                Ok(())
            });
        }
        match record {
            Append::Entry { entry, tokens } => self.append_line(id, Some(self.now()), |at| {
                journal::entry_line(entry, at, Some(tokens))
            }),
            Append::Compression(details) => self.append_line(id, Some(self.now()), |at| {
                journal::compression_line(at, details)
            }),
        }
    }
}

/// The journal store at `dir` ([`super::kinds`]); nothing is touched
/// until it is used.
#[allow(clippy::unnecessary_wraps)] // the table's opener type
pub(crate) fn open(
    _location: &str,
    dir: PathBuf,
    options: StoreOptions,
) -> Result<Arc<dyn SessionStore>> {
    Ok(Arc::new(FileStore::new(dir, options)))
}

impl SessionStore for FileStore {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn scrub(&self, id: &str, scrub: &dyn Fn(&mut Value) -> u64) -> Result<u64> {
        FileStore::scrub(self, id, scrub)
    }

    fn rebuild_derived(&self) -> Option<Result<(usize, usize)>> {
        Some(self.reindex())
    }

    fn forget_derived(&self) -> Result<()> {
        self.reindex_forgetting().map(drop)
    }

    fn local_dir(&self) -> Option<&Path> {
        Some(&self.dir)
    }

    fn raw_document(&self, id: &str) -> Result<Option<Vec<u8>>> {
        let path = match self.kind(id)? {
            Kind::Journal => self.session_dir(id).join(JOURNAL),
            Kind::Plain => self.plain_path(id),
        };
        sfs::read_regular(&path)
    }

    fn location(&self) -> String {
        self.dir.display().to_string()
    }

    fn options(&self) -> &StoreOptions {
        &self.options
    }

    fn exists(&self, id: &str) -> Result<()> {
        self.kind(id).map(|_| ())
    }

    fn has_any(&self, id: &str) -> bool {
        FileStore::has_any(self, id)
    }

    fn publish(&self, new: Publish) -> Result<Created> {
        self.create_with(new)
    }

    fn append(&self, id: &str, record: Append<'_>) -> Result<SessionSummary> {
        let appended = self.append_record(id, record);
        if appended.is_ok() && self.index.wants_fold() {
            // Best effort: the next reader folds what this one could not.
            let _ = self.index_db();
        }
        appended
    }

    fn append_entries(
        &self,
        id: &str,
        entries: &[(Entry, u64)],
        not_before: Option<Millis>,
    ) -> Result<SessionSummary> {
        let appended = FileStore::append_entries(self, id, entries, not_before);
        if appended.is_ok() && self.index.wants_fold() {
            let _ = self.index_db();
        }
        appended
    }

    fn record_keys(&self, id: &str, field: &str) -> Result<super::api::RecordKeys> {
        FileStore::record_keys(self, id, field)
    }

    fn update_metadata(&self, id: &str, patch: &Map<String, Value>) -> Result<SessionSummary> {
        if self.kind(id)? == Kind::Plain {
            return self.rewrite_plain(id, None, |document, _| document.apply_patch(patch));
        }
        self.append_line(id, None, |at| journal::update_line(at, patch))
    }

    fn summary(&self, id: &str) -> Result<SessionSummary> {
        FileStore::summary(self, id)
    }

    fn load_held(&self, id: &str, held: Option<&SessionLock>) -> Result<Loaded> {
        FileStore::load_held(self, id, held.is_some())
    }

    fn list(&self) -> Result<Listing> {
        FileStore::list(self)
    }

    fn list_where(&self, query: &ListQuery) -> Result<Listing> {
        FileStore::list_where(self, query)
    }

    fn named(&self, naming: &Naming<'_>) -> Result<Vec<SessionSummary>> {
        FileStore::named(self, naming)
    }

    fn children(&self, id: &str) -> Result<Vec<SessionSummary>> {
        FileStore::children(self, id)
    }

    fn count(&self) -> Result<usize> {
        Ok(self.ids()?.len() + FileStore::corrupt(self)?.len())
    }

    fn corrupt(&self) -> Result<Vec<SetAside>> {
        FileStore::corrupt(self)
    }

    fn delete(&self, id: &str) -> Result<()> {
        FileStore::delete(self, id)
    }

    fn cleanup(&self, keep: u64, dry_run: bool) -> Result<CleanupReport> {
        FileStore::cleanup(self, keep, dry_run)
    }

    fn search(&self, query: &Query) -> Result<Found> {
        search::search(self, query)
    }

    fn lock_session(&self, id: &str) -> Result<SessionLock> {
        FileStore::lock_session(self, id).map(SessionLock::new)
    }

    /// Reads a journal only up to the first user message (line by line), a
    /// plain file whole.
    fn first_user_text(&self, id: &str) -> Result<Option<String>> {
        fn first(mut messages: impl Iterator<Item = Message>) -> Option<String> {
            messages
                .find(|m| m.role() == "user")
                .map(|m| Message::text_content(&m))
        }
        match self.kind(id)? {
            Kind::Plain => Ok(first(self.read_plain(id)?.messages.into_iter())),
            Kind::Journal => {
                use std::io::BufRead;
                let path = self.session_dir(id).join(JOURNAL);
                let Some(file) = sfs::open_regular(&path)? else {
                    return Err(not_found(id));
                };
                let mut lines = std::io::BufReader::new(file).split(b'\n');
                let messages = std::iter::from_fn(|| {
                    lines.find_map(|line| {
                        let line = line.ok()?;
                        match journal::parse_line(&line, false) {
                            Ok(Record::Stored(Stored::Entry {
                                entry: Entry::Message(m),
                                ..
                            })) => Some(m),
                            _ => None,
                        }
                    })
                });
                Ok(first(messages))
            }
        }
    }
}
