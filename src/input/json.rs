//! JSON as every program parses it: one-line errors naming the field, and
//! the limits kept (integers exact to 64 bits, records nested at most
//! [`MAX_RECORD_NESTING`] levels).

use serde::de::DeserializeOwned;

use crate::error::{Error, Result};
use crate::text::one_line;

/// Parses `text` as JSON into `T`, with the path of a wrong-typed field and
/// the line and column of a syntax error in the one-line message.
pub fn parse_json<T: DeserializeOwned>(text: &str, name: &str) -> Result<T> {
    if text.trim().is_empty() {
        return Err(Error::input(format!("{name} is empty; expected JSON")));
    }
    check_integers(text, name)?;
    // Lone surrogate escapes (JavaScript writes them) are kept, not refused.
    let decoded = crate::lossless::decode(text.as_bytes());
    let mut de = serde_json::Deserializer::from_slice(&decoded.text);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| json_error(name, e))?;
    de.end()
        .map_err(|e| Error::input(format!("{name}: trailing data after the JSON value ({e})")))?;
    Ok(value)
}

fn json_error(name: &str, err: serde_path_to_error::Error<serde_json::Error>) -> Error {
    let path = err.path().to_string();
    let inner = err.into_inner();
    // serde_path_to_error says "?" when the error is in the syntax, not a field.
    let at = if path.is_empty() || path == "." || path == "?" {
        String::new()
    } else {
        // A key may hold a newline; the error stays one line.
        format!(" at `{}`", one_line(&path))
    };
    Error::input(format!("{name}{at}: {}", one_line(&inner.to_string())))
}

/// The deepest a stored record (a message or a tool call) may nest, as
/// JSON arrays and objects. Writers refuse deeper records, so every reader
/// (whose parser stops at 128 levels for a whole document, the record's
/// envelope included) reads all that was written.
pub const MAX_RECORD_NESTING: usize = 100;

/// Where the JSON string starting after `from` ends (just past its closing
/// quote), jumping over its contents a vector at a time: most bytes of a large
/// record are inside strings.
fn skip_string(bytes: &[u8], mut from: usize) -> usize {
    while let Some(at) = crate::byte_search::find_either(b'"', b'\\', &bytes[from..]) {
        let at = from + at;
        if bytes[at] == b'"' {
            return at + 1;
        }
        from = at + 2;
        if from >= bytes.len() {
            break;
        }
    }
    bytes.len()
}

/// How deeply the JSON text `bytes` nests arrays and objects.
pub fn json_nesting(bytes: &[u8]) -> usize {
    let (mut depth, mut deepest, mut i) = (0usize, 0usize, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i = skip_string(bytes, i + 1);
                continue;
            }
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    deepest
}

/// Refuses JSON text holding a record (a message or tool call) nested
/// deeper than [`MAX_RECORD_NESTING`]: `envelope` is how many levels of
/// arrays and objects of the text lie around the record (0: the text is
/// the record). Every writer of records checks through this one function.
pub fn check_record_nesting(bytes: &[u8], envelope: usize) -> Result<()> {
    if json_nesting(bytes) > MAX_RECORD_NESTING + envelope {
        return Err(Error::input(format!(
            "the record nests deeper than {MAX_RECORD_NESTING} levels, more than a session keeps"
        )));
    }
    Ok(())
}

/// Refuses JSON text holding an integer outside the range kept exactly
/// (−2⁶³ to 2⁶⁴−1): the parser would turn it into an approximate float.
pub fn check_integers(text: &str, name: &str) -> Result<()> {
    let bytes = text.as_bytes();
    // Every integer outside the range has at least 19 digits in a row.
    if !has_digit_run(bytes, 19) {
        return Ok(());
    }
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'"' {
            i = skip_string(bytes, i + 1);
            continue;
        }
        if b == b'-' || b.is_ascii_digit() {
            let start = i;
            while i < bytes.len()
                && matches!(bytes[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
            {
                i += 1;
            }
            // Up to 19 digits always fit; only longer tokens need a look.
            if i - start > 19 {
                let token = &text[start..i];
                let digits = token.strip_prefix('-').unwrap_or(token);
                if !digits.is_empty()
                    && digits.bytes().all(|d| d.is_ascii_digit())
                    && token.parse::<i64>().is_err()
                    && token.parse::<u64>().is_err()
                {
                    return Err(Error::input(format!(
                        "{name}: the integer {} is outside the range kept exactly (-9223372036854775808 to 18446744073709551615); write it as a string",
                        preview(token)
                    )));
                }
            }
            continue;
        }
        i += 1;
    }
    Ok(())
}

/// Whether `bytes` hold `len` (at least 1) ASCII digits in a row. Every
/// such run covers a multiple of `len` past the last non-digit seen, so only
/// those bytes are looked at until a digit turns up.
fn has_digit_run(bytes: &[u8], len: usize) -> bool {
    let mut probe = len - 1;
    while probe < bytes.len() {
        if !bytes[probe].is_ascii_digit() {
            probe += len;
            continue;
        }
        let start = bytes[..probe]
            .iter()
            .rposition(|b| !b.is_ascii_digit())
            .map_or(0, |at| at + 1);
        let end = bytes[probe..]
            .iter()
            .position(|b| !b.is_ascii_digit())
            .map_or(bytes.len(), |at| probe + at);
        if end - start >= len {
            return true;
        }
        probe = end + len;
    }
    false
}

fn preview(token: &str) -> String {
    if token.len() <= 40 {
        token.to_string()
    } else {
        format!("{}… ({} digits)", &token[..24], token.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_runs_are_found_wherever_they_lie() {
        let naive = |bytes: &[u8], len: usize| {
            bytes
                .split(|b| !b.is_ascii_digit())
                .any(|run| run.len() >= len)
        };
        // Every placement of runs of 1 to 7 digits among letters, for runs of 3.
        for n in 0..12usize {
            for mask in 0..(1u32 << n) {
                let text: Vec<u8> = (0..n)
                    .map(|i| if mask >> i & 1 == 1 { b'7' } else { b'x' })
                    .collect();
                for len in 1..5 {
                    assert_eq!(
                        has_digit_run(&text, len),
                        naive(&text, len),
                        "{text:?} {len}"
                    );
                }
            }
        }
        assert!(check_integers(r#"{"n":-99999999999999999999}"#, "in").is_err());
        assert!(check_integers(r#"{"n":"99999999999999999999"}"#, "in").is_ok());
        assert!(check_integers(r#"{"n":9999999999999999999}"#, "in").is_ok());
    }

    #[test]
    fn a_key_holding_a_newline_keeps_the_error_on_one_line() {
        // Found by fuzz/fuzz_targets/loopcheck_events.rs.
        let err = parse_json::<serde_json::Value>("[[{\"a\\nb\": [1,", "input").unwrap_err();
        assert!(!err.to_string().contains('\n'), "{err}");
    }

    #[test]
    fn json_type_errors_name_the_field_path() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Doc {
            inner: Inner,
        }
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Inner {
            count: u32,
        }
        let err = parse_json::<Doc>(r#"{"inner": {"count": "three"}}"#, "input").unwrap_err();
        let text = err.to_string();
        assert!(text.contains("`inner.count`"), "{text}");
        assert!(!text.contains('\n'));
    }

    #[test]
    fn syntax_errors_name_no_field_path() {
        let err = parse_json::<serde_json::Value>("{bad", "input").unwrap_err();
        assert!(!err.to_string().contains('`'), "{err}");
    }

    #[test]
    fn empty_and_trailing_input_are_refused() {
        assert!(parse_json::<serde_json::Value>("  ", "input").is_err());
        assert!(parse_json::<serde_json::Value>("{} {}", "input").is_err());
    }

    #[test]
    fn integers_beyond_64_bits_are_refused_not_rounded() {
        assert!(
            parse_json::<serde_json::Value>(
                "[18446744073709551615, -9223372036854775808, 1e300, \"100000000000000000001\"]",
                "in"
            )
            .is_ok()
        );
        let err =
            parse_json::<serde_json::Value>("{\"n\": 100000000000000000001}", "in").unwrap_err();
        assert!(err.to_string().contains("100000000000000000001"), "{err}");
        assert!(parse_json::<serde_json::Value>("[-9223372036854775809]", "in").is_err());
    }

    #[test]
    fn nesting_counts_brackets_outside_strings() {
        assert_eq!(json_nesting(br#"{"a":[{"b":"[[[\"{"}]}"#), 3);
        assert_eq!(json_nesting(b"1"), 0);
    }
}
