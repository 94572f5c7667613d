//! What a failed write to stdout is to the programs, for every writer of
//! stdout in this folder (the door, the blocks, the listings and the
//! threads that render them).

use std::io;

use crate::error::Error;

/// A failed write to stdout as our error (a closed pipe exits quietly).
pub fn stdout_error(err: io::Error) -> Error {
    Error::io("standard output", &err)
}
