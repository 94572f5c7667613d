//! Values that look like credentials, whatever the variable is called.
//! Name rules alone leak (`DATABASE_URL=postgres://u:pw@host`,
//! `OPENAI=sk-…`), so values are checked too. The shapes follow public
//! secret-scanning rule sets (gitleaks, GitHub secret scanning, trufflehog);
//! `tests/data/credential-values.txt` names the rule behind each example.

use std::sync::OnceLock;

use regex::bytes::{Captures, Regex, RegexBuilder};

use super::literals::LiteralSet;

mod table;
pub use table::VALUE_PATTERNS;

/// What of a match survives redaction: the credential is replaced, the
/// syntax around it that says what it is stays readable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// The whole match is the secret.
    Nothing,
    /// `scheme://` and the `@` stay: `postgres://[REDACTED]@db/x`.
    UrlUserinfo,
    /// The key and its `=` or `:` stay: `password=[REDACTED]`.
    Key,
}

/// A kind of credential recognisable by its value.
pub struct ValuePattern {
    pub name: &'static str,
    /// Literals one of which every match contains (lower case for a
    /// case-insensitive `(?i)` pattern): a value holding none of them is
    /// not matched against the regex at all.
    pub triggers: &'static [&'static str],
    pub regex: &'static str,
    pub keep: Keep,
}

impl ValuePattern {
    pub(crate) fn is_case_insensitive(&self) -> bool {
        self.regex.starts_with("(?i)")
    }
}

/// The shapes' trigger literals in one [`LiteralSet`], with the shape each
/// belongs to.
fn triggers() -> &'static (LiteralSet, Vec<usize>) {
    static TRIGGERS: OnceLock<(LiteralSet, Vec<usize>)> = OnceLock::new();
    TRIGGERS.get_or_init(|| {
        let (shape, literals): (Vec<usize>, Vec<&str>) = VALUE_PATTERNS
            .iter()
            .enumerate()
            .flat_map(|(index, p)| p.triggers.iter().map(move |t| (index, *t)))
            .unzip();
        (LiteralSet::new(literals), shape)
    })
}

/// A set of shapes (bit i: `VALUE_PATTERNS[i]`), as wide as the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ShapeSet([u64; SHAPE_WORDS]);

const SHAPE_WORDS: usize = VALUE_PATTERNS.len().div_ceil(64);

impl ShapeSet {
    pub(crate) const EMPTY: ShapeSet = ShapeSet([0; SHAPE_WORDS]);
    /// Every shape (what a search that cannot tell must run).
    pub(crate) const ALL: ShapeSet = ShapeSet([u64::MAX; SHAPE_WORDS]);

    pub(crate) fn insert(&mut self, shape: usize) {
        self.0[shape / 64] |= 1 << (shape % 64);
    }

    pub(crate) fn contains(&self, shape: usize) -> bool {
        self.0[shape / 64] & (1 << (shape % 64)) != 0
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.iter().all(|word| *word == 0)
    }
}

/// The shapes whose trigger literal `value` holds, found in one pass: a
/// case-insensitive shape's (lower-case) triggers in any case, the others'
/// exactly.
fn triggered(value: &[u8]) -> ShapeSet {
    let (set, shape_of) = triggers();
    let mut shapes = ShapeSet::EMPTY;
    set.for_each_occurrence(value, |index, start| {
        let shape = shape_of[index];
        let literal = set.literal(index);
        if VALUE_PATTERNS[shape].is_case_insensitive()
            || value[start..start + literal.len()] == *literal
        {
            shapes.insert(shape);
        }
    });
    shapes
}

/// Builds one byte regex of `literals` (longest first, so a longer secret
/// wins over its own prefix) and then every credential shape, each shape in
/// its own capture group (group i+1 is `VALUE_PATTERNS[i]`; the shapes use
/// only non-capturing groups). Unicode is off: the shapes are ASCII, and the
/// automaton is then a fraction of the Unicode one's size and build time.
pub fn matcher<S: AsRef<str>>(literals: &[S]) -> Result<Regex, regex::Error> {
    let mut sorted: Vec<&str> = literals.iter().map(AsRef::as_ref).collect();
    sorted.sort_by_key(|literal| std::cmp::Reverse(literal.len()));
    sorted.dedup();
    let alternation: Vec<String> = sorted
        .iter()
        .map(|literal| regex::escape(literal))
        .chain(VALUE_PATTERNS.iter().map(|p| format!("({})", p.regex)))
        .collect();
    RegexBuilder::new(&alternation.join("|"))
        .unicode(false)
        .size_limit(32 << 20)
        .build()
}

fn shapes() -> Option<&'static Regex> {
    static SHAPES: OnceLock<Option<Regex>> = OnceLock::new();
    // The shapes are constants a unit test compiles; None is unreachable.
    SHAPES.get_or_init(|| matcher::<&str>(&[]).ok()).as_ref()
}

/// The shape one match of a [`matcher`] regex is (None: a literal secret).
pub fn matched_pattern(captures: &Captures<'_>) -> Option<&'static ValuePattern> {
    (1..captures.len())
        .find(|&group| captures.get(group).is_some())
        .and_then(|group| VALUE_PATTERNS.get(group - 1))
}

/// What replaces one match: `[REDACTED]`, with the scheme or key kept where
/// the shape says so.
pub fn replacement(captures: &Captures<'_>) -> Vec<u8> {
    const REDACTED: &[u8] = b"[REDACTED]";
    let whole = captures.get(0).map(|m| m.as_bytes()).unwrap_or_default();
    let shape = matched_pattern(captures);
    if shape.is_some() && is_filler(whole) {
        return whole.to_vec();
    }
    let keep = shape.map_or(Keep::Nothing, |p| p.keep);
    let (head, tail): (&[u8], &[u8]) = match keep {
        Keep::Nothing => (b"", b""),
        Keep::UrlUserinfo => match find(whole, b"://") {
            Some(at) => (&whole[..at + 3], b"@"),
            None => (b"", b""),
        },
        Keep::Key => match whole.iter().position(|&b| b == b'=' || b == b':') {
            Some(at) => {
                let mut end = at + 1;
                while whole.get(end).is_some_and(|b| *b == b' ' || *b == b'\t') {
                    end += 1;
                }
                (&whole[..end], b"")
            }
            None => (b"", b""),
        },
    };
    let mut out = Vec::with_capacity(head.len() + REDACTED.len() + tail.len());
    out.extend_from_slice(head);
    out.extend_from_slice(REDACTED);
    out.extend_from_slice(tail);
    out
}

/// Shortest run of one filler character (`x`, `X`, `*`) that makes a
/// shape's match a documentation sample (`sk-xxxxxxxxxxxxxxxxxxxx`,
/// `AKIAXXXXXXXXXXXXXXXX`) rather than a credential: a random token holds
/// such a run with negligible probability.
const FILLER_RUN: usize = 8;

/// Whether a shape's match is a documentation sample: it holds a run
/// of [`FILLER_RUN`] or more of `x`, `X` or `*`.
pub fn is_filler(matched: &[u8]) -> bool {
    matched
        .chunk_by(|a, b| a == b)
        .any(|run| run.len() >= FILLER_RUN && matches!(run[0], b'x' | b'X' | b'*'))
}

/// The kind of credential a variable's whole value is when only the whole
/// value says so (the policy asks after [`credential_kind`]): an AWS secret
/// access key, which has no prefix (exactly 40 characters of `[A-Za-z0-9/+]`, with an
/// upper-case letter, a lower-case letter and a digit, and not all hex
/// digits, so a git SHA in either case is not one). In free text only the
/// keyed form (`aws_secret_access_key = …`) is recognised: 40 such
/// characters inside longer text are as likely a piece of base64.
pub fn whole_value_kind(value: &str) -> Option<&'static str> {
    let value = value.trim_ascii();
    let bytes = value.as_bytes();
    let shaped = bytes.len() == 40
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'/' || *b == b'+')
        && bytes.iter().any(u8::is_ascii_uppercase)
        && bytes.iter().any(u8::is_ascii_lowercase)
        && bytes.iter().any(u8::is_ascii_digit)
        && !bytes.iter().all(u8::is_ascii_hexdigit);
    shaped.then_some("aws-secret-access-key")
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// One shape's regex, compiled the first time a value triggers it:
/// deciding a variable then costs only the shapes its value could match.
/// It runs on a few short values per process, so only the NFA is built and
/// searched (bounded backtracking, or the PikeVM for a long value): a full
/// DFA, the lazy DFA and the one-pass DFA each cost more to set up than
/// every search saves (`ollm-env run` checks each variable's value:
/// issue 14). Every engine finds the same leftmost-first match.
fn single(index: usize) -> Option<&'static regex_automata::meta::Regex> {
    static EACH: OnceLock<Vec<OnceLock<Option<regex_automata::meta::Regex>>>> = OnceLock::new();
    nfa_only(&EACH, index, true)
}

/// [`single`] for a text to be stored (a tool's output, kilobytes long),
/// searched line by line: the PikeVM alone, since bounded backtracking
/// first clears a bit for every byte of the text and state of the regex
/// (tens of kilobytes of fresh pages for one search), and no prefilter,
/// whose literal sets cost more to build than the lines it would skip.
fn text_regex(index: usize) -> Option<&'static regex_automata::meta::Regex> {
    static EACH: OnceLock<Vec<OnceLock<Option<regex_automata::meta::Regex>>>> = OnceLock::new();
    nfa_only(&EACH, index, false)
}

fn nfa_only(
    each: &'static OnceLock<Vec<OnceLock<Option<regex_automata::meta::Regex>>>>,
    index: usize,
    whole_values: bool,
) -> Option<&'static regex_automata::meta::Regex> {
    use regex_automata::{meta, util::syntax};
    let each = each.get_or_init(|| VALUE_PATTERNS.iter().map(|_| OnceLock::new()).collect());
    each.get(index)?
        .get_or_init(|| {
            let config = meta::Config::new()
                .dfa(false)
                .hybrid(false)
                .onepass(false)
                .backtrack(whole_values)
                .auto_prefilter(whole_values)
                // One search at a time; the default asks the system how
                // many CPUs there are (files in /proc and /sys) per regex.
                .pool_capacity(1);
            meta::Builder::new()
                .configure(config)
                .syntax(syntax::Config::new().unicode(false).utf8(false))
                .build(VALUE_PATTERNS[index].regex)
                .ok()
        })
        .as_ref()
}

/// The name of the credential shape `value` contains (the leftmost one;
/// on a tie, the first in [`VALUE_PATTERNS`]), if any.
pub fn credential_kind(value: &str) -> Option<&'static str> {
    let shapes = triggered(value.as_bytes());
    let mut best: Option<(usize, &'static str)> = None;
    for (index, pattern) in VALUE_PATTERNS.iter().enumerate() {
        if !shapes.contains(index) {
            continue;
        }
        let found = single(index).and_then(|re| {
            re.find_iter(value.as_bytes())
                .find(|m| !is_filler(&value.as_bytes()[m.range()]))
        });
        if let Some(found) = found
            && best.is_none_or(|(start, _)| found.start() < start)
        {
            best = Some((found.start(), pattern.name));
        }
    }
    best.map(|(_, name)| name)
}

/// Calls `found(shape, start, end)` for every match of every credential
/// shape in `text` that is not a documentation sample (each shape's matches in
/// order; shapes in the order of [`VALUE_PATTERNS`]). Only the shapes whose
/// trigger literal `text` holds are run.
pub fn for_each_shape_match(
    text: &[u8],
    found: &mut dyn FnMut(&'static ValuePattern, usize, usize),
) {
    // Each shape's lines that hold one of its triggers: no shape matches
    // across a line, so its regex reads only those. The occurrences come in
    // order, so each line is found once, however many triggers it holds.
    let (set, shape_of) = triggers();
    let mut lines: Vec<(usize, usize, usize)> = Vec::new();
    let mut line: Option<(usize, usize)> = None;
    set.for_each_occurrence(text, |index, start| {
        let shape = shape_of[index];
        let literal = set.literal(index);
        if VALUE_PATTERNS[shape].is_case_insensitive()
            || text[start..start + literal.len()] == *literal
        {
            let here = match line {
                Some((from, to)) if start < to => (from, to),
                _ => line_after(text, line.map_or(0, |(_, to)| to), start),
            };
            line = Some(here);
            lines.push((shape, here.0, here.1));
        }
    });
    if lines.is_empty() {
        return;
    }
    lines.sort_unstable();
    lines.dedup();
    let mut at = 0;
    while at < lines.len() {
        let shape = lines[at].0;
        let regex = text_regex(shape);
        let mut searched_to = 0;
        while at < lines.len() && lines[at].0 == shape {
            let (_, from, to) = lines[at];
            at += 1;
            let Some(re) = regex else { continue };
            if from < searched_to {
                continue;
            }
            searched_to = to;
            super::work::read(to - from);
            for m in re.find_iter(regex_automata::Input::new(text).range(from..to)) {
                if !is_filler(&text[m.range()]) {
                    found(&VALUE_PATTERNS[shape], m.start(), m.end());
                }
            }
        }
    }
}

/// The line of `text` holding byte `at`, without its newline, where no
/// line starts before `from`: only `from..` the line's end is read.
fn line_after(text: &[u8], from: usize, at: usize) -> (usize, usize) {
    let start = text[from..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(from, |n| from + n + 1);
    let to = crate::byte_search::find_byte(b'\n', &text[at..]).map_or(text.len(), |n| at + n);
    super::work::read(to - from);
    (start, to)
}

fn has_trigger(value: &str) -> bool {
    !triggered(value.as_bytes()).is_empty()
}

/// Replaces every credential-shaped substring of `text` with `[REDACTED]`.
pub fn redact_values(text: &str) -> String {
    match shapes() {
        Some(shapes) if has_trigger(text) => String::from_utf8_lossy(
            &shapes.replace_all(text.as_bytes(), |c: &Captures<'_>| replacement(c)),
        )
        .into_owned(),
        _ => text.to_string(),
    }
}

/// Shortest value of a secret variable that is redacted by literal match;
/// shorter ones (`1`, `true`) would blank out ordinary words.
pub const MIN_LITERAL_SECRET: usize = 8;

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

pub fn is_private_key_begin(line: &[u8]) -> bool {
    contains(line, b"-----BEGIN") && contains(line, b"PRIVATE KEY-----")
}

pub fn is_private_key_end(line: &[u8]) -> bool {
    contains(line, b"-----END") && contains(line, b"PRIVATE KEY-----")
}

#[cfg(test)]
mod tests;
