//! The last check before a page is written: the credential scan of
//! `ollm-session scan` over everything the page would carry. A session
//! stored with `--no-redact` (or before a rule knew a format) can hold a
//! secret; a page is made to be shared, so the export refuses to write it
//! rather than publish it. The error names where it is, never the value.

use serde_json::Value;

use crate::error::{Error, Result};
use crate::redact::Scrubber;
use crate::redact::structure::for_each_credential;

/// Fails naming the first record of `data` (a page's JSON, `text` its
/// serialization) that holds a credential.
pub(super) fn check(scrubber: &Scrubber, session_id: &str, text: &str) -> Result<()> {
    if !scrubber.may_hold_credentials(text.as_bytes()) {
        return Ok(());
    }
    let data: Value = serde_json::from_str(text)
        .map_err(|e| Error::input(format!("cannot read back the page data: {e}")))?;
    let mut first: Option<(String, String)> = None;
    for_each_credential(scrubber, None, &data, "", &mut |field, _, span| {
        if first.is_none() {
            first = Some((place(&data, &field), span.kind.to_string()));
        }
    });
    match first {
        None => Ok(()),
        Some((place, kind)) => Err(Error::input(format!(
            "session {session_id}: {place} holds a credential ({kind}); nothing written \
             (`ollm-session redact {session_id}` removes it; an HTML export is never \
             written unredacted)"
        ))),
    }
}

/// A person's name for the record a data path (`turns[2].items[5].text`)
/// is in: `message 12`, `tool call 3 (Bash)`, or the session's `title`.
fn place(data: &Value, field: &str) -> String {
    let index = |name: &str, from: &str| -> Option<usize> {
        let start = from.find(&format!("{name}["))? + name.len() + 1;
        from[start..].split(']').next()?.parse().ok()
    };
    let item = index("turns", field).and_then(|turn| {
        let item = index("items", field)?;
        data.get("turns")?.get(turn)?.get("items")?.get(item)
    });
    match item {
        Some(item) => {
            let n = item.get("n").and_then(Value::as_u64).unwrap_or_default();
            match item.get("name").and_then(Value::as_str) {
                Some(name) => format!("tool call {n} ({name})"),
                None => format!("message {n}"),
            }
        }
        None => field
            .trim_start_matches('.')
            .split(['.', '['])
            .next()
            .unwrap_or("the session")
            .to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_credential_is_refused_naming_its_record_not_its_value() {
        let token = ["ghp_", "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"].concat();
        let data = serde_json::json!({"title": "t", "turns": [{"items": [
            {"k": "m", "n": 0, "text": "hello"},
            {"k": "t", "n": 4, "name": "Bash", "result": format!("token {token}")}]}]});
        let text = data.to_string();
        let err = check(&Scrubber::default(), "s1", &text)
            .unwrap_err()
            .to_string();
        assert!(err.contains("tool call 4 (Bash)"), "{err}");
        assert!(err.contains("github"), "{err}");
        assert!(!err.contains(&token[4..]), "{err}");
        let clean = serde_json::json!({"turns": [{"items": [{"k": "m", "n": 0,
            "text": "[REDACTED:github-token]"}]}]});
        check(&Scrubber::default(), "s1", &clean.to_string()).unwrap();
    }
}
