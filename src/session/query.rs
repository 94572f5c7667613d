//! Search across every session: a substring (optionally case-insensitive)
//! or a regular expression over message text and tool calls.
//!
//! This is what a search is, whatever the store: the query, the hits and
//! the matcher that checks a record. Each store finds the records to check
//! its own way (the file store in `store::file::search`, PostgreSQL with
//! SQL). A journal is first searched as raw bytes for the JSON-encoded pattern
//! (a substring of a string's text is a substring of its JSON encoding), so
//! sessions and records that cannot match are never parsed; each record
//! that may match is parsed and checked on its decoded text. A regular
//! expression is prefiltered the same way by the literals every match must
//! contain (as ripgrep does), so only records holding one of them are parsed.

use serde::Serialize;

use std::borrow::Cow;

use super::model::{Entry, Message, Place, Problem, ToolCall};
use crate::error::{Error, Result};
use crate::timestamp;

/// What to look for.
#[derive(Debug, Clone, Default)]
pub struct Query {
    pub pattern: String,
    pub regex: bool,
    pub ignore_case: bool,
    /// Only messages of this role (`tool` also matches tool calls).
    pub role: Option<String>,
}

/// One match.
// Borrowed from the record where a search finds it (all but the snippet,
// which is made), owned ([`Hit`]) where hits are kept and sorted: one
// type, so what the fast path writes and what the MCP server and the
// clients' schemas say are the same fields.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
#[schemars(transform = crate::schema::skipped_when_none)]
#[schemars(rename = "SearchHit")]
#[serde(rename_all = "camelCase")]
pub struct HitRef<'a> {
    pub session_id: Cow<'a, str>,
    /// The index in `messages` (for a message hit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_index: Option<u64>,
    /// The index in `toolCalls` (for a tool call hit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call_index: Option<u64>,
    /// The message's role; `tool` for a tool call.
    pub role: Cow<'a, str>,
    pub timestamp: Cow<'a, str>,
    /// The matching text with some context, on one line.
    pub snippet: String,
}

/// A hit that owns its text, as a search's result holds it.
pub type Hit = HitRef<'static>;

impl HitRef<'_> {
    /// The hit borrowed from this one (its snippet copied).
    pub fn borrowed(&self) -> HitRef<'_> {
        HitRef {
            session_id: Cow::Borrowed(&self.session_id),
            message_index: self.message_index,
            tool_call_index: self.tool_call_index,
            role: Cow::Borrowed(&self.role),
            timestamp: Cow::Borrowed(&self.timestamp),
            snippet: self.snippet.clone(),
        }
    }

    /// The hit with its text its own.
    pub fn into_owned(self) -> Hit {
        HitRef {
            session_id: Cow::Owned(self.session_id.into_owned()),
            message_index: self.message_index,
            tool_call_index: self.tool_call_index,
            role: Cow::Owned(self.role.into_owned()),
            timestamp: Cow::Owned(self.timestamp.into_owned()),
            snippet: self.snippet,
        }
    }
}

/// Where a search puts the hits it finds.
pub(crate) trait HitSink {
    fn found(&mut self, hit: HitRef<'_>);
    /// The hits that follow are the `n`th session's (in the order of
    /// the ids searched).
    fn start_session(&mut self, _n: usize) {}
    /// No hit follows.
    fn finish(&mut self) {}
}

impl HitSink for Vec<Hit> {
    fn found(&mut self, hit: HitRef<'_>) {
        self.push(hit.into_owned());
    }
}

/// All hits (newest first) and the sessions that could not be read.
#[derive(Debug, Clone, Default)]
pub struct Found {
    pub hits: Vec<Hit>,
    pub problems: Vec<Problem>,
}

pub(crate) struct Matcher {
    text: Text,
    raw: Option<Raw>,
    role: Option<String>,
}

/// How a record's decoded text is searched: a plain substring needs no
/// regular expression (whose making cost a rare word's search a fifth of
/// a millisecond).
enum Text {
    Exact(Box<memchr::memmem::Finder<'static>>),
    Regex(Box<regex::Regex>),
}

impl Text {
    /// Where the leftmost match is.
    fn find(&self, text: &str) -> Option<std::ops::Range<usize>> {
        match self {
            Text::Exact(finder) => finder
                .find(text.as_bytes())
                .map(|at| at..at + finder.needle().len()),
            Text::Regex(regex) => regex.find(text).map(|m| m.range()),
        }
    }
}

enum Raw {
    Exact(Box<memchr::memmem::Finder<'static>>),
    Folded(regex::bytes::Regex),
    /// A regular expression's required literals: every match holds one.
    AnyOf(aho_corasick::AhoCorasick),
}

impl Raw {
    fn find_in(&self, bytes: &[u8]) -> bool {
        match self {
            Raw::Exact(finder) => finder.find(bytes).is_some(),
            Raw::Folded(re) => re.is_match(bytes),
            Raw::AnyOf(literals) => literals.is_match(bytes),
        }
    }
}

/// Literals of which every match of `pattern` contains at least one, each
/// free of what a journal line could hold differently from the searched
/// text: bytes JSON escapes (`"`, `\`, control characters), non-ASCII
/// bytes (some writers escape them) and spaces (a tool call's text joins its
/// fields with them). `None` when no such set
/// exists (`\w+`, `a|.*`), so every record is parsed.
pub(crate) fn required_literals(pattern: &str, ignore_case: bool) -> Option<Vec<Vec<u8>>> {
    use regex_syntax::hir::literal::{ExtractKind, Extractor};
    let hir = regex_syntax::ParserBuilder::new()
        .case_insensitive(ignore_case)
        .build()
        .parse(pattern)
        .ok()?;
    [ExtractKind::Prefix, ExtractKind::Suffix]
        .into_iter()
        .find_map(|kind| {
            let seq = Extractor::new().kind(kind).extract(&hir);
            let literals = seq.literals()?;
            let pieces = literals
                .iter()
                .map(|literal| longest_verbatim_piece(literal.as_bytes()))
                .collect::<Option<Vec<_>>>()?;
            (!pieces.is_empty()).then_some(pieces)
        })
}

/// What every session holding a match of `query` contains in its stored
/// bytes: alternatives (one of them is there), each a literal whose runs of
/// bytes no JSON writer escapes are there verbatim. `None`: nothing is
/// known (a regex without required literals), so every session may match.
/// The session index ([`crate::session::store::file::index::grams`]) turns
/// each run into the trigrams a candidate session must hold.
pub(crate) fn stored_literals(query: &Query) -> Option<Vec<Vec<u8>>> {
    if query.regex {
        return required_literals(&query.pattern, query.ignore_case);
    }
    let encoded = serde_json::to_string(&query.pattern).ok()?;
    Some(vec![encoded.as_bytes()[1..encoded.len() - 1].to_vec()])
}

/// The longest run of `literal` that a JSON encoding keeps byte for byte.
fn longest_verbatim_piece(literal: &[u8]) -> Option<Vec<u8>> {
    literal
        .split(|&b| matches!(b, b'"' | b'\\' | b' ') || !(0x20..0x80).contains(&b))
        .max_by_key(|piece| piece.len())
        .filter(|piece| !piece.is_empty())
        .map(<[u8]>::to_vec)
}

impl Matcher {
    pub(crate) fn new(query: &Query) -> Result<Matcher> {
        if query.pattern.is_empty() {
            return Err(Error::input("the search pattern is empty"));
        }
        let text = if query.regex || query.ignore_case {
            let source = if query.regex {
                query.pattern.clone()
            } else {
                regex::escape(&query.pattern)
            };
            let regex = regex::RegexBuilder::new(&source)
                .case_insensitive(query.ignore_case)
                .size_limit(1 << 24)
                .build()
                .map_err(|e| {
                    Error::input(format!(
                        "invalid regular expression: {}",
                        crate::text::one_line(&e.to_string())
                    ))
                })?;
            Text::Regex(Box::new(regex))
        } else {
            Text::Exact(Box::new(
                memchr::memmem::Finder::new(query.pattern.as_bytes()).into_owned(),
            ))
        };
        let raw = if query.regex {
            required_literals(&query.pattern, query.ignore_case)
                .and_then(|literals| aho_corasick::AhoCorasick::new(literals).ok())
                .map(Raw::AnyOf)
        } else {
            let encoded = serde_json::to_string(&query.pattern).unwrap_or_default();
            let encoded = encoded[1..encoded.len() - 1].to_string();
            if query.ignore_case {
                regex::bytes::RegexBuilder::new(&regex::escape(&encoded))
                    .case_insensitive(true)
                    .build()
                    .ok()
                    .map(Raw::Folded)
            } else {
                Some(Raw::Exact(Box::new(
                    memchr::memmem::Finder::new(encoded.as_bytes()).into_owned(),
                )))
            }
        };
        Ok(Matcher {
            text,
            raw,
            role: query.role.clone(),
        })
    }

    /// A hit of role `title` when session `id`'s title matches, stamped
    /// with its last activity (the role filter is the caller's).
    pub(crate) fn title_hit(
        &self,
        id: &str,
        title: Option<&str>,
        last_activity: &str,
        hits: &mut impl HitSink,
    ) {
        if let Some(title) = title
            && self.text.find(title).is_some()
        {
            hits.found(HitRef {
                session_id: Cow::Borrowed(id),
                message_index: None,
                tool_call_index: None,
                role: Cow::Borrowed("title"),
                timestamp: Cow::Borrowed(last_activity),
                snippet: one_line(title.to_string()),
            });
        }
    }

    pub(crate) fn may_match(&self, bytes: &[u8]) -> bool {
        self.raw.as_ref().is_none_or(|raw| raw.find_in(bytes))
    }

    pub(crate) fn check(&self, id: &str, place: Place, entry: &Entry, hits: &mut impl HitSink) {
        // Nothing is copied for a record that does not match: a message of
        // one text part (the usual one) is searched where it lies.
        match entry {
            Entry::Message(m) => {
                self.check_text(id, place, m.role(), &message_text(m), m.timestamp(), hits);
            }
            Entry::ToolCall(t) => {
                self.check_text(id, place, "tool", &tool_text(t), t.timestamp(), hits);
            }
        }
    }

    /// [`Matcher::check`] of a record with this role, searched text and time.
    pub(crate) fn check_text(
        &self,
        id: &str,
        place: Place,
        role: &str,
        text: &str,
        timestamp: &str,
        hits: &mut impl HitSink,
    ) {
        if let Some(want) = &self.role
            && want != role
        {
            return;
        }
        if let Some(found) = self.text.find(text) {
            let (message_index, tool_call_index) = match place {
                Place::Message(i) => (Some(i as u64), None),
                Place::ToolCall(i) => (None, Some(i as u64)),
            };
            hits.found(HitRef {
                session_id: Cow::Borrowed(id),
                message_index,
                tool_call_index,
                role: Cow::Borrowed(role),
                timestamp: Cow::Borrowed(timestamp),
                snippet: snippet(text, found.start, found.end),
            });
        }
    }
}

/// [`Message::text_content`], borrowed when the message has one text part.
fn message_text(message: &Message) -> Cow<'_, str> {
    match message.parts() {
        [] => Cow::Borrowed(""),
        [part] => match part.get("text").and_then(serde_json::Value::as_str) {
            Some(text) => Cow::Borrowed(text),
            None => Cow::Owned(message.text_content()),
        },
        _ => Cow::Owned(message.text_content()),
    }
}

/// The text a tool call is searched in.
pub fn tool_text(call: &ToolCall) -> String {
    let mut text = format!(
        "{} {} {}",
        call.name(),
        serde_json::to_string(call.args()).unwrap_or_default(),
        call.llm_content()
    );
    if let Some(display) = call.return_display() {
        text.push(' ');
        text.push_str(display);
    }
    text
}

/// About 40 characters either side of the match, on one line.
fn snippet(text: &str, start: usize, end: usize) -> String {
    const CONTEXT: usize = 40;
    // Where the CONTEXT characters before the match begin, and whether
    // more come before them; the same after it.
    // Over ASCII, a character is a byte.
    let before = &text.as_bytes()[..start];
    let (from, cut_before) = if before[before.len().saturating_sub(CONTEXT + 1)..].is_ascii() {
        (start.saturating_sub(CONTEXT), start > CONTEXT)
    } else {
        let mut back = text[..start].char_indices().rev().map(|(i, _)| i);
        (back.nth(CONTEXT - 1).unwrap_or(0), back.next().is_some())
    };
    let after = &text[end..];
    let (to, cut_after) = if after.as_bytes()[..after.len().min(CONTEXT + 1)].is_ascii() {
        (after.len().min(CONTEXT), after.len() > CONTEXT)
    } else {
        let next = after.char_indices().nth(CONTEXT).map(|(i, _)| i);
        next.map_or((after.len(), false), |i| (i, true))
    };
    let middle = &text[from..end + to];
    let mut raw = String::with_capacity(middle.len() + 8);
    if cut_before {
        raw.push('…');
    }
    raw.push_str(middle);
    if cut_after {
        raw.push('…');
    }
    // An ellipsis is no whitespace: a space beside one stays.
    if is_plain_one_line(middle, !cut_before, !cut_after) {
        return raw;
    }
    one_line(raw)
}

/// Whether `text` is ASCII without control characters or two spaces in a
/// row, and does not start (when `start`) or end (when `end`) with a
/// space: the usual snippet of prose, which [`one_line`] leaves as it is.
/// Looked through at once, with no early exit, so that it vectorizes.
fn is_plain_one_line(text: &str, start: bool, end: bool) -> bool {
    let bytes = text.as_bytes();
    let plain = bytes
        .iter()
        .fold(true, |plain, &b| plain & (0x20..0x80).contains(&b));
    plain
        && !(start && bytes.first() == Some(&b' '))
        && !(end && bytes.last() == Some(&b' '))
        && memchr::memmem::find(bytes, b"  ").is_none()
}

/// `text` with each run of whitespace made one space, trimmed; as it is
/// when it has nothing to change (the usual snippet of prose).
fn one_line(text: String) -> String {
    if is_one_line(&text) {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Whether `text` neither starts nor ends with whitespace and holds none
/// but single spaces (so [`one_line`] would give it back unchanged).
fn is_one_line(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.first() == Some(&b' ') || bytes.last() == Some(&b' ') {
        return false;
    }
    let mut after_space = false;
    for (at, &b) in bytes.iter().enumerate() {
        match b {
            b' ' if after_space => return false,
            b' ' => after_space = true,
            0x09..=0x0d => return false,
            // The first byte of a character beyond ASCII: some of those
            // are whitespace (U+00A0, U+2003, U+3000, …).
            0xc0.. if text[at..].chars().next().is_some_and(char::is_whitespace) => {
                return false;
            }
            _ => after_space = false,
        }
    }
    true
}

/// Newest first; ties by session and index. Each time is parsed once,
/// not at every comparison (a common word has hundreds of thousands), and
/// the hits are moved into their order in place: sorting them beside
/// their keys had held two copies of every hit at once.
pub(crate) fn sort_hits(hits: &mut [Hit]) {
    sort_hits_keyed(hits);
}

/// The time [`sort_hits`] orders a hit by (one that is not a time last).
fn hit_key(hit: &Hit) -> i64 {
    timestamp::parse(&hit.timestamp).unwrap_or(i64::MIN)
}

/// [`sort_hits`]' order of hit `a` with key `ka` and hit `b` with key `kb`.
fn hit_order(a: &Hit, ka: i64, b: &Hit, kb: i64) -> std::cmp::Ordering {
    kb.cmp(&ka)
        .then_with(|| a.session_id.cmp(&b.session_id))
        .then_with(|| a.message_index.cmp(&b.message_index))
        .then_with(|| a.tool_call_index.cmp(&b.tool_call_index))
}

/// [`sort_hits`], giving back each hit's key in the new order.
fn sort_hits_keyed(hits: &mut [Hit]) -> Vec<i64> {
    let keys: Vec<i64> = hits.iter().map(hit_key).collect();
    let mut order: Vec<usize> = (0..hits.len()).collect();
    order.sort_unstable_by(|&a, &b| {
        hit_order(&hits[a], keys[a], &hits[b], keys[b]).then_with(|| a.cmp(&b))
    });
    let sorted_keys = order.iter().map(|&i| keys[i]).collect();
    // Position i takes the hit at order[i], one cycle of the permutation
    // at a time; a visited position is marked with usize::MAX.
    for start in 0..order.len() {
        let mut at = start;
        while order[at] != usize::MAX {
            let from = order[at];
            order[at] = usize::MAX;
            if from == start {
                break;
            }
            hits.swap(at, from);
            at = from;
        }
    }
    sorted_keys
}

/// The hits of `parts` in [`sort_hits`]' order, as if they had been
/// concatenated and sorted: each part is joined and sorted on a thread of
/// its own, then the sorted parts are merged (a common word's million hits
/// are sorted on every core, and moved once more instead of twice).
pub(crate) fn sort_hit_parts(parts: Vec<Vec<Vec<Hit>>>) -> Vec<Hit> {
    let sorted: Vec<(Vec<Hit>, Vec<i64>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = parts
            .into_iter()
            .map(|part| {
                scope.spawn(move || {
                    let mut hits = Vec::with_capacity(part.iter().map(Vec::len).sum());
                    for session in part {
                        hits.extend(session);
                    }
                    let keys = sort_hits_keyed(&mut hits);
                    (hits, keys)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    merge_sorted(sorted)
}

/// Merges lists each in [`sort_hits`]' order (with their keys); of equal
/// hits, the earlier list's comes first, as a stable sort would have it.
fn merge_sorted(lists: Vec<(Vec<Hit>, Vec<i64>)>) -> Vec<Hit> {
    let mut out = Vec::with_capacity(lists.iter().map(|(hits, _)| hits.len()).sum());
    let mut heads: Vec<_> = lists
        .into_iter()
        .map(|(hits, keys)| hits.into_iter().zip(keys).peekable())
        .collect();
    loop {
        let mut best: Option<(usize, &Hit, i64)> = None;
        for (list, head) in heads.iter_mut().enumerate() {
            if let Some((hit, key)) = head.peek()
                && best.is_none_or(|(_, b, kb)| hit_order(hit, *key, b, kb).is_lt())
            {
                best = Some((list, hit, *key));
            }
        }
        let Some((list, _, _)) = best else {
            return out;
        };
        out.extend(heads[list].next().map(|(hit, _)| hit));
    }
}

/// A repeatable source of numbers below `n` for tests (an LCG).
#[cfg(test)]
pub(crate) fn seeded(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |n| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    }
}

#[cfg(test)]
mod tests;
