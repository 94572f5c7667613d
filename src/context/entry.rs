//! A context entry, its source, and TTL durations.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    clap::ValueEnum,
    schemars::JsonSchema,
)]
#[schemars(rename = "ContextSource")]
#[serde(rename_all = "lowercase")]
pub enum Source {
    Hook,
    Extension,
    User,
    System,
}

/// One entry of the store; the JSON form is what `list`, `get` and
/// `prompt --json` print.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(transform = crate::schema::skipped_when_none)]
#[schemars(rename = "ContextEntry")]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub key: String,
    pub content: String,
    /// Higher comes first in the prompt.
    pub priority: i64,
    pub source: Source,
    /// When the entry was last added, written as the session store writes
    /// timestamps (`2024-01-15T10:30:27.690Z`, so the strings sort in time order).
    #[serde(with = "crate::timestamp::millis")]
    #[schemars(with = "String")]
    pub timestamp: jiff::Timestamp,
    /// When the entry drops out, if it has a TTL.
    #[serde(
        default,
        with = "crate::timestamp::millis_option",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "Option<String>")]
    pub expires_at: Option<jiff::Timestamp>,
}

impl Entry {
    pub(crate) fn is_live(&self, now: jiff::Timestamp) -> bool {
        self.expires_at.is_none_or(|at| now < at)
    }
}

/// The longest key accepted.
pub(crate) const MAX_KEY_CHARS: usize = 256;

/// Keys are a markdown heading in the prompt: one line, not empty.
pub(crate) fn validate_key(key: &str) -> Result<()> {
    if key.trim().is_empty() {
        return Err(Error::usage("the key is empty"));
    }
    if key.chars().any(char::is_control) {
        return Err(Error::usage(
            "the key contains a control character (keys are one line)",
        ));
    }
    if key.chars().count() > MAX_KEY_CHARS {
        return Err(Error::usage(format!(
            "the key is longer than {MAX_KEY_CHARS} characters"
        )));
    }
    Ok(())
}

const MAX_TTL_SECONDS: u64 = 100 * 365 * 24 * 3600;

/// Parses a TTL: one or more `<number><unit>` parts with units `s`, `m`,
/// `h`, `d` (`30s`, `10m`, `2h`, `1d`, `1h30m`), or a bare number of seconds.
pub fn parse_ttl(text: &str) -> std::result::Result<std::time::Duration, String> {
    let invalid = || format!("{text:?} is not a duration (examples: 30s, 10m, 2h, 1d, 1h30m)");
    let text = text.trim();
    if text.is_empty() {
        return Err(invalid());
    }
    if text.bytes().all(|b| b.is_ascii_digit()) {
        return finish(text.parse::<u64>().map_err(|_| invalid())?, text);
    }
    let mut total: u64 = 0;
    let mut digits = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        let unit = match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86400,
            _ => return Err(invalid()),
        };
        let n: u64 = digits.parse().map_err(|_| invalid())?;
        digits.clear();
        total = n
            .checked_mul(unit)
            .and_then(|v| total.checked_add(v))
            .ok_or_else(invalid)?;
    }
    if !digits.is_empty() {
        return Err(invalid());
    }
    finish(total, text)
}

fn finish(seconds: u64, text: &str) -> std::result::Result<std::time::Duration, String> {
    if seconds == 0 {
        return Err(format!("{text:?}: a TTL must be longer than zero"));
    }
    if seconds > MAX_TTL_SECONDS {
        return Err(format!("{text:?}: a TTL can be at most 100 years"));
    }
    Ok(std::time::Duration::from_secs(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ttls_parse() {
        assert_eq!(parse_ttl("30s").unwrap().as_secs(), 30);
        assert_eq!(parse_ttl("10m").unwrap().as_secs(), 600);
        assert_eq!(parse_ttl("2h").unwrap().as_secs(), 7200);
        assert_eq!(parse_ttl("1d").unwrap().as_secs(), 86400);
        assert_eq!(parse_ttl("1h30m").unwrap().as_secs(), 5400);
        assert_eq!(parse_ttl("45").unwrap().as_secs(), 45);
        for bad in [
            "",
            "0",
            "0s",
            "5x",
            "h",
            "10m5",
            "-3s",
            "99999999999999999999s",
            "200000d",
        ] {
            assert!(parse_ttl(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn keys_are_one_nonempty_line() {
        assert!(validate_key("project-rules").is_ok());
        assert!(validate_key(" ").is_err());
        assert!(validate_key("a\nb").is_err());
        assert!(validate_key(&"k".repeat(300)).is_err());
    }
}
