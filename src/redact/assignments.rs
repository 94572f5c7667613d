//! Assignments to a name that holds secrets (`DB_PASSWORD=…`,
//! `"api_key": "…"`, `secret: …`): their values, unless a value is a
//! sample (`<your token>`, `$API_KEY`, `xxxx`) or a path.
//!
//! In time linear in the text whatever it holds (issue 54): a bare value
//! ends at the first white space or punctuation, so the values of names
//! nested in one bare value (`password=password=…`) all end where it ends;
//! that run is read once, and what decides whether each of its values is a
//! secret ([`BareRun`]) is known for all of them from that one read.

use std::borrow::Cow;
use std::sync::OnceLock;

use super::literals::LiteralSet;
use super::names;
use super::span::Span;
use super::work;

/// The shortest assigned value taken for a secret: shorter ones are flags
/// and numbers (`AUTH=1`, `TOKEN_TTL=3600`).
const MIN_ASSIGNED_SECRET: usize = 6;

/// The longest name read back or forth from one of its secret words.
const MAX_NAME: usize = 80;

const MARKER: &[u8] = b"[REDACTED:";

/// Assignments to a name whose words say it holds a secret.
pub(crate) fn assignments(text: &str, bulk: bool, spans: &mut Vec<Span>) {
    let bytes = text.as_bytes();
    work::read(bytes.len());
    if !bytes.iter().any(|&b| b == b'=' || b == b':') {
        return;
    }
    let words = if bulk {
        super::bulk::secret_words_in(bytes)
    } else {
        secret_words_in(bytes)
    };
    assignments_at(text, &words, spans);
}

/// [`assignments`], given where `text` holds a secret word as a word of a
/// name (`words`, in order: [`super::bulk::read_literals`]).
pub(crate) fn assignments_at(text: &str, words: &[(usize, usize)], spans: &mut Vec<Span>) {
    let bytes = text.as_bytes();
    let mut searched = usize::MAX;
    let mut run: Option<BareRun> = None;
    for &(word_start, _) in words {
        let name_start = name_start(bytes, word_start);
        if name_start == searched || !starts_a_name(bytes, name_start) {
            continue;
        }
        searched = name_start;
        let Some(((name_from, name_to), at)) = assignment_at(bytes, name_start) else {
            continue;
        };
        let Some(name_text) = text.get(name_from..name_to) else {
            continue;
        };
        if !is_secret_word_name(name_text) {
            continue;
        }
        let value = match bytes.get(at) {
            Some(&quote @ (b'"' | b'\'' | b'`')) => quoted_value(text, at + 1, quote),
            _ => {
                let inside = run
                    .as_ref()
                    .is_some_and(|run| run.start <= at && at <= run.end);
                if !inside {
                    run = Some(BareRun::read(bytes, at));
                }
                run.as_ref().and_then(|run| run.secret_value(bytes, at))
            }
        };
        if let Some((start, end)) = value {
            spans.push(Span {
                start,
                end,
                kind: Cow::Borrowed("secret-assignment"),
            });
        }
    }
}

/// The assignment starting at `name_start` (`NAME=value`, `NAME: value`,
/// `"name": "value"`, `:=`, `=>`): the name's range and where its value
/// starts (at its opening quote when quoted). Parsed by hand: a regex
/// would cost more to build than a `record` spends on everything else.
fn assignment_at(bytes: &[u8], name_start: usize) -> Option<((usize, usize), usize)> {
    let first = *bytes.get(name_start)?;
    if !(first.is_ascii_alphabetic() || first == b'_') {
        return None;
    }
    let mut at = name_start + 1;
    while at < bytes.len() && at - name_start <= MAX_NAME && is_name(bytes[at]) {
        at += 1;
    }
    let name = (name_start, at);
    if matches!(bytes.get(at), Some(b'"' | b'\'')) {
        at += 1;
    }
    let skip_blanks = |from: usize| {
        let mut at = from;
        while matches!(bytes.get(at), Some(b' ' | b'\t')) {
            at += 1;
        }
        work::read(at - name_start);
        at
    };
    at = skip_blanks(at);
    at += match (bytes.get(at), bytes.get(at + 1)) {
        (Some(b':'), Some(b'=')) | (Some(b'='), Some(b'>')) => 2,
        (Some(b'=' | b':'), _) => 1,
        _ => return None,
    };
    Some((name, skip_blanks(at)))
}

/// The quoted value opened at `from` by `quote`, within its line, when it
/// is a secret. Two values opened by one quote character never overlap (the
/// second's quote would end the first), so these reads add up to the text.
fn quoted_value(text: &str, from: usize, quote: u8) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let len = bytes[from..]
        .iter()
        .position(|&b| b == quote || b == b'\n')?;
    work::read(len);
    if bytes[from + len] != quote {
        return None;
    }
    let value = text.get(from..from + len)?;
    (!is_non_secret_value(value)).then_some((from, from + len))
}

fn is_name(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')
}

/// What ends a bare value: white space, a quote or punctuation.
fn ends_bare_value(b: u8) -> bool {
    b.is_ascii_whitespace()
        || matches!(
            b,
            b'"' | b'\'' | b'`' | b',' | b';' | b'{' | b'}' | b'(' | b')' | b'[' | b']'
        )
}

/// A run of bytes that no [`ends_bare_value`] byte interrupts: every bare
/// value starting in it ends where it ends, and what
/// [`is_non_secret_value`] asks of such a value is answered from the
/// positions found in one read of the run.
struct BareRun {
    start: usize,
    /// Where the run's values end (a byte that ends a value, a marker of an
    /// earlier redaction, or the end of the text).
    end: usize,
    /// The run reaches a marker of an earlier redaction: a value of it
    /// would hold the marker, and is left alone, so that redacting twice
    /// changes nothing.
    reaches_marker: bool,
    /// The end of the values once trimmed of trailing white space.
    trimmed_end: usize,
    /// From here to `trimmed_end` only digits and dots.
    digits_from: usize,
    /// From here to `trimmed_end` one character repeated, with `-_.`.
    repeated_from: usize,
    /// The last start of a sample's word (`xxxx`, `changeme`, …).
    last_sample_word: Option<usize>,
}

impl BareRun {
    fn read(bytes: &[u8], start: usize) -> BareRun {
        let mut end = start;
        let mut reaches_marker = false;
        while end < bytes.len() {
            if bytes[end..].starts_with(MARKER) {
                reaches_marker = true;
                break;
            }
            if ends_bare_value(bytes[end]) {
                break;
            }
            end += 1;
        }
        work::read(end - start);
        // The run holds whole characters: it starts after an ASCII byte and
        // ends before one (or at the end of the text).
        let text = String::from_utf8_lossy(&bytes[start..end]);
        let trimmed_end = start + text.trim_end().len();
        let within = &text[..trimmed_end - start];
        let digits_from = start
            + within
                .bytes()
                .rposition(|b| !(b.is_ascii_digit() || b == b'.'))
                .map_or(0, |at| at + 1);
        let repeated_from = start + repeated_tail(within);
        let last_sample_word = last_sample_word(within.as_bytes()).map(|at| start + at);
        work::read(2 * within.len());
        BareRun {
            start,
            end,
            reaches_marker,
            trimmed_end,
            digits_from,
            repeated_from,
            last_sample_word,
        }
    }

    /// The value starting at `at` (in this run), when it is a secret: what
    /// `!is_non_secret_value(value)` says, without reading the run again.
    fn secret_value(&self, bytes: &[u8], at: usize) -> Option<(usize, usize)> {
        if self.reaches_marker || at == self.end {
            return None;
        }
        let text = std::str::from_utf8(&bytes[at..self.trimmed_end.max(at)]).ok()?;
        let from = at + (text.len() - text.trim_start().len());
        work::read(from - at);
        let to = self.trimmed_end;
        if from >= to {
            return None;
        }
        let value = &bytes[from..to];
        let non_secret = value.len() < MIN_ASSIGNED_SECRET
            || from >= self.digits_from
            || from >= self.repeated_from
            || self.last_sample_word.is_some_and(|word| word >= from)
            || starts_non_secret(value)
            || is_url(value)
            || is_reference_by_its_ends(value);
        (!non_secret).then_some((at, self.end))
    }
}

/// Where the tail of `value` begins in which one character alone stands,
/// with `-`, `_` and `.` (the whole of `value`: 0).
fn repeated_tail(value: &str) -> usize {
    let filler = |c: char| matches!(c, '-' | '_' | '.');
    let mut repeated: Option<char> = None;
    for (at, c) in value.char_indices().rev() {
        if filler(c) {
            continue;
        }
        match repeated {
            None => repeated = Some(c),
            Some(r) if r == c => {}
            Some(_) => return at + c.len_utf8(),
        }
    }
    0
}

/// The words that make an assigned value a sample, lower case.
const SAMPLE_WORDS: [&str; 7] = [
    "xxxx",
    "_here",
    "-here",
    "placeholder",
    "changeme",
    "redacted",
    "...",
];

/// The last start of a [`SAMPLE_WORDS`] word in `value`, ignoring ASCII case.
fn last_sample_word(value: &[u8]) -> Option<usize> {
    (0..value.len()).rev().find(|&at| {
        SAMPLE_WORDS.iter().any(|word| {
            value[at..]
                .get(..word.len())
                .is_some_and(|here| here.eq_ignore_ascii_case(word.as_bytes()))
        })
    })
}

/// What [`is_non_secret_value`] asks of a value's first bytes: a path.
fn starts_non_secret(value: &[u8]) -> bool {
    matches!(value.first(), Some(b'/' | b'~' | b'#' | b'&')) || value.starts_with(b"./")
}

/// Whether a (trimmed) value is a URL: a scheme and `://`.
fn is_url(value: &[u8]) -> bool {
    let scheme = value
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-')))
        .unwrap_or(value.len());
    work::read(scheme);
    scheme > 0 && value[scheme..].starts_with(b"://")
}

/// What [`is_reference`] asks of a (trimmed) value's first and last bytes,
/// and of a short value whole.
fn is_reference_by_its_ends(value: &[u8]) -> bool {
    let starts = |prefix: &str| {
        value
            .get(..prefix.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(prefix.as_bytes()))
    };
    matches!(value.first(), Some(b'$' | b'%' | b'<' | b'{' | b'*' | b'['))
        || matches!(value.last(), Some(b'>' | b'}'))
        || BARE_WORDS
            .iter()
            .any(|word| value.eq_ignore_ascii_case(word.as_bytes()))
        || ["your", "process.env", "os.environ", "env.", "getenv"]
            .iter()
            .any(|prefix| starts(prefix))
}

/// Values that name no secret: `TOKEN=null`, `auth: required`.
const BARE_WORDS: [&str; 7] = [
    "true",
    "false",
    "null",
    "none",
    "undefined",
    "required",
    "optional",
];

/// The secret words of names in a short text, found without building an
/// automaton (see [`super::literals`]).
fn secret_words_in(text: &[u8]) -> Vec<(usize, usize)> {
    static WORDS: OnceLock<LiteralSet> = OnceLock::new();
    let words = WORDS.get_or_init(|| {
        LiteralSet::new(names::SECRET_WORDS.iter().copied().chain(["PASS", "PWD"]))
    });
    let mut found = Vec::new();
    words.for_each_occurrence(text, |index, start| {
        let end = start + words.literal(index).len();
        if names::is_name_word(text, start, end) {
            found.push((start, end));
        }
    });
    found
}

/// Where the name holding the word at `word_start` begins: back over name
/// characters (at most [`MAX_NAME`]), then on to its first letter or `_`.
fn name_start(bytes: &[u8], word_start: usize) -> usize {
    let mut start = word_start;
    while start > 0 && word_start - start < MAX_NAME && is_name(bytes[start - 1]) {
        start -= 1;
    }
    work::read(word_start - start);
    while start < word_start && !(bytes[start].is_ascii_alphabetic() || bytes[start] == b'_') {
        start += 1;
    }
    start
}

/// Whether a name may start at `at`: at the start of the text or a line,
/// after white space, a quote, or `{ , ; ( [ -`.
fn starts_a_name(bytes: &[u8], at: usize) -> bool {
    at == 0
        || matches!(
            bytes[at - 1],
            b' ' | b'\t' | b'\n' | b'\r' | b'"' | b'\'' | b'{' | b',' | b';' | b'(' | b'[' | b'-'
        )
}

/// A value that is not a secret although a secret's name is assigned it:
/// too short, a number, a path, a URL (a password in one is found by its
/// own rule), or a reference or a sample ([`is_reference`]).
pub fn is_non_secret_value(value: &str) -> bool {
    let value = value.trim();
    value.len() < MIN_ASSIGNED_SECRET
        || value.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        || starts_non_secret(value.as_bytes())
        || is_url(value.as_bytes())
        || is_reference(value)
}

/// A reference to a variable (`$API_KEY`, `${TOKEN}`, `process.env.X`), a
/// sample value (`<your token>`, `xxxx`, `YOUR_KEY_HERE`), or a value
/// already redacted.
pub fn is_reference(value: &str) -> bool {
    let value = value.trim();
    let bytes = value.as_bytes();
    is_reference_by_its_ends(bytes)
        || repeated_tail(value) == 0
        || last_sample_word(bytes).is_some()
}

/// Whether a name's words say it holds a secret: the environment policy's
/// word rule (`DB_PASSWORD`, `apiKey`, not `AUTH_TYPE`), and a last word
/// `PASS` or `PWD` (`db_pass: …`), which in an assignment is a password.
pub(crate) fn is_secret_word_name(name: &str) -> bool {
    names::secret_word(name).is_some()
        || names::name_words(name).last().is_some_and(|last| {
            last.eq_ignore_ascii_case("PASS") || last.eq_ignore_ascii_case("PWD")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `is_non_secret_value` as it was written before it was taken apart
    /// for [`BareRun`]: the plain way, which the run's answers must equal.
    fn reference_is_non_secret(value: &str) -> bool {
        let value = value.trim();
        let lower = value.to_ascii_lowercase();
        let repeated = |v: &str| {
            let mut chars = v.chars().filter(|c| !matches!(c, '-' | '_' | '.'));
            chars.next().is_none_or(|first| chars.all(|c| c == first))
        };
        value.len() < MIN_ASSIGNED_SECRET
            || value.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            || value.starts_with(['/', '~', '#', '&'])
            || value.starts_with("./")
            || value.split_once("://").is_some_and(|(scheme, _)| {
                !scheme.is_empty()
                    && scheme
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-'))
            })
            || value.starts_with(['$', '%', '<', '{', '*', '['])
            || value.ends_with(['>', '}'])
            || repeated(value)
            || BARE_WORDS.contains(&lower.as_str())
            || lower.starts_with("your")
            || SAMPLE_WORDS.iter().any(|word| lower.contains(word))
            || lower.starts_with("process.env")
            || lower.starts_with("os.environ")
            || lower.starts_with("env.")
            || lower.starts_with("getenv")
    }

    /// Values made of the pieces the rules look at.
    fn value() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let piece = prop_oneof![
            proptest::sample::select(vec![
                "/",
                "./",
                "~",
                "#",
                "&",
                "$",
                "<",
                ">",
                "{",
                "}",
                "*",
                "://",
                "http",
                "1",
                "2.",
                ".",
                "-",
                "_",
                "x",
                "X",
                "xxxx",
                "_HERE",
                "-here",
                "Placeholder",
                "changeme",
                "REDACTED",
                "...",
                "your",
                "YOUR",
                "process.env",
                "OS.ENVIRON",
                "env.",
                "getenv",
                "true",
                "None",
                "optional",
                "a",
                "b",
                "é",
                "\u{a0}",
                "\u{2003}",
                "\u{b}",
                "=",
                ":",
                "token=",
                "-password=",
            ])
            .prop_map(str::to_string),
            "[a-c0-9]{0,3}",
        ];
        proptest::collection::vec(piece, 0..8).prop_map(|pieces| pieces.concat())
    }

    proptest::proptest! {
        #[test]
        fn a_bare_run_judges_each_of_its_values_as_is_non_secret_value_does(value in value()) {
            let text = format!("api_key={value} tail");
            let bytes = text.as_bytes();
            let run = BareRun::read(bytes, "api_key=".len());
            for at in run.start..=run.end {
                if !text.is_char_boundary(at) {
                    continue;
                }
                let whole = &text[at..run.end];
                let expected = (!run.reaches_marker && !whole.is_empty()
                    && !reference_is_non_secret(whole))
                    .then_some((at, run.end));
                proptest::prop_assert_eq!(run.secret_value(bytes, at), expected, "{:?} from {}", text, at);
                proptest::prop_assert_eq!(is_non_secret_value(whole), reference_is_non_secret(whole), "{:?}", whole);
            }
        }
    }

    #[test]
    fn a_value_reaching_an_earlier_marker_is_left_alone() {
        let text = "token=abc[REDACTED:x]def";
        let run = BareRun::read(text.as_bytes(), "token=".len());
        assert!(run.reaches_marker);
        assert_eq!(run.secret_value(text.as_bytes(), 6), None);
    }
}
