//! Creating sessions in the file store: publishing a new one (journal or
//! the OLLM CLI's document) and keeping within `maxSessions`.

use std::fs::OpenOptions;
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::Path;

use super::index::log::Change;
use super::index::{self};
use super::journal::{self};
use super::{
    FileStore, JOURNAL, Kind, WritingMark, check_record_nesting, cli_temp_of, io, write_summary,
};
use crate::error::{Error, Result};
use crate::fs::lock::Lock;
use crate::fs::{self as sfs, sync_dir};
use crate::session::model::{SessionHead, SessionSummary, is_uuid};
use crate::session::store::api::{Created, NewFormat, Publish};
use crate::session::store::cli::{self, Document};

impl FileStore {
    pub(super) fn create_with(&self, new: Publish) -> Result<Created> {
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
    pub(super) fn create_locked(&self, new: Publish) -> Result<Created> {
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
        let watch = index::watch::Watch::start(&self.dir, self.options.watch_writes_from);
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
    pub(super) fn write_session_dir(&self, head: &SessionHead, body: &[u8]) -> Result<()> {
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
    pub(super) fn mark_store_writing(&self) -> WritingMark {
        let (left, mark) = self.mark("store");
        if left {
            self.sweep_leftovers();
        }
        mark
    }

    /// Removes what a crashed writer left: temporary directories, and
    /// tombstones of deletes cut short (their snapshots first, then the
    /// tombstone). Called with the store lock held.
    pub(super) fn sweep_leftovers(&self) {
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
    pub(super) fn finish_tombstone(&self, id: &str, tombstone: &Path) -> Result<()> {
        self.finish_tombstone_of(id, tombstone, is_uuid(id) && !self.anything_of(id))
    }

    /// [`FileStore::finish_tombstone`] of a session of which nothing is
    /// left (`gone`) or something is, as the caller found.
    pub(super) fn finish_tombstone_of(&self, id: &str, tombstone: &Path, gone: bool) -> Result<()> {
        if gone
            && is_uuid(id)
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
    pub(super) fn enforce_max(&self, keep: &str) -> Result<Vec<String>> {
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
    pub(super) fn counted_by_max(&self, id: &str) -> bool {
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
}
