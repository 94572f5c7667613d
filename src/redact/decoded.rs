//! Text as a tool encoded it, decoded for the rules (issue 47): a JSON
//! string's escapes (`https:\/\/admin:pw@db`, `{\"password\": \"…\"}`
//! inside a tool's output) and percent-encoding (`password%3DS3cret%21`,
//! `Bearer%20ghp_…`). The rules read a decoded copy; each span found there
//! is mapped back to the bytes of the original it came from, and redacted
//! there.

use super::work;

/// A decoded copy of a text and where each of its bytes came from.
pub(crate) struct Decoded {
    pub text: String,
    /// `origin[i]`: the original offset of the decoded byte `i`; one more
    /// entry, the original's length, for a span's end.
    origin: Vec<usize>,
}

impl Decoded {
    /// `text` decoded, or `None` when it holds no escape or percent-code
    /// to decode (the common case, found with one scan for `\` and `%`).
    pub(crate) fn of(text: &str) -> Option<Decoded> {
        let bytes = text.as_bytes();
        work::read(bytes.len());
        memchr::memchr2(b'\\', b'%', bytes)?;
        let mut out = Vec::with_capacity(bytes.len());
        let mut origin = Vec::with_capacity(bytes.len() + 1);
        let mut at = 0;
        let mut changed = false;
        while at < bytes.len() {
            let (byte, width) = match decode_at(bytes, at) {
                Some(decoded) => {
                    changed = true;
                    decoded
                }
                None => (bytes[at], 1),
            };
            out.push(byte);
            origin.push(at);
            at += width;
        }
        work::read(bytes.len());
        origin.push(bytes.len());
        // Only ASCII is decoded, and only to ASCII: the copy stays UTF-8.
        let text = String::from_utf8(out).ok()?;
        changed.then_some(Decoded { text, origin })
    }

    /// The original bytes of the decoded `start..end`.
    pub(crate) fn original(&self, start: usize, end: usize) -> (usize, usize) {
        (self.origin[start], self.origin[end])
    }
}

/// The byte an escape at `at` stands for, and how many bytes it takes:
/// `\"`, `\\`, `\/`, `\n`, `\t`, `\r`, and `%XX` of a printable ASCII
/// character, a tab or a line end.
fn decode_at(bytes: &[u8], at: usize) -> Option<(u8, usize)> {
    match bytes[at] {
        b'\\' => {
            let byte = match bytes.get(at + 1)? {
                b'"' => b'"',
                b'\\' => b'\\',
                b'/' => b'/',
                b'n' => b'\n',
                b't' => b'\t',
                b'r' => b'\r',
                _ => return None,
            };
            Some((byte, 2))
        }
        b'%' => {
            let hex = |b: u8| (b as char).to_digit(16);
            let high = hex(*bytes.get(at + 1)?)?;
            let low = hex(*bytes.get(at + 2)?)?;
            let byte = u8::try_from(high * 16 + low).ok()?;
            (byte.is_ascii_graphic() || matches!(byte, b' ' | b'\t' | b'\n' | b'\r'))
                .then_some((byte, 3))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_percent_codes_are_decoded_and_mapped_back() {
        let text = r#"{\"url\": \"https:\/\/a%3Ab@h\"} 100%"#;
        let decoded = Decoded::of(text).unwrap();
        assert_eq!(decoded.text, r#"{"url": "https://a:b@h"} 100%"#);
        let start = decoded.text.find("a:b").unwrap();
        let (from, to) = decoded.original(start, start + 3);
        assert_eq!(&text[from..to], "a%3Ab");
    }

    #[test]
    fn text_without_codes_or_with_only_non_ascii_ones_is_not_copied() {
        assert!(Decoded::of("plain text, 100 % sure").is_none());
        assert!(Decoded::of("caf%C3%A9 and \\u00e9").is_none());
    }
}
