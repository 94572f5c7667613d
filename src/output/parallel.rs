//! A long listing written on every core: its rows are cut into chunks,
//! each chunk rendered to bytes by one of a few threads, and the chunks
//! written to stdout in order as they come. The bytes are those of
//! rendering the whole listing at once (a search's million hits spent
//! more time in JSON escaping on one core than in being found on two).

use std::io::{self, Write};
use std::sync::mpsc;

use super::failure::stdout_error;
use crate::error::Result;

/// Rows a chunk holds: big enough that a thread's turn costs little, small
/// enough that the chunks waiting to be written stay a few megabytes.
const CHUNK: usize = 4096;

/// Whether `items` is long enough to be worth more than one thread.
pub(super) fn worth_it<T>(items: &[T]) -> bool {
    items.len() > 2 * CHUNK && crate::threads::worker_threads() > 1
}

/// Writes `render(i, chunk)` of each chunk (the `i`th) of `items` to `out`, in order:
/// thread `t` of `n` renders chunks `t`, `t + n`, …, each sent through its
/// own bounded channel, and the calling thread takes them round-robin.
/// The first error (of a render or of a write) is returned; the threads
/// then stop at their next send.
pub(super) fn write_chunks<T, W>(
    items: &[T],
    out: &mut W,
    render: impl Fn(usize, &[T]) -> Result<Vec<u8>> + Sync,
) -> Result<()>
where
    T: Sync,
    W: Write,
{
    let chunks: Vec<&[T]> = items.chunks(CHUNK).collect();
    let n = crate::threads::worker_threads().min(chunks.len()).max(1);
    std::thread::scope(|scope| {
        let receivers: Vec<mpsc::Receiver<Result<Vec<u8>>>> = (0..n)
            .map(|t| {
                let (send, receive) = mpsc::sync_channel(2);
                let (chunks, render) = (&chunks, &render);
                scope.spawn(move || {
                    for (i, chunk) in chunks.iter().enumerate().skip(t).step_by(n) {
                        if send.send(render(i, chunk)).is_err() {
                            return;
                        }
                    }
                });
                receive
            })
            .collect();
        let result = (0..chunks.len()).try_for_each(|i| {
            let bytes = receivers[i % n]
                .recv()
                .map_err(|_| stdout_error(io::Error::other("a writer stopped")))??;
            out.write_all(&bytes).map_err(stdout_error)
        });
        // Dropping the receivers ends the threads still rendering.
        drop(receivers);
        result
    })
}
