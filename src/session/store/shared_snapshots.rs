//! Snapshots a store keeps itself, shared by every machine that uses the
//! store (PostgreSQL), instead of in this machine's `snapshots.dir`.

use crate::error::Result;
use crate::session::model::snapshot::{Snapshot, SnapshotInfo};

/// The storage of snapshots inside a session store. Every write is
/// committed when it returns.
pub trait SharedSnapshots: Send + Sync {
    /// Stores `snapshot` of a live session and, when `max_count` is not 0,
    /// deletes that session's oldest snapshots beyond it, in one
    /// transaction that snapshot writers of the session take one at a
    /// time. Returns whether it was stored (`false`: a snapshot with its id
    /// is there already) and the ids deleted. [`crate::error::Error::NotFound`]
    /// when the session is not in the store.
    fn put_snapshot(&self, snapshot: &Snapshot, max_count: u64) -> Result<(bool, Vec<String>)>;
    /// A session's snapshots, newest first.
    fn snapshot_infos(&self, session_id: &str) -> Result<Vec<SnapshotInfo>>;
    /// Snapshot `id` (of `session` when given).
    fn snapshot(&self, id: &str, session: Option<&str>) -> Result<Snapshot>;
    /// Deletes snapshot `id` (of `session` when given).
    fn delete_snapshot(&self, id: &str, session: Option<&str>) -> Result<()>;
}
