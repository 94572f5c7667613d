//! One import run: which sources to read ([`plan`]), then reading them on
//! every core and storing each session as it is read ([`run`]), reporting
//! each outcome to the caller as it happens.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError, mpsc};
use std::time::Duration;

use serde::Serialize;

use super::cursor::{Anchor, Tail};
use super::write::{Imported, SessionWriter, Status};
use super::{Homes, Part, Skipped, Source, TailRead, Tool};
use crate::error::{Error, Result};
use crate::session::Store;

/// What a run will read.
#[derive(Debug, Default)]
pub struct Plan {
    /// Every source found, each once, largest first.
    pub sources: Vec<Source>,
    /// The places looked in (the tools' default roots that exist, or the
    /// paths given).
    pub searched: Vec<PathBuf>,
    /// Paths given that hold nothing of the tools asked for.
    pub empty: Vec<PathBuf>,
    /// What to tell the user before reading: a database whose schema is
    /// newer than this version knows, symbolic links not followed (one
    /// line a place searched).
    pub warnings: Vec<String>,
    /// The sources that only grew since they were last read, by path: only
    /// their new lines are read, where the importer can.
    pub tails: HashMap<PathBuf, Tail>,
}

/// The sources of `tools` under `paths`, or under each tool's default
/// location when no path is given (a location that does not exist is
/// skipped). A path given that does not exist is an error.
pub fn plan(tools: &[Tool], paths: &[PathBuf], homes: &Homes) -> Result<Plan> {
    let mut plan = Plan::default();
    let mut seen = BTreeSet::new();
    let mut add = |plan: &mut Plan, found: Vec<Source>| {
        for source in found {
            if seen.insert(source.path.clone()) {
                plan.warnings.extend(source.tool.notice(&source));
                plan.sources.push(source);
            }
        }
    };
    if paths.is_empty() {
        for &tool in tools {
            for root in tool.default_roots(homes) {
                if root.exists() {
                    let found = tool.sources(&root)?;
                    add(&mut plan, found);
                    plan.searched.push(root);
                }
            }
        }
    } else {
        for path in paths {
            if std::fs::symlink_metadata(path).is_err() {
                return Err(Error::NotFound(format!(
                    "{}: no such file or directory",
                    path.display()
                )));
            }
            let before = plan.sources.len();
            for &tool in tools {
                let found = tool.sources(path)?;
                add(&mut plan, found);
            }
            if plan.sources.len() == before {
                plan.empty.push(path.clone());
            }
            plan.searched.push(path.clone());
        }
    }
    plan.searched.dedup();
    for place in &plan.searched {
        let links = super::links_not_followed(place, super::MAX_WALK_DEPTH);
        if let Some(first) = links.first() {
            plan.warnings.push(format!(
                "{}: {} symbolic link{} to a directory or to nothing not followed ({}{})",
                place.display(),
                links.len(),
                if links.len() == 1 { "" } else { "s" },
                first.display(),
                if links.len() > 1 { ", …" } else { "" }
            ));
        }
    }
    plan.sources.sort_by_key(|s| std::cmp::Reverse(s.bytes));
    Ok(plan)
}

/// What happened, as it happens.
#[derive(Debug)]
pub enum Event {
    /// A source session was imported, updated or found unchanged.
    Session(Imported),
    /// A source could not be read, or a session from it not stored; the
    /// rest of the run goes on.
    Failed(Failure),
    /// A source was read to its end (`bytes` of it); `stored` when every
    /// session in it was stored (its cursor may then move past it);
    /// `anchor`: where a later read of only what is appended can start
    /// ([`super::Importer::read_tail`]).
    SourceDone {
        path: PathBuf,
        bytes: u64,
        stored: bool,
        anchor: Option<Anchor>,
    },
}

/// A source (or one session of it) that could not be imported.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Failure {
    pub tool: Tool,
    pub source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_id: Option<String>,
    pub error: String,
}

/// The totals of a run (the last line of `import`).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub dry_run: bool,
    pub sources: u64,
    pub bytes: u64,
    pub sessions: u64,
    pub imported: u64,
    pub updated: u64,
    pub unchanged: u64,
    pub failed: u64,
    pub messages: u64,
    pub tool_calls: u64,
    /// Records written (or that would be, on a dry run).
    pub added: u64,
    pub skipped: Skipped,
}

impl Summary {
    /// Counts `event` in.
    pub fn count(&mut self, event: &Event) {
        match event {
            Event::Session(done) => {
                self.sessions += 1;
                match done.status {
                    Status::Imported | Status::WouldImport => self.imported += 1,
                    Status::Updated | Status::WouldUpdate => self.updated += 1,
                    Status::Unchanged => self.unchanged += 1,
                }
                self.messages += done.messages;
                self.tool_calls += done.tool_calls;
                self.added += done.added;
                self.skipped.add(&done.skipped);
            }
            Event::Failed(_) => self.failed += 1,
            Event::SourceDone { bytes, .. } => {
                self.sources += 1;
                self.bytes += bytes;
            }
        }
    }
}

/// Reads every source of `plan` (as many at once as there are cores) and
/// stores what each holds in `store`, a part of a session at a time, handing each [`Event`] to `report` on
/// the calling thread as it happens. Two sessions with the same source id
/// (a tool that left two files for one session) are stored one after the
/// other, never at once.
pub fn run(store: &Store, plan: &Plan, dry_run: bool, report: impl FnMut(Event)) {
    run_with(store, plan, dry_run, None, report);
}

/// [`run`] for a live import (`--watch`, `--hook`): a tool call still open
/// at the end of a session (no result yet, nothing said after it) is held
/// back while its source changed less than `settle` ago, and the source is
/// then not counted as stored, so that the next round reads it again.
/// Stored now, the call would stay as an interrupted one beside its
/// finished self (a stored record is never changed); a one-shot import of
/// the finished source has only the finished one.
pub fn run_live(store: &Store, plan: &Plan, settle: Duration, report: impl FnMut(Event)) {
    run_with(store, plan, false, Some(settle), report);
}

fn run_with(
    store: &Store,
    plan: &Plan,
    dry_run: bool,
    settle: Option<Duration>,
    mut report: impl FnMut(Event),
) {
    let threads = crate::threads::worker_threads().min(plan.sources.len().max(1));
    let next = AtomicUsize::new(0);
    let busy = Busy::default();
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, busy) = (&next, &busy);
            scope.spawn(move || {
                while let Some(source) = plan.sources.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let tail = plan.tails.get(&source.path);
                    read_one(store, source, tail, (dry_run, settle), busy, &tx);
                }
            });
        }
        drop(tx);
        for event in rx {
            report(event);
        }
    });
}

fn read_one(
    store: &Store,
    source: &Source,
    tail: Option<&Tail>,
    (dry_run, settle): (bool, Option<Duration>),
    busy: &Busy,
    tx: &mpsc::Sender<Event>,
) {
    let tool = source.tool;
    let fresh = settle.is_some_and(|settle| changed_within(&source.path, settle));
    let mut session = SessionParts::new(store, source, dry_run, fresh, busy, tx);
    let read = match tail {
        Some(tail) if !dry_run => {
            let tailed = tool.read_tail(source, tail, super::PART_ITEMS, &mut |part| {
                session.tail_part(part)
            });
            match tailed {
                // The whole file is read when its new lines need the
                // earlier ones, or its session is not in the store (deleted
                // since: a tail alone would make a session of its last lines).
                _ if session.not_stored && !session.written => {
                    session.not_stored = false;
                    tool.read_anchored(source, super::PART_ITEMS, &mut |part| session.part(part))
                }
                Ok(TailRead::Whole) => {
                    tool.read_anchored(source, super::PART_ITEMS, &mut |part| session.part(part))
                }
                Ok(TailRead::Read(anchor)) => Ok(anchor),
                Err(err) => Err(err),
            }
        }
        _ => tool.read_anchored(source, super::PART_ITEMS, &mut |part| session.part(part)),
    };
    let incomplete = session.incomplete;
    drop(session);
    let event = match read {
        Ok(anchor) => Event::SourceDone {
            path: source.path.clone(),
            bytes: source.bytes,
            stored: !incomplete,
            anchor,
        },
        Err(err) => Event::Failed(Failure {
            tool,
            source: display(&source.path),
            source_id: None,
            error: err.to_string(),
        }),
    };
    let _ = tx.send(event);
}

/// The sessions of one source as its parts arrive: each written by its
/// own [`SessionWriter`], one at a time.
struct SessionParts<'a> {
    store: &'a Store,
    tool: Tool,
    dry_run: bool,
    fresh: bool,
    busy: &'a Busy,
    tx: &'a mpsc::Sender<Event>,
    writing: Option<(SessionWriter<'a>, Held<'a>)>,
    failed: bool,
    /// A session not stored in full (a failure, a call held back).
    incomplete: bool,
    /// Whether any part was handed to a writer.
    written: bool,
    /// A tail read found its session not in the store.
    not_stored: bool,
}

impl<'a> SessionParts<'a> {
    fn new(
        store: &'a Store,
        source: &Source,
        dry_run: bool,
        fresh: bool,
        busy: &'a Busy,
        tx: &'a mpsc::Sender<Event>,
    ) -> SessionParts<'a> {
        SessionParts {
            store,
            tool: source.tool,
            dry_run,
            fresh,
            busy,
            tx,
            writing: None,
            failed: false,
            incomplete: false,
            written: false,
            not_stored: false,
        }
    }

    /// A part of a tail read: only added to a session already stored (a
    /// tail alone would make a session of its last lines).
    fn tail_part(&mut self, part: Part) -> Result<()> {
        if part.first {
            let id = super::session_id_for(self.tool, &part.transcript.source_id);
            if !matches!(self.store.exists(&id), Ok(())) {
                self.not_stored = true;
            }
        }
        if self.not_stored {
            return Err(Error::NotFound("the session is not in the store".into()));
        }
        self.write(part, true)
    }

    fn part(&mut self, part: Part) -> Result<()> {
        self.write(part, false)
    }

    /// Writes `part`; a part of a tail read reports the whole session's
    /// messages and tool calls (the stored ones), not only the new lines'.
    fn write(&mut self, mut part: Part, tail: bool) -> Result<()> {
        self.written = true;
        if self.fresh && part.last && hold_open_tail(&mut part.transcript.items) > 0 {
            self.incomplete = true;
        }
        if part.first {
            let id = super::session_id_for(self.tool, &part.transcript.source_id);
            drop(self.writing.take());
            self.writing = Some((
                SessionWriter::new(self.store, self.tool, self.dry_run),
                self.busy.hold(id),
            ));
            self.failed = false;
        }
        let (last, source_name, source_id) = (
            part.last,
            part.transcript.source.clone(),
            super::bounds::id(&part.transcript.source_id).into_owned(),
        );
        let written = match (&mut self.writing, self.failed) {
            (Some((writer, _)), false) => writer.part(part),
            _ => Ok(None),
        };
        let event = match written {
            Ok(Some(mut done)) => {
                if tail && let Ok(stored) = self.store.summary(&done.session_id) {
                    done.messages = stored.message_count;
                    done.tool_calls = stored.tool_call_count;
                }
                Some(Event::Session(done))
            }
            Ok(None) => None,
            Err(err @ Error::BrokenPipe) => return Err(err),
            Err(err) => {
                self.failed = true;
                self.incomplete = true;
                Some(Event::Failed(Failure {
                    tool: self.tool,
                    source: source_name,
                    source_id: Some(source_id),
                    error: err.to_string(),
                }))
            }
        };
        if last {
            drop(self.writing.take());
        }
        if let Some(event) = event {
            let _ = self.tx.send(event);
        }
        Ok(())
    }
}

/// The sessions being written: two sources holding one session (a tool
/// that left two files for it) write it one after the other.
#[derive(Default)]
struct Busy {
    ids: Mutex<HashSet<String>>,
    freed: Condvar,
}

/// A session held in [`Busy`] until dropped.
struct Held<'b> {
    busy: &'b Busy,
    id: String,
}

impl Busy {
    fn hold(&self, id: String) -> Held<'_> {
        let mut ids = self.ids.lock().unwrap_or_else(PoisonError::into_inner);
        while ids.contains(&id) {
            ids = self.freed.wait(ids).unwrap_or_else(PoisonError::into_inner);
        }
        ids.insert(id.clone());
        Held { busy: self, id }
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        let mut ids = self.busy.ids.lock().unwrap_or_else(PoisonError::into_inner);
        ids.remove(&self.id);
        self.busy.freed.notify_all();
    }
}

/// Whether `path` (a database: or its log) was written less than `settle`
/// ago.
fn changed_within(path: &Path, settle: Duration) -> bool {
    let recent = |path: &Path| {
        std::fs::metadata(path)
            .and_then(|meta| meta.modified())
            .ok()
            .and_then(|at| at.elapsed().ok())
            .is_some_and(|age| age < settle)
    };
    recent(path) || recent(&super::cursor::wal_of(path))
}

/// Takes off the end of `items` the tool calls from the first one still
/// open (no result yet: running, pending, or cut off) that no message
/// follows; how many. A finished call after an open one waits with it
/// (calls made in parallel end in any order): the calls are then stored
/// in the order they were made, as a one-shot import stores them, not
/// in the order they finished.
pub(crate) fn hold_open_tail(items: &mut Vec<super::Item>) -> usize {
    let last_message = items
        .iter()
        .rposition(|item| matches!(item.body, super::Body::Message { .. }))
        .map_or(0, |at| at + 1);
    let before = items.len();
    if let Some(open) = items[last_message..].iter().position(is_open) {
        items.truncate(last_message + open);
    }
    before - items.len()
}

fn is_open(item: &super::Item) -> bool {
    matches!(
        &item.body,
        super::Body::ToolCall(super::Call {
            outcome: super::Outcome::NoResult("interrupted" | "running" | "pending"),
            ..
        })
    )
}

fn display(path: &Path) -> String {
    path.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::super::{Body, Call, Item, Outcome, Role};
    use super::*;

    fn message(key: &str) -> Item {
        Item {
            key: key.into(),
            timestamp: None,
            body: Body::Message {
                role: Role::Assistant,
                text: key.into(),
                images: Vec::new(),
            },
        }
    }

    fn call(key: &str, outcome: Outcome) -> Item {
        Item {
            key: key.into(),
            timestamp: None,
            body: Body::ToolCall(Call {
                call_id: key.into(),
                name: "Bash".into(),
                args: serde_json::Value::Null,
                outcome,
            }),
        }
    }

    #[test]
    fn the_calls_from_the_first_still_open_after_the_last_message_are_held_back() {
        let mut items = vec![
            call("early", Outcome::NoResult("interrupted")),
            message("m"),
            call("done", Outcome::Done("ok".into())),
            call("open", Outcome::NoResult("interrupted")),
            // Made after the open one, finished first: it waits with it.
            call("parallel", Outcome::Done("ok".into())),
            call("provider", Outcome::NoResult("noOutputRecorded")),
        ];
        assert_eq!(hold_open_tail(&mut items), 3);
        let keys: Vec<&str> = items.iter().map(|i| i.key.as_str()).collect();
        assert_eq!(keys, ["early", "m", "done"]);
        let mut none = vec![message("m"), call("done", Outcome::Done("ok".into()))];
        assert_eq!(hold_open_tail(&mut none), 0);
    }
}
