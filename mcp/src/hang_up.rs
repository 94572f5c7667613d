//! Noticing that the client closed stdin before reading to its end: with
//! requests queued in the pipe (backpressure keeps them there, see
//! `bounded`), the end of the input is many reads away, but `poll` says
//! at once that no writer is left.

use std::future::Future;

/// Resolves when stdin's writer has gone (a pipe's last writer closed it,
/// a socket's peer shut down writing, a terminal hung up). Never resolves
/// for input that cannot hang up, such as a regular file.
pub fn stdin() -> impl Future<Output = ()> {
    let (hung_up, seen) = tokio::sync::oneshot::channel::<()>();
    // A thread parked in poll(2) until then: without events asked, poll
    // wakes only for a hang-up or an error, never for data waiting.
    let watcher = std::thread::Builder::new()
        .name("stdin hang-up".into())
        .spawn(move || {
            let mut fds = [libc::pollfd {
                fd: libc::STDIN_FILENO,
                events: libc::POLLRDHUP,
                revents: 0,
            }];
            loop {
                // SAFETY: one valid pollfd, for the length given.
                let ready = unsafe { libc::poll(fds.as_mut_ptr(), 1, -1) };
                if ready > 0 {
                    let _ = hung_up.send(());
                    return;
                }
                if ready < 0
                    && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted
                {
                    return;
                }
            }
        });
    async move {
        // No watcher, or one that could not poll: only the end of the
        // input, read as usual, ends the server.
        if watcher.is_err() || seen.await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}
