//! Credentials already stored: finding them (`ollm-session scan`) and
//! scrubbing them in place (`ollm-session redact`), in a session's records
//! and head, whatever the store, and in its snapshots.

use serde::Serialize;
use serde_json::{Map, Value};

use super::snapshot::Snapshots;
use super::store::Store;
use crate::error::{Error, Result};
use crate::redact::structure::for_each_credential;
use crate::redact::{Scrubber, Span};

/// One credential found in a stored session. Never holds the credential:
/// `preview` shows at most a public prefix of a token and its length.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    pub session_id: String,
    /// The snapshot it is in (none: the session itself).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
    /// `messages[3]`, `toolCalls[0]`, or `session` (a head field).
    pub record: String,
    /// Where in the record: `parts[0].text`, `result.llmContent`, `title`.
    pub field: String,
    /// The rule that found it: `github-token`, `env:PGPASSWORD`, …
    pub kind: String,
    pub preview: String,
}

/// The credentials in session `id` and its snapshots. A stored file in
/// which no rule could find anything is not parsed.
pub fn scan(
    store: &Store,
    snapshots: &Snapshots,
    scrubber: &Scrubber,
    id: &str,
) -> Result<Vec<Finding>> {
    let mut findings = Vec::new();
    if may_hold(scrubber, store.raw_document(id)?) {
        let session = serde_json::to_value(store.get(id)?)
            .map_err(|e| Error::input(format!("cannot encode session {id}: {e}")))?;
        scan_document(scrubber, id, None, &session, &mut findings);
    }
    for info in snapshots.list(store, id)? {
        if !may_hold(scrubber, snapshots.raw(store, id, &info.id)?) {
            continue;
        }
        let snapshot = snapshots.show(store, &info.id, Some(id))?;
        let value = serde_json::to_value(&snapshot)
            .map_err(|e| Error::input(format!("cannot encode snapshot {}: {e}", info.id)))?;
        scan_document(scrubber, id, Some(&info.id), &value, &mut findings);
    }
    Ok(findings)
}

/// Scrubs session `id` and its snapshots in place; returns how many
/// credentials were replaced.
pub fn scrub(store: &Store, snapshots: &Snapshots, scrubber: &Scrubber, id: &str) -> Result<u64> {
    let scrub = |value: &mut Value| scrubber.redact_json(value) as u64;
    let in_session = if may_hold(scrubber, store.raw_document(id)?) {
        store.scrub(id, &scrub)?
    } else {
        0
    };
    Ok(in_session + snapshots.scrub(store, id, &scrub)?)
}

/// Whether a stored text (none: the store keeps none) may hold anything.
fn may_hold(scrubber: &Scrubber, raw: Option<Vec<u8>>) -> bool {
    raw.is_none_or(|raw| scrubber.may_hold_credentials(&raw))
}

/// The findings of a session or snapshot document: its `messages` and
/// `toolCalls` (any array of records) record by record, the rest as the
/// head.
fn scan_document(
    scrubber: &Scrubber,
    session_id: &str,
    snapshot_id: Option<&str>,
    document: &Value,
    findings: &mut Vec<Finding>,
) {
    let Value::Object(fields) = document else {
        return;
    };
    let mut found = |record: String, field: String, text: &str, span: &Span| {
        findings.push(Finding {
            session_id: session_id.to_string(),
            snapshot_id: snapshot_id.map(str::to_string),
            record,
            field,
            kind: span.kind.to_string(),
            preview: preview(&text[span.start..span.end], &span.kind),
        });
    };
    for (key, value) in fields {
        match value {
            Value::Array(records) if records.iter().all(Value::is_object) => {
                for (index, record) in records.iter().enumerate() {
                    for_each_credential(scrubber, None, record, "", &mut |field, text, span| {
                        found(format!("{key}[{index}]"), field, text, span);
                    });
                }
            }
            _ => {
                // The field with its key, as `redact` reads it: the key is
                // scanned too, and the value under it.
                let field = Value::Object(Map::from_iter([(key.clone(), value.clone())]));
                for_each_credential(scrubber, None, &field, "", &mut |field, text, span| {
                    found("session".into(), field, text, span);
                });
            }
        }
    }
}

/// What a finding shows of a credential: a token's public prefix (at most
/// 4 characters, a fifth of it) and its length; nothing of a password, an
/// assigned value or an environment variable's value.
pub fn preview(secret: &str, kind: &str) -> String {
    let opaque = kind.starts_with("env:")
        || matches!(
            kind,
            "secret-assignment"
                | "password-parameter"
                | "url-password"
                | "url-token"
                | "npm-auth"
                | "aws-secret-access-key"
                | "docker-auth"
                | "azure-account-key"
                | "azure-sas-signature"
        );
    let length = secret.chars().count();
    let shown = if opaque { 0 } else { (length / 5).min(4) };
    let head: String = secret.chars().take(shown).collect();
    format!("{head}…({length} chars)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preview_never_shows_more_than_a_public_prefix() {
        assert_eq!(
            preview("ghp_abcdefghijklmnopqrstuvwxyz0123456789", "github-token"),
            "ghp_…(40 chars)"
        );
        assert_eq!(preview("hunter22", "secret-assignment"), "…(8 chars)");
        assert_eq!(preview("plain words here", "env:PGPASSWORD"), "…(16 chars)");
        assert_eq!(preview("abcdefgh", "slack-token"), "a…(8 chars)");
    }

    #[test]
    fn findings_name_the_record_and_the_field() {
        let document = serde_json::json!({
            "sessionId": "s",
            "title": "deploy with sk-proj-abcdefghijklmnopqrstuvwx1234",
            "messages": [
                {"role": "user", "parts": [{"type": "text", "text": "hi"}]},
                {"role": "user", "parts": [{"type": "text", "text": "PASSWORD=hunter22"}]}
            ],
            "toolCalls": [{"name": "run", "args": {"cmd": "x"},
                "result": {"llmContent": "ghp_abcdefghijklmnopqrstuvwxyz0123456789"}}],
            "tags": ["xoxb-1234567890-abcdefghij"]
        });
        let mut findings = Vec::new();
        scan_document(&Scrubber::default(), "s", None, &document, &mut findings);
        let places: Vec<(&str, &str, &str)> = findings
            .iter()
            .map(|f| (f.record.as_str(), f.field.as_str(), f.kind.as_str()))
            .collect();
        assert_eq!(
            places,
            [
                ("session", "title", "api-key-sk"),
                ("messages[1]", "parts[0].text", "password-parameter"),
                ("toolCalls[0]", "result.llmContent", "github-token"),
                ("session", "tags[0]", "slack-token"),
            ]
        );
    }

    #[test]
    fn a_stored_session_is_scanned_and_scrubbed_whole() {
        use crate::session::model::Entry;
        use crate::session::store::{NewSession, StoreOptions};
        let dir = tempfile::tempdir().unwrap();
        let options = StoreOptions {
            redaction: None,
            ..StoreOptions::default()
        };
        let store = Store::new(dir.path().join("data"), options);
        let snapshots = Snapshots::new(dir.path().join("snaps"), 5);
        let id = store.create(&NewSession::default()).unwrap().session_id;
        let text = "token ghp_abcdefghijklmnopqrstuvwxyz0123456789";
        let entry = Entry::Message(crate::session::model::Message::text(
            "user",
            text,
            "2026-01-01T00:00:00.000Z",
        ));
        store.record(&id, &entry, None).unwrap();
        snapshots.create(&store, &id, None, None).unwrap();
        let scrubber = Scrubber::default().for_bulk();
        let found = scan(&store, &snapshots, &scrubber, &id).unwrap();
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0].record, "messages[0]");
        assert!(found[1].snapshot_id.is_some(), "{found:?}");
        assert_eq!(scrub(&store, &snapshots, &scrubber, &id).unwrap(), 2);
        assert!(scan(&store, &snapshots, &scrubber, &id).unwrap().is_empty());
        let stored = store.get(&id).unwrap().messages[0].text_content();
        assert_eq!(stored, "token [REDACTED:github-token]");
    }
}
