//! Reading another tool's JSONL as it is on disk, live: a file is streamed
//! a line at a time (never read whole), a `.zst` file is decompressed as
//! it is read, and what a tool that was killed or is still writing leaves
//! behind (a torn last line, a byte order mark, NUL bytes, invalid UTF-8)
//! is tolerated and counted in [`Skipped`], never fatal.

use std::borrow::Cow;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use serde::Deserialize;

use super::Skipped;
use crate::error::{Error, Result};

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The longest line read: a longer one (no tool writes one; a file that is
/// not JSONL might) is skipped and counted as unreadable, not held.
pub const MAX_LINE_BYTES: usize = crate::input::MAX_LINE_BYTES;

/// One non-empty line of a JSONL file.
#[derive(Debug)]
pub struct Line<'a> {
    /// 1-based, counting every line of the file.
    pub number: u64,
    /// Where the line starts in the (decompressed) stream, and how many
    /// bytes of it the line takes (its ending included).
    pub offset: u64,
    pub length: u64,
    /// Its bytes without the line ending, NUL bytes and a leading BOM.
    pub bytes: &'a [u8],
    /// Whether a newline ended it (a last line without one may be torn).
    pub complete: bool,
}

impl<'a> Line<'a> {
    /// The line parsed as `T`. A line that does not parse counts as a torn
    /// line when it is the last and unfinished, else as unreadable; invalid
    /// UTF-8 is replaced rather than losing the line.
    pub fn parse<T: Deserialize<'a>>(&self, skipped: &mut Skipped) -> Option<T> {
        if let Ok(value) = serde_json::from_slice(self.bytes) {
            return Some(value);
        }
        let repaired = std::str::from_utf8(self.bytes)
            .is_err()
            .then(|| parse_lossy(self.bytes))
            .flatten()
            .and_then(|value| T::deserialize(value).ok());
        if repaired.is_none() {
            self.count_failure(skipped);
        }
        repaired
    }

    fn count_failure(&self, skipped: &mut Skipped) {
        if self.complete {
            skipped.unreadable += 1;
        } else {
            skipped.torn_lines += 1;
        }
    }
}

/// Opens `path` for reading, decompressing a `.zst` file.
pub fn open(path: &Path) -> Result<Box<dyn BufRead>> {
    let file = File::open(path).map_err(|e| Error::io(path, &e))?;
    if path.extension().is_some_and(|ext| ext == "zst") {
        let decoder = zstd::stream::read::Decoder::new(file).map_err(|e| Error::io(path, &e))?;
        return Ok(Box::new(BufReader::with_capacity(1 << 16, decoder)));
    }
    Ok(Box::new(BufReader::with_capacity(1 << 16, file)))
}

/// Calls `each` with every non-empty line of `path` in order.
pub fn each_line(
    path: &Path,
    skipped: &mut Skipped,
    each: impl FnMut(Line<'_>, &mut Skipped) -> Result<()>,
) -> Result<()> {
    let reader = open(path)?;
    each_line_of(reader, skipped, each).map_err(|e| with_path(e, path))
}

/// [`each_line`] over only the bytes `from..to` of the (uncompressed)
/// file at `path`: the lines appended since `from`. Offsets are the
/// file's; line numbers count from 1 at `from`.
pub fn each_line_in(
    path: &Path,
    (from, to): (u64, u64),
    skipped: &mut Skipped,
    mut each: impl FnMut(Line<'_>, &mut Skipped) -> Result<()>,
) -> Result<()> {
    use std::io::{Seek, SeekFrom};
    let mut file = File::open(path).map_err(|e| Error::io(path, &e))?;
    file.seek(SeekFrom::Start(from))
        .map_err(|e| Error::io(path, &e))?;
    let reader = BufReader::with_capacity(1 << 16, file.take(to.saturating_sub(from)));
    each_line_of(reader, skipped, |mut line, skipped| {
        line.offset += from;
        each(line, skipped)
    })
    .map_err(|e| with_path(e, path))
}

fn with_path(error: Error, path: &Path) -> Error {
    match error {
        Error::Io { path: p, message } if p.as_os_str().is_empty() => Error::Io {
            path: path.to_path_buf(),
            message,
        },
        other => other,
    }
}

/// [`each_line`] over any reader.
pub fn each_line_of(
    reader: impl BufRead,
    skipped: &mut Skipped,
    mut each: impl FnMut(Line<'_>, &mut Skipped) -> Result<()>,
) -> Result<()> {
    let mut reader = reader.take(u64::MAX);
    let mut buf = Vec::with_capacity(1 << 12);
    let (mut number, mut offset) = (0u64, 0u64);
    loop {
        buf.clear();
        reader.set_limit(MAX_LINE_BYTES as u64 + 1);
        let read = reader
            .read_until(b'\n', &mut buf)
            .map_err(|e| Error::io("", &e))?;
        if read == 0 {
            return Ok(());
        }
        number += 1;
        let start = offset;
        offset += read as u64;
        if buf.len() > MAX_LINE_BYTES && buf.last() != Some(&b'\n') {
            reader.set_limit(u64::MAX);
            offset += skip_line(&mut reader)?;
            skipped.unreadable += 1;
            continue;
        }
        let complete = buf.last() == Some(&b'\n');
        let mut bytes: &[u8] = &buf;
        if complete {
            bytes = &bytes[..bytes.len() - 1];
        }
        if bytes.last() == Some(&b'\r') {
            bytes = &bytes[..bytes.len() - 1];
        }
        if number == 1 && bytes.starts_with(BOM) {
            skipped.byte_order_marks += 1;
            bytes = &bytes[BOM.len()..];
        }
        let bytes = without_nul(bytes, skipped);
        if bytes.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if std::str::from_utf8(&bytes).is_err() {
            // Read with U+FFFD in place of the bad bytes ([`Line::parse`]).
            skipped.invalid_utf8 += 1;
        }
        each(
            Line {
                number,
                offset: start,
                length: read as u64,
                bytes: &bytes,
                complete,
            },
            skipped,
        )?;
    }
}

/// The line of `raw` (its bytes as read again from `offset`, ending
/// included), cleaned as [`each_line_of`] cleans it, and whether a
/// newline ended it.
pub fn clean_line<'a>(raw: &'a [u8], offset: u64, skipped: &mut Skipped) -> (Cow<'a, [u8]>, bool) {
    let complete = raw.last() == Some(&b'\n');
    let mut bytes = raw;
    if complete {
        bytes = &bytes[..bytes.len() - 1];
    }
    if bytes.last() == Some(&b'\r') {
        bytes = &bytes[..bytes.len() - 1];
    }
    if offset == 0 && bytes.starts_with(BOM) {
        bytes = &bytes[BOM.len()..];
    }
    (without_nul(bytes, skipped), complete)
}

/// Reads past the rest of a line without keeping it; returns how many
/// bytes that was.
fn skip_line(reader: &mut impl BufRead) -> Result<u64> {
    let mut skipped = 0u64;
    loop {
        let available = reader.fill_buf().map_err(|e| Error::io("", &e))?;
        if available.is_empty() {
            return Ok(skipped);
        }
        let (used, done) = match memchr::memchr(b'\n', available) {
            Some(at) => (at + 1, true),
            None => (available.len(), false),
        };
        reader.consume(used);
        skipped += used as u64;
        if done {
            return Ok(skipped);
        }
    }
}

/// `bytes` without NUL bytes (counted); borrowed when there are none.
fn without_nul<'a>(bytes: &'a [u8], skipped: &mut Skipped) -> Cow<'a, [u8]> {
    if memchr::memchr(0, bytes).is_none() {
        return Cow::Borrowed(bytes);
    }
    let kept: Vec<u8> = bytes.iter().copied().filter(|&b| b != 0).collect();
    skipped.nul_bytes += (bytes.len() - kept.len()) as u64;
    Cow::Owned(kept)
}

/// The whole value `bytes` holds, read again with invalid UTF-8 replaced
/// when it is not valid UTF-8 (`None`: not JSON).
fn parse_lossy(bytes: &[u8]) -> Option<serde_json::Value> {
    serde_json::from_slice(bytes)
        .ok()
        .or_else(|| serde_json::from_str(&String::from_utf8_lossy(bytes)).ok())
}

/// Reads a whole JSON document (gemini-cli's legacy chat file, opencode's
/// legacy storage), tolerating a BOM and NUL bytes as lines do. Refuses a
/// document over `limit` bytes rather than holding it.
pub fn read_document(
    path: &Path,
    limit: u64,
    skipped: &mut Skipped,
) -> Result<Option<serde_json::Value>> {
    let file = File::open(path).map_err(|e| Error::io(path, &e))?;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, &e))?;
    if bytes.len() as u64 > limit {
        return Err(Error::input(format!(
            "{}: larger than {limit} bytes; not read",
            path.display()
        )));
    }
    let mut body: &[u8] = &bytes;
    if body.starts_with(BOM) {
        skipped.byte_order_marks += 1;
        body = &body[BOM.len()..];
    }
    let body = without_nul(body, skipped);
    let value = parse_lossy(&body);
    if value.is_none() {
        skipped.unreadable += 1;
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn lines(input: &[u8]) -> (Vec<(u64, Option<Value>)>, Skipped) {
        let mut skipped = Skipped::default();
        let mut out = Vec::new();
        each_line_of(input, &mut skipped, |line, skipped| {
            out.push((line.number, line.parse::<Value>(skipped)));
            Ok(())
        })
        .unwrap();
        (out, skipped)
    }

    #[test]
    fn a_torn_last_line_is_counted_not_fatal() {
        let (out, skipped) = lines(b"{\"a\":1}\n{\"b\":");
        assert_eq!(out.len(), 2);
        assert!(out[1].1.is_none());
        assert_eq!(skipped.torn_lines, 1);
        assert_eq!(skipped.unreadable, 0);
    }

    #[test]
    fn a_bad_line_in_the_middle_is_unreadable_and_the_rest_is_read() {
        let (out, skipped) = lines(b"{\"a\":1}\nnot json\n{\"c\":3}\n");
        assert_eq!(out.iter().filter(|(_, v)| v.is_some()).count(), 2);
        assert_eq!(skipped.unreadable, 1);
        assert_eq!(skipped.torn_lines, 0);
    }

    #[test]
    fn bom_nul_crlf_and_blank_lines_are_tolerated() {
        let (out, skipped) = lines(b"\xEF\xBB\xBF{\"a\":1}\r\n\n  \n{\"b\"\0:2}\n");
        let values: Vec<Value> = out.into_iter().filter_map(|(_, v)| v).collect();
        assert_eq!(
            values,
            vec![serde_json::json!({"a":1}), serde_json::json!({"b":2})]
        );
        assert_eq!(skipped.byte_order_marks, 1);
        assert_eq!(skipped.nul_bytes, 1);
    }

    #[test]
    fn invalid_utf8_inside_a_string_is_replaced_not_lost() {
        let (out, skipped) = lines(b"{\"a\":\"x\xFFy\"}\n");
        assert_eq!(out[0].1, Some(serde_json::json!({"a": "x\u{FFFD}y"})));
        let counted = Skipped {
            invalid_utf8: 1,
            ..Skipped::default()
        };
        assert_eq!(skipped, counted);
    }

    #[test]
    fn a_line_longer_than_the_limit_is_skipped_not_held_and_offsets_stay_right() {
        let mut input = b"{\"a\":1}\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 10));
        input.extend(b"\n{\"b\":2}\n");
        let mut skipped = Skipped::default();
        let mut seen = Vec::new();
        each_line_of(&input[..], &mut skipped, |line, skipped| {
            seen.push((line.number, line.offset, line.parse::<Value>(skipped)));
            Ok(())
        })
        .unwrap();
        let last_offset = (input.len() - b"{\"b\":2}\n".len()) as u64;
        assert_eq!(
            seen,
            vec![
                (1, 0, Some(serde_json::json!({"a": 1}))),
                (3, last_offset, Some(serde_json::json!({"b": 2})))
            ]
        );
        assert_eq!(skipped.unreadable, 1);
    }

    #[test]
    fn line_numbers_and_offsets_follow_the_file() {
        let mut skipped = Skipped::default();
        let mut seen = Vec::new();
        each_line_of(&b"{}\n\n{\"x\":1}\n"[..], &mut skipped, |line, _| {
            seen.push((line.number, line.offset));
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, vec![(1, 0), (3, 4)]);
    }
}
