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

/// The fields of [`Session`], each with its type and default, without the
/// fields it does not name (skipped rather than kept).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Fields {
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
    messages: Vec<Message>,
    #[serde(default)]
    tool_calls: Vec<ToolCall>,
    #[serde(default)]
    metadata: Metadata,
}

/// Session `id` from its file at `path`, without the fields the spec does
/// not name (`extra` is empty); `None` when the file is not there, cannot
/// be read, or is anything but a document the full read takes as session
/// `id`.
pub(crate) fn session(id: &str, path: &Path) -> Option<Session> {
    let bytes = sfs::read_regular(path).ok()??;
    session_of(id, &bytes)
}

/// [`session`] of the file's bytes.
fn session_of(id: &str, bytes: &[u8]) -> Option<Session> {
    let decoded = lossless::decode(bytes);
    // A struct also parses from an array of its fields; the full read takes
    // only an object.
    if decoded.text.trim_ascii_start().first() != Some(&b'{') {
        return None;
    }
    let fields: Fields = serde_json::from_slice(&decoded.text).ok()?;
    if fields.session_id != id {
        return None;
    }
    let last_activity = if fields.last_activity.is_empty() {
        fields.start_time.clone()
    } else {
        fields.last_activity
    };
    Some(Session {
        session_id: fields.session_id,
        start_time: fields.start_time,
        last_activity,
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
/// gives it; `None` as for [`session`].
pub(crate) fn summary(id: &str, path: &Path) -> Option<SessionSummary> {
    session(id, path).map(|session| session.summary())
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

    fn document(rest: &str) -> String {
        format!(
            r#"{{"sessionId":"{ID}","startTime":"2025-01-01T00:00:00.000Z","model":"m"{rest}}}"#
        )
    }

    #[test]
    fn a_document_is_read_as_the_full_read_reads_it_or_left_to_it() {
        let message = r#"{"role":"user","parts":[{"type":"text","text":"hi \ud800 there"}],"timestamp":"2025-01-01T00:00:01.000Z"}"#;
        let call = r#"{"id":"c1","name":"shell","args":{"cmd":"ls"},"result":{"llmContent":"a b"},"timestamp":"2025-01-01T00:00:02.000Z"}"#;
        let cases = [
            // Read here, to the same session.
            document(""),
            document(&format!(r#","messages":[{message}],"toolCalls":[{call}]"#)),
            document(r#","lastActivity":"","title":"t","branchPoint":3,"theirs":{"x":[1,2]}"#),
            document(r#","metadata":{"tokenCount":5,"compressionCount":1,"other":true}"#),
            // Left to the full read: what it refuses, and what it takes
            // differently (a field given twice: the last one wins there).
            document(r#","title":"a","title":"b""#),
            document(r#","messages":[{"parts":[]}]"#),
            document(r#","messages":null"#),
            document(r#","branchPoint":-1"#),
            document(r#","metadata":{"tokenCount":1.5}"#),
            document("").replace(ID, "another"),
            format!(r#"["{ID}","2025-01-01T00:00:00.000Z","","m"]"#),
            document("").replace('}', "} trailing"),
            String::new(),
        ];
        let mut read_here = 0;
        for text in &cases {
            let full = full_read(text);
            if let Some(fast) = session_of(ID, text.as_bytes()) {
                read_here += 1;
                assert_eq!(Some(fast), full, "{text}");
            }
        }
        assert_eq!(read_here, 4);
        // Those read here are those the full read takes, but for the field
        // given twice.
        let taken = cases.iter().filter(|t| full_read(t).is_some()).count();
        assert_eq!(taken, 5);
    }
}
