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

use super::model::{Entry, Place, Problem, ToolCall};
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
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Hit {
    pub session_id: String,
    /// The index in `messages` (for a message hit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_index: Option<u64>,
    /// The index in `toolCalls` (for a tool call hit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call_index: Option<u64>,
    /// The message's role; `tool` for a tool call.
    pub role: String,
    pub timestamp: String,
    /// The matching text with some context, on one line.
    pub snippet: String,
}

/// All hits (newest first) and the sessions that could not be read.
#[derive(Debug, Clone, Default)]
pub struct Found {
    pub hits: Vec<Hit>,
    pub problems: Vec<Problem>,
}

pub(crate) struct Matcher {
    text: regex::Regex,
    raw: Option<Raw>,
    role: Option<String>,
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
        let source = if query.regex {
            query.pattern.clone()
        } else {
            regex::escape(&query.pattern)
        };
        let text = regex::RegexBuilder::new(&source)
            .case_insensitive(query.ignore_case)
            .size_limit(1 << 24)
            .build()
            .map_err(|e| {
                Error::input(format!(
                    "invalid regular expression: {}",
                    crate::text::one_line(&e.to_string())
                ))
            })?;
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
    ) -> Option<Hit> {
        let title = title?;
        self.text.is_match(title).then(|| Hit {
            session_id: id.to_string(),
            message_index: None,
            tool_call_index: None,
            role: "title".into(),
            timestamp: last_activity.to_string(),
            snippet: title.split_whitespace().collect::<Vec<_>>().join(" "),
        })
    }

    pub(crate) fn may_match(&self, bytes: &[u8]) -> bool {
        self.raw.as_ref().is_none_or(|raw| raw.find_in(bytes))
    }

    pub(crate) fn check(&self, id: &str, place: Place, entry: &Entry, hits: &mut Vec<Hit>) {
        let (role, text, timestamp) = match entry {
            Entry::Message(m) => (m.role().to_string(), m.text_content(), m.timestamp()),
            Entry::ToolCall(t) => ("tool".to_string(), tool_text(t), t.timestamp()),
        };
        if let Some(want) = &self.role
            && *want != role
        {
            return;
        }
        if let Some(found) = self.text.find(&text) {
            let (message_index, tool_call_index) = match place {
                Place::Message(i) => (Some(i as u64), None),
                Place::ToolCall(i) => (None, Some(i as u64)),
            };
            hits.push(Hit {
                session_id: id.to_string(),
                message_index,
                tool_call_index,
                role,
                timestamp: timestamp.to_string(),
                snippet: snippet(&text, found.start(), found.end()),
            });
        }
    }
}

/// The text a tool call is searched in.
pub(crate) fn tool_text(call: &ToolCall) -> String {
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
    let before: Vec<char> = text[..start].chars().rev().take(CONTEXT + 1).collect();
    let after: Vec<char> = text[end..].chars().take(CONTEXT + 1).collect();
    let mut out = String::new();
    if before.len() > CONTEXT {
        out.push('…');
    }
    out.extend(before.iter().take(CONTEXT).rev());
    out.push_str(&text[start..end]);
    out.extend(after.iter().take(CONTEXT));
    if after.len() > CONTEXT {
        out.push('…');
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Newest first; ties by session and index. Each time is parsed once,
/// not at every comparison (a common word has hundreds of thousands).
pub(crate) fn sort_hits(hits: &mut Vec<Hit>) {
    let mut keyed: Vec<(i64, Hit)> = hits
        .drain(..)
        .map(|hit| (timestamp::parse(&hit.timestamp).unwrap_or(i64::MIN), hit))
        .collect();
    keyed.sort_by(|(ka, a), (kb, b)| {
        kb.cmp(ka)
            .then_with(|| a.session_id.cmp(&b.session_id))
            .then_with(|| a.message_index.cmp(&b.message_index))
            .then_with(|| a.tool_call_index.cmp(&b.tool_call_index))
    });
    hits.extend(keyed.into_iter().map(|(_, hit)| hit));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets_are_one_line_with_context() {
        let text = format!("{}needle\nafter", "x".repeat(100));
        let start = text.find("needle").unwrap();
        let s = snippet(&text, start, start + 6);
        assert!(s.starts_with('…') && s.contains("needle after"), "{s}");
    }

    #[test]
    fn the_raw_prefilter_sees_escaped_text() {
        let m = Matcher::new(&Query {
            pattern: "say \"hi\"".into(),
            ..Query::default()
        })
        .unwrap();
        let line =
            serde_json::to_vec(&serde_json::json!({"text": "they say \"hi\" twice"})).unwrap();
        assert!(m.may_match(&line));
        let folded = Matcher::new(&Query {
            pattern: "HELLO".into(),
            ignore_case: true,
            ..Query::default()
        })
        .unwrap();
        assert!(folded.may_match(b"{\"text\":\"why hello\"}"));
    }

    fn regex(pattern: &str, ignore_case: bool) -> Matcher {
        Matcher::new(&Query {
            pattern: pattern.into(),
            regex: true,
            ignore_case,
            ..Query::default()
        })
        .unwrap()
    }

    #[test]
    fn a_regex_skips_lines_without_its_required_literals() {
        let m = regex("zanzi[a-z]+", false);
        assert!(m.may_match(br#"{"text":"to zanzibar"}"#));
        assert!(!m.may_match(br#"{"text":"to dar es salaam"}"#));
        let alternatives = regex("(?:alpha|beta)[0-9]", false);
        assert!(alternatives.may_match(br#"{"text":"beta7"}"#));
        assert!(!alternatives.may_match(br#"{"text":"gamma7"}"#));
        let suffix = regex(r"\w+_test", false);
        assert!(suffix.may_match(br#"{"text":"run parse_test"}"#));
        assert!(!suffix.may_match(br#"{"text":"run parse"}"#));
    }

    #[test]
    fn a_case_insensitive_regex_prefilters_every_case_and_unicode_folding() {
        let m = regex("zanzibar", true);
        assert!(m.may_match(br#"{"text":"ZanZIBAR"}"#));
        // `s` folds to U+017F LONG S: the prefilter keeps the ASCII rest.
        let s = regex("session", true);
        assert!(s.may_match("{\"text\":\"\u{17f}ession\"}".as_bytes()));
        assert!(!s.may_match(br#"{"text":"nothing here"}"#));
    }

    #[test]
    fn a_regex_literal_is_cut_where_the_journal_may_differ_from_the_text() {
        // A quote is escaped in the journal, a newline joins parts, a space
        // joins a tool call's name and arguments, non-ASCII may be escaped.
        let m = regex(r#"say "hi""#, false);
        assert!(m.may_match(br#"{"text":"they say \"hi\""}"#));
        let tool = regex(r"read_file \{", false);
        assert!(tool.may_match(br#"{"name":"read_file","args":{"path":"a"}}"#));
        let accented = regex("caf\u{e9}", false);
        assert!(accented.may_match(br#"{"text":"caf\u00e9"}"#));
    }

    #[test]
    fn a_regex_without_required_literals_parses_every_record() {
        for pattern in [r"\w+", "a|.*", "\u{e9}+"] {
            assert!(regex(pattern, false).may_match(b"{}"), "{pattern}");
        }
    }
}
