//! Listings written to stdout in large blocks: a listing is read to its end,
//! so it is not flushed per line (one write(2) per 64 KiB instead of one per
//! row). `ollm-discover` fills one block per walker thread and hands each
//! over whole ([`write_block`]), or writes a sorted or cached listing through
//! one [`BlockWriter`].

use std::io::{self, BufWriter, StdoutLock, Write};

use super::failure::stdout_error;
use crate::error::Result;

/// The size of a block.
pub const BLOCK: usize = 64 * 1024;

/// Writes a filled block to stdout at once (holding the lock, so blocks of
/// concurrent writers never interleave).
pub fn write_block(block: &[u8]) -> Result<()> {
    io::stdout().lock().write_all(block).map_err(stdout_error)
}

/// Flushes what [`write_block`] left in stdout's own buffer (the text after
/// its last newline).
pub fn flush() -> Result<()> {
    io::stdout().flush().map_err(stdout_error)
}

/// A listing written to stdout through one buffer of [`BLOCK`] bytes.
pub struct BlockWriter {
    out: BufWriter<StdoutLock<'static>>,
}

impl BlockWriter {
    /// Locks stdout for the whole listing.
    pub fn new() -> BlockWriter {
        BlockWriter {
            out: BufWriter::with_capacity(BLOCK, io::stdout().lock()),
        }
    }

    /// Adds `bytes` as they are (the caller escapes them for a terminal).
    #[inline]
    pub fn write(&mut self, bytes: &[u8]) -> Result<()> {
        self.out.write_all(bytes).map_err(stdout_error)
    }

    /// Writes out what is buffered.
    pub fn finish(mut self) -> Result<()> {
        self.out.flush().map_err(stdout_error)
    }
}

impl Default for BlockWriter {
    fn default() -> BlockWriter {
        BlockWriter::new()
    }
}
