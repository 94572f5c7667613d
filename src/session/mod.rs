//! `ollm-session`: durable, searchable, branchable session history with
//! snapshots (Requirements 1, 2, 9, 10.1–10.2; documents 003 and 004).
//!
//! # The format
//!
//! [`Session`] is the spec's JSON (Requirement 2): what `get` and `export`
//! print, and what a plain `<id>.json` written by another tool (the
//! TypeScript OLLM CLI) holds. Additive fields only: `title`,
//! `parentSessionId`, `branchPoint`, `metadata.compressionHistory`; unknown
//! fields of other writers are kept.
//!
//! # The layout on disk
//!
//! ```text
//! <dataDir>/                              services.session.dataDir ($OLLM_HOME/sessions, the OLLM CLI's)
//!   <sessionId>.json                      the OLLM CLI's format: one document, rewritten whole per record
//!   <sessionId>/journal.ndjson            our journal: a head line, then one record a line, appended
//!   <sessionId>/summary.json              list's cache: counts, lastActivity, journalBytes it covers (two checksummed slots)
//!   <sessionId>.corrupt/                  a journal a writer could not parse, set aside
//!   .trash-<sessionId>-…                  a session being deleted (finished by the next writer)
//!   .locks/<sessionId>.lock, .locks/store.lock
//! <snapshots.dir>/<sessionId>/snapshots/snapshot-<id>.json, snapshots-index.json
//! ```
//!
//! A session keeps the format it was created in (`services.session.format`
//! for new ones: `cli`, the default, or `journal`). The CLI's format is in
//! [`store::cli`]: every write re-reads the document under the session's
//! lock and rewrites it whole, as the CLI does. The journal format is in
//! `store::file::journal`. Recording into a journal appends one
//! line and fsyncs it (cost independent of the session's length); once the
//! journal has passed the summary by more than `SUMMARY_LAG` bytes, the
//! summary is rewritten in place, into the slot that does not hold the
//! current version (no fsync: it is a cache, checksummed, checked against
//! the journal's length and rebuilt from the journal when it does not
//! match). Creating a journal session writes its directory under a
//! temporary name, fsyncs it and renames it into place. A torn last line is
//! ignored by readers and cut off by the next writer; a bad line before
//! good ones is corruption: reads report it and change nothing, the next
//! writer moves the session aside. A CLI document that does not parse is
//! never moved: it is not ours.
//!
//! # The house
//!
//! [`model`] is at the bottom (the session, its records and [`model::rebuild`],
//! which every store that keeps records loads a session with); each store
//! is a folder of [`store`] behind [`store::api::SessionStore`]; [`query`]
//! is what a search is, whatever the store; snapshots ([`snapshot`]) and
//! the commands are on top and use [`Store`] only.
//!
//! Locks: a writer holds `.locks/<id>.lock` (snapshot create, restore and
//! delete too); creating (with `maxSessions`), importing, deleting and
//! cleanup hold `.locks/store.lock` first. Cleanup and `maxSessions` skip a
//! session whose lock is held. Readers (and `cleanup --dry-run`) take no
//! lock. Deleting renames every form of the session to a tombstone first
//! (the commit point), then removes its snapshots and the tombstone; the
//! next writer holding the store lock finishes a delete that was killed.
//! Every file goes through [`crate::fs`]: 0600/0700, no links followed.
//!
//! # For other programs
//!
//! ```no_run
//! use ollm::session::{Store, Snapshots, Entry, Message};
//! let config = ollm::config::load(&Default::default())?.config;
//! let store = Store::from_config(&config)?;
//! let id = store.last()?;
//! let messages: Vec<Message> = store.messages(&id)?;          // read a session's messages
//! let snapshot = Snapshots::from_config(&config)
//!     .create(&store, &id, None, Some("before compression".into()))?; // snapshot it
//! let mut details = serde_json::Map::new();
//! details.insert("strategy".into(), "hybrid".into());
//! let count = store.record_compression(&id, &details)?;      // compressionCount += 1, noted in history
//! # Ok::<(), ollm::Error>(())
//! ```
//!
//! - [`Store::messages`]: a session's messages, in order.
//! - [`Snapshots::create`]: snapshot a session (or a given message list, the
//!   active context) under `snapshots.dir` (in the database on a store
//!   that shares them), with rolling cleanup.
//! - [`Store::record_compression`]: increase `metadata.compressionCount` by
//!   exactly one and note the compression (time and details) in
//!   `metadata.compressionHistory`; the messages are never changed.
//! - `metadata.tokenCount` is an estimate ([`model::estimate_tokens`],
//!   ⌈characters ÷ 4⌉) unless the recorder passes a real count.

pub mod checkpointed;
pub mod cli;
pub(crate) mod copy;
pub mod export;
pub mod import;
pub mod ingest;

pub mod model;
pub(crate) mod option;
pub mod query;
#[cfg(test)]
mod redaction_work_tests;
pub mod rendered_hits;
pub(crate) mod secrets;
pub mod select;
pub(crate) mod snapshot;
pub mod store;
#[cfg(test)]
mod tests;

pub use model::{Entry, Message, Session, SessionSummary, ToolCall};
pub(crate) use option::SessionOption;
pub use select::{Selector, select};
pub use snapshot::Snapshots;
pub use store::{Created, Listing, NewSession, SessionStore, Store, StoreOptions};
