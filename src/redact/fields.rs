//! Which strings of JSON are secrets whole by the key they are under
//! (`{"password": "…"}`; the rule of [`super::structure`]), and finding
//! them in a text that is itself JSON, by their encoding there.

use std::borrow::Cow;

use serde_json::Value;

use super::assignments::{is_non_secret_value, is_secret_word_name};
use super::span::Span;

/// The kind a string under a secret-named key is withheld as: that of the
/// same value written as text (`"api_key": "…"`).
pub(super) const FIELD_KIND: &str = "secret-assignment";

/// Where earlier redactions left their marker.
const MARKER_OPEN: &str = "[REDACTED:";

/// The field in which an imported record names its source's record
/// (written by `session::import`; declared here, below it).
pub(crate) const SOURCE_KEY: &str = "sourceKey";

/// The toolkit's own fields whose names hold a secret word: what it writes
/// there is its own id, never a credential (withheld, a second import
/// could not match its records).
const OWN_FIELDS: &[&str] = &[SOURCE_KEY];

/// Whether the string `text` under `key` is a secret whole: the key is
/// secret-named (and not one of [`OWN_FIELDS`]) and the value is not one
/// an assignment keeps, nor holds the marker of an earlier redaction
/// (redacting twice changes nothing).
pub(super) fn is_secret_field(key: Option<&str>, text: &str) -> bool {
    key.is_some_and(|key| is_secret_word_name(key) && !OWN_FIELDS.contains(&key))
        && !is_non_secret_value(text)
        && !text.contains(MARKER_OPEN)
}

/// How deep [`fields_in_json_text`] reads JSON held in strings of JSON.
const JSON_TEXT_DEPTH: usize = 3;

/// The strings under secret-named keys of a text that is itself JSON (a
/// tool's output, `{"client_secrets": ["…"]}`), and of JSON held in its
/// strings, as spans of the text: each found where its JSON encoding
/// (escaped once per level) occurs, so a value a tool encoded otherwise
/// (`\u0041`) is left to the text rules.
pub(crate) fn fields_in_json_text(text: &str, spans: &mut Vec<Span>) {
    let trimmed = text.trim_start();
    if !(trimmed.starts_with('{') || trimmed.starts_with('[')) {
        return;
    }
    let Ok(value) = serde_json::from_str::<Value>(trimmed) else {
        return;
    };
    let mut needles = Vec::new();
    secret_strings(&value, None, 1, &mut needles);
    for needle in needles {
        for (at, _) in text.match_indices(needle.as_str()) {
            spans.push(Span {
                start: at,
                end: at + needle.len(),
                kind: Cow::Borrowed(FIELD_KIND),
            });
        }
    }
}

/// Collects, escaped `depth` times, the strings of `value` (under `key`)
/// that are secrets whole; a string that is JSON is read one level down.
fn secret_strings(value: &Value, key: Option<&str>, depth: usize, needles: &mut Vec<String>) {
    match value {
        Value::String(text) => {
            if is_secret_field(key, text) {
                let mut needle = text.clone();
                for _ in 0..depth {
                    needle = escaped(&needle);
                }
                needles.push(needle);
            } else if depth < JSON_TEXT_DEPTH
                && matches!(text.trim_start().as_bytes().first(), Some(b'{' | b'['))
                && let Ok(inner) = serde_json::from_str::<Value>(text)
            {
                secret_strings(&inner, None, depth + 1, needles);
            }
        }
        Value::Array(items) => {
            for item in items {
                secret_strings(item, key, depth, needles);
            }
        }
        Value::Object(map) => {
            for (name, item) in map {
                secret_strings(item, Some(name), depth, needles);
            }
        }
        _ => {}
    }
}

/// `text` as it stands inside a JSON string, without the quotes.
fn escaped(text: &str) -> String {
    let quoted = Value::from(text).to_string();
    quoted[1..quoted.len() - 1].to_string()
}
