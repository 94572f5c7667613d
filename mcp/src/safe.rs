//! What leaves the server: every string redacted as our diagnostics are
//! and with its control characters made visible, and every failure one
//! line in a tool error.

use ollm::output::escape::{escape_line, escape_text};
use ollm::redact::scrub_message;
use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::Value;

/// Redacts and escapes every string in `value` (object keys too: a
/// metadata key is stored text like any other).
pub fn sanitize(value: &mut Value) {
    match value {
        Value::String(text) => *text = clean_text(text),
        Value::Array(items) => items.iter_mut().for_each(sanitize),
        Value::Object(map) => {
            let entries = std::mem::take(map);
            for (key, mut item) in entries {
                sanitize(&mut item);
                map.insert(clean_text(&key), item);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// Multi-line stored text as it may be shown: credentials replaced,
/// control characters visible, newlines kept.
pub fn clean_text(text: &str) -> String {
    escape_text(&scrub_message(text)).into_owned()
}

/// A successful tool call: the sanitized value as `structuredContent` and
/// as the JSON text block older clients read.
pub fn structured(value: impl serde::Serialize) -> CallToolResult {
    match serde_json::to_value(value) {
        Ok(mut value) => {
            sanitize(&mut value);
            CallToolResult::structured(value)
        }
        Err(err) => failure(&err),
    }
}

/// A tool error: our one-line message, redacted, with nothing live in it.
pub fn failure(err: &dyn std::fmt::Display) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(one_line(err))])
}

/// An error message as one clean line.
pub fn one_line(err: &dyn std::fmt::Display) -> String {
    escape_line(&scrub_message(&err.to_string())).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_redacted_and_escaped_at_any_depth_keys_too() {
        let token = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
        let mut value = serde_json::json!({
            "a": [{"text": format!("key {token}\u{1b}]0;x\u{7}")}],
            format!("k\u{1b}{token}"): 1,
        });
        sanitize(&mut value);
        let text = value.to_string();
        assert!(!text.contains(token), "{text}");
        assert!(!text.contains('\u{1b}'), "{text}");
        assert!(text.contains("[REDACTED"), "{text}");
    }

    #[test]
    fn an_error_is_one_line() {
        let message = one_line(&"first\nsecond\u{1b}[2J");
        assert!(
            !message.contains('\n') && !message.contains('\u{1b}'),
            "{message}"
        );
    }
}
