//! What ollm's own rewrite of a whole-file (OLLM CLI format) session
//! tells the index about the data directory, so that the next read does
//! not compare every entry with the rows (a `readdir` and a `stat` per
//! whole-file session: 400–870 ms at 100,000 sessions) only because ollm
//! itself renamed a file in.
//!
//! The writer watches the data directory (inotify) from before it takes
//! the directory's stamp (`before`) until after its write and a second
//! look (`after`), and notes the [`DirLink`] in its `put` line with the
//! sessions that another program created, removed or renamed meanwhile
//! (`touched`, named by the events). The fold follows the links from the
//! stamp it last trusted: when they lead to the stamp the directory has
//! now, nothing changed it but the links' writes and the `touched`
//! sessions, which it reads again; no entry is compared.
//!
//! Nothing is missed, which is why a link is trusted with no time limit:
//! - a change before the watch (after the stamp the fold trusts) makes
//!   `before` differ from that stamp: the stamp the fold trusts is either
//!   settled (older than a clock tick, see `refresh`) or the `after` of a
//!   link, past which the clock had moved (below), so any change after it
//!   has a later change time;
//! - a change during the watch is an event: an event is queued while its
//!   change holds the directory's lock, which the writer takes (a
//!   `readdir`) before it reads the events, so every change that `after`
//!   shows has its event read;
//! - a change after the events were read has a later change time than
//!   `after`: before reading them the writer waits until the kernel's
//!   coarse clock, which file systems stamp with, has passed `after` (at
//!   most one tick: 1–10 ms).
//!
//! A watch that cannot be made (inotify's limits), events lost (the queue
//! overflowed) or a clock that does not move on give no link: the next
//! read compares the entries, as after any other program's change. So
//! does an in-place edit (which changes no entry): see the module `index`.

use std::ffi::OsStr;
use std::mem::MaybeUninit;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rustix::fs::inotify::{self, CreateFlags, ReadFlags, WatchFlags};
use serde::{Deserialize, Serialize};

use crate::session::model::is_uuid;

/// A write of ollm's own, as the data directory saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DirLink {
    /// The directory's stamp before the write.
    pub before: String,
    /// Its stamp after the write.
    pub after: String,
    /// The sessions whose entries another program changed meanwhile.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub touched: Vec<String>,
}

/// The longest wait for the clock to pass `after`: past it, no link.
const LONGEST_TICK: Duration = Duration::from_millis(50);

/// The data directory's stamp (what the fold compares), and its change
/// time in nanoseconds.
pub(crate) fn dir_stamp(meta: &std::fs::Metadata) -> String {
    format!("{}:{}.{}", meta.ino(), meta.mtime(), meta.mtime_nsec())
}

fn nanos(seconds: i64, nanos: i64) -> i128 {
    i128::from(seconds) * 1_000_000_000 + i128::from(nanos)
}

/// A watch on the data directory during one write.
///
/// Closing an inotify descriptor waits in the kernel for its watches'
/// teardown (an SRCU grace period: 7–25 ms measured on a loaded 2-core
/// machine, the largest part of what a CLI-format `record` paid beyond a
/// journal's). A watch removed ahead of the close is torn down by a
/// kernel worker meanwhile, and a close after that is not kept waiting:
/// so the watch is removed as soon as its events are queued, and the
/// descriptor is closed later ([`close_later`]), at the next watch's end
/// or the process's exit.
pub(crate) struct Watch {
    inotify: Option<OwnedFd>,
    wd: i32,
    dir: PathBuf,
    before: String,
}

/// The descriptor of the last watch, removed, kept open so that its close
/// does not wait for the removal (see [`Watch`]); at most one is kept, so
/// a long-running writer holds one descriptor, not one per write.
static CLOSING: std::sync::Mutex<Option<OwnedFd>> = std::sync::Mutex::new(None);

/// Closes `inotify` later: at the next call (by when its watch's teardown
/// is long done) or at the process's exit.
fn close_later(inotify: OwnedFd) {
    let previous = match CLOSING.lock() {
        Ok(mut slot) => slot.replace(inotify),
        Err(_) => Some(inotify),
    };
    drop(previous);
}

impl Drop for Watch {
    fn drop(&mut self) {
        if let Some(inotify) = self.inotify.take() {
            // Removed now, so that the worker tears it down before the close.
            let _ = inotify::remove_watch(&inotify, self.wd);
            close_later(inotify);
        }
    }
}

impl Watch {
    /// Starts watching `dir`, then takes its stamp; `None` when inotify
    /// cannot be used here, or the directory is smaller than `from_bytes`
    /// (`st_size`): then comparing its entries costs less than the watch.
    pub(crate) fn start(dir: &Path, from_bytes: u64) -> Option<Watch> {
        if from_bytes > 0 && std::fs::symlink_metadata(dir).ok()?.len() < from_bytes {
            return None;
        }
        let inotify = inotify::init(CreateFlags::NONBLOCK | CreateFlags::CLOEXEC).ok()?;
        let wd = inotify::add_watch(
            &inotify,
            dir,
            WatchFlags::CREATE
                | WatchFlags::DELETE
                | WatchFlags::MOVED_FROM
                | WatchFlags::MOVED_TO
                | WatchFlags::MOVE_SELF
                | WatchFlags::DELETE_SELF
                | WatchFlags::ONLYDIR
                | WatchFlags::DONT_FOLLOW,
        )
        .ok()?;
        let mut watch = Watch {
            inotify: Some(inotify),
            wd,
            dir: dir.to_path_buf(),
            before: String::new(),
        };
        watch.before = dir_stamp(&std::fs::symlink_metadata(dir).ok()?);
        Some(watch)
    }

    /// Ends the watch after a write whose own entries are `own` (the
    /// names the write made or removed: `<id>.json`, a journal's `<id>`):
    /// the link, or `None` when the events cannot be trusted to tell every
    /// change.
    pub(crate) fn finish(mut self, own: &[&str]) -> Option<DirLink> {
        let meta = std::fs::symlink_metadata(&self.dir).ok()?;
        let after = dir_stamp(&meta);
        let changed_at = nanos(meta.mtime(), meta.mtime_nsec());
        wait_for_clock_past(changed_at)?;
        // Under the directory's lock: a change still holding it (whose
        // change time `after` may show) has queued its event once it is
        // let go.
        std::fs::read_dir(&self.dir).ok()?.next();
        // Every event the link needs is queued: the watch is removed
        // (queued events stay to be read) before they are read, so that
        // its teardown runs meanwhile (see [`Watch`]).
        let inotify = self.inotify.take()?;
        let removed = inotify::remove_watch(&inotify, self.wd).is_ok();
        let touched = foreign_sessions(&inotify, own);
        close_later(inotify);
        Some(DirLink {
            before: std::mem::take(&mut self.before),
            after,
            touched: touched.filter(|_| removed)?,
        })
    }
}

/// The sessions whose entries the events queued on `inotify` name, but
/// the `own` entries; `None` when events were lost or the directory
/// itself moved or went. The watch was removed: its own removal's
/// `IN_IGNORED` is expected.
fn foreign_sessions(inotify: &OwnedFd, own: &[&str]) -> Option<Vec<String>> {
    let mut buf = [MaybeUninit::<u8>::uninit(); 8192];
    let mut reader = inotify::Reader::new(inotify, &mut buf);
    let mut touched = Vec::new();
    loop {
        let event = match reader.next() {
            Ok(event) => event,
            Err(rustix::io::Errno::AGAIN) => break,
            Err(_) => return None,
        };
        if event.events().intersects(
            ReadFlags::QUEUE_OVERFLOW
                | ReadFlags::MOVE_SELF
                | ReadFlags::DELETE_SELF
                | ReadFlags::UNMOUNT,
        ) {
            return None;
        }
        let Some(name) = event.file_name().map(std::ffi::CStr::to_bytes) else {
            continue;
        };
        if own.iter().any(|own| own.as_bytes() == name) {
            continue;
        }
        if let Some(id) = session_of(OsStr::from_bytes(name))
            && !touched.contains(&id)
        {
            touched.push(id);
        }
    }
    Some(touched)
}

/// The session an entry of the data directory belongs to: `<id>` (a
/// journal's directory), `<id>.json`, or the OLLM CLI's `<id>.json.tmp`.
fn session_of(name: &OsStr) -> Option<String> {
    let name = name.to_str()?;
    let id = name
        .strip_suffix(".json.tmp")
        .or_else(|| name.strip_suffix(".json"))
        .unwrap_or(name);
    is_uuid(id).then(|| id.to_string())
}

/// Waits until the coarse clock that file systems stamp with is past
/// `changed_at` (ns since the epoch), so that any later change has a
/// later change time; `None` when it does not get there in
/// [`LONGEST_TICK`] (a clock set back).
fn wait_for_clock_past(changed_at: i128) -> Option<()> {
    let started = Instant::now();
    loop {
        let now = rustix::time::clock_gettime(rustix::time::ClockId::RealtimeCoarse);
        let behind = changed_at - nanos(now.tv_sec, now.tv_nsec);
        if behind < 0 {
            return Some(());
        }
        if started.elapsed() > LONGEST_TICK {
            return None;
        }
        let step = u64::try_from(behind).unwrap_or(0).min(1_000_000) + 50_000;
        std::thread::sleep(Duration::from_nanos(step));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "907a1a54-0000-4000-8000-000000000001";
    const OTHER: &str = "907a1a54-0000-4000-8000-000000000002";

    fn write_by_rename(dir: &Path, name: &str, tmp: &str) {
        std::fs::write(dir.join(tmp), b"{}").unwrap();
        std::fs::rename(dir.join(tmp), dir.join(name)).unwrap();
    }

    #[test]
    fn a_directory_smaller_than_the_threshold_is_not_watched() {
        let dir = tempfile::tempdir().unwrap();
        for n in 0..200 {
            std::fs::write(dir.path().join(format!("{n:036}.json")), b"{}").unwrap();
        }
        let size = std::fs::metadata(dir.path()).unwrap().len();
        assert!(Watch::start(dir.path(), size + 1).is_none());
        assert!(Watch::start(dir.path(), size).is_some());
        assert!(Watch::start(dir.path(), 0).is_some());
    }

    #[test]
    fn a_write_of_ones_own_alone_links_the_stamps_before_and_after() {
        let dir = tempfile::tempdir().unwrap();
        let own = format!("{ID}.json");
        let watch = Watch::start(dir.path(), 0).unwrap();
        let before = dir_stamp(&std::fs::metadata(dir.path()).unwrap());
        write_by_rename(dir.path(), &own, &format!(".{own}.x1.tmp"));
        let link = watch.finish(&[&own]).unwrap();
        assert_eq!(link.before, before);
        assert_eq!(
            link.after,
            dir_stamp(&std::fs::metadata(dir.path()).unwrap())
        );
        assert!(link.touched.is_empty());
    }

    #[test]
    fn another_programs_rename_during_the_write_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let own = format!("{ID}.json");
        let watch = Watch::start(dir.path(), 0).unwrap();
        write_by_rename(dir.path(), &own, &format!(".{own}.x1.tmp"));
        write_by_rename(
            dir.path(),
            &format!("{OTHER}.json"),
            &format!("{OTHER}.json.tmp"),
        );
        // The CLI's write of the same session is told by its temp name.
        write_by_rename(dir.path(), &own, &format!("{own}.tmp"));
        let link = watch.finish(&[&own]).unwrap();
        assert_eq!(link.touched, vec![OTHER.to_string(), ID.to_string()]);
    }

    #[test]
    fn after_the_link_any_change_has_another_stamp() {
        let dir = tempfile::tempdir().unwrap();
        let own = format!("{ID}.json");
        let watch = Watch::start(dir.path(), 0).unwrap();
        let tmp = dir.path().join(format!(".{own}.x1.tmp"));
        std::fs::write(&tmp, b"{}").unwrap();
        // A change time looked at is followed, where the kernel stamps in
        // fine grain, by one finer than its clock's tick.
        std::fs::metadata(dir.path()).unwrap();
        std::fs::rename(&tmp, dir.path().join(&own)).unwrap();
        let link = watch.finish(&[&own]).unwrap();
        // The clock file systems stamp with has passed `after` ...
        let meta = std::fs::metadata(dir.path()).unwrap();
        let now = rustix::time::clock_gettime(rustix::time::ClockId::RealtimeCoarse);
        assert!(nanos(now.tv_sec, now.tv_nsec) > nanos(meta.mtime(), meta.mtime_nsec()));
        // ... so a change made now has another stamp.
        write_by_rename(
            dir.path(),
            &format!("{OTHER}.json"),
            &format!("{OTHER}.json.tmp"),
        );
        assert_ne!(
            dir_stamp(&std::fs::metadata(dir.path()).unwrap()),
            link.after
        );
    }

    #[test]
    fn entries_are_told_apart_from_other_files() {
        assert_eq!(session_of(OsStr::new(ID)).as_deref(), Some(ID));
        assert_eq!(
            session_of(OsStr::new(&format!("{ID}.json.tmp"))).as_deref(),
            Some(ID)
        );
        assert_eq!(session_of(OsStr::new(&format!(".{ID}.json.x1.tmp"))), None);
        assert_eq!(session_of(OsStr::new(".index-stale")), None);
    }
}
