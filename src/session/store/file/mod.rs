//! The session store: one directory per session holding an append-only
//! journal and a summary, plus plain spec-format `<id>.json` files written by
//! other tools. See the module documentation of [`crate::session`] for the
//! layout and the guarantees.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{DirBuilderExt, FileExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

mod batch;
pub mod index;
pub mod journal;
mod plain_line;
pub(crate) mod plain_read;
mod scrub;
pub(crate) mod search;

use index::Index;
use index::log::Change;
use index::refresh;
use journal::{Record, Stop};

use super::api::{
    Append, CleanupReport, Created, JsonLines, ListQuery, Listing, Naming, NewFormat, Publish,
    SessionLock, SessionStore, SetAside, StoreOptions,
};
use super::cli::{self, Document};
use crate::error::{Error, Result};
use crate::fs::lock::Lock;
use crate::fs::replace::Stamp;
use crate::fs::slots::{self, Contents, Slots};
use crate::fs::{self as sfs, Durability, sync_dir};
use crate::session::model::{
    Entry, Loaded, Message, Problem, Session, SessionHead, SessionSummary, Stored, check_id,
    is_uuid, rebuild,
};
use crate::session::query::{Found, Query};
use crate::threads::parallel_map;
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

    // ----- creating -------------------------------------------------------

    fn create_with(&self, new: Publish) -> Result<Created> {
        for (entry, _) in &new.entries {
            check_record_nesting(entry)?;
        }
        self.ensure_dir()?;
        let _store = self.store_lock()?;
        let mark = self.mark_store_writing();
        let created = self.create_locked(new);
        if created.is_err() {
            mark.keep();
        }
        created
    }

    /// [`Self::create_with`] under the store's lock.
    fn create_locked(&self, new: Publish) -> Result<Created> {
        let head = new.head;
        let id = head.session_id.clone();
        // A session made here has an id just drawn (a v4 UUID): no copy
        // set aside bears it, and looking for one reads the whole data
        // directory, so only its live entries are looked for.
        let there = if new.enforce_max {
            self.entry_of(&id)
        } else {
            self.anything_of_copied(&id)
        };
        if there {
            return Err(Error::input(format!(
                "session {id} is already in the store"
            )));
        }
        // Held until the index is told, so that no record of the new
        // session reaches the index before its creation does.
        let session_lock = self.lock_session(&id)?;
        self.index.note(&Change::Pending(id.clone()));
        // What the data directory sees of the new entry (see `rewrite_plain`).
        let watch = index::watch::Watch::start(&self.dir);
        let own = match self.options.format {
            NewFormat::Journal => {
                let mut body = Vec::new();
                for (entry, tokens) in &new.entries {
                    body.extend(journal::entry_line(entry, &head.last_activity, *tokens));
                }
                self.write_session_dir(&head, &body)?;
                id.clone()
            }
            NewFormat::Cli => {
                // A session made here (not copied in) is subject to maxSessions.
                let mut document = Document::new(&head, new.enforce_max);
                for (entry, tokens) in &new.entries {
                    // A record copied without its count is already in the head's.
                    document.push_entry(entry, tokens.unwrap_or(0));
                }
                cli::create(&document, &self.plain_path(&id))?;
                format!("{id}.json")
            }
        };
        let link = watch.and_then(|watch| watch.finish(&[&own]));
        self.settle_linked(&id, link);
        drop(session_lock);
        let removed = if new.enforce_max {
            self.enforce_max(&id)?
        } else {
            Vec::new()
        };
        Ok(Created {
            session_id: id,
            parent_session_id: head.parent_session_id.clone(),
            branch_point: head.branch_point,
            removed,
        })
    }

    /// Writes a complete session directory under a temporary name, syncs
    /// it, and renames it into place. Called with the store lock held.
    fn write_session_dir(&self, head: &SessionHead, body: &[u8]) -> Result<()> {
        let id = &head.session_id;
        let tmp = self.dir.join(format!(".tmp-{id}-{}", std::process::id()));
        let target = self.session_dir(id);
        let mut bytes = journal::head_line(head);
        bytes.extend_from_slice(body);
        let mut summary = None;
        let scan = journal::scan(&bytes, true, |line| journal::tally_line(&mut summary, line));
        let summary = match (scan.stop, summary) {
            (None, Some(summary)) if !scan.torn => summary,
            _ => return Err(Error::input("cannot encode the session's records")),
        };
        let result = (|| -> std::io::Result<()> {
            sfs::remove_any(&tmp)?;
            std::fs::DirBuilder::new()
                .mode(sfs::DIR_MODE)
                .create(&tmp)?;
            let mut file = OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(sfs::FILE_MODE)
                .custom_flags(libc::O_NOFOLLOW)
                .open(tmp.join(JOURNAL))?;
            file.write_all(&bytes)?;
            file.sync_all()?;
            write_summary(&tmp, &summary, bytes.len() as u64)
                .map_err(|e| std::io::Error::other(e.to_string()))?;
            sync_dir(&tmp)?;
            std::fs::rename(&tmp, &target)?;
            sync_dir(&self.dir)
        })();
        if let Err(err) = result {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(Error::io(&target, &err));
        }
        Ok(())
    }

    /// Marks a change under the store's lock (a create, a delete, a
    /// cleanup) as under way until the mark drops, first sweeping what a
    /// writer killed before left ([`Self::sweep_leftovers`]) when it left
    /// its mark. The sweep reads the whole data directory (40–150 ms at
    /// 100,000 sessions), so it is not done at every create or delete.
    fn mark_store_writing(&self) -> WritingMark {
        let (left, mark) = self.mark("store");
        if left {
            self.sweep_leftovers();
        }
        mark
    }

    /// Removes what a crashed writer left: temporary directories, and
    /// tombstones of deletes cut short (their snapshots first, then the
    /// tombstone). Called with the store lock held.
    fn sweep_leftovers(&self) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with(".tmp-") {
                let _ = sfs::remove_any(&entry.path());
            } else if let Some(id) = cli_temp_of(&name) {
                // A killed writer's temp file of a CLI document: removed
                // once no writer of that session holds its lock.
                if let Ok(Some(lock)) = Lock::try_exclusive(&self.lock_path(id)) {
                    sfs::sweep_temps(&self.plain_path(id));
                    if !self.anything_of(id) {
                        lock.remove();
                    }
                }
            } else if let Some(rest) = name.strip_prefix(".trash-") {
                let _ = self.finish_tombstone(rest.get(..36).unwrap_or(""), &entry.path());
            }
        }
    }

    /// Completes a delete whose commit point (the rename of the session to
    /// `tombstone`) was reached: removes the session's snapshots, then the
    /// tombstone. Safe to repeat.
    fn finish_tombstone(&self, id: &str, tombstone: &Path) -> Result<()> {
        if is_uuid(id)
            && !self.anything_of(id)
            && let Some(snapshots) = &self.options.snapshots_dir
        {
            let dir = snapshots.join(id);
            sfs::remove_any(&dir).map_err(io(&dir))?;
        }
        sfs::remove_any(tombstone).map_err(io(tombstone))?;
        Ok(())
    }

    /// Deletes the oldest sessions ollm made here beyond `maxSessions`
    /// (never `keep`, never one a writer holds). Only those count
    /// ([`FileStore::counted_by_max`]): never an imported session, never
    /// the OLLM CLI's own in a shared directory.
    fn enforce_max(&self, keep: &str) -> Result<Vec<String>> {
        let max = self.options.max_sessions;
        if max == 0 {
            return Ok(Vec::new());
        }
        let listing = self.list()?;
        if listing.sessions.len() as u64 <= max {
            return Ok(Vec::new());
        }
        let mut sessions: Vec<SessionSummary> = listing
            .sessions
            .into_iter()
            .filter(|s| self.counted_by_max(&s.session_id))
            .collect();
        if sessions.len() as u64 <= max {
            return Ok(Vec::new());
        }
        let mut excess = sessions.len() - max as usize;
        sessions.reverse(); // oldest first
        let mut removed = Vec::new();
        for summary in sessions {
            if excess == 0 {
                break;
            }
            if summary.session_id == keep {
                continue;
            }
            if let Some(lock) = Lock::try_exclusive(&self.lock_path(&summary.session_id))? {
                self.remove_locked(&summary.session_id, lock)?;
                removed.push(summary.session_id);
                excess -= 1;
            }
        }
        Ok(removed)
    }

    /// Whether `maxSessions` counts (and may delete) session `id`: one
    /// ollm made, a journal or a document in the CLI's format marked
    /// [`cli::CREATED_BY`], and not imported (`metadata.importedFrom`).
    /// One that cannot be read is not counted.
    fn counted_by_max(&self, id: &str) -> bool {
        match self.kind(id) {
            Ok(Kind::Journal) => journal::read_head(&self.session_dir(id).join(JOURNAL))
                .is_some_and(|head| !head.metadata.is_imported()),
            Ok(Kind::Plain) => cli::read(id, &self.plain_path(id))
                .ok()
                .flatten()
                .is_some_and(|document| document.created_by_ollm() && !document.is_imported()),
            Err(_) => false,
        }
    }

    // ----- recording ------------------------------------------------------

    /// Appends lines (one record each) under the session's lock, fsyncs
    /// them once, and updates the summary (when it lags by more than
    /// [`SUMMARY_LAG`]). `make` gets the records' `at`: the lastActivity
    /// moved forward to `advance`, or the current one when `None`.
    fn append_line(
        &self,
        id: &str,
        advance: Option<Millis>,
        make: impl FnOnce(&str) -> Vec<u8>,
    ) -> Result<SessionSummary> {
        check_id(id, "session")?;
        let lock = self.lock_session(id)?;
        let dir = self.session_dir(id);
        let path = dir.join(JOURNAL);
        if !path.is_file() {
            lock.remove();
            return Err(not_found(id));
        }
        sfs::check_dir_or_absent(&dir)?;
        let Some(mut file) = sfs::open_append(&path, false)? else {
            lock.remove();
            return Err(not_found(id));
        };
        self.index.note(&Change::Pending(id.to_string()));
        sfs::sweep_all_temps(&dir);
        let size = file.metadata().map_err(io(&path))?.len();
        let (summary, valid_end, covered) =
            self.summarize_journal_covered(id, &file, size, true)?;
        if valid_end < size {
            // A torn write that was never acknowledged: cut it off first.
            file.set_len(valid_end).map_err(io(&path))?;
            file.sync_all().map_err(io(&path))?;
        }
        let previous = timestamp::parse(&summary.last_activity).unwrap_or(i64::MIN);
        let at = match advance {
            Some(to) => timestamp::format_millis(previous.max(to)),
            None => summary.last_activity.clone(),
        };
        let bytes = make(&at);
        // One more level than the record: the line's envelope.
        crate::input::check_record_nesting(&bytes, 1)?;
        let written = file.write_all(&bytes).and_then(|()| file.sync_data());
        if let Err(err) = written {
            let _ = file.set_len(valid_end);
            return Err(Error::io(&path, &err));
        }
        let mut updated = Some(summary);
        for line in bytes[..bytes.len() - 1].split(|&b| b == b'\n') {
            journal::tally_line(&mut updated, line)
                .map_err(|_| Error::input("cannot encode the record"))?;
        }
        let updated = updated.ok_or_else(|| Error::input("cannot encode the record"))?;
        // The summary is a cache checked against the journal's length, so it
        // needs no fsync: after a crash it is rebuilt from the journal. It is
        // rewritten only once the journal's tail beyond it passes SUMMARY_LAG.
        let end = valid_end + bytes.len() as u64;
        if end.saturating_sub(covered) > SUMMARY_LAG {
            let _ = write_summary(&dir, &updated, end);
        }
        // Under the session's lock, so the index learns of its changes in
        // the order they were made.
        self.index.note(&Change::Put {
            summary: Box::new(updated.clone()),
            plain: false,
            stamp: refresh::stamp_of(&path),
            dir: None,
        });
        drop(lock);
        Ok(updated)
    }

    /// Changes a session stored in the OLLM CLI's format and rewrites its
    /// file whole, under the session's lock ([`cli::rewrite`]). `change`
    /// gets the document and the record's `at`: the new lastActivity when
    /// `advance` (never earlier than the current one), else the current.
    fn rewrite_plain(
        &self,
        id: &str,
        advance: Option<Millis>,
        change: impl Fn(&mut Document, &str) -> Result<()>,
    ) -> Result<SessionSummary> {
        let lock = self.lock_session(id)?;
        let path = self.plain_path(id);
        self.index.note(&Change::Pending(id.to_string()));
        let _writing = self.mark_writing(id, &path);
        // What the data directory sees of the write, so that the next read
        // need not compare its entries with the index's rows.
        let watch = index::watch::Watch::start(&self.dir);
        let rewritten = cli::rewrite(id, &path, |document| {
            let previous = timestamp::parse(document.last_activity()).unwrap_or(i64::MIN);
            let at = match advance {
                Some(to) => timestamp::format_millis(previous.max(to)),
                None => document.last_activity().to_string(),
            };
            change(document, &at)?;
            document.touch(&at);
            Ok(())
        });
        let document = match rewritten {
            Ok(Some(((), document))) => document,
            Ok(None) => {
                self.settle(id);
                lock.remove();
                return Err(not_found(id));
            }
            Err(err) => {
                self.settle(id);
                return Err(err);
            }
        };
        let summary = document
            .summary()
            .map_err(|why| Error::input(format!("the change would leave {why}")));
        let link = watch.and_then(|watch| watch.finish(&[&format!("{id}.json")]));
        self.settle_written(id, &path, document.stamp(), summary.as_ref().ok(), link);
        drop(lock);
        summary
    }

    /// Marks session `id`'s whole file at `path` as being rewritten until
    /// the mark drops. A mark found (left by a writer that was killed)
    /// first has the temp files such a writer leaves beside `path`
    /// removed: that reads the whole data directory (150 ms at 100,000
    /// sessions), so it is not done at every write. Without a mark of its
    /// own (`.locks` not writable), every write sweeps.
    fn mark_writing(&self, id: &str, path: &Path) -> WritingMark {
        let (left, mark) = self.mark(id);
        if left {
            sfs::sweep_temps(path);
        }
        mark
    }

    /// Makes the mark `.locks/<name>.writing`, removed when it drops;
    /// returns whether a writer killed before left one there, or none can
    /// be made here (`.locks` not writable): then what a killed writer
    /// leaves is to be swept.
    fn mark(&self, name: &str) -> (bool, WritingMark) {
        let mark = self.writing_mark_path(name);
        let left = !matches!(sfs::entry(&mark), Ok(None));
        let made = matches!(sfs::open_append(&mark, true), Ok(Some(_)));
        (left || !made, WritingMark(made.then_some(mark)))
    }

    fn writing_mark_path(&self, name: &str) -> PathBuf {
        self.dir.join(LOCKS).join(format!("{name}.writing"))
    }

    /// Removes the temp files a killed rewrite of session `id` left beside
    /// `path`, and its mark, when it left its mark (the caller holds the
    /// session's lock).
    fn sweep_killed_rewrite(&self, id: &str, path: &Path) {
        let mark = self.writing_mark_path(id);
        if !matches!(sfs::entry(&mark), Ok(None)) {
            sfs::sweep_temps(path);
            let _ = std::fs::remove_file(&mark);
        }
    }

    // ----- reading --------------------------------------------------------

    /// The summary of a journal's first `size` bytes and where its good
    /// records end. Reads only what the summary file does not cover. A
    /// corrupt journal is moved aside (taking the lock unless `held`).
    fn summarize_journal(
        &self,
        id: &str,
        file: &File,
        size: u64,
        writer: bool,
    ) -> Result<(SessionSummary, u64)> {
        self.summarize_journal_covered(id, file, size, writer)
            .map(|(summary, end, _)| (summary, end))
    }

    /// [`Self::summarize_journal`], and how many of the journal's bytes the
    /// summary file covered (0 when it was missing or did not fit).
    fn summarize_journal_covered(
        &self,
        id: &str,
        file: &File,
        size: u64,
        writer: bool,
    ) -> Result<(SessionSummary, u64, u64)> {
        let dir = self.session_dir(id);
        let cached = read_summary(&dir).filter(|s| {
            s.format == journal::FORMAT
                && s.summary.session_id == id
                && s.journal_bytes <= size
                && s.journal_bytes > 0
        });
        if let Some(cached) = &cached
            && cached.journal_bytes == size
        {
            return Ok((cached.summary.clone(), size, size));
        }
        let path = dir.join(JOURNAL);
        if let Some(cached) = cached {
            // Read from the byte before the cached end: it must end a line,
            // or the cache does not describe this journal.
            let start = cached.journal_bytes;
            let bytes = read_range(file, start - 1, size).map_err(io(&path))?;
            if bytes.first() == Some(&b'\n') {
                let mut summary = Some(cached.summary);
                let scan = journal::scan(&bytes[1..], false, |line| {
                    journal::tally_line(&mut summary, line)
                });
                if scan.stop.is_none()
                    && let Some(summary) = summary
                {
                    return Ok((summary, start + scan.valid_end as u64, start));
                }
            }
            // The cache did not fit the journal: read it all.
        }
        let bytes = read_range(file, 0, size).map_err(io(&path))?;
        let mut summary = None;
        let scan = journal::scan(&bytes, true, |line| journal::tally_line(&mut summary, line));
        match (scan.stop, summary) {
            (None, Some(summary)) => Ok((summary, scan.valid_end as u64, 0)),
            (Some(Stop::Newer(format)), _) => Err(newer(&path, format)),
            (Some(Stop::Corrupt(why)), _) => Err(self.corrupt_journal(id, &why, writer)),
            (None, None) => Err(self.corrupt_journal(id, "the journal is empty", writer)),
        }
    }

    /// The summary of one session, reading only its summary file when it
    /// is current.
    pub fn summary(&self, id: &str) -> Result<SessionSummary> {
        match self.kind(id)? {
            Kind::Journal => {
                let path = self.session_dir(id).join(JOURNAL);
                let Some(file) = sfs::open_regular(&path)? else {
                    return Err(not_found(id));
                };
                let size = file.metadata().map_err(io(&path))?.len();
                Ok(self.summarize_journal(id, &file, size, false)?.0)
            }
            Kind::Plain => Ok(self.read_plain(id)?.summary()),
        }
    }

    /// The session, by a caller holding its lock when `held`.
    pub(crate) fn load_held(&self, id: &str, writer: bool) -> Result<Loaded> {
        match self.kind(id)? {
            Kind::Journal => self.load_journal(id, writer),
            Kind::Plain => Ok(Loaded::from_session(self.read_plain(id)?)),
        }
    }

    fn load_journal(&self, id: &str, writer: bool) -> Result<Loaded> {
        let path = self.session_dir(id).join(JOURNAL);
        let Some(bytes) = sfs::read_regular(&path)? else {
            return Err(not_found(id));
        };
        let mut head: Option<SessionHead> = None;
        let mut records = Vec::new();
        let scan = journal::scan(&bytes, true, |line| {
            match journal::parse_line(line, head.is_none())?.into_stored() {
                Ok(record) => records.push(record),
                Err(h) => head = Some(*h),
            }
            Ok(())
        });
        let head = match (scan.stop, head) {
            (None, Some(head)) => head,
            (Some(Stop::Newer(format)), _) => return Err(newer(&path, format)),
            (Some(Stop::Corrupt(why)), _) => {
                return Err(self.corrupt_journal(id, &why, writer));
            }
            (None, None) => {
                return Err(self.corrupt_journal(id, "the journal is empty", writer));
            }
        };
        Ok(rebuild(head, records))
    }

    /// Reads a session stored in the OLLM CLI's format. One that does not
    /// parse is reported and left where it is: it is not ours to move.
    fn read_plain(&self, id: &str) -> Result<Session> {
        let path = self.plain_path(id);
        match cli::read_with_session(id, &path)? {
            Some((_, session)) => Ok(session),
            None => Err(not_found(id)),
        }
    }

    /// The error for a journal that cannot be parsed. A writer (holding
    /// the session's lock: `held`) moves it aside to `<id>.corrupt`, never
    /// deleting or overwriting it; a reader changes nothing and says so.
    fn corrupt_journal(&self, id: &str, why: &str, writer: bool) -> Error {
        let from = self.session_dir(id);
        if !writer {
            return Error::Corrupt(format!(
                "session {id} is corrupt ({why}); {} is left as it is until a command writes to the session, which sets it aside",
                from.display()
            ));
        }
        // Left pending: the next fold finds the session gone.
        self.index.note(&Change::Pending(id.to_string()));
        let base = format!("{id}.corrupt");
        let mut to = self.dir.join(&base);
        let mut n = 2;
        while sfs::entry(&to).ok().flatten().is_some() {
            to = self.dir.join(format!("{base}-{n}"));
            n += 1;
        }
        match sfs::rename_entry(&from, &to) {
            Ok(()) => Error::Corrupt(format!(
                "session {id} is corrupt ({why}); it was moved aside to {}",
                to.display()
            )),
            Err(err) => Error::Corrupt(format!(
                "session {id} is corrupt ({why}); moving it aside failed: {err}"
            )),
        }
    }

    /// Every session id in the store with how it is stored. A session with
    /// both a directory and a plain file (an import cut short) is the
    /// directory's.
    pub fn ids(&self) -> Result<Vec<(String, Kind)>> {
        Ok(self
            .entries()?
            .into_iter()
            .map(|(id, kind, _)| (id, kind))
            .collect())
    }

    /// [`FileStore::ids`] with each entry's inode number, as the directory
    /// gives it (no `stat`): a plain file replaced by a rename has another.
    pub(crate) fn entries(&self) -> Result<Vec<(String, Kind, u64)>> {
        use std::os::unix::fs::DirEntryExt;
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(Error::io(&self.dir, &e)),
        };
        let mut dirs = Vec::new();
        let mut plain = Vec::new();
        for entry in entries {
            let entry = entry.map_err(io(&self.dir))?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if is_dir && is_uuid(name) {
                dirs.push((name.to_string(), entry.ino()));
            } else if let Some(id) = name.strip_suffix(".json")
                && is_uuid(id)
                && !is_dir
            {
                plain.push((id.to_string(), entry.ino()));
            }
        }
        dirs.sort_unstable();
        let mut ids = Vec::with_capacity(plain.len() + dirs.len());
        for (id, ino) in plain {
            if dirs.binary_search_by(|(dir, _)| dir.cmp(&id)).is_err() {
                ids.push((id, Kind::Plain, ino));
            }
        }
        ids.extend(dirs.into_iter().map(|(id, ino)| (id, Kind::Journal, ino)));
        Ok(ids)
    }

    /// Tells the index what session `id` is now (a writer's last step,
    /// holding the session's lock). On failure the `pending` noted before
    /// stays, and the next fold reads the session itself.
    fn settle(&self, id: &str) {
        self.settle_linked(id, None);
    }

    /// [`Self::settle`] after a write that made or removed entries of the
    /// data directory, with what the directory saw of it (`link`).
    fn settle_linked(&self, id: &str, link: Option<index::log::DirLink>) {
        match refresh::settled(self, id) {
            Some(Change::Put {
                summary,
                plain,
                stamp,
                dir: _,
            }) => self.index.note(&Change::Put {
                summary,
                plain,
                stamp,
                dir: link,
            }),
            Some(change) => {
                self.index.note(&change);
                if let Some(link) = link {
                    self.index.note(&Change::Dir(link));
                }
            }
            None => {}
        }
    }

    /// [`Self::settle`] after a rewrite of the plain file at `path` whose
    /// result is `written` with `summary`: told without reading the file
    /// again while the file there is still the one written (stamped
    /// before that look, so that a version renamed in later makes the
    /// stamp stale, never the summary), with what the data directory saw
    /// of the write (`link`).
    fn settle_written(
        &self,
        id: &str,
        path: &Path,
        written: Option<Stamp>,
        summary: Option<&SessionSummary>,
        link: Option<index::log::DirLink>,
    ) {
        let stamp = refresh::stamp_kept(path, true);
        match (written, summary) {
            (Some(written), Some(summary)) if written.same_file(Stamp::at(path)) => {
                self.index.note(&Change::Put {
                    summary: Box::new(summary.clone()),
                    plain: true,
                    stamp,
                    dir: link,
                });
            }
            _ => self.settle(id),
        }
    }

    /// The index, brought up to date (`None`: it cannot be used here, and
    /// the files are read instead).
    pub(crate) fn index_db(&self) -> Result<Option<index::db::Db>> {
        refresh::open_fresh(self, &self.index)
    }

    /// Builds the index anew from the sessions' files; returns how many
    /// sessions and unreadable sessions it holds.
    pub fn reindex(&self) -> Result<(usize, usize)> {
        self.ensure_dir()?;
        let counts = refresh::rebuild(self, &self.index)?;
        index::prefilter::refresh_all(self, &self.index)?;
        Ok(counts)
    }

    /// [`Self::reindex`] from the files alone, the change log emptied:
    /// what the index kept of the sessions before `redact` scrubbed them
    /// is gone from the disk.
    pub fn reindex_forgetting(&self) -> Result<(usize, usize)> {
        self.ensure_dir()?;
        let counts = refresh::rebuild_forgetting(self, &self.index)?;
        index::prefilter::refresh_all(self, &self.index)?;
        Ok(counts)
    }

    pub(crate) fn index(&self) -> &Index {
        &self.index
    }

    /// Searches reading every session, without the index (what the index's
    /// answers are checked against).
    pub fn search_every_session(&self, query: &Query) -> Result<Found> {
        search::search_every_session(self, query)
    }

    /// Summaries of every session, newest `lastActivity` first.
    pub fn list(&self) -> Result<Listing> {
        self.list_where(&ListQuery::default())
    }

    /// The page of sessions `query` keeps, from the index.
    pub fn list_where(&self, query: &ListQuery) -> Result<Listing> {
        match self.index_db()? {
            Some(db) => {
                let listed = db
                    .list(query)
                    .and_then(|rows| Ok((rows, self.index.problems(&db)?)));
                let (rows, mut problems) = match listed {
                    Ok(found) => found,
                    Err(err) => {
                        return self
                            .index
                            .or_files(Err(err), || Ok(query.page(self.scan()?)));
                    }
                };
                let (mut sessions, found) = refresh::checked(self, &self.index, rows);
                sessions.retain(|s| query.keeps(s));
                problems.extend(found);
                Ok(Listing { sessions, problems })
            }
            None => Ok(query.page(self.scan()?)),
        }
    }

    /// The sessions `query` keeps, newest first, handed to `page` a page at
    /// a time (`first` sessions, then twice as many each time) until it
    /// returns false; the first page also holds the sessions that could not
    /// be read. From one snapshot of the index when there is one, else from
    /// one read of the files. Every page but the last holds sessions.
    pub fn list_pages(
        &self,
        query: &ListQuery,
        first: usize,
        mut page: impl FnMut(Listing) -> bool,
    ) -> Result<()> {
        let Some(db) = self.index_db()? else {
            let listing = query.page(self.scan()?);
            page(listing);
            return Ok(());
        };
        let mut problems = match self.index.problems(&db) {
            Ok(problems) => Some(problems),
            Err(err) => {
                let listing = self
                    .index
                    .or_files(Err(err), || Ok(query.page(self.scan()?)))?;
                page(listing);
                return Ok(());
            }
        };
        let mut given = false;
        let listed = db.list_pages(query, first, |rows| {
            let (mut sessions, found) = refresh::checked(self, &self.index, rows);
            sessions.retain(|s| query.keeps(s));
            let mut all_problems = problems.take().unwrap_or_default();
            all_problems.extend(found);
            given = true;
            page(Listing {
                sessions,
                problems: all_problems,
            })
        });
        if let Err(err) = listed {
            // Said from the files only while no page was given.
            if given {
                return Err(err);
            }
            let listing = self
                .index
                .or_files(Err(err), || Ok(query.page(self.scan()?)))?;
            page(listing);
            return Ok(());
        }
        if !given {
            page(Listing {
                sessions: Vec::new(),
                problems: problems.unwrap_or_default(),
            });
        }
        Ok(())
    }

    /// What [`FileStore::list_pages`] gives, as the NDJSON lines `list`
    /// writes, each read as the index keeps it ([`index::lines`]).
    pub fn list_json_pages(
        &self,
        query: &ListQuery,
        first: usize,
        page: impl FnMut(JsonLines) -> bool,
    ) -> Result<()> {
        index::lines::json_pages(self, query, first, page)
    }

    /// The sessions `naming` may mean, from the index.
    pub fn named(&self, naming: &Naming<'_>) -> Result<Vec<SessionSummary>> {
        match self.index_db()? {
            Some(db) => {
                let rows = match db.named(naming) {
                    Ok(rows) => rows,
                    Err(err) => {
                        return self.index.or_files(Err(err), || {
                            let mut sessions = self.scan()?.sessions;
                            sessions.retain(|s| naming.keeps(s));
                            Ok(sessions)
                        });
                    }
                };
                let (mut sessions, _) = refresh::checked(self, &self.index, rows);
                sessions.retain(|s| naming.keeps(s));
                Ok(sessions)
            }
            None => {
                let mut sessions = self.scan()?.sessions;
                sessions.retain(|s| naming.keeps(s));
                Ok(sessions)
            }
        }
    }

    /// The sessions branched from `id`, from the index.
    pub fn children(&self, id: &str) -> Result<Vec<SessionSummary>> {
        match self.index_db()? {
            Some(db) => Ok(refresh::checked(self, &self.index, db.children(id)?).0),
            None => {
                let mut sessions = self.scan()?.sessions;
                sessions.retain(|s| s.parent_session_id.as_deref() == Some(id));
                Ok(sessions)
            }
        }
    }

    /// Summaries of every session read from their files, newest
    /// `lastActivity` first: what the index is built from and checked
    /// against. Reads each session's small summary file (and a journal
    /// only past what that file covers); plain spec files are parsed
    /// whole. A session that cannot be read is reported in `problems`.
    pub fn scan(&self) -> Result<Listing> {
        let ids = self.ids()?;
        let results = parallel_map(&ids, |(id, kind)| {
            let result = match kind {
                Kind::Journal => {
                    let path = self.session_dir(id).join(JOURNAL);
                    match sfs::open_regular(&path) {
                        Ok(Some(file)) => file
                            .metadata()
                            .map_err(io(&path))
                            .and_then(|m| self.summarize_journal(id, &file, m.len(), false))
                            .map(|(s, _)| s),
                        Ok(None) => Err(not_found(id)),
                        Err(e) => Err(e),
                    }
                }
                Kind::Plain => self.read_plain(id).map(|s| s.summary()),
            };
            (id.clone(), result)
        });
        let mut listing = Listing::default();
        for (id, result) in results {
            match result {
                Ok(summary) => listing.sessions.push(summary),
                Err(Error::NotFound(_)) => {} // deleted while listing
                Err(err) => listing.problems.push(Problem {
                    session_id: id,
                    message: err.to_string(),
                }),
            }
        }
        sort_newest_first(&mut listing.sessions);
        Ok(listing)
    }

    // ----- deleting -------------------------------------------------------

    /// Every session set aside as corrupt (`<id>.corrupt`, `<id>.json.corrupt`,
    /// with `-N` when set aside more than once), by name.
    pub fn corrupt(&self) -> Result<Vec<SetAside>> {
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(Error::io(&self.dir, &e)),
        };
        let mut found = Vec::new();
        for entry in entries {
            let entry = entry.map_err(io(&self.dir))?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let Some(id) = name.get(..36).filter(|id| is_uuid(id)) else {
                continue;
            };
            let rest = &name[36..];
            let kind = if rest.starts_with(".json.corrupt") {
                Kind::Plain
            } else if rest.starts_with(".corrupt") {
                Kind::Journal
            } else {
                continue;
            };
            let file_type = entry.file_type().map_err(io(&self.dir))?;
            if !(file_type.is_dir() || file_type.is_file()) {
                continue;
            }
            found.push(SetAside {
                session_id: id.to_string(),
                path: entry.path(),
                format: match kind {
                    Kind::Journal => "journal",
                    Kind::Plain => "plain",
                },
            });
        }
        found.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(found)
    }

    fn corrupt_of(&self, id: &str) -> Result<Vec<PathBuf>> {
        Ok(self
            .corrupt()?
            .into_iter()
            .filter(|c| c.session_id == id)
            .map(|c| c.path)
            .collect())
    }

    /// Deletes a session, the copies of it set aside as corrupt, and its
    /// snapshots, as one operation (waiting for a writer to finish).
    pub fn delete(&self, id: &str) -> Result<()> {
        let live = match self.kind(id) {
            Ok(_) => true,
            Err(Error::NotFound(_)) => false,
            Err(err) => return Err(err),
        };
        if !live && self.corrupt_of(id)?.is_empty() {
            return Err(not_found(id));
        }
        self.ensure_dir()?;
        let _store = self.store_lock()?;
        let mark = self.mark_store_writing();
        let removed =
            Lock::exclusive(&self.lock_path(id)).and_then(|lock| self.remove_locked(id, lock));
        match removed {
            Ok(true) => Ok(()),
            Ok(false) => Err(not_found(id)),
            Err(err) => {
                mark.keep();
                Err(err)
            }
        }
    }

    /// Removes a session with its lock held: every form of it (directory,
    /// plain file, set-aside copies) is first renamed to a tombstone in
    /// the data directory (the commit point: from then on the session is
    /// gone for every reader), then its snapshots and the tombstones are
    /// removed. A delete killed after the commit point is finished by the
    /// next writer. Returns whether there was anything to remove.
    fn remove_locked(&self, id: &str, lock: Lock) -> Result<bool> {
        let mut forms = Vec::new();
        let dir = self.session_dir(id);
        if sfs::is_real_dir(&dir) {
            forms.push(dir);
        }
        let plain = self.plain_path(id);
        self.sweep_killed_rewrite(id, &plain);
        if sfs::is_regular_file(&plain) {
            forms.push(plain);
        }
        forms.extend(self.corrupt_of(id)?);
        self.index.note(&Change::Pending(id.to_string()));
        // What the data directory sees of the delete (see `rewrite_plain`):
        // the names renamed away are its own.
        let watch = index::watch::Watch::start(&self.dir);
        self.bury(id, &forms)?;
        let own: Vec<&str> = forms
            .iter()
            .filter_map(|form| form.file_name()?.to_str())
            .collect();
        let link = watch.and_then(|watch| watch.finish(&own));
        self.settle_linked(id, link);
        lock.remove();
        Ok(!forms.is_empty())
    }

    /// Renames `forms` of session `id` to tombstones, then finishes them.
    fn bury(&self, id: &str, forms: &[PathBuf]) -> Result<()> {
        let stamp = format!("{}-{}", std::process::id(), timestamp::now_millis());
        let mut tombstones = Vec::new();
        for (n, form) in forms.iter().enumerate() {
            let tombstone = self.dir.join(format!(".trash-{id}-{stamp}-{n}"));
            sfs::rename_entry(form, &tombstone)?;
            tombstones.push(tombstone);
        }
        for tombstone in &tombstones {
            self.finish_tombstone(id, tombstone)?;
        }
        Ok(())
    }

    /// Whether anything of session `id` (live or set aside) is in the store.
    pub(crate) fn has_any(&self, id: &str) -> bool {
        self.anything_of(id)
    }

    /// [`FileStore::anything_of`] for a session copied in, with the set
    /// aside sessions as this handle first found them: a session can only
    /// be set aside once it is stored, which the two checks before see.
    fn anything_of_copied(&self, id: &str) -> bool {
        let set_aside = self.set_aside.get_or_init(|| {
            self.corrupt()
                .ok()
                .map(|found| found.into_iter().map(|c| c.session_id).collect())
        });
        let Some(set_aside) = set_aside else {
            return self.anything_of(id);
        };
        self.entry_of(id) || set_aside.contains(id)
    }

    fn anything_of(&self, id: &str) -> bool {
        self.entry_of(id) || self.corrupt_of(id).map_or(true, |c| !c.is_empty())
    }

    /// Whether session `id` has a live entry (its directory or its file)
    /// in the data directory, whatever it is.
    fn entry_of(&self, id: &str) -> bool {
        sfs::entry(&self.session_dir(id)).is_ok_and(|e| e.is_some())
            || sfs::entry(&self.plain_path(id)).is_ok_and(|e| e.is_some())
    }

    /// Keeps the `keep` most recently active sessions and deletes the rest,
    /// skipping any a writer holds; sessions set aside as corrupt count as
    /// the oldest. Also removes snapshot directories whose session is gone.
    /// With `dry_run`, only reports (taking no lock, writing nothing, so it
    /// works on a read-only store).
    pub fn cleanup(&self, keep: u64, dry_run: bool) -> Result<CleanupReport> {
        let _store = if dry_run {
            None
        } else {
            self.ensure_dir()?;
            let lock = self.store_lock()?;
            // Every session is read below: the leftovers are swept too.
            let (_, mark) = self.mark("store");
            self.sweep_leftovers();
            Some((lock, mark))
        };
        let sessions = self.list()?.sessions;
        let mut report = CleanupReport {
            dry_run,
            ..CleanupReport::default()
        };
        let mut kept = 0u64;
        for summary in sessions {
            if kept < keep {
                kept += 1;
                report.kept += 1;
                continue;
            }
            let id = summary.session_id;
            if dry_run {
                report.deleted.push(id);
                continue;
            }
            match Lock::try_exclusive(&self.lock_path(&id))? {
                Some(lock) => {
                    self.remove_locked(&id, lock)?;
                    report.deleted.push(id);
                }
                None => {
                    report.kept += 1;
                    report.skipped_locked.push(id);
                }
            }
        }
        for aside in self.corrupt()? {
            if kept < keep {
                kept += 1;
                continue;
            }
            if dry_run {
                report.deleted_corrupt.push(aside.path);
                continue;
            }
            if let Some(lock) = Lock::try_exclusive(&self.lock_path(&aside.session_id))? {
                self.bury(&aside.session_id, std::slice::from_ref(&aside.path))?;
                if !self.anything_of(&aside.session_id) {
                    lock.remove();
                }
                report.deleted_corrupt.push(aside.path);
            }
        }
        report.orphaned_snapshots = self.orphaned_snapshots(dry_run)?;
        Ok(report)
    }

    /// Snapshot directories of sessions no longer in the store (left by a
    /// delete of an older version), removed unless `dry_run`.
    fn orphaned_snapshots(&self, dry_run: bool) -> Result<Vec<String>> {
        let Some(root) = &self.options.snapshots_dir else {
            return Ok(Vec::new());
        };
        let entries = match std::fs::read_dir(root) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(Error::io(root, &e)),
        };
        let mut orphans = Vec::new();
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(id) = name.to_str().filter(|n| is_uuid(n)) else {
                continue;
            };
            if self.anything_of(id) {
                continue;
            }
            if dry_run {
                orphans.push(id.to_string());
                continue;
            }
            if let Some(lock) = Lock::try_exclusive(&self.lock_path(id))? {
                if !self.anything_of(id) {
                    let dir = root.join(id);
                    sfs::remove_any(&dir).map_err(io(&dir))?;
                    orphans.push(id.to_string());
                }
                lock.remove();
            }
        }
        orphans.sort();
        Ok(orphans)
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
