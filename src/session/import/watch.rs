//! `import --watch`: the tools' directories watched (inotify through
//! `notify`, one descriptor however many files; no source is held open),
//! and what changes imported as it is written.
//!
//! A round starts with a burst of notifications, once they have been
//! quiet for the debounce time, or every reconcile interval, when every
//! watched directory is walked again: a notification lost (an unwatched
//! file, a full queue) costs seconds, never a session. The interval grows
//! with the files watched (3 s, or 2 ms a file up to 30 s), so the walks
//! of an idle watcher cost a bounded share of a core. A file is looked at
//! only when its stat (size, times, inode, and a database's write-ahead
//! log's) differs from the one seen last; it is then read only if its
//! cursor says its content changed ([`super::live`]). The first round, a
//! walk of everything, is the catch-up from the cursors. A database's
//! `-wal`, `-shm` or `-journal` file stands for the database.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use notify::event::{AccessKind, AccessMode};
use notify::{EventKind, RecursiveMode, Watcher};

use super::batch::Event;
use super::cursor::{Cursors, Stat, is_lines, wal_of};
use super::live::{self, ImportLocks, Wait};
use super::{MAX_WALK_DEPTH, Tool, files_under};
use crate::error::{Error, Result};
use crate::session::Store;
use crate::stop::Stop;

/// How a watch runs.
#[derive(Debug, Clone)]
pub struct WatchOptions {
    /// Quiet time before a burst of notifications is acted on.
    pub debounce: Duration,
    /// How often every watched directory is walked again, at least; with
    /// many files, `per_file` for each (at most `max_reconcile`), so an
    /// idle watcher's walks cost about the same share of a core however
    /// many files there are.
    pub reconcile: Duration,
    pub per_file: Duration,
    pub max_reconcile: Duration,
    /// How long a round waits for a one-shot import or a hook holding the
    /// store before it tries again next round.
    pub busy_wait: Duration,
}

impl Default for WatchOptions {
    fn default() -> WatchOptions {
        WatchOptions {
            debounce: Duration::from_millis(100),
            reconcile: Duration::from_secs(3),
            per_file: Duration::from_millis(2),
            max_reconcile: Duration::from_secs(30),
            busy_wait: Duration::from_secs(10),
        }
    }
}

/// What a watch tells its caller.
#[derive(Debug)]
pub enum Report {
    /// What an import of a round did.
    Import(Box<Event>),
    /// A round ended: `files` files are watched in `dirs` places.
    Round { files: usize, dirs: usize },
    /// Something to warn about (a store busy past the wait, a directory
    /// that cannot be watched); the watch goes on.
    Warning(String),
}

enum Msg {
    Fs(notify::Result<notify::Event>),
    Stop(Stop),
}

/// Where a file stood when it was last looked at.
type Seen = (Stat, Option<Stat>);

struct Watch<'s> {
    store: &'s Store,
    cursors: Option<Cursors>,
    tools: Vec<Tool>,
    roots: Box<dyn Fn() -> Vec<PathBuf> + 's>,
    opts: WatchOptions,
    /// Each file's stat when last looked at, and the walk that last saw it.
    seen: HashMap<PathBuf, (Seen, u64)>,
    walks: u64,
    watched: HashSet<PathBuf>,
}

/// Watches the places `roots` returns (asked again every reconcile, so a
/// tool's directory made later is found) for `tools`' sources, importing
/// into `store` what changes, until stopped; hands every [`Report`] to
/// `report`.
pub fn watch<'s>(
    store: &'s Store,
    tools: Vec<Tool>,
    roots: impl Fn() -> Vec<PathBuf> + 's,
    opts: WatchOptions,
    report: &mut dyn FnMut(Report),
) -> Result<Stop> {
    let (tx, rx) = mpsc::channel::<Msg>();
    let fs_tx = tx.clone();
    let mut watcher = notify::recommended_watcher(move |event| {
        let _ = fs_tx.send(Msg::Fs(event));
    })
    .map_err(|e| Error::Io {
        path: PathBuf::from("inotify"),
        message: format!("cannot watch: {e}"),
    })?;
    crate::stop::on_stop(move |stop| {
        let _ = tx.send(Msg::Stop(stop));
    })?;
    let mut this = Watch {
        store,
        cursors: live::cursors_of(store),
        tools,
        roots: Box::new(roots),
        opts,
        seen: HashMap::new(),
        walks: 0,
        watched: HashSet::new(),
    };
    this.run(&mut watcher, &rx, report)
}

impl Watch<'_> {
    fn run(
        &mut self,
        watcher: &mut dyn Watcher,
        rx: &Receiver<Msg>,
        report: &mut dyn FnMut(Report),
    ) -> Result<Stop> {
        let mut next_walk = Instant::now();
        loop {
            let now = Instant::now();
            if now >= next_walk {
                self.watch_roots(watcher, report);
                let files = self.walk();
                self.round(files, true, report);
                next_walk = Instant::now() + self.interval();
                continue;
            }
            match rx.recv_timeout(next_walk - now) {
                Ok(Msg::Stop(stop)) => return Ok(stop),
                Ok(Msg::Fs(event)) => {
                    let mut touched = HashSet::new();
                    add_paths(&mut touched, event);
                    if let Some(stop) = self.debounce(rx, &mut touched) {
                        return Ok(stop);
                    }
                    let files = self.files_of(touched);
                    self.round(files, false, report);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Ok(Stop::StdinClosed),
            }
        }
    }

    /// The time until the next walk.
    fn interval(&self) -> Duration {
        let files = u32::try_from(self.seen.len()).unwrap_or(u32::MAX);
        (self.opts.per_file * files).clamp(
            self.opts.reconcile,
            self.opts.max_reconcile.max(self.opts.reconcile),
        )
    }

    /// Collects notifications until none came for the debounce time (at
    /// most ten times that in all, so a file written without pause is
    /// still imported as it grows).
    fn debounce(&self, rx: &Receiver<Msg>, touched: &mut HashSet<PathBuf>) -> Option<Stop> {
        let limit = Instant::now() + self.opts.debounce * 10;
        while Instant::now() < limit {
            match rx.recv_timeout(self.opts.debounce) {
                Ok(Msg::Stop(stop)) => return Some(stop),
                Ok(Msg::Fs(event)) => add_paths(touched, event),
                Err(_) => break,
            }
        }
        None
    }

    /// Watches each root not watched yet (a file given: its directory).
    fn watch_roots(&mut self, watcher: &mut dyn Watcher, report: &mut dyn FnMut(Report)) {
        for root in (self.roots)() {
            let (dir, mode) = if root.is_file() {
                let parent = root.parent().unwrap_or(Path::new(".")).to_path_buf();
                (parent, RecursiveMode::NonRecursive)
            } else {
                (root, RecursiveMode::Recursive)
            };
            if !dir.is_dir() || self.watched.contains(&dir) {
                continue;
            }
            match watcher.watch(&dir, mode) {
                Ok(()) => {
                    self.watched.insert(dir);
                }
                Err(err) => report(Report::Warning(format!(
                    "{}: cannot watch ({err}); it is walked every {} s instead",
                    dir.display(),
                    self.opts.reconcile.as_secs()
                ))),
            }
        }
    }

    /// Every file under the roots.
    fn walk(&self) -> Vec<PathBuf> {
        let mut files = Vec::new();
        for root in (self.roots)() {
            if root.is_file() {
                files.push(root);
            } else if let Ok(found) = files_under(&root, MAX_WALK_DEPTH) {
                files.extend(found);
            }
        }
        files
    }

    /// The files a burst of notifications names: a database's companion
    /// files as the database, a directory as the files under it.
    fn files_of(&self, touched: HashSet<PathBuf>) -> Vec<PathBuf> {
        let mut files = Vec::new();
        for path in touched {
            let path = database_of(&path).unwrap_or(path);
            if path.is_dir() {
                files.extend(files_under(&path, MAX_WALK_DEPTH).unwrap_or_default());
            } else {
                files.push(path);
            }
        }
        files
    }

    /// Imports what changed among `files`; when `all`, `files` is every
    /// file there is, and one seen before but not now was deleted.
    fn round(&mut self, files: Vec<PathBuf>, all: bool, report: &mut dyn FnMut(Report)) {
        if all {
            self.walks += 1;
        }
        let walk = self.walks;
        let mut changed = Vec::new();
        for file in files {
            if database_of(&file).is_some() {
                continue;
            }
            let Some(stat) = Stat::at(&file) else {
                self.forget(&file);
                continue;
            };
            let wal = if is_lines(&file) {
                None
            } else {
                Stat::at(&wal_of(&file))
            };
            match self.seen.get_mut(&file) {
                Some((seen, at)) if *seen == (stat, wal) => *at = walk,
                _ => {
                    self.seen.insert(file.clone(), ((stat, wal), walk));
                    changed.push(file);
                }
            }
        }
        if all {
            let gone: Vec<PathBuf> = self
                .seen
                .iter()
                .filter(|(_, (_, at))| *at != walk)
                .map(|(path, _)| path.clone())
                .collect();
            for path in gone {
                self.forget(&path);
            }
        }
        if !changed.is_empty() {
            self.import(&changed, report);
        }
        report(Report::Round {
            files: self.seen.len(),
            dirs: self.watched.len(),
        });
    }

    fn import(&mut self, files: &[PathBuf], report: &mut dyn FnMut(Report)) {
        let plan = live::plan_of(&self.tools, files);
        if plan.sources.is_empty() {
            return;
        }
        let _locks = match ImportLocks::take(self.store, Wait::AtMost(self.opts.busy_wait)) {
            Ok(locks) => locks,
            Err(err) => {
                // Looked at again next round.
                for file in files {
                    self.seen.remove(file);
                }
                report(Report::Warning(err.to_string()));
                return;
            }
        };
        let mut again = Vec::new();
        live::import(self.store, self.cursors.as_ref(), plan, false, |event| {
            if let Event::SourceDone {
                path,
                stored: false,
                ..
            } = &event
            {
                again.push(path.clone());
            }
            report(Report::Import(Box::new(event)));
        });
        // Read again next round: a call was still open at its end.
        for path in again {
            self.seen.remove(&path);
        }
    }

    /// A file deleted: its sessions stay in the store (an import never
    /// deletes), its cursor goes.
    fn forget(&mut self, path: &Path) {
        self.seen.remove(path);
        if let Some(cursors) = &self.cursors {
            cursors.forget(path);
        }
    }
}

fn add_paths(touched: &mut HashSet<PathBuf>, event: notify::Result<notify::Event>) {
    if let Ok(event) = event
        && writes(event.kind)
    {
        touched.extend(event.paths);
    }
}

/// Whether a notification can mean new content: not a file or directory
/// opened, read or closed unwritten (the watcher's own walks and reads
/// raise those, and acting on them would walk again, without end).
fn writes(kind: EventKind) -> bool {
    !matches!(kind, EventKind::Access(access) if access != AccessKind::Close(AccessMode::Write))
}

/// The database `path` is a companion file of (`x.db-wal` → `x.db`).
fn database_of(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_str()?;
    ["-wal", "-shm", "-journal"]
        .iter()
        .find_map(|suffix| name.strip_suffix(suffix))
        .filter(|db| !db.is_empty())
        .map(|db| path.with_file_name(db))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_opened_or_read_is_no_change_and_one_written_is() {
        use notify::event::{CreateKind, ModifyKind};
        assert!(!writes(EventKind::Access(AccessKind::Open(
            AccessMode::Any
        ))));
        assert!(!writes(EventKind::Access(AccessKind::Close(
            AccessMode::Read
        ))));
        assert!(!writes(EventKind::Access(AccessKind::Read)));
        assert!(writes(EventKind::Access(AccessKind::Close(
            AccessMode::Write
        ))));
        assert!(writes(EventKind::Modify(ModifyKind::Any)));
        assert!(writes(EventKind::Create(CreateKind::File)));
    }

    #[test]
    fn a_databases_companion_files_stand_for_it() {
        assert_eq!(
            database_of(Path::new("/d/opencode.db-wal")),
            Some(PathBuf::from("/d/opencode.db"))
        );
        assert_eq!(
            database_of(Path::new("/d/sessions.db-shm")),
            Some(PathBuf::from("/d/sessions.db"))
        );
        assert_eq!(database_of(Path::new("/d/a.jsonl")), None);
        assert_eq!(database_of(Path::new("/d/-wal")), None);
    }
}
