//! Where snapshots are stored: the [`SnapshotStore`] trait. A store that
//! keeps snapshots itself, shared by every machine that uses it
//! (PostgreSQL), offers its own ([`super::SessionStore::snapshots`]);
//! otherwise they live in this machine's `snapshots.dir`
//! (`crate::session::snapshot`'s directory storage, the same trait).

use std::path::PathBuf;

use serde_json::Value;

use crate::error::{Error, Result};
use crate::session::model::snapshot::{Snapshot, SnapshotInfo};

/// What [`SnapshotStore::put_snapshot`] did.
#[derive(Debug, Clone, Default)]
pub struct PutSnapshot {
    /// `false`: a snapshot with its id is there already.
    pub stored: bool,
    /// The snapshots of the session deleted beyond the rolling limit.
    pub removed: Vec<String>,
    /// The snapshot's file (`None`: in the store's database).
    pub path: Option<PathBuf>,
}

/// The storage of snapshots. Every write is durable when it returns.
pub trait SnapshotStore {
    /// Stores `snapshot` of a live session and, when `max_count` is not 0,
    /// deletes that session's oldest snapshots beyond it, holding the
    /// session against its other snapshot writers and its deletion.
    /// [`Error::NotFound`] when the session is not in the store; refused
    /// when a message nests deeper than readers parse ([`encode_snapshot`]).
    fn put_snapshot(&self, snapshot: &Snapshot, max_count: u64) -> Result<PutSnapshot>;
    /// A session's snapshots, newest first.
    fn snapshot_infos(&self, session_id: &str) -> Result<Vec<SnapshotInfo>>;
    /// Snapshot `id` (of `session` when given).
    fn snapshot(&self, id: &str, session: Option<&str>) -> Result<Snapshot>;
    /// [`SnapshotStore::snapshot`] read while holding its session against
    /// writers, where a read takes more than one step.
    fn snapshot_held(&self, id: &str, session: Option<&str>) -> Result<Snapshot> {
        self.snapshot(id, session)
    }
    /// Deletes snapshot `id` (of `session` when given).
    fn delete_snapshot(&self, id: &str, session: Option<&str>) -> Result<()>;
    /// The sessions that may have snapshots here.
    fn snapshot_sessions(&self) -> Result<Vec<String>>;
    /// The stored bytes of snapshot `id` of session `session_id` when it
    /// is a file (`None`: the storage keeps no such text).
    fn raw_snapshot(&self, _session_id: &str, _id: &str) -> Result<Option<Vec<u8>>> {
        Ok(None)
    }
    /// Passes every snapshot of session `session_id` through `scrub`,
    /// each replaced atomically when `scrub` replaced anything; returns
    /// how many spans were replaced. The default does nothing: a store
    /// keeping snapshots itself scrubs them with the session
    /// ([`super::SessionStore::scrub`]).
    fn scrub_snapshots(
        &self,
        _session_id: &str,
        _scrub: &dyn Fn(&mut Value) -> u64,
    ) -> Result<u64> {
        Ok(0)
    }
}

/// The snapshot as stored (pretty JSON), refused when a message nests
/// deeper than readers parse.
pub fn encode_snapshot(snapshot: &Snapshot) -> Result<Vec<u8>> {
    let bytes = serde_json::to_vec_pretty(snapshot)
        .map_err(|e| Error::input(format!("cannot encode the snapshot: {e}")))?;
    // A message sits 3 levels down in the file; deeper than the record
    // limit would make a snapshot no reader can parse.
    crate::input::check_record_nesting(&bytes, 3)?;
    Ok(bytes)
}
