//! Finding credentials in much text at once (`ollm-session scan` and
//! `redact` over a whole store): the shapes' trigger literals in one
//! Aho-Corasick automaton and each shape's regex with its DFAs, both built
//! once per process, which a few short texts (a `record`, `ollm-env`'s
//! variables) would never pay back ([`super::patterns`] serves those).
//!
//! [`may_hold_credentials`] lets a scan skip a stored JSON file without
//! parsing it: it says `false` only when no rule could find anything in the
//! file's strings.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};
use memchr::memmem::Finder;
use regex_automata::{meta, util::syntax};

use super::names::{SECRET_WORDS, is_name_word};
use super::patterns::{ShapeSet, VALUE_PATTERNS, ValuePattern, is_filler};

/// Every shape's trigger literals and then every secret word of a name
/// ([`SECRET_WORDS`], and `PASS` and `PWD`, an assignment's last word), in
/// one automaton matching them ignoring ASCII case, with the shape each
/// trigger belongs to (`None`: a word), so a text is read once for both.
fn literals() -> Option<&'static (AhoCorasick, Vec<Option<usize>>)> {
    static LITERALS: OnceLock<Option<(AhoCorasick, Vec<Option<usize>>)>> = OnceLock::new();
    LITERALS
        .get_or_init(|| {
            let (shape_of, literals): (Vec<Option<usize>>, Vec<&str>) = VALUE_PATTERNS
                .iter()
                .enumerate()
                .flat_map(|(index, p)| p.triggers.iter().map(move |t| (Some(index), *t)))
                .chain(
                    SECRET_WORDS
                        .iter()
                        .chain(&["PASS", "PWD"])
                        .map(|w| (None, *w)),
                )
                .unzip();
            let automaton = AhoCorasickBuilder::new()
                .ascii_case_insensitive(true)
                .match_kind(MatchKind::Standard)
                // A full DFA: a few hundred kilobytes built once, and the
                // overlapping search a byte a step without NFA transitions.
                .kind(Some(AhoCorasickKind::DFA))
                .build(&literals)
                .ok()?;
            Some((automaton, shape_of))
        })
        .as_ref()
}

/// What one read of a text found: the shapes whose trigger it holds (a
/// case-sensitive shape's in its own case), and whether it holds a secret
/// word as a word of a name ([`super::names::is_name_word`]; not in a key of the raw
/// JSON text itself when `skip_json_keys`).
fn read(text: &[u8], skip_json_keys: bool) -> (ShapeSet, bool) {
    let Some((automaton, shape_of)) = literals() else {
        return (ShapeSet::ALL, true);
    };
    super::work::read(text.len());
    let mut shapes = ShapeSet::EMPTY;
    let mut word = false;
    // The name run of the last word asked about, and whether it is a key:
    // the words of one run are answered by one read of it.
    let mut run: Option<NameRun> = None;
    for found in automaton.find_overlapping_iter(text) {
        let Some(shape) = shape_of[found.pattern().as_usize()] else {
            if !word && is_name_word(text, found.start(), found.end()) {
                word = !skip_json_keys || {
                    let key = match run {
                        Some(run) if run.holds(found.start()) => run,
                        _ => NameRun::around(text, found.start(), found.end()),
                    };
                    run = Some(key);
                    !key.is_raw_json_key
                };
            }
            continue;
        };
        let pattern = &VALUE_PATTERNS[shape];
        if pattern.is_case_insensitive()
            || pattern
                .triggers
                .iter()
                .any(|t| t.as_bytes() == &text[found.range()])
        {
            shapes.insert(shape);
        }
    }
    (shapes, word)
}

/// Shape `index`'s regex with every engine, built the first time.
fn full(index: usize) -> Option<&'static meta::Regex> {
    static EACH: OnceLock<Vec<OnceLock<Option<meta::Regex>>>> = OnceLock::new();
    let each = EACH.get_or_init(|| VALUE_PATTERNS.iter().map(|_| OnceLock::new()).collect());
    each.get(index)?
        .get_or_init(|| {
            meta::Builder::new()
                .syntax(syntax::Config::new().unicode(false).utf8(false))
                .build(VALUE_PATTERNS[index].regex)
                .ok()
        })
        .as_ref()
}

/// One read of `text` for both rules that start from its literals: the
/// shapes whose trigger it holds, and where it holds a secret word as a
/// word of a name (what the shapes' search and [`secret_words_in`] would
/// each read the whole text for).
pub(crate) fn read_literals(text: &[u8]) -> (ShapeSet, Vec<(usize, usize)>) {
    let Some((automaton, shape_of)) = literals() else {
        return (ShapeSet::ALL, Vec::new());
    };
    super::work::read(text.len());
    let mut shapes = ShapeSet::EMPTY;
    let mut words = Vec::new();
    for found in automaton.find_overlapping_iter(text) {
        match shape_of[found.pattern().as_usize()] {
            None => {
                if is_name_word(text, found.start(), found.end()) {
                    words.push((found.start(), found.end()));
                }
            }
            Some(shape) => {
                let pattern = &VALUE_PATTERNS[shape];
                if pattern.is_case_insensitive()
                    || pattern
                        .triggers
                        .iter()
                        .any(|t| t.as_bytes() == &text[found.range()])
                {
                    shapes.insert(shape);
                }
            }
        }
    }
    (shapes, words)
}

/// [`super::patterns::for_each_shape_match`], for much text: of the
/// shapes `shapes` (those whose trigger `text` holds, [`read_literals`]).
pub(crate) fn for_each_match_of(
    text: &[u8],
    shapes: ShapeSet,
    found: &mut dyn FnMut(&'static ValuePattern, usize, usize),
) {
    for (index, pattern) in VALUE_PATTERNS.iter().enumerate() {
        if !shapes.contains(index) {
            continue;
        }
        if let Some(re) = full(index) {
            super::work::read(text.len());
            for m in re.find_iter(text) {
                if !is_filler(&text[m.range()]) {
                    found(pattern, m.start(), m.end());
                }
            }
        }
    }
}

/// Where `text` holds a secret word as a word of a name (`DB_PASSWORD`,
/// `apiKey`; not `passes`, `keynote`).
pub fn secret_words_in(text: &[u8]) -> Vec<(usize, usize)> {
    let Some((automaton, shape_of)) = literals() else {
        return Vec::new();
    };
    automaton
        .find_overlapping_iter(text)
        .filter(|found| shape_of[found.pattern().as_usize()].is_none())
        .map(|found| (found.start(), found.end()))
        .filter(|&(start, end)| is_name_word(text, start, end))
        .collect()
}

/// The run of name characters around a word of the raw JSON text.
#[derive(Clone, Copy)]
struct NameRun {
    /// The byte before the run, if any.
    open: Option<usize>,
    /// The byte after the run, if any.
    close: Option<usize>,
    /// The run is a key: opened by a `"` that no backslash escapes and
    /// closed by `":`.
    is_raw_json_key: bool,
}

impl NameRun {
    fn around(text: &[u8], start: usize, end: usize) -> NameRun {
        let name = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.');
        let open = text[..start].iter().rposition(|b| !name(b));
        let close = text[end..].iter().position(|b| !name(b)).map(|at| end + at);
        super::work::read(close.unwrap_or(text.len()) - open.map_or(0, |at| at + 1));
        let is_raw_json_key = match (open, close) {
            (Some(open), Some(close)) => {
                text[open] == b'"'
                    && (open == 0 || text[open - 1] != b'\\')
                    && text[close] == b'"'
                    && text.get(close + 1) == Some(&b':')
            }
            _ => false,
        };
        NameRun {
            open,
            close,
            is_raw_json_key,
        }
    }

    /// Whether a word starting at `start` lies in this run.
    fn holds(&self, start: usize) -> bool {
        self.open.is_none_or(|open| open < start) && self.close.is_none_or(|close| start < close)
    }
}

/// Whether any rule might find a credential in the strings of the JSON
/// text `raw` (a stored session or snapshot, not parsed): `false` only
/// when none could. `values` are the exact secret values looked for.
/// Conservative where the raw text is not the strings' text: an escape that
/// may hide a character (`\u0041`, `\/`), a shape whose regex spans quotes,
/// a private key header.
pub fn may_hold_credentials(raw: &[u8], values: &[Finder<'_>]) -> bool {
    if hides_characters(raw) || contains(raw, b"PRIVATE KEY-----") {
        return true;
    }
    let raw = &unescaped_boundaries(raw);
    let (shapes, word) = read(raw, true);
    if word {
        return true;
    }
    for (index, pattern) in VALUE_PATTERNS.iter().enumerate() {
        if !shapes.contains(index) {
            continue;
        }
        if reads_escaped_characters(pattern.regex) {
            return true;
        }
        if full(index).is_none_or(|re| re.is_match(raw)) {
            return true;
        }
    }
    values.iter().any(|value| value.find(raw).is_some())
}

/// Whether a shape's regex names a character that the raw JSON text holds
/// escaped (a quote, a tab, a newline, any white space): it then cannot be
/// told from the raw text.
fn reads_escaped_characters(regex: &str) -> bool {
    regex.contains(['"', '\'', '\t', '\n'])
        || ["\\s", "\\t", "\\n", "\\r"]
            .iter()
            .any(|c| regex.contains(c))
}

/// The raw JSON text with each escaped control character (`\n`, `\t`,
/// `\u001b`, …) turned into `\` and spaces: in the string it stands for a
/// character that is no letter, so a word boundary there must stay one
/// (`\nv1.0-…` is a token at the start of a line, not `nv1.0-…`).
fn unescaped_boundaries(raw: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if crate::byte_search::find_byte(b'\\', raw).is_none() {
        return std::borrow::Cow::Borrowed(raw);
    }
    let mut text = raw.to_vec();
    let mut at = 0;
    while let Some(found) = crate::byte_search::find_byte(b'\\', &text[at..]) {
        let escape = at + found;
        let blank = match text.get(escape + 1) {
            Some(b'n' | b't' | b'r' | b'b' | b'f') => 1,
            Some(b'u') => 5.min(text.len() - escape - 1),
            // An escaped backslash: the string holds a `\` itself, and the
            // scrubber reads a `\n` in text (JSON printed in a tool's output)
            // as the break it stands for, so the letter after it is one.
            Some(b'\\') => {
                if let Some(letter @ (b'n' | b't' | b'r' | b'b' | b'f')) = text.get_mut(escape + 2)
                {
                    *letter = b' ';
                }
                0
            }
            Some(_) => 0,
            None => break,
        };
        for byte in &mut text[escape + 1..escape + 1 + blank] {
            *byte = b' ';
        }
        at = escape + 2;
    }
    std::borrow::Cow::Owned(text)
}

/// What [`may_hold_credentials`] looks for of each secret value: the value
/// as it is, and as a JSON string spells it when that differs.
pub fn value_finders<'a>(values: impl IntoIterator<Item = &'a str>) -> Vec<Finder<'static>> {
    let mut finders = Vec::new();
    for value in values {
        finders.push(Finder::new(value.as_bytes()).into_owned());
        if let Ok(quoted) = serde_json::to_string(value) {
            let escaped = &quoted[1..quoted.len() - 1];
            if escaped != value {
                finders.push(Finder::new(escaped.as_bytes()).into_owned());
            }
        }
    }
    finders
}

/// Whether the raw JSON text has an escape other than of a quote, a
/// backslash, a control character or a lone surrogate: one that may spell
/// a trigger's letter (`\u0041KIA…`) or a URL's slash (`:\/\/`).
fn hides_characters(raw: &[u8]) -> bool {
    let mut at = 0;
    while let Some(found) = crate::byte_search::find_byte(b'\\', &raw[at..]) {
        let escape = at + found;
        match raw.get(escape + 1) {
            Some(b'u') => {
                let hex = raw.get(escape + 2..escape + 6).unwrap_or_default();
                let control = hex.starts_with(b"00") && matches!(hex.get(2), Some(b'0' | b'1'));
                let surrogate = matches!(hex.first(), Some(b'd' | b'D'))
                    && matches!(hex.get(1), Some(b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F'));
                if !(control || surrogate) {
                    return true;
                }
                at = escape + 6;
            }
            Some(b'/') => return true,
            Some(_) => at = escape + 2,
            None => return false,
        }
    }
    false
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && memchr::memmem::find(haystack, needle).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_words_are_found_as_words_of_names_only() {
        for text in [
            "DB_PASSWORD=x",
            "apiKey: 1",
            "my-token",
            "\"secret\"",
            "AUTH",
            "key1",
        ] {
            assert!(!secret_words_in(text.as_bytes()).is_empty(), "{text}");
        }
        for text in [
            "passes the test",
            "keynote",
            "authentication",
            "monkey",
            "tokenize",
        ] {
            assert!(secret_words_in(text.as_bytes()).is_empty(), "{text}");
        }
        assert!(!read(br#"{"tokenCount":3,"tokens":4}"#, true).1);
        assert!(read(br#"{"text":"{\"token\": 1}"}"#, true).1);
    }

    #[test]
    fn an_escaped_control_character_stays_a_word_boundary() {
        assert_eq!(
            &*unescaped_boundaries(br#""a\nv1.0 \\n \u001bx \"q""#),
            br#""a\ v1.0 \\  \     x \"q""#
        );
    }

    #[test]
    fn escapes_that_may_hide_a_character_are_noticed() {
        assert!(hides_characters(br#""\u0041KIA""#));
        assert!(hides_characters(br#""https:\/\/x""#));
        assert!(!hides_characters(br#""a\nb\t\"c\\ \u001b \ud83d""#));
    }

    #[test]
    fn bulk_and_lean_engines_find_the_same_matches() {
        let text = "ghp_abcdefghijklmnopqrstuvwxyz0123456789 postgres://u:p4ss@db \
                    AKIAIOSFODNN7EXAMPLE sk-xxxxxxxxxxxxxxxxxxxxxxxx patch passes \
                    DB_PASSWORD=hunter2hunter2 apiKey: 1";
        let mut lean = Vec::new();
        super::super::patterns::for_each_shape_match(text.as_bytes(), &mut |p, s, e| {
            lean.push((p.name, s, e));
        });
        let mut bulk = Vec::new();
        let (shapes, words) = read_literals(text.as_bytes());
        for_each_match_of(text.as_bytes(), shapes, &mut |p, s, e| {
            bulk.push((p.name, s, e));
        });
        assert_eq!(lean, bulk);
        assert_eq!(words, secret_words_in(text.as_bytes()));
        assert!(!bulk.is_empty());
        assert!(words.len() >= 2, "{words:?}");
    }

    /// Pieces of text: credential examples, look-alikes, secret words, JSON
    /// punctuation and escapes, and random characters.
    fn piece() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let examples: Vec<String> = include_str!("../../tests/data/credential-values.txt")
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .filter_map(|l| l.split_once('\t').map(|(_, v)| v.to_string()))
            .collect();
        let look_alikes: Vec<String> = include_str!("../../tests/data/credential-lookalikes.txt")
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect();
        prop_oneof![
            proptest::sample::select(examples),
            proptest::sample::select(look_alikes),
            proptest::sample::select(vec![
                "token",
                "API_KEY=",
                "password: ",
                "\"secret\": \"",
                "=",
                ":",
                "\"",
                "\n",
                "-----BEGIN RSA PRIVATE KEY-----",
                "apiKey",
                "tokenCount",
                "db_pass=",
            ])
            .prop_map(str::to_string),
            "[ -~]{0,12}",
        ]
    }

    proptest::proptest! {
        #[test]
        fn a_file_said_to_hold_nothing_holds_nothing_a_rule_finds(
            texts in proptest::collection::vec(proptest::collection::vec(piece(), 0..5), 1..4),
        ) {
            use crate::redact::Scrubber;
            let strings: Vec<String> = texts.iter().map(|pieces| pieces.concat()).collect();
            let document = serde_json::json!({
                "sessionId": "s",
                "metadata": {"tokenCount": 3},
                "messages": strings
                    .iter()
                    .map(|t| serde_json::json!({"role": "user", "parts": [{"type": "text", "text": t}]}))
                    .collect::<Vec<_>>(),
            });
            let raw = serde_json::to_vec(&document).unwrap();
            let scrubber = Scrubber::default().for_bulk();
            if !scrubber.may_hold_credentials(&raw) {
                for text in &strings {
                    proptest::prop_assert!(scrubber.find(text).is_empty(), "{:?} in {}", text, String::from_utf8_lossy(&raw));
                }
            }
        }
    }
}
