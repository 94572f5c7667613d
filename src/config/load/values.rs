//! A value of a layer read as its key's default says (an environment
//! variable's text as a bool, a number or a list), and a bad one told in
//! words a user of the YAML file knows.

use serde_json::Value;

use crate::config::tree;

/// Whether `raw` spells a number that is not finite (`NaN`, `inf`, `.nan`).
pub(in crate::config) fn is_non_finite(raw: &str) -> bool {
    let raw = raw.trim();
    let raw = raw.strip_prefix('.').unwrap_or(raw);
    let raw = raw.strip_prefix(['+', '-']).unwrap_or(raw);
    let raw = raw.strip_prefix('.').unwrap_or(raw);
    matches!(
        raw.to_ascii_lowercase().as_str(),
        "nan" | "inf" | "infinity"
    )
}

/// The error for a value that is not a finite number.
pub(in crate::config) fn non_finite_message(raw: &str) -> String {
    format!(
        "must be a finite number, not {}",
        crate::text::shorten(raw.trim(), 20)
    )
}

/// The first float of `yaml` that is NaN or infinite: the dotted key
/// whose value holds it, and its YAML spelling.
pub(super) fn first_non_finite(yaml: &serde_yaml::Value) -> Option<(String, String)> {
    tree::leaves(yaml).find_map(|(key, value)| Some((key, non_finite_in(value)?)))
}

/// The YAML spelling of the first non-finite float in a leaf's value (a
/// list may hold one).
fn non_finite_in(value: &serde_yaml::Value) -> Option<String> {
    match value {
        serde_yaml::Value::Number(n) => match n.as_f64() {
            Some(v) if v.is_nan() => Some(".nan".into()),
            Some(v) if v.is_infinite() && v > 0.0 => Some(".inf".into()),
            Some(v) if v.is_infinite() => Some("-.inf".into()),
            _ => None,
        },
        serde_yaml::Value::Sequence(items) => items.iter().find_map(non_finite_in),
        serde_yaml::Value::Mapping(map) => map.values().find_map(non_finite_in),
        serde_yaml::Value::Tagged(tagged) => non_finite_in(&tagged.value),
        _ => None,
    }
}

pub(in crate::config) fn parse_env_value(raw: &str, default: &Value) -> Option<Value> {
    let raw = raw.trim();
    match default {
        Value::Bool(_) => match raw.to_ascii_lowercase().as_str() {
            "1" | "true" | "yes" | "on" => Some(Value::Bool(true)),
            "0" | "false" | "no" | "off" => Some(Value::Bool(false)),
            _ => None,
        },
        Value::Number(n) if n.is_u64() => raw.parse::<u64>().ok().map(Value::from),
        Value::Number(_) => raw
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .map(Value::from),
        Value::Array(_) => Some(Value::Array(
            raw.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| Value::String(s.to_string()))
                .collect(),
        )),
        _ => Some(Value::String(raw.to_string())),
    }
}

pub(super) fn describe_kind(default: &Value) -> &'static str {
    match default {
        Value::Bool(_) => "true or false",
        Value::Number(n) if n.is_u64() => "a non-negative whole number",
        Value::Number(_) => "a number",
        Value::Array(_) => "a comma-separated list",
        _ => "a string",
    }
}

/// serde's type names, in words a user of a YAML file knows.
pub(super) fn friendly_expectation(message: &str) -> String {
    let message = message
        .replace("expected u64", "expected a non-negative whole number")
        .replace("expected f64", "expected a number")
        .replace("expected a boolean", "expected true or false")
        .replace("expected a sequence", "expected a list")
        .replace("expected struct ", "expected a mapping (");
    let message = if message.contains("expected a mapping (") {
        format!("{message})")
    } else {
        message
    };
    crate::text::one_line(&message)
}

pub(super) fn strip_location(message: &str) -> String {
    match message.find(" at line ") {
        Some(cut) => message[..cut].to_string(),
        None => message.to_string(),
    }
}
