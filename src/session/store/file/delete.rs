//! Deleting from the file store: a session, `cleanup`, and what a cut-short
//! delete or a crash left behind.

use std::path::PathBuf;

use super::index::log::Change;
use super::index::{self};
use super::{FileStore, Kind, io, not_found};
use crate::error::{Error, Result};
use crate::fs::lock::Lock;
use crate::fs::{self as sfs};
use crate::session::model::is_uuid;
use crate::session::store::api::{CleanupReport, SetAside};
use crate::timestamp::{self};

impl FileStore {
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

    pub(super) fn corrupt_of(&self, id: &str) -> Result<Vec<PathBuf>> {
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
    pub(super) fn remove_locked(&self, id: &str, lock: Lock) -> Result<bool> {
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
        let watch = index::watch::Watch::start(&self.dir, self.options.watch_writes_from);
        self.bury(id, &forms, true)?;
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
    /// With `every_copy`, the forms hold every copy of it set aside (listed
    /// with its lock held, which whoever sets one aside holds): what may be
    /// left of it is only a live entry that a writer without that lock (the
    /// OLLM CLI) made meanwhile, looked up by name rather than by reading
    /// the data directory again (212 ms at 100,000 sessions).
    pub(super) fn bury(&self, id: &str, forms: &[PathBuf], every_copy: bool) -> Result<()> {
        let stamp = format!("{}-{}", std::process::id(), timestamp::now_millis());
        let mut tombstones = Vec::new();
        for (n, form) in forms.iter().enumerate() {
            let tombstone = self.dir.join(format!(".trash-{id}-{stamp}-{n}"));
            sfs::rename_entry(form, &tombstone)?;
            tombstones.push(tombstone);
        }
        let left = if every_copy {
            self.entry_of(id)
        } else {
            self.anything_of(id)
        };
        for tombstone in &tombstones {
            self.finish_tombstone_of(id, tombstone, !left)?;
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
    pub(super) fn anything_of_copied(&self, id: &str) -> bool {
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

    pub(super) fn anything_of(&self, id: &str) -> bool {
        self.entry_of(id) || self.corrupt_of(id).map_or(true, |c| !c.is_empty())
    }

    /// Whether session `id` has a live entry (its directory or its file)
    /// in the data directory, whatever it is.
    pub(super) fn entry_of(&self, id: &str) -> bool {
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
                self.bury(&aside.session_id, std::slice::from_ref(&aside.path), false)?;
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
    pub(super) fn orphaned_snapshots(&self, dry_run: bool) -> Result<Vec<String>> {
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
