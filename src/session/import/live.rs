//! Importing as sources change (`import --watch`, `import --hook`): the
//! store's cursors ([`super::cursor`]) pick the sources that changed since
//! they were last read in full, the batch reads those, and each source's
//! cursor moves once every session in it is stored. A one-shot `import`
//! reads everything and keeps the cursors too, so a watcher started after
//! it does not read it all again.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::batch::{self, Event, Plan};
use super::cursor::{self, Cursor, Cursors, Tail};
use super::{Source, Tool};
use crate::error::{Error, Result};
use crate::fs::lock::Lock;
use crate::session::Store;
use crate::session::store::SessionLock;

/// The directory a store's import state (its locks and cursors) is kept
/// in: the store's own directory, or for a database its snapshots'.
pub fn state_dir(store: &Store) -> Option<PathBuf> {
    store
        .local_dir()
        .or(store.options().snapshots_dir.as_deref())
        .map(Path::to_path_buf)
}

/// The cursors of `store`; `None` for a store with no directory (its
/// imports then read every source in full, idempotently).
pub fn cursors_of(store: &Store) -> Option<Cursors> {
    state_dir(store).map(|dir| Cursors::at(dir.join(".import").join("cursors")))
}

/// The locks an import holds while it writes: one import at a time into
/// a store (a session too large for one part is written in several, and
/// two imports would both add its later parts).
pub struct ImportLocks {
    _file: Option<Lock>,
    _store: Option<SessionLock>,
}

/// How long to wait for another import to finish.
#[derive(Debug, Clone, Copy)]
pub enum Wait {
    Forever,
    AtMost(Duration),
}

impl ImportLocks {
    /// Takes the store's import locks, waiting as `wait` says; an
    /// [`Error::Io`] saying the store is busy when the time is up.
    pub fn take(store: &Store, wait: Wait) -> Result<ImportLocks> {
        let file = match state_dir(store) {
            Some(dir) => {
                let locks = dir.join(".locks");
                crate::fs::create_private_dir_all(&locks)?;
                let path = locks.join("import.lock");
                Some(match wait {
                    Wait::Forever => Lock::exclusive(&path)?,
                    Wait::AtMost(limit) => wait_for(&path, limit)?,
                })
            }
            None => None,
        };
        Ok(ImportLocks {
            _file: file,
            _store: store.import_lock()?,
        })
    }
}

fn wait_for(path: &Path, limit: Duration) -> Result<Lock> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(lock) = Lock::try_exclusive(path)? {
            return Ok(lock);
        }
        if Instant::now() >= deadline {
            return Err(Error::Io {
                path: path.to_path_buf(),
                message: format!(
                    "another import has held the store for over {} s",
                    limit.as_secs()
                ),
            });
        }
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// The cursors each source of a run will have once it is read, by path.
#[derive(Debug, Default)]
pub struct Pending(HashMap<PathBuf, Cursor>);

/// Checks each of `sources` against its cursor: keeps those that changed
/// (all of them when `all`, as a one-shot import reads everything), with
/// the cursors they will have once read, and the reads of only what was
/// appended (unless `all`). A source that vanished meanwhile is left out
/// when only the changed are read.
pub fn select(
    cursors: &Cursors,
    sources: Vec<Source>,
    all: bool,
) -> (Vec<Source>, Pending, HashMap<PathBuf, Tail>) {
    let mut pending = Pending::default();
    let mut tails = HashMap::new();
    let mut kept = Vec::with_capacity(sources.len());
    for source in sources {
        let old = cursors.load(&source.path);
        match cursor::check(old.as_ref(), &source.path) {
            Ok((change, now)) => {
                if !all && let Some(tail) = change.tail(old.as_ref(), &now) {
                    tails.insert(source.path.clone(), tail);
                }
                if all || change.to_read() {
                    pending.0.insert(source.path.clone(), now);
                    kept.push(source);
                }
            }
            Err(_) if all => kept.push(source),
            Err(_) => {}
        }
    }
    (kept, pending, tails)
}

/// Reads the sources of `plan` that changed since their cursors (each, when
/// `all`), storing what they hold and moving each cursor once its source
/// is stored; hands every [`Event`] to `report`. Without cursors every
/// source is read.
pub fn import(
    store: &Store,
    cursors: Option<&Cursors>,
    mut plan: Plan,
    all: bool,
    mut report: impl FnMut(Event),
) {
    let mut pending = Pending::default();
    if let Some(cursors) = cursors {
        let sources = std::mem::take(&mut plan.sources);
        (plan.sources, pending, plan.tails) = select(cursors, sources, all);
    }
    let on_event = |event: Event| {
        if let (
            Event::SourceDone {
                path,
                stored: true,
                anchor,
                ..
            },
            Some(cursors),
        ) = (&event, cursors)
            && let Some(mut cursor) = pending.0.remove(path)
        {
            cursor.anchor.clone_from(anchor);
            // What an importer carries in the anchor was read from the
            // source (a Codex session's cwd, title, model): kept as
            // redacted as the session it went into. A later read resumed
            // from it stores the same, redaction being idempotent.
            if let Some(state) = cursor.anchor.as_mut().and_then(|a| a.state.as_mut()) {
                store.redact_json(state);
            }
            // A cursor not kept costs the next run a full, idempotent read.
            let _ = cursors.save(&cursor);
        }
        report(event);
    };
    if all {
        batch::run(store, &plan, false, on_event);
    } else {
        batch::run_live(store, &plan, SETTLE, on_event);
    }
}

/// How long a live import waits for the result of a tool call still open
/// at the end of a session before it stores the call as it is
/// ([`batch::run_live`]).
pub const SETTLE: Duration = Duration::from_secs(30);

/// The plan of reading `paths` (files or directories) as `tools`' sources,
/// without failing on a path gone meanwhile: a live import sees files come
/// and go.
pub fn plan_of(tools: &[Tool], paths: &[PathBuf]) -> Plan {
    let mut plan = Plan::default();
    for path in paths {
        if let Ok(found) = batch::plan(tools, std::slice::from_ref(path), &super::Homes::default())
        {
            plan.sources.extend(found.sources);
            plan.warnings.extend(found.warnings);
        }
    }
    plan.sources.sort_by(|a, b| a.path.cmp(&b.path));
    plan.sources.dedup_by(|a, b| a.path == b.path);
    plan
}
