//! The OLLM CLI's writes in flight, as far as they can be seen from
//! outside: it takes no lock, but it writes each new version of
//! `<id>.json` to `<id>.json.tmp`, fsyncs it and renames it in. While
//! that file is there, a rename is coming.
//!
//! What cannot be seen is the CLI's read: between it and the creation of
//! its temp file (parsing, the change, `JSON.stringify`) nothing shows
//! that a version built from that read will be renamed in. A version of
//! ours that went in meanwhile is replaced by it (docs/ollm-cli.md).

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use crate::fs::replace::Stamp;

/// How long a CLI temp file may take to be renamed in before it is taken
/// for one a killed CLI left behind.
const RENAME_DUE: Duration = Duration::from_secs(2);
/// How long, after ours went in, a CLI that is writing the session may
/// take from its read to its temp file (measured: docs/ollm-cli.md), when
/// this process has not seen it write often enough to know its pace.
const GRACE: Duration = Duration::from_millis(50);
/// The longest watch after a write, however slowly the CLI writes.
const LONGEST_WATCH: Duration = Duration::from_secs(1);
/// A session the CLI wrote this recently is one it is writing now.
const ACTIVE: Duration = Duration::from_secs(2);
const POLL: Duration = Duration::from_millis(1);

fn cli_temp(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".tmp");
    PathBuf::from(name)
}

/// Whether the CLI's temp file of `path` is there and fresh.
fn writing(path: &Path) -> bool {
    std::fs::symlink_metadata(cli_temp(path)).is_ok_and(|meta| {
        meta.modified()
            .ok()
            .and_then(|at| SystemTime::now().duration_since(at).ok())
            .is_none_or(|age| age < RENAME_DUE)
    })
}

/// Waits while the CLI is writing `path` (its temp file there), for at
/// most [`RENAME_DUE`]. Returns whether it was.
pub(super) fn wait_for_rename(path: &Path) -> bool {
    let start = Instant::now();
    let mut seen = false;
    while writing(path) && start.elapsed() < RENAME_DUE {
        if !seen {
            saw_another();
        }
        seen = true;
        std::thread::sleep(POLL);
    }
    seen
}

/// When this process last saw another program write a session (a
/// streaming `record` keeps watching after its own writes hide the CLI's).
static LAST_SEEN: Mutex<Option<Instant>> = Mutex::new(None);

/// Notes that another program (the CLI) just wrote.
pub(super) fn saw_another() {
    if let Ok(mut seen) = LAST_SEEN.lock() {
        *seen = Some(Instant::now());
    }
}

/// The CLI versions this process saw come in: the last (when, inode) and
/// the gaps between one and the next within [`ACTIVE`].
struct Pace {
    last: Option<(Instant, u64)>,
    gaps: Vec<(Instant, Duration)>,
}

static PACE: Mutex<Pace> = Mutex::new(Pace {
    last: None,
    gaps: Vec::new(),
});

/// Notes a CLI version (its inode) seen at the path.
fn saw_version(ino: u64) {
    let Ok(mut pace) = PACE.lock() else {
        return;
    };
    let now = Instant::now();
    match pace.last {
        Some((_, last)) if last == ino => return,
        Some((at, _)) if now - at < ACTIVE => pace.gaps.push((now, now - at)),
        _ => {}
    }
    pace.last = Some((now, ino));
    pace.gaps.retain(|(at, _)| now - *at < ACTIVE);
}

/// How long to watch after a write into a session the CLI is writing:
/// twice the longest gap between two of its versions lately (a CLI that
/// writes back to back takes less than that from its read to its rename;
/// one preempted on a busy machine is slow in both), at least [`GRACE`],
/// at most [`LONGEST_WATCH`]. A version the CLI renames in ends the watch
/// sooner.
pub(super) fn watch_for() -> Duration {
    let longest = PACE.lock().ok().and_then(|pace| {
        pace.gaps
            .iter()
            .filter(|(at, _)| at.elapsed() < ACTIVE)
            .map(|(_, gap)| *gap)
            .max()
    });
    longest.map_or(GRACE, |gap| (gap * 2).clamp(GRACE, LONGEST_WATCH))
}

/// Whether the file is another program's (not ollm's 0600).
pub(super) fn is_theirs(meta: &std::fs::Metadata) -> bool {
    meta.mode() & 0o777 != crate::fs::FILE_MODE
}

/// Whether another program is writing the session now: the file read
/// (`meta`) is not ollm's (whose files are all 0600) and was written
/// within [`ACTIVE`], or this process saw such a write within it.
pub(super) fn another_is_writing(meta: &std::fs::Metadata) -> bool {
    let recent = meta
        .modified()
        .ok()
        .and_then(|at| SystemTime::now().duration_since(at).ok())
        .is_some_and(|age| age < ACTIVE);
    if recent && is_theirs(meta) {
        saw_another();
        saw_version(meta.ino());
        return true;
    }
    LAST_SEEN
        .lock()
        .ok()
        .and_then(|seen| *seen)
        .is_some_and(|at| at.elapsed() < ACTIVE)
}

/// After a version of ours (the file stamped `ours`) went in: whether another
/// version replaced it or is coming, watched for `grace` (zero: one look).
/// Waits for a coming one to be renamed in before answering.
pub(super) fn replaced_after(path: &Path, ours: Stamp, grace: Duration) -> bool {
    let start = Instant::now();
    loop {
        let replaced = wait_for_rename(path) | !ours.same_file(Stamp::at(path));
        if replaced {
            wait_for_rename(path);
            return true;
        }
        if start.elapsed() >= grace {
            return false;
        }
        std::thread::sleep(POLL);
    }
}
