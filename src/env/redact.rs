//! `--redact-output`: a child's output passes through with removed secret
//! values and credential-shaped text replaced by `[REDACTED]`.
//!
//! Output is redacted a line at a time, so a secret split across two reads
//! of the pipe is still whole when it is matched. A line is held until its
//! newline arrives (or the child's output ends, or it grows past
//! [`MAX_PENDING`]). A private key block is redacted from its BEGIN line to
//! its END line.

use std::io::{self, Write};

use regex::bytes::Regex;

use super::secrets;

/// The longest partial line held back before it is redacted and written.
pub const MAX_PENDING: usize = 64 * 1024;

const REDACTED: &[u8] = b"[REDACTED]";

pub struct Redactor {
    matcher: Regex,
    pending: Vec<u8>,
    in_private_key: bool,
}

impl Redactor {
    /// A redactor for these literal secret values (each line of a multi-line
    /// value counts on its own; values shorter than
    /// [`secrets::MIN_LITERAL_SECRET`] are skipped) plus every credential shape.
    pub fn new<S: AsRef<str>>(literals: &[S]) -> Redactor {
        let pieces: Vec<&str> = literals
            .iter()
            .flat_map(|value| value.as_ref().lines())
            .map(str::trim)
            .filter(|piece| piece.len() >= secrets::MIN_LITERAL_SECRET)
            .collect();
        let matcher = secrets::matcher(&pieces)
            .or_else(|_| secrets::matcher::<&str>(&[]))
            .unwrap_or_else(|_| unreachable!("the value patterns are tested to compile"));
        Redactor {
            matcher,
            pending: Vec::new(),
            in_private_key: false,
        }
    }

    /// Takes the next chunk read from the child and writes what is complete.
    pub fn feed(&mut self, chunk: &[u8], out: &mut impl Write) -> io::Result<()> {
        self.pending.extend_from_slice(chunk);
        let mut start = 0;
        while let Some(offset) = self.pending[start..].iter().position(|&b| b == b'\n') {
            let end = start + offset + 1;
            let line = self.pending[start..end].to_vec();
            self.write_line(&line, out)?;
            start = end;
        }
        self.pending.drain(..start);
        if self.pending.len() > MAX_PENDING {
            let line = std::mem::take(&mut self.pending);
            self.write_line(&line, out)?;
        }
        out.flush()
    }

    /// Writes whatever is still held once the child's output has ended.
    pub fn finish(&mut self, out: &mut impl Write) -> io::Result<()> {
        if !self.pending.is_empty() {
            let line = std::mem::take(&mut self.pending);
            self.write_line(&line, out)?;
        }
        out.flush()
    }

    fn write_line(&mut self, line: &[u8], out: &mut impl Write) -> io::Result<()> {
        let (body, newline) = match line.strip_suffix(b"\n") {
            Some(body) => (body, &b"\n"[..]),
            None => (line, &b""[..]),
        };
        if self.in_private_key {
            if is_private_key_end(body) {
                self.in_private_key = false;
            }
            out.write_all(REDACTED)?;
            return out.write_all(newline);
        }
        if is_private_key_begin(body) && !is_private_key_end(body) {
            self.in_private_key = true;
        }
        let redacted = self.matcher.replace_all(body, REDACTED);
        out.write_all(&redacted)?;
        out.write_all(newline)
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn is_private_key_begin(line: &[u8]) -> bool {
    contains(line, b"-----BEGIN") && contains(line, b"PRIVATE KEY-----")
}

fn is_private_key_end(line: &[u8]) -> bool {
    contains(line, b"-----END") && contains(line, b"PRIVATE KEY-----")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(literals: &[&str], chunks: &[&[u8]]) -> String {
        let mut redactor = Redactor::new(literals);
        let mut out = Vec::new();
        for chunk in chunks {
            redactor.feed(chunk, &mut out).unwrap();
        }
        redactor.finish(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_literal_secret_split_across_reads_is_redacted() {
        let out = run(&["hunter2-password"], &[b"pw=hunter2-pa", b"ssword done\n"]);
        assert_eq!(out, "pw=[REDACTED] done\n");
    }

    #[test]
    fn credential_shapes_are_redacted_without_being_listed() {
        let out = run(
            &[],
            &[b"key ghp_abcdefghijklmno", b"pqrstuvwxyz0123456789\n"],
        );
        assert_eq!(out, "key [REDACTED]\n");
    }

    #[test]
    fn short_values_are_not_redacted() {
        assert_eq!(run(&["true"], &[b"true story\n"]), "true story\n");
    }

    #[test]
    fn a_private_key_block_is_redacted_whole() {
        let out = run(
            &[],
            &[
                b"a\n-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\n",
                b"xyz\n-----END RSA PRIVATE KEY-----\nb\n",
            ],
        );
        assert_eq!(
            out,
            "a\n[REDACTED]\n[REDACTED]\n[REDACTED]\n[REDACTED]\nb\n"
        );
    }

    #[test]
    fn output_without_a_final_newline_is_written_at_the_end() {
        assert_eq!(run(&[], &[b"partial"]), "partial");
    }

    #[test]
    fn binary_output_passes_through() {
        let mut redactor = Redactor::new::<&str>(&[]);
        let mut out = Vec::new();
        redactor.feed(&[0xff, 0x00, b'\n', 0xfe], &mut out).unwrap();
        redactor.finish(&mut out).unwrap();
        assert_eq!(out, vec![0xff, 0x00, b'\n', 0xfe]);
    }
}
