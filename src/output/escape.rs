//! Terminal safety for everything a program shows a person: text that came
//! from a model, a tool or a file never reaches a terminal with its control
//! characters live. A control character is shown visibly instead (`\x1b`,
//! `\r`, `\u{202e}`), as `ls` and git show them, so an escape sequence can
//! neither drive the terminal (set its title, clear it, write the clipboard
//! through OSC 52) nor rewrite what the user sees (a lone CR, a bidi override).
//!
//! JSON escapes C0 controls by construction; [`escape_json`] adds what
//! serde_json leaves raw (DEL, C1 controls, bidi controls) as `\uXXXX`, which
//! decodes to the same string, so JSON shown at a terminal stays valid JSON.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` must not reach a terminal raw. Newline and tab are layout,
/// not control, in multi-line text; [`escape_line`] escapes them as well.
pub fn is_hostile(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        // Bidirectional embeddings, overrides and isolates, and the marks
        // that reorder text: they change what a line appears to say.
        | '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
    )
}

/// Multi-line text for a terminal: every hostile character made visible,
/// newlines and tabs kept.
pub fn escape_text(text: &str) -> Cow<'_, str> {
    escape_where(text, is_hostile)
}

/// One line for a terminal (a table cell, a diagnostic): newlines and tabs
/// are made visible too, so a value can never start a line of its own.
pub fn escape_line(text: &str) -> Cow<'_, str> {
    escape_where(text, |c| c == '\n' || c == '\t' || is_hostile(c))
}

/// JSON text for a terminal: the characters serde_json writes raw (DEL, C1,
/// bidi controls; they can only stand inside strings) as `\uXXXX` escapes.
pub(crate) fn escape_json(json: &str) -> Cow<'_, str> {
    if !json.chars().any(is_hostile) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if is_hostile(c) {
            let _ = write!(out, "\\u{:04x}", c as u32);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Raw bytes (a file name that may not be UTF-8) for a terminal: valid UTF-8
/// runs escaped as [`escape_line`] does, each invalid byte as `\xNN`.
pub(crate) fn escape_bytes(bytes: &[u8]) -> Cow<'_, [u8]> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return match escape_line(text) {
            Cow::Borrowed(_) => Cow::Borrowed(bytes),
            Cow::Owned(escaped) => Cow::Owned(escaped.into_bytes()),
        };
    }
    let mut out = String::with_capacity(bytes.len() + 16);
    for chunk in bytes.utf8_chunks() {
        out.push_str(&escape_line(chunk.valid()));
        for byte in chunk.invalid() {
            let _ = write!(out, "\\x{byte:02x}");
        }
    }
    Cow::Owned(out.into_bytes())
}

/// A stand-in for a lone surrogate ([`crate::lossless`]) is shown as the
/// U+FFFD a decoder shows for one.
fn escape_where(text: &str, hostile: impl Fn(char) -> bool) -> Cow<'_, str> {
    let shown_otherwise = |c| hostile(c) || crate::lossless::is_stand_in(c);
    if !text.chars().any(shown_otherwise) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if crate::lossless::is_stand_in(c) {
            out.push('\u{FFFD}');
            continue;
        }
        if !hostile(c) {
            out.push(c);
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{0}'..='\u{7f}' => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            _ => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &[&str] = &[
        "\u{1b}]0;PWNED\u{7}",       // OSC: window title
        "\u{1b}]52;c;ZXZpbA==\u{7}", // OSC 52: clipboard write
        "\u{1b}[2J\u{1b}[H",         // CSI: clear screen, cursor home
        "\u{9b}31m",                 // 8-bit CSI
        "safe\rEVIL",                // lone CR overwrites the line
        "\u{202e}txt.exe",           // right-to-left override
        "a\u{0}b",                   // NUL
        "\u{7f}\u{8}",               // DEL, backspace
    ];

    fn raw_controls(text: &str) -> Vec<char> {
        text.chars()
            .filter(|&c| c != '\n' && c != '\t' && is_hostile(c))
            .collect()
    }

    #[test]
    fn no_hostile_sequence_survives_escaping() {
        for sample in HOSTILE {
            assert_eq!(
                raw_controls(&escape_text(sample)),
                Vec::<char>::new(),
                "{sample:?}"
            );
            assert_eq!(
                raw_controls(&escape_line(sample)),
                Vec::<char>::new(),
                "{sample:?}"
            );
        }
    }

    #[test]
    fn escapes_are_visible_and_name_the_character() {
        assert_eq!(escape_text("a\u{1b}[2Jb"), "a\\x1b[2Jb");
        assert_eq!(escape_text("safe\rEVIL"), "safe\\rEVIL");
        assert_eq!(escape_text("\u{202e}x"), "\\u{202e}x");
        assert_eq!(escape_text("\u{9b}"), "\\u{9b}");
        assert_eq!(escape_text("\u{7f}"), "\\x7f");
    }

    #[test]
    fn a_lone_surrogate_s_stand_in_is_shown_as_the_replacement_character() {
        let stand_in = char::from_u32(0x10_F83D).unwrap();
        assert_eq!(escape_text(&format!("cut {stand_in}")), "cut \u{FFFD}");
        assert_eq!(escape_line(&format!("{stand_in}\n")), "\u{FFFD}\\n");
    }

    #[test]
    fn ordinary_text_is_borrowed_unchanged() {
        let text = "héllo → wörld\n\tindented 日本";
        assert!(matches!(escape_text(text), Cow::Borrowed(_)));
        assert_eq!(escape_line("a\nb\tc"), "a\\nb\\tc");
    }

    #[test]
    fn escaped_json_decodes_to_the_same_value() {
        let value = serde_json::json!({"title": "x\u{202e}y\u{9b}z\u{7f}", "n": 1});
        let json = serde_json::to_string(&value).unwrap();
        let escaped = escape_json(&json);
        assert_eq!(raw_controls(&escaped), Vec::<char>::new());
        let back: serde_json::Value = serde_json::from_str(&escaped).unwrap();
        assert_eq!(back, value);
    }

    #[test]
    fn invalid_utf8_bytes_are_shown_as_hex() {
        assert_eq!(&*escape_bytes(b"a\xffb\x1b"), b"a\\xffb\\x1b");
        assert!(matches!(escape_bytes(b"plain.rs"), Cow::Borrowed(_)));
    }
}
