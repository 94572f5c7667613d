//! A command's guard against a keeper stopped in the middle of it (SIGSTOP,
//! a debugger): the postgres client has no read timeout on a Unix socket,
//! so a command would wait for as long as the keeper stays stopped. Once
//! a command is connected through a keeper, a thread looks at the
//! keeper's state every [`POLL`]; stopped for [`STALL`], the command's
//! connections to its socket are shut down, and what the command was
//! waiting for fails with [`stalled`]'s one line. The next command finds
//! the stopped keeper silent at its greeting and connects directly.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

/// How long a keeper may stay stopped before its connections are given up.
pub(super) const STALL: Duration = Duration::from_secs(2);
const POLL: Duration = Duration::from_millis(100);

static STALLED: OnceLock<String> = OnceLock::new();
static WATCHED: Mutex<Option<HashSet<i32>>> = Mutex::new(None);

/// Why a command's connection through a keeper was shut down, when it was.
pub(crate) fn stalled() -> Option<&'static str> {
    STALLED.get().map(String::as_str)
}

/// Watches keeper process `pid` (listening on `socket`) for as long as it
/// runs, one thread per keeper and process.
pub(super) fn watch(pid: i32, socket: PathBuf) {
    {
        let mut watched = WATCHED.lock().unwrap_or_else(PoisonError::into_inner);
        if !watched.get_or_insert_with(HashSet::new).insert(pid) {
            return;
        }
    }
    let spawned = std::thread::Builder::new()
        .name("keeper-watchdog".into())
        .spawn(move || {
            let mut stopped_since: Option<Instant> = None;
            loop {
                std::thread::sleep(POLL);
                match state(pid) {
                    // Gone: the kernel closed its end of every connection.
                    None => break,
                    Some('T' | 't') => {
                        let since = *stopped_since.get_or_insert_with(Instant::now);
                        if since.elapsed() >= STALL {
                            let _ = STALLED.set(format!(
                                "the keeper (process {pid}) was stopped mid-command; its connection was given up after {} s (a write under way may not be stored; run the command again, or `kill -CONT {pid}`)",
                                STALL.as_secs()
                            ));
                            shut_down_connections_to(&socket);
                            break;
                        }
                    }
                    Some(_) => stopped_since = None,
                }
            }
            if let Some(watched) = WATCHED
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .as_mut()
            {
                watched.remove(&pid);
            }
        });
    if spawned.is_err()
        && let Some(watched) = WATCHED
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_mut()
    {
        watched.remove(&pid);
    }
}

/// Process `pid`'s state letter (`/proc/<pid>/stat`), `None` once it is gone.
fn state(pid: i32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name, in parentheses, may hold spaces and parentheses.
    stat.rsplit_once(')')?.1.trim_start().chars().next()
}

/// Shuts down (both ways) this process's sockets connected to `socket`;
/// returns how many. Their owners see the connection end and fail.
fn shut_down_connections_to(socket: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir("/proc/self/fd") else {
        return 0;
    };
    let mut shut = 0;
    for entry in entries.flatten() {
        let Some(fd) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        if peer_path(fd).as_deref() == Some(socket) {
            // SAFETY: shutdown(2) on a descriptor of this process; it
            // stays open (its owner closes it), only its traffic ends.
            if unsafe { libc::shutdown(fd, libc::SHUT_RDWR) } == 0 {
                shut += 1;
            }
        }
    }
    shut
}

/// The path of the Unix socket descriptor `fd` is connected to.
fn peer_path(fd: i32) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    // SAFETY: an all-zero sockaddr_un is a valid value.
    let mut address: libc::sockaddr_un = unsafe { std::mem::zeroed() };
    let mut len = libc::socklen_t::try_from(size_of::<libc::sockaddr_un>()).ok()?;
    // SAFETY: `address` is writable for `len` bytes; an fd that is not a
    // socket (or not connected) makes the call fail, and nothing is read.
    let asked = unsafe { libc::getpeername(fd, (&raw mut address).cast(), &raw mut len) };
    if asked != 0 || i32::from(address.sun_family) != libc::AF_UNIX {
        return None;
    }
    let path: Vec<u8> = address
        .sun_path
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c.cast_unsigned())
        .collect();
    (!path.is_empty()).then(|| PathBuf::from(std::ffi::OsStr::from_bytes(&path)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_connection_to_a_socket_is_found_and_shut_down() {
        use std::io::Read;
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("s");
        let listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
        let mut client = std::os::unix::net::UnixStream::connect(&path).unwrap();
        let _served = listener.accept().unwrap();
        assert_eq!(shut_down_connections_to(&path), 1);
        // The read that would wait for the peer ends at once.
        let mut byte = [0u8; 1];
        assert_eq!(client.read(&mut byte).unwrap(), 0);
        assert!(state(std::process::id().cast_signed()).is_some());
        assert_eq!(state(-1), None);
    }
}
