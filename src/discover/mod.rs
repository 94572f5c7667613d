//! `ollm-discover` (Requirement 6): ignore-aware project file listing with
//! git's exact ignore semantics, and a watch mode filtered by the same rules.

pub mod cli;
mod entry;
mod git_index;
mod options;
mod output;
mod tracked;
mod walk;
mod watch;

pub use entry::{Entry, EntryType};
pub use options::{DEFAULT_OLLMIGNORE, Options, PathGlobs, TypeSet};
pub use walk::{discover, discover_all, walk_dir};
pub use watch::{Event, EventKind, Stop, WatchOptions, watch};
