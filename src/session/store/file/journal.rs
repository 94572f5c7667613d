//! A session's journal: one JSON record a line, only ever appended.
//!
//! ```text
//! {"type":"session","format":1,"session":{"sessionId":…,"startTime":…,"model":…,"provider":…,"metadata":{…}}}
//! {"type":"message","at":"2024-01-15T10:30:00.000Z","tokens":6,"message":{"role":"user","parts":[…],"timestamp":…}}
//! {"type":"toolCall","at":"…","tokens":12,"toolCall":{"id":…,"name":…,"args":{…},"result":{…},"timestamp":…}}
//! {"type":"compression","at":"…","compression":{…details}}
//! {"type":"update","at":"…","update":{"title":…}}
//! ```
//!
//! An `update` changes head fields (merged into the head, `null` removes
//! one; `at` is the unchanged lastActivity, so versions that do not know
//! the record skip it).
//!
//! The first line is the session's head (the spec object without its
//! messages and tool calls). `at` is the session's `lastActivity` once the
//! record is applied; writers never let it go backwards (Property 9).
//! `tokens` is the record's share of `metadata.tokenCount`; records without
//! it (imported from a plain spec file) are already counted in the head.
//!
//! A last line that is incomplete or does not parse is a torn write that was
//! never acknowledged: readers ignore it, the next writer cuts it off. A bad
//! line followed by good ones is corruption.

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Map, Value};

use crate::session::model::{Entry, Message, SessionHead, SessionSummary, Stored, ToolCall};

/// The journal format this build writes and reads.
pub(crate) const FORMAT: u64 = 1;

/// Why a scan stopped before the end.
#[derive(Debug, Clone, PartialEq)]
pub enum Stop {
    /// A bad line with good lines after it, or a bad first line.
    Corrupt(String),
    /// Written by a newer version of this toolkit.
    Newer(u64),
}

/// The result of scanning a journal's bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct Scan {
    /// Offset just past the last good record.
    pub valid_end: usize,
    /// Whether bytes after `valid_end` are a torn (unacknowledged) write.
    pub torn: bool,
    pub stop: Option<Stop>,
}

/// Calls `apply` on every complete line of `bytes` in order. `apply` must
/// change nothing when it returns an error. `from_start` says whether
/// `bytes` begins at the start of the journal (where a bad line is never a
/// torn write, since the head is written before the journal is published).
pub fn scan(
    bytes: &[u8],
    from_start: bool,
    mut apply: impl FnMut(&[u8]) -> Result<(), Stop>,
) -> Scan {
    let mut pos = 0;
    let mut result = Scan {
        valid_end: 0,
        torn: false,
        stop: None,
    };
    while pos < bytes.len() {
        let Some(len) = crate::byte_search::find_byte(b'\n', &bytes[pos..]) else {
            result.torn = true;
            break;
        };
        let line = &bytes[pos..pos + len];
        let next = pos + len + 1;
        if !line.iter().all(u8::is_ascii_whitespace) {
            match apply(line) {
                Ok(()) => {}
                Err(Stop::Corrupt(_)) if next == bytes.len() && (pos > 0 || !from_start) => {
                    result.torn = true;
                    break;
                }
                Err(stop) => {
                    result.stop = Some(stop);
                    break;
                }
            }
        }
        pos = next;
        result.valid_end = next;
    }
    result
}

fn line_text(line: &[u8]) -> String {
    let shown = String::from_utf8_lossy(&line[..line.len().min(80)]).into_owned();
    crate::text::one_line(&shown)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FullLine {
    #[serde(rename = "type")]
    kind: String,
    format: Option<u64>,
    at: Option<String>,
    tokens: Option<u64>,
    session: Option<SessionHead>,
    message: Option<Message>,
    tool_call: Option<ToolCall>,
    compression: Option<Map<String, Value>>,
    update: Option<Map<String, Value>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct LightLine {
    #[serde(rename = "type")]
    kind: String,
    format: Option<u64>,
    at: Option<String>,
    tokens: Option<u64>,
    session: Option<SessionHead>,
    message: Option<IgnoredAny>,
    tool_call: Option<IgnoredAny>,
    compression: Option<IgnoredAny>,
    update: Option<Map<String, Value>>,
}

/// One parsed line: the session's head, or a record after it.
#[derive(Debug, Clone)]
pub enum Record {
    Head(Box<SessionHead>),
    Stored(Stored),
}

impl Record {
    /// The record as every store keeps it after the head (`Err`: this is
    /// the head).
    pub(crate) fn into_stored(self) -> Result<Stored, Box<SessionHead>> {
        match self {
            Record::Head(head) => Err(head),
            Record::Stored(record) => Ok(record),
        }
    }
}

fn bad(line: &[u8], why: impl std::fmt::Display) -> Stop {
    Stop::Corrupt(format!("{why} in record {:?}", line_text(line)))
}

fn check_format(format: Option<u64>, line: &[u8]) -> Result<(), Stop> {
    match format {
        Some(f) if f > FORMAT => Err(Stop::Newer(f)),
        Some(_) => Ok(()),
        None => Err(bad(line, "no `format`")),
    }
}

/// The head of the journal at `path` (its first line), `None` when it
/// cannot be read: a reader that needs only the head (is it imported?)
/// reads no further.
pub fn read_head(path: &std::path::Path) -> Option<SessionHead> {
    use std::io::BufRead;
    let file = crate::fs::open_regular(path).ok()??;
    let mut line = Vec::new();
    std::io::BufReader::new(file)
        .read_until(b'\n', &mut line)
        .ok()?;
    match parse_line(&line, true) {
        Ok(Record::Head(head)) => Some(*head),
        _ => None,
    }
}

/// Parses one line completely.
pub fn parse_line(line: &[u8], first: bool) -> Result<Record, Stop> {
    // As in `tally_line`: serde skips unknown fields without checking their
    // UTF-8, and both scans must accept the same lines.
    std::str::from_utf8(line).map_err(|e| bad(line, e))?;
    let raw: FullLine =
        serde_json::from_slice(&crate::lossless::decode(line).text).map_err(|e| bad(line, e))?;
    let need_at = |at: Option<String>| at.ok_or_else(|| bad(line, "no `at`"));
    let record = match raw.kind.as_str() {
        "session" => {
            check_format(raw.format, line)?;
            Record::Head(Box::new(
                raw.session.ok_or_else(|| bad(line, "no `session`"))?,
            ))
        }
        _ if first => return Err(bad(line, "the first record is not the session head")),
        "message" => Record::Stored(Stored::Entry {
            at: need_at(raw.at)?,
            tokens: raw.tokens,
            entry: Entry::Message(raw.message.ok_or_else(|| bad(line, "no `message`"))?),
        }),
        "toolCall" => Record::Stored(Stored::Entry {
            at: need_at(raw.at)?,
            tokens: raw.tokens,
            entry: Entry::ToolCall(raw.tool_call.ok_or_else(|| bad(line, "no `toolCall`"))?),
        }),
        "compression" => Record::Stored(Stored::Compression {
            at: need_at(raw.at)?,
            details: raw.compression.unwrap_or_default(),
        }),
        "update" => Record::Stored(Stored::Update {
            at: need_at(raw.at)?,
            patch: raw.update.unwrap_or_default(),
        }),
        _ => Record::Stored(Stored::Other { at: raw.at }),
    };
    if !first && matches!(record, Record::Head(_)) {
        return Err(bad(line, "a second session head"));
    }
    Ok(record)
}

/// Applies one line to a summary without parsing the records' contents
/// (their JSON syntax is still checked). `summary` is `None` before the head.
pub fn tally_line(summary: &mut Option<SessionSummary>, line: &[u8]) -> Result<(), Stop> {
    // Skipped strings are not checked for UTF-8 by serde; check the line, so
    // a line the full parse rejects is never counted (nor kept by a writer).
    // A journal is UTF-8: every writer writes JSON text.
    std::str::from_utf8(line).map_err(|e| bad(line, e))?;
    let raw: LightLine =
        serde_json::from_slice(&crate::lossless::decode(line).text).map_err(|e| bad(line, e))?;
    match (raw.kind.as_str(), summary.as_mut()) {
        ("session", None) => {
            check_format(raw.format, line)?;
            let head = raw.session.ok_or_else(|| bad(line, "no `session`"))?;
            *summary = Some(head.summary());
        }
        (_, None) => return Err(bad(line, "the first record is not the session head")),
        ("session", Some(_)) => return Err(bad(line, "a second session head")),
        (kind, Some(s)) => {
            // As in `parse_line`: a kind this version does not know (a newer
            // writer's) needs no `at`, and only entries carry tokens.
            if !matches!(kind, "message" | "toolCall" | "compression" | "update") {
                if let Some(at) = raw.at {
                    s.last_activity = at;
                }
                return Ok(());
            }
            let at = raw.at.ok_or_else(|| bad(line, "no `at`"))?;
            match kind {
                "message" if raw.message.is_some() => s.message_count += 1,
                "toolCall" if raw.tool_call.is_some() => s.tool_call_count += 1,
                "compression" => s.compression_count += 1,
                "update" => apply_to_summary(s, raw.update.as_ref()),
                _ => return Err(bad(line, "no payload")),
            }
            if matches!(kind, "message" | "toolCall") {
                // Counts saturate, never wrap (`record --tokens` takes any u64).
                s.token_count = s.token_count.saturating_add(raw.tokens.unwrap_or(0));
            }
            let _ = raw.compression;
            s.last_activity = at;
        }
    }
    Ok(())
}

fn apply_to_summary(summary: &mut SessionSummary, patch: Option<&Map<String, Value>>) {
    let Some(patch) = patch else { return };
    let text = |v: &Value| v.as_str().map(str::to_string);
    for (key, value) in patch {
        match key.as_str() {
            "title" => summary.title = text(value),
            "model" => summary.model = text(value).unwrap_or_default(),
            "provider" => summary.provider = text(value).unwrap_or_default(),
            "workspace" => summary.workspace = text(value),
            _ => {}
        }
    }
}

/// The line changing head fields.
pub fn update_line(at: &str, patch: &Map<String, Value>) -> Vec<u8> {
    #[derive(serde::Serialize)]
    struct UpdateOut<'a> {
        #[serde(rename = "type")]
        kind: &'static str,
        at: &'a str,
        update: &'a Map<String, Value>,
    }
    line(&UpdateOut {
        kind: "update",
        at,
        update: patch,
    })
}

#[derive(serde::Serialize)]
struct HeadOut<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    format: u64,
    session: &'a SessionHead,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct EntryOut<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    at: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a Message>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_call: Option<&'a ToolCall>,
    #[serde(skip_serializing_if = "Option::is_none")]
    compression: Option<&'a Map<String, Value>>,
}

fn line(value: &impl serde::Serialize) -> Vec<u8> {
    // Serializing maps of JSON values and strings cannot fail.
    let mut bytes = crate::lossless::to_vec(value).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

/// The head line of a new journal.
pub fn head_line(head: &SessionHead) -> Vec<u8> {
    line(&HeadOut {
        kind: "session",
        format: FORMAT,
        session: head,
    })
}

/// The line recording a message or tool call.
pub fn entry_line(entry: &Entry, at: &str, tokens: Option<u64>) -> Vec<u8> {
    let (kind, message, tool_call) = match entry {
        Entry::Message(m) => ("message", Some(m), None),
        Entry::ToolCall(t) => ("toolCall", None, Some(t)),
    };
    line(&EntryOut {
        kind,
        at,
        tokens,
        message,
        tool_call,
        compression: None,
    })
}

/// The line noting a compression.
pub fn compression_line(at: &str, details: &Map<String, Value>) -> Vec<u8> {
    line(&EntryOut {
        kind: "compression",
        at,
        tokens: None,
        message: None,
        tool_call: None,
        compression: Some(details),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok_if_json(line: &[u8]) -> Result<(), Stop> {
        serde_json::from_slice::<Value>(line)
            .map(|_| ())
            .map_err(|e| Stop::Corrupt(e.to_string()))
    }

    #[test]
    fn a_torn_tail_is_not_corruption() {
        let s = scan(b"{}\n{}\n{\"a\":", true, ok_if_json);
        assert_eq!((s.valid_end, s.torn, s.stop), (6, true, None));
        let s = scan(b"{}\n{}\n{\"a\"\n", true, ok_if_json);
        assert_eq!((s.valid_end, s.torn, s.stop), (6, true, None));
        let s = scan(b"{}\n{}\n", true, ok_if_json);
        assert_eq!((s.valid_end, s.torn, s.stop), (6, false, None));
    }

    #[test]
    fn the_summary_scan_rejects_invalid_utf8_the_full_parse_rejects() {
        // Found by fuzz/fuzz_targets/session_file.rs: a complete last line
        // with a non-UTF-8 byte inside a message was counted by `list` and
        // kept by the next writer, then made the session corrupt for `get`.
        let head = br#"{"type":"session","format":1,"session":{"sessionId":"s","startTime":"2026-01-01T00:00:00Z","model":"m"}}"#;
        let mut record = br#"{"type":"message","at":"2026-01-01T00:00:01Z","message":{"role":"user","parts":[],"timestamp":"20"#.to_vec();
        record.extend(b"\xf6\"}}");
        let mut summary = None;
        assert!(tally_line(&mut summary, head).is_ok());
        assert!(parse_line(&record, false).is_err());
        assert!(tally_line(&mut summary, &record).is_err());
        assert_eq!(summary.unwrap().message_count, 0);
    }

    #[test]
    fn the_summary_scan_rejects_entries_the_full_parse_rejects() {
        let head = br#"{"type":"session","format":1,"session":{"sessionId":"s","startTime":"2026-01-01T00:00:00Z","model":"m"}}"#;
        let broken: [&[u8]; 4] = [
            br#"{"type":"message","message":{"role":"user","parts":[],"timestamp":"t"}}"#,
            br#"{"type":"message","at":"2026-01-01T00:00:01Z"}"#,
            br#"{"type":"toolCall","at":"2026-01-01T00:00:01Z"}"#,
            br#"{"type":"compression","compression":{}}"#,
        ];
        for line in broken {
            let mut summary = None;
            tally_line(&mut summary, head).unwrap();
            assert!(parse_line(line, false).is_err());
            let err = tally_line(&mut summary, line);
            assert!(matches!(err, Err(Stop::Corrupt(_))), "{err:?}");
        }
    }

    #[test]
    fn a_bad_line_before_good_ones_is_corruption() {
        let s = scan(b"{}\nxx\n{}\n", true, ok_if_json);
        assert_eq!(s.valid_end, 3);
        assert!(matches!(s.stop, Some(Stop::Corrupt(_))));
        let s = scan(b"xx\n", true, ok_if_json);
        assert!(matches!(s.stop, Some(Stop::Corrupt(_))), "{s:?}");
    }
}
