//! What stops a long-running command (`ollm-discover watch`,
//! `ollm-session import --watch`): SIGINT or SIGTERM, and the end of
//! standard input when it is a pipe or a socket (so a parent process stops
//! it by closing the pipe; a terminal or `/dev/null` never does).

use std::path::PathBuf;

use crate::error::{Error, Result};

/// Why a command was told to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    Signal(i32),
    StdinClosed,
}

/// Calls `stop` (on a thread of its own) once for each way of stopping
/// that happens.
pub fn on_stop(stop: impl Fn(Stop) + Send + Clone + 'static) -> Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals =
        signal_hook::iterator::Signals::new([SIGINT, SIGTERM]).map_err(|e| Error::Io {
            path: PathBuf::from("signals"),
            message: crate::error::describe_io(&e),
        })?;
    let on_signal = stop.clone();
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            on_signal(Stop::Signal(signal));
        }
    });
    if stdin_is_pipe_or_socket() {
        std::thread::spawn(move || {
            let mut sink = [0u8; 4096];
            let mut stdin = std::io::stdin().lock();
            loop {
                match std::io::Read::read(&mut stdin, &mut sink) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
            }
            stop(Stop::StdinClosed);
        });
    }
    Ok(())
}

fn stdin_is_pipe_or_socket() -> bool {
    // SAFETY: fstat on fd 0 writes only into the zeroed struct we own.
    unsafe {
        let mut stat: libc::stat = std::mem::zeroed();
        if libc::fstat(0, &mut stat) != 0 {
            return false;
        }
        let kind = stat.st_mode & libc::S_IFMT;
        kind == libc::S_IFIFO || kind == libc::S_IFSOCK
    }
}
