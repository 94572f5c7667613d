//! The one door to stdout: pretty JSON, NDJSON lines, text and raw bytes,
//! each escaped at a terminal, and a closed pipe turned into a quiet exit
//! ([`stdout_error`](super::failure::stdout_error)). Everything a program prints goes through here or
//! through [`super::blocks`] (large listings).

use std::io::{self, Write};

use serde::Serialize;

use super::escape::{escape_json, escape_text};
use super::failure::stdout_error;
use crate::error::{Error, Result};

/// Writes `value` as pretty JSON and a newline to stdout (buffered: stdout
/// would otherwise be written a line at a time). At a terminal, the control
/// characters JSON leaves raw are escaped too ([`escape_json`]).
pub fn print_json<T: Serialize + ?Sized>(value: &T) -> Result<()> {
    if stdout_is_terminal() {
        let json = crate::lossless::to_vec_pretty(value).map_err(stdout_json_error)?;
        let json = String::from_utf8_lossy(&json);
        return write_stdout(&[escape_json(&json).as_bytes(), b"\n"]);
    }
    let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    crate::lossless::to_writer_pretty(&mut out, value).map_err(stdout_json_error)?;
    out.write_all(b"\n").map_err(stdout_error)?;
    out.flush().map_err(stdout_error)
}

/// [`print_json`] of a listing: a long one is rendered on every core
/// ([`super::parallel`]), each chunk as a pretty array whose brackets are
/// cut so that the chunks join into the array of them all.
pub fn print_json_array<T: Serialize + Sync>(values: &[T]) -> Result<()> {
    if stdout_is_terminal() || !super::parallel::worth_it(values) {
        return print_json(values);
    }
    let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    write_json_array(values, &mut out)?;
    out.flush().map_err(stdout_error)
}

/// The pretty JSON array of `values` and a newline, rendered on every core.
fn write_json_array<T: Serialize + Sync>(values: &[T], out: &mut impl Write) -> Result<()> {
    super::parallel::write_chunks(values, out, |i, chunk| {
        // `[\n  A,\n  B\n]`: the first keeps its `[`, the others start
        // with the `,` between them, and the closing `\n]` is written once.
        let mut bytes = Vec::with_capacity(chunk.len() * 256);
        crate::lossless::to_writer_pretty(&mut bytes, chunk).map_err(stdout_json_error)?;
        bytes.truncate(bytes.len().saturating_sub(2));
        if i > 0
            && let Some(open) = bytes.first_mut()
        {
            *open = b',';
        }
        Ok(bytes)
    })?;
    out.write_all(if values.is_empty() { b"[]\n" } else { b"\n]\n" })
        .map_err(stdout_error)
}

/// Each of `values` as a compact JSON line, rendered on every core.
fn write_json_lines<T: Serialize + Sync>(values: &[T], out: &mut impl Write) -> Result<()> {
    super::parallel::write_chunks(values, out, |_, chunk| {
        let mut bytes = Vec::with_capacity(chunk.len() * 256);
        for value in chunk {
            crate::lossless::to_writer(&mut bytes, value).map_err(stdout_json_error)?;
            bytes.push(b'\n');
        }
        Ok(bytes)
    })
}

/// Writes `value` as one compact JSON line to stdout and flushes, so a
/// reader of an NDJSON stream sees each record as soon as it is made.
pub fn print_json_line<T: Serialize + ?Sized>(value: &T) -> Result<()> {
    if stdout_is_terminal() {
        let json = crate::lossless::to_vec(value).map_err(stdout_json_error)?;
        let json = String::from_utf8_lossy(&json);
        return write_stdout(&[escape_json(&json).as_bytes(), b"\n"]);
    }
    let mut out = io::stdout().lock();
    crate::lossless::to_writer(&mut out, value).map_err(stdout_json_error)?;
    out.write_all(b"\n").map_err(stdout_error)?;
    out.flush().map_err(stdout_error)
}

/// Writes each of `values` as one compact JSON line to stdout: a listing
/// as NDJSON. Piped, the lines go out in blocks of 64 KiB as they are made
/// (a line and a flush each cost one write(2) per row: 100,000 of them for
/// a large listing); at a terminal, line by line as [`print_json_line`].
pub fn print_json_lines<T: Serialize + Sync>(values: &[T]) -> Result<()> {
    if stdout_is_terminal() {
        return values.iter().try_for_each(print_json_line);
    }
    let mut out = io::BufWriter::with_capacity(64 << 10, io::stdout().lock());
    if super::parallel::worth_it(values) {
        write_json_lines(values, &mut out)?;
        return out.flush().map_err(stdout_error);
    }
    for value in values {
        crate::lossless::to_writer(&mut out, value).map_err(stdout_json_error)?;
        out.write_all(b"\n").map_err(stdout_error)?;
    }
    out.flush().map_err(stdout_error)
}

/// Writes text to stdout: as is when piped, with its control characters
/// made visible at a terminal ([`escape_text`]).
pub fn print_text(text: &str) -> Result<()> {
    if stdout_is_terminal() {
        return write_stdout(&[escape_text(text).as_bytes()]);
    }
    write_stdout(&[text.as_bytes()])
}

/// Writes `parts` to stdout as they are and flushes (a closed pipe ends the program quietly).
pub fn write_stdout(parts: &[&[u8]]) -> Result<()> {
    let mut out = io::stdout().lock();
    for part in parts {
        out.write_all(part).map_err(stdout_error)?;
    }
    out.flush().map_err(stdout_error)
}

fn stdout_json_error(err: serde_json::Error) -> Error {
    match err.io_error_kind() {
        Some(kind) => stdout_error(io::Error::from(kind)),
        None => Error::input(format!("cannot encode output: {err}")),
    }
}

/// Whether stdout is a terminal (human-readable output is the default only
/// then, and control characters are escaped). Asked once per process.
pub fn stdout_is_terminal() -> bool {
    use std::io::IsTerminal;
    static TERMINAL: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *TERMINAL.get_or_init(|| io::stdout().is_terminal())
}

/// Stdout for relaying another program's output as it comes (`ollm-env run`
/// copies the child's stream through its redactor into it).
pub fn relay() -> io::Stdout {
    io::stdout()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_written_in_chunks_on_every_core_is_the_listing_written_at_once() {
        // Rows with text JSON escapes, of every count around the chunks'.
        let rows: Vec<serde_json::Value> = (0..10_000)
            .map(|i| serde_json::json!({"n": i, "text": format!("row \"{i}\"\n\u{1}é"), "none": null}))
            .collect();
        for n in [0, 1, 4095, 4096, 4097, 8193, 10_000] {
            let rows = &rows[..n];
            let mut array = Vec::new();
            write_json_array(rows, &mut array).unwrap();
            let mut whole = crate::lossless::to_vec_pretty(rows).unwrap();
            whole.push(b'\n');
            assert_eq!(
                String::from_utf8(array).unwrap(),
                String::from_utf8(whole).unwrap(),
                "{n} rows"
            );
            let mut lines = Vec::new();
            write_json_lines(rows, &mut lines).unwrap();
            let expected: String = rows.iter().map(|row| format!("{row}\n")).collect();
            assert_eq!(String::from_utf8(lines).unwrap(), expected, "{n} rows");
        }
    }
}
