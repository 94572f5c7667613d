//! Credential patterns and redaction, shared by our own diagnostics
//! (`diag`), `ollm-env` and the session store: credential shapes in values
//! (`patterns`; `bulk` for much text), names that hold secrets (`names`),
//! the environment policy (`policy`), the streaming redactor of
//! `--redact-output` (`stream`), the redaction of stored text
//! (`scrub`) and of the structure of stored JSON (`structure`).
//!
//! What redaction cannot catch: a secret in an encoded form (base64, hex,
//! split by the tool into pieces, or reversed; JSON escapes and ASCII
//! percent-codes are decoded by `scrub`, `decoded`) is not the
//! text it looks for; nor is a credential whose shape is not listed, unless
//! it is the value of a variable that was removed.

pub(crate) mod assignments;
pub(crate) mod bulk;
#[cfg(test)]
mod contexts_tests;
pub(crate) mod decoded;
pub mod environment;
mod fields;
pub(crate) mod literals;
pub(crate) mod names;
pub(crate) mod patterns;
pub mod policy;
pub(crate) mod scrub;
mod span;
pub(crate) mod stream;
pub(crate) mod structure;
pub(crate) mod work;

pub use names::{
    CONNECTION_DENY, DEFAULT_ALLOW, DEFAULT_DENY, EXTENDED_DENY, QUANTITY_WORDS, SECRET_WORDS,
    SETTING_WORDS, compile_glob, is_builtin_secret_name, is_path_value, looks_like_path,
    name_words, secret_word,
};
pub(crate) use patterns::{MIN_LITERAL_SECRET, credential_kind, redact_values, whole_value_kind};
pub use scrub::{PRECISE_LIMIT, Scrubber, SecretValue};
pub use span::{Span, Tally};
pub use stream::Redactor;

/// What our own diagnostics must never show (Property 28): credential-shaped
/// text, and the values of this process's variables that the built-in
/// lists name as secrets.
pub fn scrub_message(message: &str) -> String {
    let mut text = redact_values(message);
    for (name, value) in std::env::vars_os() {
        let (Some(name), Some(value)) = (name.to_str(), value.to_str()) else {
            continue;
        };
        if value.len() >= MIN_LITERAL_SECRET
            && text.contains(value)
            && (is_builtin_secret_name(name, value)
                || credential_kind(value).is_some()
                || whole_value_kind(value).is_some())
        {
            text = text.replace(value, "[REDACTED]");
        }
    }
    text
}
