//! Redaction that reads a JSON value's structure (issue 47), on top of the
//! rules that read its texts ([`Scrubber::find`]):
//! - a string under a secret-named key, at any depth (`{"env":
//!   {"AWS_SECRET_ACCESS_KEY": "…"}}`, `{"password": "…"}`, the items of an
//!   array under such a key), is a secret whole, withheld as the same value
//!   written as text is (`secret-assignment`). "Secret-named" is the rule of
//!   an assignment in text, the environment policy's word rule
//!   ([`super::names::secret_word`]); the values an assignment keeps (a
//!   sample, a reference, a path, a URL, a number written as text, a value
//!   shorter than six characters) are kept here too, and numbers, booleans
//!   and `null` are never secrets (`"max_tokens": 512`, `"input_tokens":
//!   1234`);
//! - an object's keys are read like its strings (`{"ghp_…": 1}`): a key
//!   holding a credential is stored redacted, made unique among its
//!   object's keys (` (2)`, …) so that no value is lost;
//! - a text that is itself JSON (a tool's output) is read the same way
//!   ([`fields_in_json_text`]), as is JSON held in its strings.
//!
//! - an image part's base64 `data` (`{"type": "image", "mimeType":
//!   "image/…", "data": "…"}`) is not text and is not read: its letters
//!   could match a rule by chance and the image would be broken. Only data
//!   wholly in the base64 alphabet that starts with a PNG, JPEG, GIF or
//!   WebP signature is passed over; anything else in it is read like any
//!   string, and the part's other fields always are.
//!
//! `scan` ([`for_each_credential`]) and `redact` ([`redact_value`]) take
//! the same decisions, so a scan reports everything a redaction changes.

use std::borrow::Cow;
use std::collections::HashSet;

use serde_json::{Map, Value};

pub(crate) use super::fields::SOURCE_KEY;
use super::fields::{FIELD_KIND, is_secret_field};
use super::patterns::MIN_LITERAL_SECRET;
use super::scrub::Scrubber;
use super::span::{Span, Tally, marker, replace};

/// The credentials of the string `text` found under `key`: what
/// [`for_each_credential`] finds in a string of a JSON value, for a caller
/// that holds the strings without the value (an export's page data).
pub(crate) fn field_spans(scrubber: &Scrubber, key: Option<&str>, text: &str) -> Vec<Span> {
    if is_secret_field(key, text) {
        return vec![Span {
            start: 0,
            end: text.len(),
            kind: Cow::Borrowed(FIELD_KIND),
        }];
    }
    scrubber.find(text)
}

/// Redacts `value`, found under `key` (`None`: a value of its own), and
/// says what was replaced and withheld.
pub(crate) fn redact_value(scrubber: &Scrubber, key: Option<&str>, value: &mut Value) -> Tally {
    match value {
        Value::String(text) => {
            if is_secret_field(key, text) {
                *text = marker(FIELD_KIND);
                return Tally {
                    replaced: 1,
                    withheld: 0,
                };
            }
            match scrubber.redact_tallied(text) {
                Some((redacted, tally)) => {
                    *text = redacted;
                    tally
                }
                None => Tally::default(),
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .map(|item| redact_value(scrubber, key, item))
            .sum(),
        Value::Object(map) => redact_object(scrubber, map),
        _ => Tally::default(),
    }
}

/// Whether `value`, under `key` in `object`, is an image's base64 data.
fn is_image_data(object: &Map<String, Value>, key: &str, value: &Value) -> bool {
    key == "data"
        && object.get("type").and_then(Value::as_str) == Some("image")
        && object
            .get("mimeType")
            .and_then(Value::as_str)
            .is_some_and(|mime| mime.starts_with("image/"))
        && value.as_str().is_some_and(|data| {
            starts_as_an_image(data)
                && data
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
        })
}

/// Whether base64 `data` begins with the signature of a PNG, JPEG, GIF or
/// WebP file.
fn starts_as_an_image(data: &str) -> bool {
    use base64::Engine as _;
    let Some(head) = data.get(..16) else {
        return false;
    };
    let Ok(bytes) = base64::engine::general_purpose::STANDARD.decode(head) else {
        return false;
    };
    bytes.starts_with(b"\x89PNG\r\n\x1a\n")
        || bytes.starts_with(&[0xff, 0xd8, 0xff])
        || bytes.starts_with(b"GIF8")
        || (bytes.starts_with(b"RIFF") && &bytes[8..12] == b"WEBP")
}

/// Redacts an object's values, each under its key, and its keys.
fn redact_object(scrubber: &Scrubber, map: &mut Map<String, Value>) -> Tally {
    let image_data = map
        .iter()
        .find(|(key, item)| is_image_data(map, key, item))
        .map(|(key, _)| key.clone());
    let mut tally: Tally = map
        .iter_mut()
        .filter(|(key, _)| image_data.as_ref() != Some(*key))
        .map(|(key, item)| redact_value(scrubber, Some(key), item))
        .sum();
    let renamed: Vec<Option<(String, Tally)>> = map
        .keys()
        .map(|key| {
            if key_may_hold(key) {
                scrubber.redact_tallied(key)
            } else {
                None
            }
        })
        .collect();
    if renamed.iter().all(Option::is_none) {
        return tally;
    }
    // The keys that stay are taken first: a redacted key never replaces
    // one of them, nor another redacted key.
    let mut taken: HashSet<String> = map
        .keys()
        .zip(&renamed)
        .filter(|(_, renamed)| renamed.is_none())
        .map(|(key, _)| key.clone())
        .collect();
    let old = std::mem::take(map);
    for ((key, item), renamed) in old.into_iter().zip(renamed) {
        let key = match renamed {
            Some((redacted, counted)) => {
                tally += counted;
                let unique = unique_key(&taken, redacted);
                taken.insert(unique.clone());
                unique
            }
            None => key,
        };
        map.insert(key, item);
    }
    tally
}

/// Whether a key is long enough to hold what a rule finds: every
/// credential shape, secret value and assignment is at least
/// [`MIN_LITERAL_SECRET`] bytes, and a record's own keys (`id`, `args`,
/// `result`, `parts`, …) are shorter, so they are not searched at all.
fn key_may_hold(key: &str) -> bool {
    key.len() >= MIN_LITERAL_SECRET
}

/// `key`, or `key (2)`, `key (3)`, …: the first not in `taken`.
fn unique_key(taken: &HashSet<String>, key: String) -> String {
    if !taken.contains(&key) {
        return key;
    }
    let mut n = 2;
    loop {
        let candidate = format!("{key} ({n})");
        if !taken.contains(&candidate) {
            return candidate;
        }
        n += 1;
    }
}

/// Calls `found(field, text, span)` for every credential [`redact_value`]
/// would replace in `value` (found under `key`): `field` names where, from
/// `path` on (`args.env.TOKEN`, `args.items[2]`); a key holding a
/// credential is named redacted, and its own finding is `….<key> (key)`.
pub(crate) fn for_each_credential(
    scrubber: &Scrubber,
    key: Option<&str>,
    value: &Value,
    path: &str,
    found: &mut dyn FnMut(String, &str, &Span),
) {
    match value {
        Value::String(text) => {
            for span in field_spans(scrubber, key, text) {
                found(path.to_string(), text, &span);
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                for_each_credential(scrubber, key, item, &format!("{path}[{index}]"), found);
            }
        }
        Value::Object(map) => {
            for (name, item) in map {
                let spans = if key_may_hold(name) {
                    scrubber.find(name)
                } else {
                    Vec::new()
                };
                let shown = if spans.is_empty() {
                    Cow::Borrowed(name.as_str())
                } else {
                    Cow::Owned(replace(name, &spans))
                };
                let path = if path.is_empty() {
                    shown.into_owned()
                } else {
                    format!("{path}.{shown}")
                };
                for span in &spans {
                    found(format!("{path} (key)"), name, span);
                }
                if is_image_data(map, name, item) {
                    continue;
                }
                for_each_credential(scrubber, Some(name), item, &path, found);
            }
        }
        _ => {}
    }
}

impl Scrubber {
    /// Redacts every string inside `value`, by its text and by the key it
    /// is under, and every object key ([`super::structure`]); returns how
    /// many credentials were replaced.
    pub fn redact_json(&self, value: &mut Value) -> usize {
        self.redact_json_tallied(value).replaced as usize
    }

    /// [`Scrubber::redact_json`], and the bytes withheld.
    pub fn redact_json_tallied(&self, value: &mut Value) -> Tally {
        super::structure::redact_value(self, None, value)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const TOKEN: &str = "ghp_0123456789abcdefghijABCDEFGHIJ012345";

    fn redacted(mut value: Value) -> (Value, u64) {
        let tally = redact_value(&Scrubber::default(), None, &mut value);
        (value, tally.replaced)
    }

    /// What a scan reports of `value`: (field, kind).
    fn scanned(value: &Value) -> Vec<(String, String)> {
        let mut found = Vec::new();
        for_each_credential(
            &Scrubber::default(),
            None,
            value,
            "",
            &mut |field, _, span| {
                found.push((field, span.kind.to_string()));
            },
        );
        found
    }

    #[test]
    fn a_string_under_a_secret_named_key_is_withheld_at_any_depth() {
        let args = json!({
            "password": "S3cret-but-no-shape",
            "api_key": "plainwords",
            "env": {"AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG", "HOME": "/root"},
            "deep": [{"clientSecret": "a b c d e f"}],
            "tokens": ["first-value-1a2b", "second-value-3c4d"],
            "user": "bob",
        });
        let (value, replaced) = redacted(args.clone());
        let field = "[REDACTED:secret-assignment]";
        assert_eq!(
            value,
            json!({
                "password": field,
                "api_key": field,
                "env": {"AWS_SECRET_ACCESS_KEY": field, "HOME": "/root"},
                "deep": [{"clientSecret": field}],
                "tokens": [field, field],
                "user": "bob",
            })
        );
        assert_eq!(replaced, 6);
        assert_eq!(scanned(&args).len(), 6);
        assert_eq!(scanned(&args)[2].0, "env.AWS_SECRET_ACCESS_KEY");
        // Redacted, nothing is left to find or change.
        assert!(scanned(&value).is_empty());
        assert_eq!(redacted(value.clone()), (value, 0));
    }

    #[test]
    fn numbers_samples_and_look_alike_names_stay() {
        let usage = json!({
            "max_tokens": 512,
            "input_tokens": 1234,
            "tokens": {"input": 4512, "output": 31},
            "token_count": "1234",
            "keyboard": "dvorak-layout",
            "auth_type": "oauth-device",
            "key_name": "production-signing",
            "password": "$DB_PASSWORD",
            "api_key": "<your key here>",
            "private_key_file": "/etc/ssl/private/x.pem",
            "secret": true,
            "token": null,
            "credentials_url": "https://example.com/creds",
            "keynote_speaker": "Ada Lovelace",
            "sourceKey": "claude:msg_01AbCdEf",
        });
        assert_eq!(redacted(usage.clone()), (usage.clone(), 0));
        assert!(scanned(&usage).is_empty());
    }

    #[test]
    fn an_images_data_is_not_read_but_the_text_beside_it_is() {
        // Base64 that happens to spell an AWS key id is image data, not a key.
        let data = "iVBORw0KGgo+AKIA2E0A8F3B244C9986/AAAA==";
        assert_eq!(redacted(json!(data)).1, 1, "as text it would be redacted");
        let message = json!({"parts": [
            {"type": "text", "text": format!("token {TOKEN}")},
            {"type": "image", "mimeType": "image/png", "data": data, "alt": TOKEN},
        ]});
        let (value, replaced) = redacted(message.clone());
        assert_eq!(replaced, 2, "{value}");
        assert_eq!(value["parts"][1]["data"], data);
        assert!(!value.to_string().contains(TOKEN), "{value}");
        assert_eq!(scanned(&message).len(), 2);
        // Data that is not base64, or not of an image, is text like any other.
        let not_base64 =
            json!({"type": "image", "mimeType": "image/png", "data": format!("x {TOKEN}")});
        assert_eq!(redacted(not_base64).1, 1);
        let not_an_image = json!({"type": "image", "mimeType": "image/png",
            "data": "AAAAAAAAAAAAAAAA+AKIA2E0A8F3B244C9986/AAAA=="});
        assert_eq!(redacted(not_an_image).1, 1);
    }

    #[test]
    fn keys_are_read_like_values_and_stay_unique() {
        let value = json!({
            TOKEN: 1,
            "Authorization: Bearer sk-proj-abcdefghijklmnopqrstuvwx1234": true,
            "[REDACTED:github-token]": "was here before",
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789": 3,
        });
        let (redacted_value, replaced) = redacted(value.clone());
        assert_eq!(replaced, 3);
        let text = redacted_value.to_string();
        assert!(
            !text.contains("ghp_") && !text.contains("sk-proj-"),
            "{text}"
        );
        let map = redacted_value.as_object().unwrap();
        assert_eq!(map.len(), 4, "{text}");
        assert_eq!(map["[REDACTED:github-token]"], "was here before");
        assert_eq!(map["Authorization: [REDACTED:authorization-header]"], true);
        let numbers: HashSet<String> = [
            &map["[REDACTED:github-token] (2)"],
            &map["[REDACTED:github-token] (3)"],
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        assert_eq!(numbers, HashSet::from(["1".into(), "3".into()]));
        let found = scanned(&value);
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found.iter().all(|(field, _)| field.ends_with(" (key)")
            && !field.contains("ghp_")
            && !field.contains("sk-proj")));
        assert!(scanned(&redacted_value).is_empty());
        assert_eq!(redacted(redacted_value.clone()).1, 0);
    }

    #[test]
    fn a_text_that_is_json_has_its_secret_fields_found_even_in_json_inside_it() {
        let text =
            r#"{"action": "rotate", "client_secrets": ["first-Secret-4q9", "second-Secret-7x2"]}"#;
        let nested = r#"{"output": "{\"api_keys\": [\"inner-Secret-9z8\"]}", "code": 0}"#;
        let scrubber = Scrubber::default();
        for (text, secrets) in [
            (text, vec!["first-Secret-4q9", "second-Secret-7x2"]),
            (nested, vec!["inner-Secret-9z8"]),
        ] {
            let (redacted, count) = scrubber.redact(text).unwrap();
            assert_eq!(count, secrets.len(), "{redacted}");
            for secret in secrets {
                assert!(!redacted.contains(secret), "{redacted}");
            }
            assert!(
                serde_json::from_str::<Value>(&redacted).is_ok(),
                "{redacted}"
            );
            assert!(scrubber.redact(&redacted).is_none());
        }
        let usage = r#"{"usage": {"input_tokens": 12, "token": "$TOKEN"}, "text": "[1, 2]"}"#;
        assert!(scrubber.redact(usage).is_none());
    }

    #[test]
    fn a_credential_inside_a_field_is_found_by_the_text_rules_whatever_its_key() {
        let value = json!({"command": format!("git push https://x:{TOKEN}@github.com/o/r")});
        let (value, replaced) = redacted(value);
        assert_eq!(replaced, 1);
        assert!(!value.to_string().contains(TOKEN));
    }
}
