//! A credential found in a text (its bytes and the rule's kind), the
//! marker that replaces it, and the count of what a redaction did: the
//! words every rule of this folder hands back.

use std::borrow::Cow;

/// What replaces a span: `[REDACTED:<kind>]`.
pub fn marker(kind: &str) -> String {
    format!("[REDACTED:{kind}]")
}

/// One credential found in a text: bytes `start..end`, and the rule's kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub kind: Cow<'static, str>,
}

/// What a redaction did: credentials replaced, and the bytes withheld
/// past the limit ([`PRECISE_LIMIT`](super::PRECISE_LIMIT)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub replaced: u64,
    pub withheld: u64,
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        self.replaced += other.replaced;
        self.withheld += other.withheld;
    }
}

impl std::iter::Sum for Tally {
    fn sum<I: Iterator<Item = Tally>>(tallies: I) -> Tally {
        let mut total = Tally::default();
        for tally in tallies {
            total += tally;
        }
        total
    }
}

/// `text` with each span replaced by its marker.
pub fn replace(text: &str, spans: &[Span]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for span in spans {
        out.push_str(&text[at..span.start]);
        out.push_str(&marker(&span.kind));
        at = span.end;
    }
    out.push_str(&text[at..]);
    out
}
