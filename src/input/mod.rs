//! Reading what a program is given: a whole document from stdin or a file
//! (bounded, UTF-8 checked), or an NDJSON stream line by line; and its JSON
//! parsed with the limits every program keeps ([`json`]).

pub(crate) mod json;

use std::io::{self, BufRead, Read};

pub use json::{
    MAX_RECORD_NESTING, check_integers, check_record_nesting, json_nesting, parse_json,
};

use crate::error::{Error, Result};

/// The largest single input (a whole document on stdin or in a file) a
/// program accepts. Larger input is refused rather than read into memory.
pub(crate) const MAX_INPUT_BYTES: u64 = 256 * 1024 * 1024;

/// The longest line of an NDJSON stream a program accepts.
pub(crate) const MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

/// Reads all of `source` (a path, or `-` for stdin) as UTF-8 text.
pub(crate) fn read_text(source: &str) -> Result<String> {
    let bytes = if source == "-" {
        read_bounded(io::stdin().lock(), "standard input")?
    } else {
        read_bounded(open_input(source)?, source)?
    };
    let name = if source == "-" {
        "standard input"
    } else {
        source
    };
    into_utf8(bytes, name)
}

/// Opens an input file named on the command line. A file that does not
/// exist is "not found" (exit code 3) in every program, as a missing session
/// or directory is; other failures are I/O errors (exit code 4).
pub(crate) fn open_input(path: &str) -> Result<std::fs::File> {
    std::fs::File::open(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => Error::NotFound(format!("{path}: no such file")),
        _ => Error::io(path, &e),
    })
}

fn read_bounded(reader: impl Read, name: &str) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let read = reader
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(name, &e))?;
    if read as u64 > MAX_INPUT_BYTES {
        return Err(Error::input(format!(
            "{name} is larger than {} MiB",
            MAX_INPUT_BYTES / 1024 / 1024
        )));
    }
    Ok(bytes)
}

/// Converts bytes to text, naming the first invalid byte offset on failure.
pub(crate) fn into_utf8(bytes: Vec<u8>, name: &str) -> Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        Error::input(format!(
            "{name} is not valid UTF-8 (first bad byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Reads an NDJSON stream line by line, calling `handle` with each non-blank
/// line (1-based line number) as text. Lines longer than [`MAX_LINE_BYTES`]
/// and invalid UTF-8 are input errors naming the line.
pub fn for_each_line(
    reader: impl BufRead,
    name: &str,
    mut handle: impl FnMut(usize, &str) -> Result<()>,
) -> Result<()> {
    let mut reader = reader.take(u64::MAX);
    let mut buf = Vec::new();
    let mut number = 0;
    loop {
        buf.clear();
        reader.set_limit(MAX_LINE_BYTES as u64 + 1);
        let read = reader
            .read_until(b'\n', &mut buf)
            .map_err(|e| Error::io(name, &e))?;
        if read == 0 {
            return Ok(());
        }
        number += 1;
        if buf.len() > MAX_LINE_BYTES && !buf.ends_with(b"\n") {
            return Err(Error::input(format!(
                "{name} line {number} is longer than {} MiB",
                MAX_LINE_BYTES / 1024 / 1024
            )));
        }
        let line = std::str::from_utf8(&buf).map_err(|e| {
            Error::input(format!(
                "{name} line {number} is not valid UTF-8 (bad byte at column {})",
                e.valid_up_to() + 1
            ))
        })?;
        let line = line.trim();
        if !line.is_empty() {
            handle(number, line)?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_utf8_names_the_offset() {
        let err = into_utf8(vec![b'a', b'b', 0xff], "input").unwrap_err();
        assert!(err.to_string().contains("offset 2"), "{err}");
    }

    #[test]
    fn ndjson_lines_are_numbered_and_blank_lines_skipped() {
        let mut seen = Vec::new();
        for_each_line(&b"{}\n\n[1]\n"[..], "in", |n, line| {
            seen.push((n, line.to_string()));
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, vec![(1, "{}".to_string()), (3, "[1]".to_string())]);
    }
}
