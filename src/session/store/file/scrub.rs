//! Scrubbing a stored session in place (`ollm-session redact`): every JSON
//! value of it passed through a function that replaces credentials, the
//! session replaced whole by one rename, so a reader (or a crash) sees it
//! either as it was or fully scrubbed.

use serde_json::Value;

use super::cli;
use super::index::log::Change;
use super::{FileStore, JOURNAL, Kind, SUMMARY, journal, not_found, write_summary};
use crate::error::{Error, Result};
use crate::fs::{self as sfs, Durability};
use crate::lossless;

/// What rewrites one JSON value and says how many spans it replaced.
pub type Scrub<'a> = &'a dyn Fn(&mut Value) -> u64;

impl FileStore {
    /// See [`crate::session::store::SessionStore::scrub`].
    pub fn scrub(&self, id: &str, scrub: Scrub<'_>) -> Result<u64> {
        match self.kind(id)? {
            Kind::Journal => self.scrub_journal(id, scrub),
            Kind::Plain => self.scrub_plain(id, scrub),
        }
    }

    fn scrub_journal(&self, id: &str, scrub: Scrub<'_>) -> Result<u64> {
        let lock = self.lock_session(id)?;
        let dir = self.session_dir(id);
        let path = dir.join(JOURNAL);
        let bytes = match sfs::open_regular(&path)? {
            Some(file) => {
                let mut bytes = Vec::new();
                std::io::Read::read_to_end(&mut &file, &mut bytes)
                    .map_err(|e| Error::io(&path, &e))?;
                bytes
            }
            None => {
                lock.remove();
                return Err(not_found(id));
            }
        };
        let mut replaced = 0;
        let mut scrubbed = Vec::with_capacity(bytes.len());
        let scan = journal::scan(&bytes, true, |line| {
            let decoded = lossless::decode(line);
            let parsed: Option<Value> = serde_json::from_slice(&decoded.text).ok();
            let count = match parsed {
                Some(mut value) if decoded.exact => {
                    let count = scrub(&mut value);
                    if count > 0 {
                        let encoded = lossless::to_vec(&value)
                            .map_err(|e| journal::Stop::Corrupt(e.to_string()))?;
                        scrubbed.extend_from_slice(&encoded);
                    }
                    count
                }
                _ => 0,
            };
            if count == 0 {
                scrubbed.extend_from_slice(line);
            }
            scrubbed.push(b'\n');
            replaced += count;
            Ok(())
        });
        if let Some(stop) = scan.stop {
            return Err(Error::Corrupt(format!(
                "session {id}: its journal cannot be scrubbed ({stop:?}); nothing was changed"
            )));
        }
        if replaced == 0 {
            return Ok(0);
        }
        let mut summary = None;
        let check = journal::scan(&scrubbed, true, |line| {
            journal::tally_line(&mut summary, line)
        });
        let summary = match (check.stop, summary) {
            (None, Some(summary)) if !check.torn => summary,
            _ => return Err(Error::input("cannot encode the scrubbed records")),
        };
        // The summary caches the old journal's length: gone first, so a
        // crash after the rename leaves no summary to trust, only to rebuild.
        let summary_path = dir.join(SUMMARY);
        if let Err(err) = std::fs::remove_file(&summary_path)
            && err.kind() != std::io::ErrorKind::NotFound
        {
            return Err(Error::io(&summary_path, &err));
        }
        self.index.note(&Change::Pending(id.to_string()));
        sfs::write_atomic(&path, &scrubbed, Durability::Synced)?;
        let _ = write_summary(&dir, &summary, scrubbed.len() as u64);
        self.settle(id);
        drop(lock);
        Ok(replaced)
    }

    fn scrub_plain(&self, id: &str, scrub: Scrub<'_>) -> Result<u64> {
        let lock = self.lock_session(id)?;
        let path = self.plain_path(id);
        self.index.note(&Change::Pending(id.to_string()));
        sfs::sweep_temps(&path);
        let rewritten = cli::rewrite_if(id, &path, |document| {
            let mut value = Value::Object(std::mem::take(&mut document.fields));
            let count = scrub(&mut value);
            if let Value::Object(fields) = value {
                document.fields = fields;
            }
            Ok(count)
        });
        let replaced = match rewritten {
            Ok(Some(count)) => count,
            Ok(None) => {
                lock.remove();
                return Err(not_found(id));
            }
            Err(err) => return Err(err),
        };
        self.settle(id);
        drop(lock);
        Ok(replaced)
    }
}
