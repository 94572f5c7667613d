//! A session in the OLLM CLI's format read for what the index and a search
//! need of it (its summary; its records), parsed straight into those
//! types. The full read ([`crate::session::store::cli`]) first builds the
//! document's tree, every field kept for a rewrite, then checks it as the
//! spec's session: three times the work, which a first index build pays
//! for every session and a search for every candidate.
//!
//! Only a document the full read accepts is read here, to the same
//! session: the same types check the same fields (a message or a tool call
//! is checked as the full read checks it), an object's unknown fields are
//! skipped as the full read keeps them, and a document this read refuses
//! for any reason (a duplicated field, which the tree lets the last one
//! win, a session of another id, anything that does not parse) gives
//! `None`, so that the caller reads it in full and reports what the full
//! read says.

use std::path::Path;

use serde::Deserialize;
use serde_json::Map;

use crate::fs as sfs;
use crate::lossless;
use crate::session::model::{Message, Metadata, Session, SessionSummary, ToolCall};

mod shape;
pub(crate) use shape::MessageView;
use shape::{AnyFields, Count, MessageCheck, ToolCallCheck};

/// The fields of [`Session`], each with its type and default, the records
/// read as `M` and `T`; the fields it does not name are checked as JSON
/// values and skipped rather than kept.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Fields<M, T> {
    session_id: String,
    start_time: String,
    #[serde(default)]
    last_activity: String,
    model: String,
    #[serde(default)]
    provider: String,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    parent_session_id: Option<String>,
    #[serde(default)]
    branch_point: Option<u64>,
    #[serde(default)]
    workspace: Option<String>,
    #[serde(default)]
    messages: M,
    #[serde(default)]
    tool_calls: T,
    #[serde(default)]
    metadata: Metadata,
    #[serde(flatten)]
    _others: AnyFields,
}

impl<M, T> Fields<M, T> {
    /// `lastActivity`, or when empty the start time (as the full read has it).
    fn last_activity(&self) -> &str {
        if self.last_activity.is_empty() {
            &self.start_time
        } else {
            &self.last_activity
        }
    }
}

/// The fields of session `id` in `text` (a document whose lone surrogates
/// are decoded, [`lossless::decode`]), or `None` when this read leaves it
/// to the full read.
fn fields<'a, M: Deserialize<'a> + Default, T: Deserialize<'a> + Default>(
    id: &str,
    text: &'a str,
) -> Option<Fields<M, T>> {
    // A struct also parses from an array of its fields; the full read takes
    // only an object.
    if text.trim_ascii_start().as_bytes().first() != Some(&b'{') {
        return None;
    }
    let fields: Fields<M, T> = serde_json::from_str(text).ok()?;
    (fields.session_id == id).then_some(fields)
}

/// Hands `f` the text of the document at `path` with its lone surrogates
/// decoded; `None` when the file is not there, cannot be read or is not
/// UTF-8.
fn with_text<R>(path: &Path, f: impl FnOnce(&str) -> Option<R>) -> Option<R> {
    let bytes = sfs::read_regular(path).ok()??;
    let decoded = lossless::decode(&bytes);
    f(std::str::from_utf8(&decoded.text).ok()?)
}

/// [`Session`] `id` of `text`, without the fields the spec does not name
/// (`extra` is empty).
fn session_of(id: &str, text: &str) -> Option<Session> {
    let fields: Fields<Vec<Message>, Vec<ToolCall>> = fields(id, text)?;
    Some(Session {
        last_activity: fields.last_activity().to_string(),
        session_id: fields.session_id,
        start_time: fields.start_time,
        model: fields.model,
        provider: fields.provider,
        title: fields.title,
        parent_session_id: fields.parent_session_id,
        branch_point: fields.branch_point,
        workspace: fields.workspace,
        messages: fields.messages,
        tool_calls: fields.tool_calls,
        metadata: fields.metadata,
        extra: Map::new(),
    })
}

/// The summary of session `id` from its file at `path`, as the full read
/// gives it; `None` when the file is not there, cannot be read, or is
/// anything but a document the full read takes as session `id`. Its
/// records are checked and counted, not kept.
pub(crate) fn summary(id: &str, path: &Path) -> Option<SessionSummary> {
    with_text(path, |text| summary_of(id, text))
}

/// [`summary`] of a file's bytes.
pub(crate) fn summary_of_bytes(id: &str, bytes: &[u8]) -> Option<SessionSummary> {
    let decoded = lossless::decode(bytes);
    summary_of(id, std::str::from_utf8(&decoded.text).ok()?)
}

fn summary_of(id: &str, text: &str) -> Option<SessionSummary> {
    let fields: Fields<Count<MessageCheck>, Count<ToolCallCheck>> = fields(id, text)?;
    Some(SessionSummary {
        last_activity: fields.last_activity().to_string(),
        session_id: fields.session_id,
        start_time: fields.start_time,
        model: fields.model,
        provider: fields.provider,
        message_count: fields.messages.0,
        token_count: fields.metadata.token_count,
        tool_call_count: fields.tool_calls.0,
        compression_count: fields.metadata.compression_count,
        title: fields.title,
        parent_session_id: fields.parent_session_id,
        branch_point: fields.branch_point,
        workspace: fields.workspace,
    })
}

/// What a search reads of a session in the OLLM CLI's format.
pub(crate) enum Records<'a> {
    /// Every message is of the usual shape (one text part), viewed where
    /// it lies in the file's text.
    Viewed(Viewed<'a>),
    /// Some message is not: the session as the full read gives it.
    Whole(Box<Session>),
}

pub(crate) struct Viewed<'a> {
    pub title: Option<String>,
    pub last_activity: String,
    pub messages: Vec<MessageView<'a>>,
    pub tool_calls: Vec<ToolCall>,
}

/// Hands `search` the records of session `id` from its file at `path`;
/// `None` as for [`summary`] (the caller then reads it in full).
pub(crate) fn with_records<R>(
    id: &str,
    path: &Path,
    search: impl FnOnce(Records<'_>) -> R,
) -> Option<R> {
    with_text(path, |text| records_of(id, text).map(search))
}

fn records_of<'a>(id: &str, text: &'a str) -> Option<Records<'a>> {
    let fields: Fields<Vec<MessageView<'a>>, Vec<ToolCall>> = fields(id, text)?;
    if fields.messages.iter().any(|m| m.text.is_none()) {
        return session_of(id, text).map(|s| Records::Whole(Box::new(s)));
    }
    Some(Records::Viewed(Viewed {
        title: fields.title.clone(),
        last_activity: fields.last_activity().to_string(),
        messages: fields.messages,
        tool_calls: fields.tool_calls,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::store::cli;

    const ID: &str = "3f2c8a9e-1b4d-4e6f-8a7b-9c0d1e2f3a4b";

    /// What the full read makes of `text` as session [`ID`]: its session
    /// without the unnamed fields, or `None` when it refuses it.
    fn full_read(text: &str) -> Option<Session> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(format!("{ID}.json"));
        std::fs::write(&path, text).unwrap();
        cli::read_with_session(ID, &path)
            .ok()
            .flatten()
            .map(|(_, mut session)| {
                session.extra = Map::new();
                session
            })
    }

    fn decoded(text: &str) -> String {
        String::from_utf8(lossless::decode(text.as_bytes()).text.into_owned()).unwrap()
    }

    fn document(rest: &str) -> String {
        format!(
            r#"{{"sessionId":"{ID}","startTime":"2025-01-01T00:00:00.000Z","model":"m"{rest}}}"#
        )
    }

    const MESSAGE: &str = r#"{"role":"user","parts":[{"type":"text","text":"hi \ud800 there"}],"timestamp":"2025-01-01T00:00:01.000Z"}"#;
    const CALL: &str = r#"{"id":"c1","name":"shell","args":{"cmd":"ls"},"result":{"llmContent":"a b"},"timestamp":"2025-01-01T00:00:02.000Z"}"#;

    /// Documents this read takes, and those it leaves to the full read:
    /// what the full read refuses, and what it takes differently (a field
    /// given twice: the last one wins there).
    fn cases() -> Vec<String> {
        let message = MESSAGE.replace("\\\\", "\\");
        let records =
            |m: &str, c: &str| document(&format!(r#","messages":[{m}],"toolCalls":[{c}]"#));
        vec![
            // Read here, to the same session.
            document(""),
            records(&message, CALL),
            document(r#","lastActivity":"","title":"t","branchPoint":3,"theirs":{"x":[1,2]}"#),
            document(r#","metadata":{"tokenCount":5,"compressionCount":1,"other":true}"#),
            records(
                &message.replace("\"role\"", "\"mine\":[1e300,{}],\"role\""),
                CALL,
            ),
            records(
                &message,
                &CALL.replace("\"a b\"}", "\"a b\",\"returnDisplay\":null}"),
            ),
            // Left to the full read.
            document(r#","title":"a","title":"b""#),
            document(r#","messages":[{"parts":[]}]"#),
            document(r#","messages":null"#),
            document(r#","branchPoint":-1"#),
            document(r#","metadata":{"tokenCount":1.5}"#),
            document("").replace(ID, "another"),
            format!(r#"["{ID}","2025-01-01T00:00:00.000Z","","m"]"#),
            document("").replace('}', "} trailing"),
            String::new(),
            // Numbers `serde_json::Value` cannot hold, where a field is
            // skipped here.
            document(r#","theirs":1e999"#),
            records(
                &message.replace("\"role\"", "\"mine\":-1e999,\"role\""),
                CALL,
            ),
            records(&message.replace("\"type\"", "\"n\":[2e400],\"type\""), CALL),
            records(&message, &CALL.replace("\"ls\"", "1e999")),
            // Records the full read refuses.
            records(&message.replace("\"user\"", "null"), CALL),
            records(&message.replace("\"role\":\"user\",", ""), CALL),
            records(&message, &CALL.replace("\"args\":{\"cmd\":\"ls\"},", "")),
            records(
                &message,
                &CALL.replace("\"a b\"}", "\"a b\",\"returnDisplay\":3}"),
            ),
            records(
                &message,
                &CALL.replace("{\"llmContent\":\"a b\"}", "[\"a b\"]"),
            ),
            records("[\"user\",[],\"t\"]", CALL),
            // A record's field given twice.
            records(
                &message.replace("\"role\":\"user\"", "\"role\":\"user\",\"role\":\"tool\""),
                CALL,
            ),
        ]
    }

    #[test]
    fn a_document_is_read_as_the_full_read_reads_it_or_left_to_it() {
        let cases = cases();
        let mut read_here = 0;
        for text in &cases {
            let full = full_read(text);
            let text_here = decoded(text);
            // A record's map lets a field given twice pass (the last one
            // wins, as in the full read); the records' checks refuse it.
            if let Some(session) = session_of(ID, &text_here) {
                assert_eq!(Some(session), full, "{text}");
            }
            if let Some(summary) = summary_of(ID, &text_here) {
                read_here += 1;
                assert_eq!(Some(summary), full.as_ref().map(Session::summary), "{text}");
            }
        }
        assert_eq!(read_here, 6);
        // Those read here are those the full read takes, but for the
        // fields given twice.
        let taken = cases.iter().filter(|t| full_read(t).is_some()).count();
        assert_eq!(taken, 8);
    }

    /// The text a search takes of a message (one part's text, `""` for none).
    fn searched_text(message: &Message) -> Option<String> {
        match message.parts() {
            [] => Some(String::new()),
            [part] => part
                .get("text")
                .and_then(serde_json::Value::as_str)
                .map(str::to_string),
            _ => None,
        }
    }

    #[test]
    fn records_are_viewed_as_the_full_read_gives_them_or_read_whole() {
        let parts = [
            r#"[{"type":"text","text":"a \"quoted\" zanzibar"}]"#,
            "[]",
            r#"[{"text":"t","text":"again"}]"#,
            r#"[{"type":"text","text":"one"},{"type":"text","text":"two"}]"#,
            r#"[{"functionCall":{"name":"zanzibar"}}]"#,
            r#"[{"type":"text","text":7}]"#,
            r#"["a string part"]"#,
        ];
        for (i, parts) in parts.iter().enumerate() {
            let messages = format!(
                r#"[{MESSAGE},{{"role":"assistant","parts":{parts},"timestamp":"2025-01-01T00:00:03.000Z","x":1}}]"#
            )
            .replace("\\\\", "\\");
            let text = document(&format!(r#","messages":{messages},"toolCalls":[{CALL}]"#));
            let full = full_read(&text).unwrap();
            let text_here = decoded(&text);
            match records_of(ID, &text_here).unwrap() {
                Records::Viewed(viewed) => {
                    assert!(i < 2, "viewed: {parts}");
                    assert_eq!(viewed.tool_calls, full.tool_calls);
                    assert_eq!(viewed.title, full.title);
                    assert_eq!(viewed.last_activity, full.last_activity);
                    assert_eq!(viewed.messages.len(), full.messages.len());
                    for (view, message) in viewed.messages.iter().zip(&full.messages) {
                        assert_eq!(view.role, message.role());
                        assert_eq!(view.timestamp, message.timestamp());
                        assert_eq!(view.text.as_deref(), searched_text(message).as_deref());
                    }
                }
                Records::Whole(session) => {
                    assert!(i >= 2, "read whole: {parts}");
                    assert_eq!(*session, full);
                }
            }
        }
    }
}
