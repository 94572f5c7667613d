//! Redaction of stored conversation text: every credential a text holds,
//! as a span with the kind of rule that found it, replaced by
//! `[REDACTED:<kind>]` with the text around it kept.
//!
//! Four kinds of rule find a span:
//! - a credential shape of [`super::patterns`] (`github-token`, …; the
//!   secret part only, so `password=` or `postgres://` and `@` stay);
//! - a private key block, from its BEGIN line to its END line (to the end
//!   of the text when the END line is missing);
//! - an assignment to a name that holds secrets (`DB_PASSWORD=…`,
//!   `"api_key": "…"`, `secret: …`): the value, unless it is a sample
//!   (`<your token>`, `$API_KEY`, `xxxx`) or a path;
//! - the exact value of a secret variable of the environment (`env:NAME`).
//!
//! What it cannot catch: a secret encoded (base64, hex; JSON escapes and
//! ASCII percent-codes are decoded, [`super::decoded`]),
//! split into pieces, or of a shape no rule knows, unless it is the value
//! of a secret variable.

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use super::assignments::{assignments, assignments_at, is_reference};
use super::fields::fields_in_json_text;
use super::patterns::{self, Keep};
use super::span::{Span, Tally, marker, replace};
use super::work;

/// A secret value to redact wherever it appears, with its variable's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecretValue {
    pub name: String,
    pub value: String,
}

/// Decides whether a variable (name, value) holds a secret: the
/// environment policy, asked only about a value a text holds.
pub type Classify = Arc<dyn Fn(&str, &str) -> bool + Send + Sync>;

/// Finds and replaces credentials in texts. Cheap to make: the shapes'
/// regexes are compiled only when a text holds one of their literals, and
/// a variable is classified only when a text holds its value.
#[derive(Clone, Default)]
pub struct Scrubber {
    /// Longest first, so a value wins over a shorter one it contains.
    values: Vec<SecretValue>,
    /// Variables not yet classified, longest value first, and how.
    candidates: Vec<SecretValue>,
    classify: Option<Classify>,
    /// Built for much text ([`super::bulk`]): a scan of a whole store.
    bulk: bool,
    /// The values' finders for raw files, built on first use.
    finders: Arc<OnceLock<Vec<memchr::memmem::Finder<'static>>>>,
    /// How much of one text the rules read ([`PRECISE_LIMIT`] when none).
    limit: Option<usize>,
}

/// How much of one text (a message's text, a tool's result, …) the rules
/// read: 16 MiB, about a second of the slowest input known in a release
/// build (`password=` repeated: 749 ms for 10 MB, issue 54's figures). Past it, [`Scrubber::redact`] stores no more of the text but a
/// marker saying how many bytes were withheld: a backstop, so that no
/// text, however large or shaped, holds up the turn that records it or
/// reaches the store unread.
pub const PRECISE_LIMIT: usize = 16 << 20;

impl std::fmt::Debug for Scrubber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the values.
        f.debug_struct("Scrubber")
            .field("values", &self.values.len())
            .field("candidates", &self.candidates.len())
            .finish()
    }
}

impl Scrubber {
    /// A scrubber for the credential rules and these exact values (those
    /// shorter than [`patterns::MIN_LITERAL_SECRET`] are left out: they
    /// would blank ordinary words).
    pub fn new(values: impl IntoIterator<Item = SecretValue>) -> Scrubber {
        Scrubber {
            values: usable(values),
            ..Scrubber::default()
        }
    }

    /// A scrubber that also redacts the value of each of `variables` that
    /// `classify` says holds a secret, asking only about a value found in
    /// a text.
    pub fn with_variables(
        mut self,
        variables: impl IntoIterator<Item = SecretValue>,
        classify: Classify,
    ) -> Scrubber {
        self.candidates = usable(variables);
        self.classify = Some(classify);
        self
    }

    /// The same scrubber, for much text: its automata cost a few
    /// milliseconds to build once, and then search faster.
    pub fn for_bulk(mut self) -> Scrubber {
        self.bulk = true;
        self
    }

    /// The same scrubber, reading at most `limit` bytes of one text.
    #[must_use]
    pub fn with_limit(mut self, limit: usize) -> Scrubber {
        self.limit = Some(limit);
        self
    }

    /// Whether any rule might find a credential in the strings of the
    /// JSON text `raw` (a stored file, not parsed): `false` only when none
    /// could, so a scan can skip it.
    pub fn may_hold_credentials(&self, raw: &[u8]) -> bool {
        let finders = self.finders.get_or_init(|| {
            super::bulk::value_finders(
                self.values
                    .iter()
                    .chain(&self.candidates)
                    .map(|v| v.value.as_str()),
            )
        });
        super::bulk::may_hold_credentials(raw, finders)
    }

    /// Every credential in `text`, in order, none overlapping (overlapping
    /// finds are merged, keeping the kind of the one that starts first):
    /// in the text as it is, and in a copy with its JSON escapes and
    /// percent-codes decoded ([`super::decoded`]), each span found there
    /// mapped back to the bytes it came from.
    pub fn find(&self, text: &str) -> Vec<Span> {
        let mut spans = Vec::new();
        self.find_in(text, &mut spans);
        // Each level decodes the one before: a tool's JSON output kept as
        // a string in an agent's JSON (Codex's `function_call_output`) is
        // escaped twice.
        let mut levels: Vec<super::decoded::Decoded> = Vec::new();
        while levels.len() < DECODED_LEVELS {
            let next = match levels.last() {
                Some(level) => super::decoded::Decoded::of(&level.text),
                None => super::decoded::Decoded::of(text),
            };
            let Some(next) = next else { break };
            let mut found = Vec::new();
            self.find_in(&next.text, &mut found);
            levels.push(next);
            spans.extend(found.into_iter().map(|span| {
                let (start, end) = levels
                    .iter()
                    .rev()
                    .fold((span.start, span.end), |(start, end), level| {
                        level.original(start, end)
                    });
                Span { start, end, ..span }
            }));
        }
        drop_redacted(text, &mut spans);
        merge(spans)
    }

    /// The spans every rule finds in `text`, unsorted, perhaps overlapping.
    fn find_in(&self, text: &str, spans: &mut Vec<Span>) {
        let bulk = self.bulk || text.len() >= BULK_TEXT;
        // In bulk, one read of the text finds both the shapes' triggers
        // and the secret words the assignments start from.
        let literals = bulk.then(|| super::bulk::read_literals(text.as_bytes()));
        let mut shape = |pattern: &'static patterns::ValuePattern, start: usize, end: usize| {
            if pattern.name == "private-key" {
                return;
            }
            let (start, end) = whole_characters(text, secret_part(text, pattern.keep, start, end));
            let keyed = pattern.keep == Keep::Key;
            if start < end && !(keyed && is_reference(&text[start..end])) {
                spans.push(Span {
                    start,
                    end,
                    kind: Cow::Borrowed(pattern.name),
                });
            }
        };
        match &literals {
            Some((shapes, _)) => {
                super::bulk::for_each_match_of(text.as_bytes(), *shapes, &mut shape);
            }
            None => patterns::for_each_shape_match(text.as_bytes(), &mut shape),
        }
        private_key_blocks(text, spans);
        match &literals {
            Some((_, words)) => assignments_at(text, words, spans),
            None => assignments(text, false, spans),
        }
        fields_in_json_text(text, spans);
        let classified = self.candidates.iter().filter(|variable| {
            text.contains(variable.value.as_str())
                && self
                    .classify
                    .as_ref()
                    .is_some_and(|classify| classify(&variable.name, &variable.value))
        });
        for secret in self.values.iter().chain(classified) {
            for (at, _) in text.match_indices(secret.value.as_str()) {
                spans.push(Span {
                    start: at,
                    end: at + secret.value.len(),
                    kind: Cow::Owned(format!("env:{}", secret.name)),
                });
            }
        }
    }

    /// `text` with every credential replaced, and how many were; `None`
    /// when there is none (the text is then stored as it is). Past the
    /// limit ([`PRECISE_LIMIT`]), the rest of the text is withheld, one
    /// marker more.
    pub fn redact(&self, text: &str) -> Option<(String, usize)> {
        self.redact_tallied(text)
            .map(|(text, tally)| (text, tally.replaced as usize))
    }

    /// [`Scrubber::redact`], and the bytes withheld.
    pub fn redact_tallied(&self, text: &str) -> Option<(String, Tally)> {
        let read = read_end(text, self.limit.unwrap_or(PRECISE_LIMIT));
        let spans = self.find(&text[..read]);
        if spans.is_empty() && read == text.len() {
            return None;
        }
        let mut redacted = replace(&text[..read], &spans);
        let mut tally = Tally {
            replaced: spans.len() as u64,
            withheld: 0,
        };
        if read < text.len() {
            let withheld = text.len() - read;
            redacted.push_str(&marker(&format!(
                "withheld {withheld} bytes past the limit"
            )));
            tally.replaced += 1;
            tally.withheld = withheld as u64;
        }
        Some((redacted, tally))
    }
}

/// How much of `text` the rules read when it is longer than `limit`: up
/// to its last line end before the limit (its last blank when it has no
/// line end there, nothing when neither), so that no credential is cut in
/// two and its first half kept; and room left for the marker, so that the
/// text stored is within the limit and read whole when redacted again.
fn read_end(text: &str, limit: usize) -> usize {
    /// More than `[REDACTED:withheld 18446744073709551615 bytes past the limit]`.
    const MARKER_ROOM: usize = 64;
    if text.len() <= limit {
        return text.len();
    }
    let head = &text.as_bytes()[..limit.saturating_sub(MARKER_ROOM)];
    memchr::memrchr(b'\n', head)
        .or_else(|| head.iter().rposition(u8::is_ascii_whitespace))
        .map_or(0, |at| at + 1)
}

/// How many times a text is decoded ([`super::decoded`]) for the rules:
/// JSON in a string in JSON in a string, and no deeper.
const DECODED_LEVELS: usize = 3;

/// The size from which one text is searched as much text is
/// ([`Scrubber::for_bulk`]): the automata's few milliseconds are then a
/// fraction of the search, and their DFAs read a long line many times
/// faster than the NFA a short text is searched with.
const BULK_TEXT: usize = 256 << 10;

/// The values long enough to redact, longest first, each once.
fn usable(values: impl IntoIterator<Item = SecretValue>) -> Vec<SecretValue> {
    let mut values: Vec<SecretValue> = values
        .into_iter()
        .filter(|v| v.value.trim().len() >= patterns::MIN_LITERAL_SECRET)
        .collect();
    values.sort_by(|a, b| b.value.len().cmp(&a.value.len()).then(a.name.cmp(&b.name)));
    values.dedup_by(|a, b| a.value == b.value);
    values
}

/// `start..end` widened to whole characters: the shapes match bytes, and a
/// span must never cut a character of the text it is replaced in.
fn whole_characters(text: &str, (mut start, mut end): (usize, usize)) -> (usize, usize) {
    end = end.min(text.len());
    start = start.min(end);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    while !text.is_char_boundary(end) {
        end += 1;
    }
    (start, end)
}

/// The secret part of a shape's match: after `key=` or `key: "` for a
/// keyed shape, between `://` and `@` for a URL's userinfo.
fn secret_part(text: &str, keep: Keep, start: usize, end: usize) -> (usize, usize) {
    let bytes = text.as_bytes();
    match keep {
        Keep::Nothing => (start, end),
        Keep::UrlUserinfo => {
            let whole = &text[start..end];
            let from = whole.find("://").map_or(start, |at| start + at + 3);
            let to = if bytes.get(end.wrapping_sub(1)) == Some(&b'@') {
                end - 1
            } else {
                end
            };
            (from, to.max(from))
        }
        Keep::Key => {
            let Some(sep) = bytes[start..end]
                .iter()
                .position(|&b| b == b'=' || b == b':')
            else {
                return (start, end);
            };
            let mut from = start + sep + 1;
            while from < end && matches!(bytes[from], b' ' | b'\t' | b'"' | b'\'') {
                from += 1;
            }
            let mut to = end;
            while to > from && matches!(bytes[to - 1], b'"' | b'\'') {
                to -= 1;
            }
            (from, to)
        }
    }
}

const BEGIN: &str = "-----BEGIN ";
const PRIVATE_KEY: &str = "PRIVATE KEY";
const KEY_END: &str = "PRIVATE KEY-----";

/// Private key blocks: from `-----BEGIN … PRIVATE KEY-----` to the
/// matching `-----END … PRIVATE KEY-----`, or to the end of the text. One
/// read forward: a header's label is read to its first byte that is not a
/// capital, digit or space, which is before the next BEGIN; a block's end
/// is searched once, from its header on.
fn private_key_blocks(text: &str, spans: &mut Vec<Span>) {
    let bytes = text.as_bytes();
    let mut from = 0;
    // std's search, not memchr's: see crate::byte_search.
    while let Some(at) = text[from..].find(BEGIN).map(|at| from + at) {
        work::read(at - from);
        let label_start = at + BEGIN.len();
        let label_end = bytes[label_start..]
            .iter()
            .position(|&b| !(b.is_ascii_uppercase() || b.is_ascii_digit() || b == b' '))
            .map_or(bytes.len(), |n| label_start + n);
        work::read(label_end - label_start);
        // Only capitals, digits and spaces between BEGIN and PRIVATE KEY:
        // the label's run ends with PRIVATE KEY, followed by `-----`.
        let header = bytes[label_start..label_end].ends_with(PRIVATE_KEY.as_bytes())
            && bytes[label_end..].starts_with(&KEY_END.as_bytes()[PRIVATE_KEY.len()..]);
        if !header {
            from = label_start;
            continue;
        }
        let body = label_end + KEY_END.len() - PRIVATE_KEY.len();
        let end = match text[body..].find("-----END ") {
            Some(e) => {
                let end_at = body + e;
                match text[end_at..].find(KEY_END) {
                    Some(k) => end_at + k + KEY_END.len(),
                    None => text.len(),
                }
            }
            None => text.len(),
        };
        work::read(end - body);
        spans.push(Span {
            start: at,
            end,
            kind: Cow::Borrowed("private-key"),
        });
        from = end;
    }
    work::read(bytes.len() - from);
}

/// Drops the spans that overlap a marker of an earlier redaction
/// (`postgres://u:[REDACTED:url-password]@db` is not a new password), so
/// redacting twice changes nothing.
fn drop_redacted(text: &str, spans: &mut Vec<Span>) {
    const OPEN: &str = "[REDACTED:";
    if !text.contains(OPEN) {
        return;
    }
    // Each marker to the first `]` after it: markers before one `]` share
    // it, so the text is read once, and the ends come in order.
    let mut markers: Vec<(usize, usize)> = Vec::new();
    let mut close = 0;
    for (at, _) in text.match_indices(OPEN) {
        if close <= at {
            close = text[at..].find(']').map_or(text.len(), |end| at + end + 1);
            work::read(close - at);
        }
        markers.push((at, close));
    }
    work::read(text.len());
    spans.retain(|span| {
        // The first marker ending after the span starts is the only one
        // that may overlap it without a later one starting before it ends.
        let first = markers.partition_point(|&(_, end)| end <= span.start);
        markers
            .get(first)
            .is_none_or(|&(start, _)| start >= span.end)
    });
}

/// Sorts spans and merges the overlapping ones. Spans are given rule by
/// rule (shapes, private keys, assignments, values): of those starting at
/// the same place, the first rule's kind names the merged span.
fn merge(mut spans: Vec<Span>) -> Vec<Span> {
    spans.sort_by_key(|span| span.start);
    let mut merged: Vec<Span> = Vec::with_capacity(spans.len());
    for span in spans {
        match merged.last_mut() {
            Some(last) if span.start < last.end => last.end = last.end.max(span.end),
            _ => merged.push(span),
        }
    }
    merged
}

#[cfg(test)]
mod tests;
