//! `ollm-discover` (Requirement 6): ignore-aware project file listing with
//! git's exact ignore semantics, and a watch mode filtered by the same rules.

mod cache;
pub mod cli;
mod entry;
mod git_index;
mod listing;
mod options;
mod tracked;
mod walk;
mod watch;

pub use entry::{Entry, EntryType};
/// Every entry a discovery reports, sorted (what `ollm-mcp` lists).
pub use listing::{Stated, collect, collect_stated};
pub use options::{DEFAULT_OLLMIGNORE, Options, PathGlobs, TypeSet};
pub use walk::{enters, list_below, walk_dir};
pub use watch::{Event, EventKind, Stop, WatchOptions, watch};

use std::sync::atomic::{AtomicBool, Ordering};

static WARNED: AtomicBool = AtomicBool::new(false);

/// A warning about the tree (unreadable, a loop): printed, and remembered
/// so a listing that met one is not cached.
pub(crate) fn warn(message: impl std::fmt::Display) {
    WARNED.store(true, Ordering::Relaxed);
    crate::diag::warn(message);
}

pub(crate) fn warned() -> bool {
    WARNED.load(Ordering::Relaxed)
}
