//! The watcher process of one work tree: inotify watches on every
//! directory below the root (never inside a `.git`), a log of the paths
//! that changed stamped with the query they were drained before, and a
//! unix socket that answers "what changed since token T".
//!
//! The kernel queues an inotify event before the writing syscall returns,
//! so draining the inotify descriptor until `EAGAIN` when a query arrives
//! sees every change made before the query was sent: no cookie file is
//! needed (and nothing is ever written into the work tree or its `.git`).
//! Whatever the log cannot vouch for (queue overflow, a watch that could
//! not be added, an ignore file changed, the log over its bound) makes
//! every earlier token invalid, so the next query of each asker says
//! "full" and its snapshot scans the whole tree.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use inotify::{EventMask, Inotify, WatchDescriptor, WatchMask};

use super::{Answer, Token};
use crate::error::{Error, Result};

/// How often an idle watcher looks whether its tree is still there.
const ROOT_CHECK: Duration = Duration::from_secs(5);

/// Changed paths the log holds before it gives up and says "full".
const MAX_LOGGED: usize = 100_000;
/// Directories watched at most (each costs the kernel ~1 KB).
const MAX_WATCHES: usize = 100_000;

/// What a change means to an asker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    /// A path whose content, mode or existence changed.
    Path,
    /// A directory created, moved or removed: rescan all below it.
    Tree,
}

struct Watcher {
    root: PathBuf,
    inotify: Inotify,
    dirs: HashMap<WatchDescriptor, Vec<u8>>,
    epoch: u64,
    /// The stamp of the changes being drained now: the token the next
    /// answer gives.
    current: u64,
    /// Tokens older than this cannot be answered from the log.
    valid_from: u64,
    log: HashMap<Vec<u8>, (u64, Change)>,
    /// A watch could not be added: every answer is "full".
    blind: bool,
}

const MASK: WatchMask = WatchMask::CREATE
    .union(WatchMask::DELETE)
    .union(WatchMask::MODIFY)
    .union(WatchMask::ATTRIB)
    .union(WatchMask::CLOSE_WRITE)
    .union(WatchMask::MOVED_FROM)
    .union(WatchMask::MOVED_TO)
    .union(WatchMask::DELETE_SELF)
    .union(WatchMask::MOVE_SELF)
    .union(WatchMask::DONT_FOLLOW)
    .union(WatchMask::ONLYDIR)
    .union(WatchMask::EXCL_UNLINK);

impl Watcher {
    fn new(root: &Path) -> Result<Watcher> {
        let inotify = Inotify::init().map_err(|e| Error::io(root, &e))?;
        let mut watcher = Watcher {
            root: root.to_path_buf(),
            inotify,
            dirs: HashMap::new(),
            epoch: u64::from_le_bytes(
                uuid::Uuid::new_v4().as_bytes()[..8]
                    .try_into()
                    .unwrap_or_default(),
            ),
            current: 1,
            valid_from: 1,
            log: HashMap::new(),
            blind: false,
        };
        watcher.watch_tree(Vec::new());
        Ok(watcher)
    }

    /// Watches `relative` and every directory below it (not `.git`).
    fn watch_tree(&mut self, relative: Vec<u8>) {
        let mut pending = vec![relative];
        while let Some(dir) = pending.pop() {
            if self.blind {
                return;
            }
            let path = self.root.join(OsStr::from_bytes(&dir));
            if self.dirs.len() >= MAX_WATCHES {
                self.blind = true;
                return;
            }
            match self.inotify.watches().add(&path, MASK) {
                Ok(wd) => {
                    self.dirs.insert(wd, dir.clone());
                }
                // Gone or not a directory any more: its parent's event says so.
                Err(e) if matches!(e.raw_os_error(), Some(libc::ENOENT | libc::ENOTDIR)) => {
                    continue;
                }
                // ENOSPC (the user's watch limit), EACCES, ...
                Err(_) => {
                    self.blind = true;
                    return;
                }
            }
            let Ok(entries) = std::fs::read_dir(&path) else {
                continue;
            };
            for entry in entries.flatten() {
                if entry.file_type().is_ok_and(|t| t.is_dir()) && entry.file_name() != ".git" {
                    pending.push(join(&dir, entry.file_name().as_bytes()));
                }
            }
        }
    }

    /// Reads every queued event (the descriptor is non-blocking).
    fn drain(&mut self) {
        let mut buffer = [0u8; 16384];
        loop {
            let mut seen = Vec::new();
            match self.inotify.read_events(&mut buffer) {
                Ok(events) => {
                    for event in events {
                        seen.push((
                            event.wd.clone(),
                            event.mask,
                            event.name.map(|n| n.as_bytes().to_vec()),
                        ));
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => {
                    self.blind = true;
                    return;
                }
            }
            if seen.is_empty() {
                return;
            }
            for (wd, mask, name) in seen {
                self.record(&wd, mask, name);
            }
        }
    }

    fn record(&mut self, wd: &WatchDescriptor, mask: EventMask, name: Option<Vec<u8>>) {
        if mask.contains(EventMask::Q_OVERFLOW) || test_overflow() {
            self.forget();
            return;
        }
        if mask.contains(EventMask::IGNORED) {
            self.dirs.remove(wd);
            return;
        }
        let Some(dir) = self.dirs.get(wd).cloned() else {
            return;
        };
        if mask.intersects(EventMask::DELETE_SELF | EventMask::MOVE_SELF) {
            self.log_change(dir, Change::Tree);
            return;
        }
        let Some(name) = name else {
            return;
        };
        if name == b".git" {
            return;
        }
        let relative = join(&dir, &name);
        if name == b".gitignore" || name == crate::discover::DEFAULT_OLLMIGNORE.as_bytes() {
            // What the file set is may have changed anywhere below.
            self.forget();
            return;
        }
        if mask.contains(EventMask::ISDIR) {
            if mask.intersects(EventMask::CREATE | EventMask::MOVED_TO) {
                self.watch_tree(relative.clone());
            }
            if mask.intersects(
                EventMask::CREATE | EventMask::MOVED_TO | EventMask::MOVED_FROM | EventMask::DELETE,
            ) {
                self.log_change(relative, Change::Tree);
            }
            return;
        }
        self.log_change(relative, Change::Path);
    }

    fn log_change(&mut self, relative: Vec<u8>, change: Change) {
        let stamp = self.current;
        let entry = self.log.entry(relative).or_insert((stamp, change));
        entry.0 = stamp;
        if change == Change::Tree {
            entry.1 = Change::Tree;
        }
        if self.log.len() > MAX_LOGGED {
            self.forget();
        }
    }

    /// Makes every token given so far unanswerable from the log.
    fn forget(&mut self) {
        self.log.clear();
        self.valid_from = self.current;
    }

    /// The answer to "what changed since `since`", draining first.
    fn answer(&mut self, since: Option<Token>) -> Answer {
        self.drain();
        let token = Token {
            epoch: self.epoch,
            seq: self.current,
        };
        let answer = match since {
            _ if self.blind => Answer::Full(token),
            Some(t)
                if t.epoch == self.epoch && t.seq >= self.valid_from && t.seq < self.current =>
            {
                let mut paths = Vec::new();
                let mut trees = Vec::new();
                for (path, (stamp, change)) in &self.log {
                    if *stamp > t.seq {
                        match change {
                            Change::Path => paths.push(path.clone()),
                            Change::Tree => trees.push(path.clone()),
                        }
                    }
                }
                Answer::Changed {
                    token,
                    paths,
                    trees,
                }
            }
            _ => Answer::Full(token),
        };
        self.current += 1;
        answer
    }
}

fn join(dir: &[u8], name: &[u8]) -> Vec<u8> {
    if dir.is_empty() {
        return name.to_vec();
    }
    let mut out = Vec::with_capacity(dir.len() + 1 + name.len());
    out.extend_from_slice(dir);
    out.push(b'/');
    out.extend_from_slice(name);
    out
}

/// Test-only: `OLLM_TEST_CHECKPOINT_WATCH_OVERFLOW=1` in the watcher's
/// environment treats every event as a queue overflow, so the tests can
/// show what an overflow does without filling the kernel's queue.
fn test_overflow() -> bool {
    std::env::var_os("OLLM_TEST_CHECKPOINT_WATCH_OVERFLOW").is_some_and(|v| v == "1")
}

/// Runs the watcher of `root` until it has had no query for `idle`.
/// Returns at once (Ok) when another watcher of this tree holds the lock,
/// after saying which process.
pub(crate) fn run(root: &Path, socket: &Path, idle: Duration) -> Result<()> {
    let Some(_lock) = super::take_lock(socket)? else {
        return Ok(());
    };
    let mut watcher = Watcher::new(root)?;
    let _ = std::fs::remove_file(socket);
    let listener = UnixListener::bind(socket).map_err(|e| Error::io(socket, &e))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| Error::io(socket, &e))?;
    let mut last_query = Instant::now();
    loop {
        let left = idle.saturating_sub(last_query.elapsed());
        if left.is_zero() {
            break;
        }
        let mut fds = [
            libc::pollfd {
                fd: listener.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: watcher.inotify.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        // Woken now and then to see whether the tree is still there: one
        // removed while the watcher started sends no event it still reads
        // (a test's temporary tree), and the watcher would wait out `idle`.
        let timeout = i32::try_from(left.min(ROOT_CHECK).as_millis()).unwrap_or(i32::MAX);
        // SAFETY: `fds` is a valid array of two pollfd for the call's length.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), 2, timeout) };
        if ready < 0 {
            continue;
        }
        if fds[1].revents != 0 {
            watcher.drain();
        }
        if fds[0].revents != 0 {
            while let Ok((stream, _)) = listener.accept() {
                last_query = Instant::now();
                serve(&mut watcher, stream);
            }
        }
        if !root.is_dir() {
            break;
        }
    }
    let _ = std::fs::remove_file(socket);
    Ok(())
}

/// One query: a line `since EPOCH SEQ` (or `since -`), answered and closed.
fn serve(watcher: &mut Watcher, stream: UnixStream) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
    let _ = stream.set_write_timeout(Some(Duration::from_secs(2)));
    let mut line = String::new();
    let mut reader = BufReader::new(&stream);
    if reader.read_line(&mut line).is_err() {
        return;
    }
    let since = line.trim().strip_prefix("since ").and_then(Token::parse);
    let answer = watcher.answer(since);
    let mut out = std::io::BufWriter::new(&stream);
    let _ = out.write_all(&answer.encode());
    let _ = out.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn changed(answer: Answer) -> (Token, Vec<Vec<u8>>, Vec<Vec<u8>>) {
        match answer {
            Answer::Changed {
                token,
                mut paths,
                mut trees,
            } => {
                paths.sort();
                trees.sort();
                (token, paths, trees)
            }
            Answer::Full(_) => panic!("a full answer"),
        }
    }

    #[test]
    fn a_change_made_before_the_question_is_in_its_answer_and_not_the_next() {
        let dir = tempfile::tempdir().unwrap();
        let mut watcher = Watcher::new(dir.path()).unwrap();
        let first = watcher.answer(None);
        assert!(matches!(first, Answer::Full(_)));
        std::fs::write(dir.path().join("a"), "x").unwrap();
        let (token, paths, trees) = changed(watcher.answer(Some(first.token())));
        assert_eq!(paths, [b"a".to_vec()]);
        assert!(trees.is_empty());
        let (token, paths, _) = changed(watcher.answer(Some(token)));
        assert!(paths.is_empty());

        std::fs::create_dir_all(dir.path().join("new/deep")).unwrap();
        std::fs::write(dir.path().join("new/deep/f"), "y").unwrap();
        let (token, _, trees) = changed(watcher.answer(Some(token)));
        assert_eq!(trees, [b"new".to_vec()]);
        // The new directories are watched from then on.
        std::fs::write(dir.path().join("new/deep/f"), "z").unwrap();
        let (token, paths, _) = changed(watcher.answer(Some(token)));
        assert_eq!(paths, [b"new/deep/f".to_vec()]);

        let other_epoch = Token {
            epoch: token.epoch ^ 1,
            seq: token.seq,
        };
        assert!(matches!(watcher.answer(Some(other_epoch)), Answer::Full(_)));
    }

    #[test]
    fn an_ignore_file_changed_makes_every_earlier_token_full() {
        let dir = tempfile::tempdir().unwrap();
        let mut watcher = Watcher::new(dir.path()).unwrap();
        let first = watcher.answer(None).token();
        let second = watcher.answer(Some(first)).token();
        std::fs::write(dir.path().join(".gitignore"), "*.o\n").unwrap();
        assert!(matches!(watcher.answer(Some(second)), Answer::Full(_)));
        let after = watcher.answer(Some(first)).token();
        assert!(matches!(watcher.answer(Some(first)), Answer::Full(_)));
        assert!(matches!(
            watcher.answer(Some(after)),
            Answer::Changed { .. }
        ));
    }
}
