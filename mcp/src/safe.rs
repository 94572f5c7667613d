//! What leaves the server: every string redacted as our diagnostics are
//! and with its control characters made visible, and every failure one
//! line in a tool error.

use ollm::config::Config;
use ollm::output::escape::{escape_line, escape_text};
use ollm::redact::Scrubber;
use ollm::redact::policy::environment_scrubber;
use ollm::redact::scrub_message;
use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::Value;

/// Cleans what a call returns: the redaction of stored text (credential
/// shapes, secret assignments, private keys, the values of this process's
/// secret variables), whether or not the store redacted it when it was
/// written (it may have been off, or the session imported), then control
/// characters made visible. Built once per process (its automata cost a
/// few milliseconds), from the configuration of the first call.
pub struct Cleaner {
    scrubber: Scrubber,
}

impl Cleaner {
    pub fn new(config: &Config) -> Cleaner {
        Cleaner {
            scrubber: environment_scrubber(&config.services.environment, |message| {
                ollm::diag::warn(message);
            })
            .for_bulk(),
        }
    }

    /// Every string in `value`, object keys too (a metadata key is stored
    /// text like any other). The value's JSON is first asked whether any
    /// rule could find a credential in it at all (one pass over a listing
    /// of a thousand sessions instead of a search per string); only then
    /// is each string searched.
    pub fn sanitize(&self, value: &mut Value) {
        let redact =
            serde_json::to_vec(value).map_or(true, |raw| self.scrubber.may_hold_credentials(&raw));
        self.clean(value, redact);
    }

    fn clean(&self, value: &mut Value, redact: bool) {
        match value {
            Value::String(text) => *text = self.clean_str(text, redact),
            Value::Array(items) => items.iter_mut().for_each(|item| self.clean(item, redact)),
            Value::Object(map) => {
                let entries = std::mem::take(map);
                for (key, mut item) in entries {
                    self.clean(&mut item, redact);
                    map.insert(self.clean_str(&key, redact), item);
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }

    /// Multi-line stored text as it may be shown: credentials replaced,
    /// control characters visible, newlines kept.
    pub fn clean_text(&self, text: &str) -> String {
        self.clean_str(text, true)
    }

    fn clean_str(&self, text: &str, redact: bool) -> String {
        match redact.then(|| self.scrubber.redact(text)).flatten() {
            Some((redacted, _)) => escape_text(&redacted).into_owned(),
            None => escape_text(text).into_owned(),
        }
    }

    /// A successful tool call: the cleaned value as `structuredContent`
    /// and as the JSON text block older clients read.
    pub fn structured(&self, value: impl serde::Serialize) -> CallToolResult {
        match serde_json::to_value(value) {
            Ok(mut value) => {
                self.sanitize(&mut value);
                CallToolResult::structured(value)
            }
            Err(err) => failure(&err),
        }
    }
}

/// A tool error: our one-line message, redacted, with nothing live in it.
pub fn failure(err: &dyn std::fmt::Display) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(one_line(err))])
}

/// An error message as one clean line, redacted as our diagnostics are.
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
            "b": "DB_PASSWORD=hunter2hunter2",
        });
        Cleaner::new(&Config::default()).sanitize(&mut value);
        let text = value.to_string();
        assert!(!text.contains(token), "{text}");
        assert!(!text.contains('\u{1b}'), "{text}");
        assert!(text.contains("[REDACTED"), "{text}");
        assert!(!text.contains("hunter2"), "{text}");
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
