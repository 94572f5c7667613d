//! The one journal line a search reads most: a message of one text part,
//! as `record` writes it, taken apart without building its JSON value.
//!
//! [`read`] accepts only lines of exactly this shape, byte for byte
//! (nothing added, left out or reordered, no spaces):
//!
//! `{"type":"message","at":S,"tokens":N,"message":{"role":S,"parts":[{"type":"text","text":S}],"timestamp":S}}`
//!
//! (`"tokens":N,` may be absent, as `record` leaves it when not given.)
//!
//! Every such line is one [`super::journal::parse_line`] accepts, as a
//! message whose text is the part's text; any other line gives `None`, and
//! the caller parses it in full. A string holding a `\u` escape is left to
//! the full parse too: it may be a lone surrogate, which
//! [`crate::lossless`] carries through as a stand-in.

use std::borrow::Cow;

/// What a search checks in a message.
#[derive(Debug, PartialEq)]
pub(crate) struct PlainMessage<'a> {
    pub role: Cow<'a, str>,
    pub text: Cow<'a, str>,
    pub timestamp: Cow<'a, str>,
}

/// The message `line` (valid UTF-8, without its newline) holds, when the
/// line has the shape above.
pub(crate) fn read(line: &str) -> Option<PlainMessage<'_>> {
    let mut rest = line.strip_prefix(r#"{"type":"message","at":"#)?;
    string(&mut rest)?;
    if let Some(after) = rest.strip_prefix(r#","tokens":"#) {
        rest = after;
        tokens(&mut rest)?;
    }
    rest = rest.strip_prefix(r#","message":{"role":"#)?;
    let role = string(&mut rest)?;
    rest = rest.strip_prefix(r#","parts":[{"type":"text","text":"#)?;
    let text = string(&mut rest)?;
    rest = rest.strip_prefix(r#"}],"timestamp":"#)?;
    let timestamp = string(&mut rest)?;
    (rest == "}}").then_some(PlainMessage {
        role,
        text,
        timestamp,
    })
}

/// A JSON string at the start of `rest`, decoded; `rest` moves past it.
/// `None` for anything the full parse should judge: no string there, a
/// control character, a `\u` escape.
fn string<'a>(rest: &mut &'a str) -> Option<Cow<'a, str>> {
    let bytes = rest.as_bytes();
    if bytes.first() != Some(&b'"') {
        return None;
    }
    let mut escaped = false;
    let mut at = 1;
    loop {
        // The run up to the next quote or backslash, looked through at
        // once for a control character (no early exit, so it vectorizes).
        let run = memchr::memchr2(b'"', b'\\', &bytes[at..])?;
        if bytes[at..at + run]
            .iter()
            .fold(false, |seen, &b| seen | (b < 0x20))
        {
            return None;
        }
        at += run;
        if bytes[at] == b'"' {
            break;
        }
        if !matches!(
            bytes.get(at + 1)?,
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't'
        ) {
            return None;
        }
        escaped = true;
        at += 2;
    }
    let quoted = &rest[..=at];
    *rest = &rest[at + 1..];
    if escaped {
        serde_json::from_str::<String>(quoted).ok().map(Cow::Owned)
    } else {
        Some(Cow::Borrowed(&quoted[1..at]))
    }
}

/// A token count: a JSON integer that fits a u64, as the full parse reads it.
fn tokens(rest: &mut &str) -> Option<u64> {
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let (number, after) = rest.split_at(digits);
    if number.is_empty() || (number.len() > 1 && number.starts_with('0')) {
        return None;
    }
    *rest = after;
    number.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::super::journal::{Record, parse_line};
    use super::*;
    use crate::session::model::{Entry, Stored};

    /// What the full parse makes of `line`: the message's role, text and
    /// time, when it is a message.
    fn parsed(line: &str) -> Option<(String, String, String)> {
        match parse_line(line.as_bytes(), false) {
            Ok(Record::Stored(Stored::Entry {
                entry: Entry::Message(m),
                ..
            })) => Some((
                m.role().to_string(),
                m.text_content(),
                m.timestamp().to_string(),
            )),
            _ => None,
        }
    }

    fn line(at: &str, tokens: &str, role: &str, text: &str, timestamp: &str) -> String {
        format!(
            r#"{{"type":"message","at":{at},"tokens":{tokens},"message":{{"role":{role},"parts":[{{"type":"text","text":{text}}}],"timestamp":{timestamp}}}}}"#
        )
    }

    #[test]
    fn a_line_read_here_is_the_message_the_full_parse_gives() {
        let t = r#""2026-01-01T00:00:00.000Z""#;
        let texts = [
            r#""plain words""#,
            r#""say \"hi\"\n\ttabbed \\ slash \/ \b \f \r""#,
            r#""""#,
            "\"caf\u{e9} \u{2026}\"",
        ];
        let without_tokens = line(t, "1", r#""user""#, texts[0], t).replace(r#""tokens":1,"#, "");
        for l in texts
            .iter()
            .map(|text| line(t, "39", r#""user""#, text, t))
            .chain([without_tokens])
        {
            let fast = read(&l).unwrap_or_else(|| panic!("not read: {l}"));
            let full = parsed(&l).unwrap();
            assert_eq!(
                (
                    fast.role.into_owned(),
                    fast.text.into_owned(),
                    fast.timestamp.into_owned()
                ),
                full,
                "{l}"
            );
        }
    }

    #[test]
    fn every_character_record_writes_reads_as_the_full_parse_reads_it() {
        let mut chars: Vec<char> = (0..0x80u8).map(char::from).collect();
        chars.extend(['\u{a0}', '\u{2028}', '\u{fffd}', '\u{10f800}', '😀']);
        for c in chars {
            let text = format!("a{c}b");
            let entry = Entry::Message(crate::session::model::Message::text("user", &text, "t"));
            let written = super::super::journal::entry_line(&entry, "at", Some(3));
            let l = std::str::from_utf8(&written)
                .unwrap()
                .trim_end_matches('\n');
            let full = parsed(l).unwrap();
            match read(l) {
                Some(m) => assert_eq!(
                    (
                        m.role.into_owned(),
                        m.text.into_owned(),
                        m.timestamp.into_owned()
                    ),
                    full,
                    "{l}"
                ),
                // Only a \u escape (a control character) is left to the full parse.
                None => assert!(l.contains("\\u"), "not read: {l}"),
            }
        }
    }

    #[test]
    fn every_other_line_is_left_to_the_full_parse() {
        let t = r#""2026-01-01T00:00:00.000Z""#;
        let good = line(t, "7", r#""user""#, r#""hi""#, t);
        let others = [
            // Escapes that may be lone surrogates, and invalid JSON.
            line(t, "7", r#""user""#, r#""\ud83d""#, t),
            line(t, "7", r#""user""#, r#""\u0041""#, t),
            line(t, "7", r#""user""#, r#""bad \x escape""#, t),
            line(t, "7", r#""user""#, "\"raw\ttab\"", t),
            line(t, "7", r#""user""#, r#""unterminated"#, t),
            // Numbers the full parse reads differently or refuses.
            line(t, "07", r#""user""#, r#""hi""#, t),
            line(t, "-1", r#""user""#, r#""hi""#, t),
            line(t, "1.5", r#""user""#, r#""hi""#, t),
            line(t, "99999999999999999999", r#""user""#, r#""hi""#, t),
            line(t, "", r#""user""#, r#""hi""#, t),
            // Other types where strings belong.
            line(t, "7", "3", r#""hi""#, t),
            line(t, "7", r#""user""#, r#""hi""#, "null"),
            // Anything added, spaced or reordered.
            good.replace(r#""hi"}]"#, r#""hi","more":1}]"#),
            good.replace("}}", "},\"x\":1}"),
            good.replace(r#""at":"#, r#""at": "#),
            good.replacen(r#""type":"message""#, r#""type":"toolCall""#, 1),
            format!("{good} "),
        ];
        assert!(read(&good).is_some());
        for other in &others {
            assert!(read(other).is_none(), "{other}");
        }
    }
}
