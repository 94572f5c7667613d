//! `ollm-context`: prioritized context entries for the system prompt
//! (Requirement 5, Properties 18–21), kept in a JSON store that hooks and
//! the user change concurrently under a lock.

pub mod cli;
pub mod entry;
pub mod file;
pub mod ops;
pub mod store;
pub(crate) mod written;

pub use entry::{Entry, Source, parse_ttl};
pub use store::{NewEntry, Store, render_prompt};
