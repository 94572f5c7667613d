//! JSON text that is valid but not valid UTF-8 once decoded: lone UTF-16
//! surrogate escapes (`"\ud83d"`), which JavaScript's `JSON.stringify`
//! writes for a string cut in the middle of an emoji. serde_json refuses
//! them, so they are carried through as stand-ins and written back as the
//! escapes they were.
//!
//! [`decode`] rewrites each lone surrogate escape (`\uD800`–`\uDFFF` not
//! part of a pair) into the escaped pair of a stand-in character in the
//! last 2,048 code points of Unicode's private use plane 16 (U+10F800 +
//! the surrogate's offset). The text stays valid JSON and parses with any
//! serde_json call. [`to_vec`] and [`to_vec_pretty`] write a stand-in back
//! as the lowercase `\udXXX` escape `JSON.stringify` writes, so a file
//! written by the OLLM CLI comes back byte for byte; [`shown`] gives the
//! U+FFFD a terminal shows for it. A text that already holds characters of
//! that range cannot be told apart from stand-ins: [`Decoded::exact`] is
//! false for it, and a writer refuses to rewrite it.

use std::borrow::Cow;
use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};

/// The first stand-in character: U+10F800 stands for `\ud800`.
const FIRST: u32 = 0x10_F800;
const SURROGATES: std::ops::RangeInclusive<u32> = 0xD800..=0xDFFF;

/// JSON text with its lone surrogates replaced by stand-ins.
#[derive(Debug)]
pub struct Decoded<'a> {
    pub text: Cow<'a, [u8]>,
    /// Whether writing the parsed value back gives the same characters
    /// (false: the text already held characters of the stand-ins' range).
    pub exact: bool,
}

/// Whether `c` stands for a lone surrogate.
pub(crate) fn is_stand_in(c: char) -> bool {
    // The stand-ins run to the last code point, U+10FFFF.
    c as u32 >= FIRST
}

/// The surrogate a stand-in replaces.
fn surrogate_of(c: char) -> u32 {
    0xD800 + (c as u32 - FIRST)
}

/// `text` as a person sees it: each stand-in as U+FFFD, the replacement
/// character a decoder shows for a lone surrogate.
pub fn shown(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_stand_in) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| if is_stand_in(c) { '\u{FFFD}' } else { c })
            .collect(),
    )
}

fn hex4(bytes: &[u8]) -> Option<u32> {
    let digits = bytes.get(..4)?;
    let text = std::str::from_utf8(digits).ok()?;
    u32::from_str_radix(text, 16).ok()
}

/// The code unit of the `\uXXXX` escape at `at`, if one starts there.
fn escape_at(bytes: &[u8], at: usize) -> Option<u32> {
    (bytes.get(at) == Some(&b'\\') && bytes.get(at + 1) == Some(&b'u'))
        .then(|| hex4(&bytes[at + 2..]))
        .flatten()
}

/// Replaces every lone surrogate escape in the JSON text `bytes` by its
/// stand-in (see the module documentation). Borrows when there is none.
pub fn decode(bytes: &[u8]) -> Decoded<'_> {
    // Raw UTF-8 of U+10F800..U+10FFFF starts F4 8F A0..BF (looked for
    // from each F4: every record a search reads passes through here).
    let mut exact = !memchr::memchr_iter(0xF4, bytes).any(|at| {
        bytes.get(at + 1) == Some(&0x8F) && bytes.get(at + 2).is_some_and(|&b| b >= 0xA0)
    });
    let mut out: Option<Vec<u8>> = None;
    let mut copied = 0;
    let mut at = 0;
    // `at` may pass the end: a backslash that ends the text skips two bytes.
    while let Some(found) = bytes.get(at..).and_then(memchr_backslash) {
        at += found;
        let Some(unit) = escape_at(bytes, at) else {
            at += 2; // any other escape: `\"`, `\\`, `\n`, …
            continue;
        };
        if !SURROGATES.contains(&unit) {
            at += 6;
            continue;
        }
        if (0xD800..=0xDBFF).contains(&unit)
            && let Some(low) = escape_at(bytes, at + 6)
            && (0xDC00..=0xDFFF).contains(&low)
        {
            let c = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
            if c >= FIRST {
                exact = false;
            }
            at += 12;
            continue;
        }
        let out = out.get_or_insert_with(|| Vec::with_capacity(bytes.len() + 16));
        out.extend_from_slice(&bytes[copied..at]);
        let stand_in = FIRST + (unit - 0xD800);
        let high = 0xD800 + ((stand_in - 0x10000) >> 10);
        let low = 0xDC00 + ((stand_in - 0x10000) & 0x3FF);
        let _ = write!(out, "\\u{high:04x}\\u{low:04x}");
        at += 6;
        copied = at;
    }
    let text = match out {
        Some(mut out) => {
            out.extend_from_slice(&bytes[copied..]);
            Cow::Owned(out)
        }
        None => Cow::Borrowed(bytes),
    };
    Decoded { text, exact }
}

fn memchr_backslash(bytes: &[u8]) -> Option<usize> {
    crate::byte_search::find_byte(b'\\', bytes)
}

/// A formatter that writes stand-ins back as the escapes they replaced.
struct Restoring<F>(F);

impl<F: Formatter> Formatter for Restoring<F> {
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        // Every stand-in's UTF-8 begins with byte F4 (as do only the code
        // points from U+100000): a fragment without one is written as it is.
        let Some(first) = memchr::memchr(0xF4, fragment.as_bytes()) else {
            return writer.write_all(fragment.as_bytes());
        };
        writer.write_all(&fragment.as_bytes()[..first])?;
        let mut rest = &fragment[first..];
        while let Some((at, c)) = rest.char_indices().find(|(_, c)| is_stand_in(*c)) {
            writer.write_all(&rest.as_bytes()[..at])?;
            write!(writer, "\\u{:04x}", surrogate_of(c))?;
            rest = &rest[at + c.len_utf8()..];
        }
        writer.write_all(rest.as_bytes())
    }

    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn end_object_key<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_key(w)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// Writes `value` as compact JSON, stand-ins as their escapes.
pub(crate) fn to_writer<W: Write, T: Serialize + ?Sized>(
    writer: W,
    value: &T,
) -> serde_json::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(writer, Restoring(CompactFormatter));
    value.serialize(&mut ser)
}

/// Writes `value` as JSON indented by two spaces, as `JSON.stringify(value,
/// null, 2)` does, stand-ins as their escapes.
pub(crate) fn to_writer_pretty<W: Write, T: Serialize + ?Sized>(
    writer: W,
    value: &T,
) -> serde_json::Result<()> {
    let formatter = Restoring(PrettyFormatter::with_indent(b"  "));
    let mut ser = serde_json::Serializer::with_formatter(writer, formatter);
    value.serialize(&mut ser)
}

/// [`to_writer`] into a new vector.
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(128);
    to_writer(&mut out, value)?;
    Ok(out)
}

/// [`to_writer_pretty`] into a new vector.
pub fn to_vec_pretty<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(128);
    to_writer_pretty(&mut out, value)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn round_trip_pretty(text: &str) -> String {
        let decoded = decode(text.as_bytes());
        assert!(decoded.exact);
        let value: Value = serde_json::from_slice(&decoded.text).unwrap();
        String::from_utf8(to_vec_pretty(&value).unwrap()).unwrap()
    }

    #[test]
    fn a_lone_surrogate_comes_back_as_the_escape_it_was() {
        let text = "{\n  \"text\": \"cut \\ud83d\",\n  \"low\": \"\\udc00x\\ud800\"\n}";
        assert_eq!(round_trip_pretty(text), text);
    }

    #[test]
    fn pairs_and_other_escapes_are_left_alone() {
        let text = r#"{"a":"\ud83d\ude00 \\ud800 \" \n \u00e9"}"#;
        let decoded = decode(text.as_bytes());
        assert!(matches!(decoded.text, Cow::Borrowed(_)));
        let value: Value = serde_json::from_slice(&decoded.text).unwrap();
        assert_eq!(value["a"], "😀 \\ud800 \" \n é");
    }

    #[test]
    fn an_escaped_backslash_before_u_is_not_an_escape() {
        // `\\ud800` is a backslash and the letters "ud800".
        let text = br#"["\\ud800"]"#;
        assert!(matches!(decode(text).text, Cow::Borrowed(_)));
    }

    #[test]
    fn text_cut_anywhere_inside_an_escape_is_left_to_the_parser() {
        for text in [&b"\\"[..], b"[\"a\\", b"\\u", b"\\ud8"] {
            assert_eq!(decode(text).text, text, "{}", String::from_utf8_lossy(text));
        }
        // A lone half before a cut escape is replaced; the cut part is kept.
        for (text, tail) in [
            (&b"\\ud83d"[..], &b""[..]),
            (b"\\ud83d\\", b"\\"),
            (b"\\ud83d\\udc", b"\\udc"),
        ] {
            let decoded = decode(text);
            assert!(
                decoded.text.starts_with(br"\udbfe\udc3d"),
                "{:?}",
                decoded.text
            );
            assert!(decoded.text.ends_with(tail));
        }
    }

    #[test]
    fn only_an_escape_makes_a_pair() {
        // `x` where the low half's backslash would be: no pair, a lone half.
        let decoded = decode(br#"["\ud83dxudc00"]"#);
        let value: Vec<String> = serde_json::from_slice(&decoded.text).unwrap();
        assert_eq!(shown(&value[0]), "\u{FFFD}xudc00");
    }

    #[test]
    fn stand_ins_are_shown_as_the_replacement_character() {
        let decoded = decode(br#"["a\ud83db"]"#);
        let value: Vec<String> = serde_json::from_slice(&decoded.text).unwrap();
        assert_eq!(shown(&value[0]), "a\u{FFFD}b");
        assert_eq!(to_vec(&value).unwrap(), br#"["a\ud83db"]"#);
    }

    #[test]
    fn text_already_holding_the_range_is_not_exact() {
        assert!(!decode("[\"\u{10F900}\"]".as_bytes()).exact);
        assert!(!decode(br#"["\udbfe\udc00"]"#).exact);
        assert!(decode("[\"\u{10F7FF}\"]".as_bytes()).exact);
    }

    #[test]
    fn the_pretty_form_is_json_stringify_s() {
        let value: Value = serde_json::from_str(r#"{"a":[],"b":{},"c":[1,{"d":null}]}"#).unwrap();
        let text = String::from_utf8(to_vec_pretty(&value).unwrap()).unwrap();
        assert_eq!(
            text,
            "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    1,\n    {\n      \"d\": null\n    }\n  ]\n}"
        );
    }
}
