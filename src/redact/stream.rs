//! `--redact-output`: a child's output passes through with removed secret
//! values and credential-shaped text replaced by `[REDACTED]`.
//!
//! Output is redacted a line at a time, so a secret split across two reads
//! of the pipe is still whole when it is matched. A line longer than
//! [`MAX_PENDING`] is not flushed whole: everything but its last
//! [`WINDOW`] bytes (or more, when a secret is being matched there) is
//! redacted and written, and the window stays to be matched with what comes
//! next, so no secret is printed for straddling a buffer boundary. A private
//! key block is redacted from its BEGIN line to its END line.

use std::io::{self, Write};

use regex::bytes::Regex;

use super::patterns;

/// The longest partial line held back before its head is written.
pub const MAX_PENDING: usize = 64 * 1024;

/// Bytes kept back from a long partial line, to be matched with the bytes
/// that follow: at least the longest secret value looked for.
pub const WINDOW: usize = 8 * 1024;

const REDACTED: &[u8] = b"[REDACTED]";

#[derive(Clone)]
pub struct Redactor {
    matcher: Regex,
    pending: Vec<u8>,
    window: usize,
    in_private_key: bool,
}

impl Redactor {
    /// A redactor for these literal secret values (each line of a multi-line
    /// value counts on its own; values shorter than
    /// [`patterns::MIN_LITERAL_SECRET`] are skipped) plus every credential shape.
    pub fn new<S: AsRef<str>>(literals: &[S]) -> Redactor {
        let pieces: Vec<&str> = literals
            .iter()
            .flat_map(|value| value.as_ref().lines())
            .map(str::trim)
            .filter(|piece| piece.len() >= patterns::MIN_LITERAL_SECRET)
            .collect();
        let longest = pieces.iter().map(|p| p.len()).max().unwrap_or(0);
        let matcher = patterns::matcher(&pieces)
            .or_else(|_| patterns::matcher::<&str>(&[]))
            .unwrap_or_else(|_| unreachable!("the value patterns are tested to compile"));
        Redactor {
            matcher,
            pending: Vec::new(),
            window: WINDOW.max(longest + 1),
            in_private_key: false,
        }
    }

    /// Takes the next chunk read from the child and writes what is complete.
    pub fn feed(&mut self, chunk: &[u8], out: &mut impl Write) -> io::Result<()> {
        self.pending.extend_from_slice(chunk);
        let mut start = 0;
        while let Some(offset) = crate::byte_search::find_byte(b'\n', &self.pending[start..]) {
            let end = start + offset + 1;
            let line = self.pending[start..end].to_vec();
            self.write_line(&line, out)?;
            start = end;
        }
        self.pending.drain(..start);
        if self.pending.len() > MAX_PENDING.max(2 * self.window) {
            self.write_head(out)?;
        }
        out.flush()
    }

    /// Writes whatever is still held once the child's output has ended;
    /// the redactor is then as new, ready for another output.
    pub fn finish(&mut self, out: &mut impl Write) -> io::Result<()> {
        if !self.pending.is_empty() {
            let line = std::mem::take(&mut self.pending);
            self.write_line(&line, out)?;
        }
        self.in_private_key = false;
        out.flush()
    }

    /// Writes the head of a long partial line, keeping back the last
    /// `window` bytes and any match that reaches into them (it may still
    /// grow, or be a secret's first half).
    fn write_head(&mut self, out: &mut impl Write) -> io::Result<()> {
        let keep_from = self.pending.len() - self.window;
        if self.in_private_key {
            if patterns::is_private_key_end(&self.pending[..keep_from]) {
                self.in_private_key = false;
            }
            out.write_all(REDACTED)?;
            self.pending.drain(..keep_from);
            return Ok(());
        }
        let mut cut = keep_from;
        let mut head = Vec::with_capacity(keep_from);
        let mut written = 0;
        for captures in self.matcher.captures_iter(&self.pending) {
            let Some(whole) = captures.get(0) else {
                continue;
            };
            if whole.end() >= keep_from {
                cut = cut.min(whole.start());
                break;
            }
            head.extend_from_slice(&self.pending[written..whole.start()]);
            head.extend_from_slice(&patterns::replacement(&captures));
            written = whole.end();
        }
        if cut == 0 {
            // One match fills the whole buffer: a run of token characters
            // longer than anything we look for. It is redacted as it stands.
            cut = keep_from;
            head.extend_from_slice(REDACTED);
            written = cut;
        }
        head.extend_from_slice(&self.pending[written.min(cut)..cut]);
        if patterns::is_private_key_begin(&head) && !patterns::is_private_key_end(&head) {
            self.in_private_key = true;
        }
        out.write_all(&head)?;
        self.pending.drain(..cut);
        Ok(())
    }

    fn write_line(&mut self, line: &[u8], out: &mut impl Write) -> io::Result<()> {
        let (body, newline) = match line.strip_suffix(b"\n") {
            Some(body) => (body, &b"\n"[..]),
            None => (line, &b""[..]),
        };
        if self.in_private_key {
            if patterns::is_private_key_end(body) {
                self.in_private_key = false;
            }
            out.write_all(REDACTED)?;
            return out.write_all(newline);
        }
        if patterns::is_private_key_begin(body) && !patterns::is_private_key_end(body) {
            self.in_private_key = true;
        }
        let redacted = self
            .matcher
            .replace_all(body, |c: &regex::bytes::Captures<'_>| {
                patterns::replacement(c)
            });
        out.write_all(&redacted)?;
        out.write_all(newline)
    }
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

    /// A child writes `offset` bytes, then a secret in two writes split in
    /// its middle, with no newline anywhere: the secret never shows.
    fn straddling(offset: usize, literal: bool) {
        let secret = if literal {
            "hunter2-correct-horse-battery"
        } else {
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
        };
        let literals: &[&str] = if literal { &[secret] } else { &[] };
        let mut redactor = Redactor::new(literals);
        let mut out = Vec::new();
        let filler = vec![b'.'; offset];
        let (first, second) = secret.as_bytes().split_at(secret.len() / 2);
        for chunk in [&filler[..], first, second, b" tail"] {
            redactor.feed(chunk, &mut out).unwrap();
        }
        redactor.finish(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(!text.contains(secret), "secret shown at offset {offset}");
        assert!(
            !text.contains(&secret[secret.len() / 2..]),
            "half shown at {offset}"
        );
        assert!(text.ends_with("[REDACTED] tail"), "at {offset}");
        assert_eq!(text.len(), offset + "[REDACTED] tail".len());
    }

    #[test]
    fn a_secret_straddling_64_kib_is_redacted() {
        for offset in [
            MAX_PENDING - 20,
            MAX_PENDING - 2,
            MAX_PENDING,
            MAX_PENDING + 1,
        ] {
            straddling(offset, true);
            straddling(offset, false);
        }
    }

    #[test]
    fn a_secret_straddling_1_mib_is_redacted() {
        for offset in [(1 << 20) - 20, (1 << 20) - 1, 1 << 20] {
            straddling(offset, true);
            straddling(offset, false);
        }
    }

    #[test]
    fn a_long_line_is_written_before_it_ends() {
        let mut redactor = Redactor::new::<&str>(&[]);
        let mut out = Vec::new();
        redactor
            .feed(&vec![b'x'; 3 * MAX_PENDING], &mut out)
            .unwrap();
        assert!(
            out.len() >= 2 * MAX_PENDING,
            "held {}",
            3 * MAX_PENDING - out.len()
        );
    }

    #[test]
    fn url_credentials_keep_scheme_and_host() {
        assert_eq!(
            run(&[], &[b"postgres://admin:hunter22@db/x\n"]),
            "postgres://[REDACTED]@db/x\n"
        );
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
