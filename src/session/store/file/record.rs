//! Recording in the file store: appending records to a session's journal
//! or document under its lock, and changing its head.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::index::log::Change;
use super::index::refresh;
use super::index::{self};
use super::journal::{self};
use super::{FileStore, JOURNAL, LOCKS, SUMMARY_LAG, WritingMark, io, not_found, write_summary};
use crate::error::{Error, Result};
use crate::fs::{self as sfs};
use crate::session::model::{SessionSummary, check_id};
use crate::session::store::cli::{self, Document};
use crate::timestamp::{self, Millis};

impl FileStore {
    /// Appends lines (one record each) under the session's lock, fsyncs
    /// them once, and updates the summary (when it lags by more than
    /// [`SUMMARY_LAG`]). `make` gets the records' `at`: the lastActivity
    /// moved forward to `advance`, or the current one when `None`.
    pub(super) fn append_line(
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
    pub(super) fn rewrite_plain(
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
        let watch = index::watch::Watch::start(&self.dir, self.options.watch_writes_from);
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
    pub(super) fn mark_writing(&self, id: &str, path: &Path) -> WritingMark {
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
    pub(super) fn mark(&self, name: &str) -> (bool, WritingMark) {
        let mark = self.writing_mark_path(name);
        let left = !matches!(sfs::entry(&mark), Ok(None));
        let made = matches!(sfs::open_append(&mark, true), Ok(Some(_)));
        (left || !made, WritingMark(made.then_some(mark)))
    }

    pub(super) fn writing_mark_path(&self, name: &str) -> PathBuf {
        self.dir.join(LOCKS).join(format!("{name}.writing"))
    }

    /// Removes the temp files a killed rewrite of session `id` left beside
    /// `path`, and its mark, when it left its mark (the caller holds the
    /// session's lock).
    pub(super) fn sweep_killed_rewrite(&self, id: &str, path: &Path) {
        let mark = self.writing_mark_path(id);
        if !matches!(sfs::entry(&mark), Ok(None)) {
            sfs::sweep_temps(path);
            let _ = std::fs::remove_file(&mark);
        }
    }
}
