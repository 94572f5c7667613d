//! `ollm-checkpoint`: per-turn snapshots of the files a session's agent may
//! change, kept in a store of their own under `$OLLM_HOME` (never in the
//! work tree, never in git), their diffs, and a three-way restore to a turn
//! that never deletes what the session did not create.
//!
//! Bottom up: [`tree`] (what one snapshot saw), [`store`] (objects, paths,
//! the lock), [`dirtree`] (a tree stored as an object per directory), [`manifest`] (one file per turn, written last), [`disk`] (the
//! stat cache), [`state`] (what a session's last snapshot left for the
//! next: its tree, stat cache and directory hashes, in one file), [`snapshot`] (with [`watcher`], the optional inotify
//! process that says what changed, and [`incremental`], what a snapshot
//! then re-reads), [`plan`] and [`apply`] (a restore's decision
//! and its crash-safe execution), [`restore`], [`diff`], [`gc`]; and
//! [`sessions`], what a snapshot asks of the session store.

mod apply;
pub mod cli;
mod diff;
mod dirtree;
mod disk;
mod fileset;
mod gc;
mod incremental;
mod manifest;
mod plan;
mod restore;
mod sessions;
mod snapshot;
mod state;
mod store;
mod tree;
pub(crate) mod watcher;

use std::path::Path;

use crate::config::Config;
use crate::error::Result;

pub(crate) use restore::Restored;
pub use sessions::Sessions;
pub use store::remove_session;

/// A work tree as the store keys it (absolute, links resolved).
pub(crate) fn snapshot_root(dir: &Path) -> Result<std::path::PathBuf> {
    snapshot::work_tree(dir)
}

/// The paths inside `root` that the session's recorded tool calls named
/// (relative, as the file set keys them): a snapshot covers them even if
/// ignored.
fn named_by_tool_calls(
    sessions: &dyn Sessions,
    config: &Config,
    session: &str,
    root: &Path,
) -> Result<Vec<Vec<u8>>> {
    let args = sessions.tool_call_args(config, session)?;
    Ok(sessions::relative_to(root, &sessions::named_in(&args)))
}

/// Takes a snapshot of `dir` for `session` as a turn of its own (what
/// `ollm env run --checkpoint` does around a tool). `observed`: the
/// changes since the session's last snapshot may be someone else's (taken
/// before the tool ran), so a restore never deletes a file that first
/// appears in it. Returns the turn.
pub fn snapshot_around_tool(
    config: &Config,
    sessions: &dyn Sessions,
    session: &str,
    dir: &Path,
    observed: bool,
) -> Result<u64> {
    crate::paths::check_id(session, "session")?;
    let root = snapshot::work_tree(dir)?;
    let extra = named_by_tool_calls(sessions, config, session, &root)?;
    let store = store::Store::configured(config);
    let _held = store.lock()?;
    let limits = snapshot::Limits::from_config(config, false);
    restore::finish_unfinished(&store, config, &root, limits)?;
    let origin = if observed {
        manifest::Origin::Observed
    } else {
        manifest::Origin::Turn
    };
    let request = snapshot::Request {
        session,
        root: &root,
        turn: None,
        origin,
        limits,
        extra,
    };
    let (taken, _) = snapshot::take(&store, config, request)?;
    gc::after_snapshot(&store, config, session, taken.bytes_stored)?;
    Ok(taken.turn)
}

/// Restores a session's files to a turn: what `ollm session rewind
/// --code` does.
pub(crate) fn restore_turn(
    config: &Config,
    session: &str,
    turn: u64,
    force: bool,
    dry_run: bool,
) -> Result<Restored> {
    crate::paths::check_id(session, "session")?;
    let store = store::Store::configured(config);
    let _held = store.lock()?;
    let opts = restore::Options {
        session,
        turn,
        force,
        dry_run,
        limits: snapshot::Limits::from_config(config, false),
    };
    restore::restore(&store, config, &opts)
}
