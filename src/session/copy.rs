//! `ollm-session copy`: sessions from one store to another, as they are
//! (ids, records and their order, counts, titles, branch links), so a user
//! can move local history into a shared database and back. Copying is
//! idempotent: a session already in the target is left as it is. A
//! directory of the spec's plain `<id>.json` files is a store to copy from.
//!
//! Each session's snapshots go with it, also into a session the target
//! already holds, each once: a snapshot already there (by id) is left as
//! it is. So copying a PostgreSQL store to itself on a machine that took
//! snapshots before they were shared moves those into the database.

use serde::Serialize;

use super::model::{Loaded, Problem};
use super::snapshot::Snapshots;
use super::store::Store;
use super::store::api::is_zero;
use crate::config::Config;
use crate::error::{Error, Result};

/// What a copy did.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CopyReport {
    /// Sessions written to the target.
    pub copied: Vec<String>,
    /// Sessions the target already held (left unchanged).
    pub present: Vec<String>,
    /// Snapshots written to the target (those it held are left unchanged).
    #[serde(skip_serializing_if = "is_zero")]
    pub snapshots_copied: u64,
    /// Sessions that could not be copied, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<Problem>,
    /// The first failure, as the command's error.
    #[serde(skip)]
    pub first_error: Option<Error>,
}

/// The store `location` names: `file` and URLs as `services.session.store`
/// does, anything else a directory of sessions. A `target` directory named
/// by a path (`./out`, `~/.ollm/sessions`) is made when it is missing.
pub fn open_location(location: &str, config: &Config, target: bool) -> Result<Store> {
    let mut options = Store::options_from(config);
    if Store::names_a_store(location) {
        return Store::open(location, crate::config::session_data_dir(config), options);
    }
    let dir = crate::paths::expand(location);
    if target && location.contains('/') && !dir.exists() {
        crate::fs::create_private_dir_all(&dir)?;
    }
    if !dir.is_dir() {
        return Err(Error::NotFound(format!(
            "{location}: neither `file`, a postgres:// URL, nor a directory"
        )));
    }
    options.max_sessions = 0;
    Ok(Store::new(dir, options))
}

/// Copies `ids` (every session of `from` when `None`) into `to`, with
/// their snapshots (`snapshots` says where a store without its own keeps
/// them).
pub fn copy(
    from: &Store,
    to: &Store,
    snapshots: &Snapshots,
    ids: Option<&[String]>,
) -> Result<CopyReport> {
    let mut report = CopyReport::default();
    let ids: Vec<String> = match ids {
        Some(ids) => ids.to_vec(),
        None => {
            let listing = from.list()?;
            report.failed.extend(listing.problems);
            listing.sessions.into_iter().map(|s| s.session_id).collect()
        }
    };
    let mut batch = Batch::default();
    for id in ids {
        match from.load(&id) {
            Ok(loaded) => {
                batch.records += loaded.order.len();
                batch.sessions.push(loaded);
                if batch.is_full() {
                    batch.store(from, to, snapshots, &mut report);
                }
            }
            Err(err) => report.fail(id, err),
        }
    }
    batch.store(from, to, snapshots, &mut report);
    Ok(report)
}

/// Sessions read from the source, waiting to be written together.
#[derive(Default)]
struct Batch {
    sessions: Vec<Loaded>,
    records: usize,
}

impl Batch {
    /// Sessions, or records, that fill a batch: a transaction's worth that
    /// costs a commit per few hundred sessions and holds a few MB.
    const SESSIONS: usize = 500;
    const RECORDS: usize = 20_000;

    fn is_full(&self) -> bool {
        self.sessions.len() >= Self::SESSIONS || self.records >= Self::RECORDS
    }

    /// Writes the batch's sessions (then each one's snapshots) into `to`.
    fn store(&mut self, from: &Store, to: &Store, snapshots: &Snapshots, report: &mut CopyReport) {
        let sessions = std::mem::take(&mut self.sessions);
        self.records = 0;
        let stored = to.import_many(&sessions);
        for (loaded, stored) in sessions.into_iter().zip(stored) {
            let id = loaded.session.session_id;
            let copied = stored.and_then(|copied| {
                report.snapshots_copied += copy_snapshots(from, to, snapshots, &id)?;
                Ok(copied)
            });
            match copied {
                Ok(true) => report.copied.push(id),
                Ok(false) => report.present.push(id),
                Err(err) => report.fail(id, err),
            }
        }
    }
}

impl CopyReport {
    fn fail(&mut self, id: String, err: Error) {
        self.failed.push(Problem {
            session_id: id,
            message: err.to_string(),
        });
        self.first_error.get_or_insert(err);
    }
}

/// Copies session `id`'s snapshots; returns how many were not there.
fn copy_snapshots(from: &Store, to: &Store, snapshots: &Snapshots, id: &str) -> Result<u64> {
    let mut copied = 0;
    for info in snapshots.list(from, id)? {
        let snapshot = snapshots.show(from, &info.id, Some(id))?;
        if snapshots.import(to, &snapshot)? {
            copied += 1;
        }
    }
    Ok(copied)
}
