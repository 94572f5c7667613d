//! Watch mode: inotify (through `notify`) on every directory the listing
//! enters, never on ignored ones; raw notifications are collected until the
//! tree has been quiet for the debounce time, then each touched directory
//! is reconciled with the index (see `tracker`).

mod tracker;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use notify::{EventKind as RawKind, RecursiveMode, Watcher};

use tracker::{Changes, Dirs, Tracker};
pub use tracker::{Event, EventKind};

use super::entry::EntryType;
use super::options::{DEFAULT_OLLMIGNORE, Options};
use crate::diag;
use crate::error::{Error, Result};

#[derive(Debug, Clone)]
pub struct WatchOptions {
    /// Quiet time before a burst of notifications is reported.
    pub debounce: Duration,
    /// Print a `ready` event once the watch is in place.
    pub ready: bool,
}

/// How a watch ended.
pub use crate::stop::Stop;

enum Msg {
    Fs(notify::Result<notify::Event>),
    Stop(Stop),
}

/// The advice printed when the kernel's watch limit is reached.
pub const WATCH_LIMIT_ADVICE: &str = "the system's inotify watch limit (fs.inotify.max_user_watches) is reached; changes in some directories will not be reported. Raise it with `sudo sysctl fs.inotify.max_user_watches=524288` (and add that line to /etc/sysctl.d/90-inotify.conf to keep it)";

/// Watches the tree below the root and prints events until stopped.
pub fn watch(opts: Arc<Options>, wopts: &WatchOptions) -> Result<Stop> {
    let (tx, rx) = mpsc::channel::<Msg>();
    let fs_tx = tx.clone();
    let mut watcher = notify::recommended_watcher(move |event| {
        let _ = fs_tx.send(Msg::Fs(event));
    })
    .map_err(|e| watch_error(&opts.root, e))?;
    let stop_tx = tx.clone();
    crate::stop::on_stop(move |stop| {
        let _ = stop_tx.send(Msg::Stop(stop));
    })?;

    let mut session = Session {
        opts: Arc::clone(&opts),
        limit_warned: false,
        root_id: dir_id(&opts.root),
        _root_held: std::fs::File::open(&opts.root).ok(),
    };
    session.root_watched(&mut watcher)?;
    let mut tracker = Tracker::new(Arc::clone(&opts), &mut session.dirs(&mut watcher));
    if wopts.ready {
        let ready = Event::new(
            EventKind::Ready,
            &opts.root,
            Path::new(""),
            EntryType::Directory,
        );
        crate::output::print_json_line(&ready)?;
    }
    session.run(&mut watcher, &mut tracker, &rx, wopts.debounce)
}

struct Session {
    opts: Arc<Options>,
    limit_warned: bool,
    /// The root's device and inode when the watch began: a root removed,
    /// moved away or replaced by another directory ends the watch.
    root_id: Option<(u64, u64)>,
    /// Held open so the root's inode cannot be reused by a directory made
    /// at its path after it is removed (which then compares as the same).
    _root_held: Option<std::fs::File>,
}

const ROOT_CHECK: Duration = Duration::from_secs(1);

/// Whether an event on the root itself says the root is gone: removed, or
/// moved away (a new directory at the same path may even reuse the inode).
fn root_went(kind: &RawKind) -> bool {
    matches!(
        kind,
        RawKind::Remove(_) | RawKind::Modify(notify::event::ModifyKind::Name(_))
    )
}

fn dir_id(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path).ok()?;
    meta.is_dir().then(|| (meta.dev(), meta.ino()))
}

/// Touched directories waiting for the debounce time to pass.
#[derive(Default)]
struct Pending {
    /// Directories (below the root) whose own entries changed.
    shallow: BTreeSet<PathBuf>,
    /// Directories whose ignore file changed: their subtree is re-listed.
    deep: BTreeSet<PathBuf>,
    rescan: bool,
    first: Option<Instant>,
    last: Option<Instant>,
}

impl Session {
    fn run(
        &mut self,
        watcher: &mut impl Watcher,
        tracker: &mut Tracker,
        rx: &Receiver<Msg>,
        debounce: Duration,
    ) -> Result<Stop> {
        let mut pending = Pending::default();
        // A steady stream of writes still gets reported at this interval.
        let max_wait = (debounce * 10).max(Duration::from_secs(1));
        loop {
            let timeout = match (pending.first, pending.last) {
                (Some(first), Some(last)) => {
                    let due = (last + debounce).min(first + max_wait);
                    due.saturating_duration_since(Instant::now())
                }
                // The root's own removal sends no event while a process
                // (this one) has it open: look at it every second.
                _ => ROOT_CHECK,
            };
            match rx.recv_timeout(timeout) {
                Ok(Msg::Stop(stop)) => {
                    // Report what happened before the stop, then end.
                    if pending.first.is_some() {
                        self.flush(watcher, tracker, std::mem::take(&mut pending))?;
                    }
                    return Ok(stop);
                }
                Ok(Msg::Fs(Ok(event))) => {
                    self.note(&event, &mut pending);
                    let on_root = event.paths.iter().any(|p| p == &self.opts.root);
                    if (on_root && root_went(&event.kind)) || self.root_changed() {
                        return self.root_gone();
                    }
                }
                Ok(Msg::Fs(Err(err))) => self.warn_watch_error(err),
                Err(RecvTimeoutError::Timeout) => {
                    if self.root_changed() {
                        return self.root_gone();
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Error::Io {
                        path: self.opts.root.clone(),
                        message: "the file watcher stopped".into(),
                    });
                }
            }
            let due = match (pending.first, pending.last) {
                (Some(first), Some(last)) => {
                    let now = Instant::now();
                    now >= last + debounce || now >= first + max_wait
                }
                _ => false,
            };
            if due {
                let batch = std::mem::take(&mut pending);
                self.flush(watcher, tracker, batch)?;
            }
        }
    }

    /// Whether the root's path no longer names the directory being watched.
    fn root_changed(&self) -> bool {
        dir_id(&self.opts.root) != self.root_id
    }

    /// Reports the root itself as unlinked (what was below it went with
    /// it; a directory made at its path since is not the one watched) and
    /// ends the watch with an error: going on would mean going silent.
    fn root_gone(&mut self) -> Result<Stop> {
        let gone = Event::new(
            EventKind::Unlink,
            &self.opts.root,
            Path::new(""),
            EntryType::Directory,
        );
        crate::output::print_json_line(&gone)?;
        Err(Error::Io {
            path: self.opts.root.clone(),
            message: "the watched directory was removed, moved or replaced; the watch ended (start it again to watch the new one)".into(),
        })
    }

    fn note(&mut self, event: &notify::Event, pending: &mut Pending) {
        // Opening and reading files (our own walks included) is not a change.
        if matches!(event.kind, RawKind::Access(_)) {
            return;
        }
        let now = Instant::now();
        pending.first.get_or_insert(now);
        pending.last = Some(now);
        if event.need_rescan() {
            diag::warn("the kernel's event queue overflowed; rescanning the whole tree");
            pending.rescan = true;
            return;
        }
        for path in &event.paths {
            let Ok(relative) = path.strip_prefix(&self.opts.root) else {
                continue;
            };
            let Some(parent) = relative.parent() else {
                // The root itself changed (e.g. it was removed); recheck everything.
                pending.rescan = true;
                continue;
            };
            let name = relative.file_name().unwrap_or_default();
            if name == ".gitignore" || name == DEFAULT_OLLMIGNORE {
                pending.deep.insert(parent.to_path_buf());
            } else {
                pending.shallow.insert(parent.to_path_buf());
            }
        }
    }

    fn flush<W: Watcher>(
        &mut self,
        watcher: &mut W,
        tracker: &mut Tracker,
        batch: Pending,
    ) -> Result<()> {
        let mut changes = Changes::default();
        let mut dirs = self.dirs(watcher);
        if batch.rescan {
            tracker.reconcile(Path::new(""), true, &mut changes, &mut dirs);
        } else {
            for dir in &batch.deep {
                tracker.reconcile(dir, true, &mut changes, &mut dirs);
            }
            for dir in &batch.shallow {
                let inside_deep = batch.deep.iter().any(|d| dir.starts_with(d));
                if !inside_deep {
                    tracker.reconcile(dir, false, &mut changes, &mut dirs);
                }
            }
        }
        for event in &changes.events {
            crate::output::print_json_line(event)?;
        }
        Ok(())
    }

    fn dirs<'a, W: Watcher>(&'a mut self, watcher: &'a mut W) -> WatchedDirs<'a, W> {
        WatchedDirs {
            session: self,
            watcher,
        }
    }

    /// The root must be watched, or there is nothing to do.
    fn root_watched(&mut self, watcher: &mut impl Watcher) -> Result<()> {
        watcher
            .watch(&self.opts.root, RecursiveMode::NonRecursive)
            .map_err(|err| watch_error(&self.opts.root, err))
    }

    fn warn_watch_error(&mut self, err: notify::Error) {
        if matches!(err.kind, notify::ErrorKind::MaxFilesWatch) {
            if !self.limit_warned {
                self.limit_warned = true;
                diag::warn(WATCH_LIMIT_ADVICE);
            }
            return;
        }
        diag::warn(describe_notify_error(&err));
    }
}

/// The session's watcher as the tracker sees it.
struct WatchedDirs<'a, W: Watcher> {
    session: &'a mut Session,
    watcher: &'a mut W,
}

impl<W: Watcher> Dirs for WatchedDirs<'_, W> {
    fn watch(&mut self, dir: &Path) {
        if let Err(err) = self.watcher.watch(dir, RecursiveMode::NonRecursive) {
            // A directory removed before we could watch it is reconciled
            // away by the event of its removal.
            if !matches!(err.kind, notify::ErrorKind::PathNotFound) {
                self.session.warn_watch_error(err);
            }
        }
    }

    fn unwatch(&mut self, dir: &Path) {
        // The kernel drops the watch of a deleted directory by itself.
        let _ = self.watcher.unwatch(dir);
    }
}

fn describe_notify_error(err: &notify::Error) -> String {
    let path = err
        .paths
        .first()
        .map(|p| format!("{}: ", p.display()))
        .unwrap_or_default();
    let what = match &err.kind {
        notify::ErrorKind::Io(io) if io.raw_os_error() == Some(libc::EMFILE) => {
            "too many inotify instances (raise fs.inotify.max_user_instances with sysctl)".into()
        }
        notify::ErrorKind::Io(io) => crate::error::describe_io(io),
        notify::ErrorKind::MaxFilesWatch => WATCH_LIMIT_ADVICE.into(),
        notify::ErrorKind::PathNotFound => "no such file or directory".into(),
        other => format!("{other:?}").to_lowercase(),
    };
    format!("{path}{what}")
}

fn watch_error(path: &Path, err: notify::Error) -> Error {
    Error::Io {
        path: path.to_path_buf(),
        message: format!("cannot watch: {}", describe_notify_error(&err)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_watch_limit_error_tells_how_to_raise_it() {
        let err = notify::Error::new(notify::ErrorKind::MaxFilesWatch).add_path("/x".into());
        let text = describe_notify_error(&err);
        assert!(text.contains("fs.inotify.max_user_watches"), "{text}");
        assert!(text.contains("sysctl"), "{text}");
        let io = notify::Error::io(std::io::Error::from_raw_os_error(libc::EMFILE));
        assert!(describe_notify_error(&io).contains("max_user_instances"));
    }
}
