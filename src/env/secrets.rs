//! Values that look like credentials, whatever the variable is called.
//! Name rules alone leak (`DATABASE_URL=postgres://u:pw@host`,
//! `OPENAI=sk-…`), so values are checked too.

use std::sync::OnceLock;

use regex::bytes::{Regex, RegexBuilder};

/// A kind of credential recognisable by its value.
pub struct ValuePattern {
    pub name: &'static str,
    pub regex: &'static str,
}

/// The credential shapes checked in values. Each regex matches the secret
/// part only, so redaction keeps the text around it.
pub const VALUE_PATTERNS: &[ValuePattern] = &[
    ValuePattern {
        name: "private-key",
        regex: r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----",
    },
    ValuePattern {
        name: "aws-access-key-id",
        regex: r"(?-u:\b)(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}(?-u:\b)",
    },
    ValuePattern {
        name: "github-token",
        regex: r"(?-u:\b)(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})",
    },
    ValuePattern {
        name: "gitlab-token",
        regex: r"(?-u:\b)glpat-[A-Za-z0-9_\-]{20,}",
    },
    ValuePattern {
        name: "api-key-sk",
        regex: r"(?-u:\b)sk-(?:[A-Za-z0-9]+-)*[A-Za-z0-9_\-]{20,}",
    },
    ValuePattern {
        name: "slack-token",
        regex: r"(?-u:\b)xox[abposr]-[A-Za-z0-9\-]{10,}",
    },
    ValuePattern {
        name: "stripe-live-key",
        regex: r"(?-u:\b)(?:sk|rk|pk)_live_[A-Za-z0-9]{16,}",
    },
    ValuePattern {
        name: "google-api-key",
        regex: r"(?-u:\b)AIza[0-9A-Za-z_\-]{35}",
    },
    ValuePattern {
        name: "npm-token",
        regex: r"(?-u:\b)npm_[A-Za-z0-9]{36}",
    },
    ValuePattern {
        name: "jwt",
        regex: r"(?-u:\b)eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
    },
    ValuePattern {
        name: "huggingface-token",
        regex: r"(?-u:\b)hf_[A-Za-z0-9]{30,}",
    },
    ValuePattern {
        name: "sendgrid-key",
        regex: r"(?-u:\b)SG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}",
    },
    ValuePattern {
        name: "google-oauth-token",
        regex: r"(?-u:\b)ya29\.[0-9A-Za-z_\-]{20,}",
    },
    ValuePattern {
        name: "shopify-token",
        regex: r"(?-u:\b)shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}",
    },
    ValuePattern {
        name: "azure-account-key",
        regex: r"(?i)AccountKey=[A-Za-z0-9+/=]{20,}",
    },
    ValuePattern {
        name: "webhook-url",
        regex: r"(?i)https://(?:hooks\.slack\.com/services|(?:discord|discordapp)\.com/api/webhooks)/[A-Za-z0-9_/\-]{16,}",
    },
    ValuePattern {
        name: "url-token-userinfo",
        regex: r"(?i)(?-u:\b)[a-z][a-z0-9+.\-]*://[A-Za-z0-9_\-]{16,}@",
    },
    ValuePattern {
        name: "url-credentials",
        regex: r"(?i)(?-u:\b)[a-z][a-z0-9+.\-]*://[^\s/:@]+:[^\s/@]+@",
    },
];

/// Builds one byte regex of `literals` (longest first, so a longer secret
/// wins over its own prefix) and then every credential shape, each shape in
/// its own capture group (group i+1 is `VALUE_PATTERNS[i]`; the shapes use
/// only non-capturing groups). Unicode is off: the shapes are ASCII, and the
/// automaton is then a fraction of the Unicode one's size and build time.
pub fn matcher<S: AsRef<str>>(literals: &[S]) -> Result<Regex, regex::Error> {
    let mut sorted: Vec<&str> = literals.iter().map(AsRef::as_ref).collect();
    sorted.sort_by_key(|literal| std::cmp::Reverse(literal.len()));
    sorted.dedup();
    let alternation: Vec<String> = sorted
        .iter()
        .map(|literal| regex::escape(literal))
        .chain(VALUE_PATTERNS.iter().map(|p| format!("({})", p.regex)))
        .collect();
    RegexBuilder::new(&alternation.join("|"))
        .unicode(false)
        .build()
}

fn shapes() -> Option<&'static Regex> {
    static SHAPES: OnceLock<Option<Regex>> = OnceLock::new();
    // The shapes are constants a unit test compiles; None is unreachable.
    SHAPES.get_or_init(|| matcher::<&str>(&[]).ok()).as_ref()
}

/// The name of the credential shape `value` contains (the leftmost one), if any.
pub fn credential_kind(value: &str) -> Option<&'static str> {
    // A literal scan rules out almost every value without compiling anything.
    if !has_trigger(value) {
        return None;
    }
    let captures = shapes()?.captures(value.as_bytes())?;
    (1..captures.len())
        .find(|&group| captures.get(group).is_some())
        .map(|group| VALUE_PATTERNS[group - 1].name)
}

/// Literals one of which every credential shape contains (see
/// [`VALUE_PATTERNS`]); a value holding none of them cannot match.
const TRIGGERS: &[&str] = &[
    "PRIVATE KEY",
    "AKIA",
    "ASIA",
    "AGPA",
    "AIDA",
    "AROA",
    "ANPA",
    "gh",
    "github_pat_",
    "glpat-",
    "sk-",
    "xox",
    "_live_",
    "AIza",
    "npm_",
    "eyJ",
    "://",
    "hf_",
    "SG.",
    "ya29.",
    "shp",
];

/// Triggers of the case-insensitive patterns, compared in lower case.
const LOWERCASE_TRIGGERS: &[&str] = &["accountkey="];

fn has_trigger(value: &str) -> bool {
    TRIGGERS.iter().any(|t| value.contains(t))
        || (value.contains('=')
            && LOWERCASE_TRIGGERS
                .iter()
                .any(|t| value.to_ascii_lowercase().contains(t)))
}

/// Replaces every credential-shaped substring of `text` with `[REDACTED]`.
pub fn redact_values(text: &str) -> String {
    match shapes() {
        Some(shapes) if has_trigger(text) => {
            String::from_utf8_lossy(&shapes.replace_all(text.as_bytes(), &b"[REDACTED]"[..]))
                .into_owned()
        }
        _ => text.to_string(),
    }
}

/// Shortest value of a secret variable that is redacted by literal match;
/// shorter ones (`1`, `true`) would blank out ordinary words.
pub const MIN_LITERAL_SECRET: usize = 8;

/// What our own diagnostics must never show (Property 28): credential-shaped
/// text, and the values of this process's variables that the default deny
/// patterns name.
pub fn scrub_message(message: &str) -> String {
    let mut text = redact_values(message);
    let policy = super::policy::Policy::defaults();
    for (name, value) in std::env::vars_os() {
        let (Some(name), Some(value)) = (name.to_str(), value.to_str()) else {
            continue;
        };
        if value.len() >= MIN_LITERAL_SECRET
            && policy.decide(name, value).is_removed()
            && text.contains(value)
        {
            text = text.replace(value, "[REDACTED]");
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_compiles_and_has_its_own_group() {
        for pattern in VALUE_PATTERNS {
            assert!(Regex::new(pattern.regex).is_ok(), "{}", pattern.name);
            let bytes = pattern.regex.as_bytes();
            let capturing = (0..bytes.len()).any(|i| {
                bytes[i] == b'('
                    && (i == 0 || bytes[i - 1] != b'\\')
                    && bytes.get(i + 1) != Some(&b'?')
            });
            assert!(!capturing, "{} has a capture group", pattern.name);
        }
        let shapes = shapes().unwrap();
        assert_eq!(shapes.captures_len(), VALUE_PATTERNS.len() + 1);
    }

    #[test]
    fn every_known_shape_passes_the_prefilter() {
        // has_trigger must hold for anything a shape matches, or the
        // prefilter would let a credential through.
        for (value, _) in KNOWN {
            assert!(has_trigger(value), "{value}");
        }
    }

    #[test]
    fn known_credential_shapes_are_recognised() {
        for (value, kind) in KNOWN {
            assert_eq!(credential_kind(value), Some(*kind), "{value}");
        }
    }

    const KNOWN: &[(&str, &str)] = &[
        ("-----BEGIN RSA PRIVATE KEY-----\nMIIE", "private-key"),
        ("-----BEGIN OPENSSH PRIVATE KEY-----", "private-key"),
        ("AKIAIOSFODNN7EXAMPLE", "aws-access-key-id"),
        ("ghp_abcdefghijklmnopqrstuvwxyz0123456789", "github-token"),
        (
            "github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
            "github-token",
        ),
        ("sk-proj-abcdefghijklmnopqrstuvwx1234", "api-key-sk"),
        ("sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "api-key-sk"),
        ("xoxb-123456789012-abcdefghij", "slack-token"),
        ("sk_live_abcdefghijklmnop1234", "stripe-live-key"),
        (
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
            "jwt",
        ),
        (
            "postgres://admin:hunter22@db.internal:5432/app",
            "url-credentials",
        ),
        ("hf_abcdefghijklmnopqrstuvwxyzABCDEFGH", "huggingface-token"),
        (
            "accountkey=abcdefghijklmnopqrstuvwxyz012345",
            "azure-account-key",
        ),
        (
            "SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz",
            "sendgrid-key",
        ),
        (
            "ya29.a0AfH6SMBabcdefghijklmnopqrstuvwxyz",
            "google-oauth-token",
        ),
        (
            "DefaultEndpointsProtocol=https;AccountName=a;AccountKey=abcdefghijklmnopqrstuvwxyz012345==",
            "azure-account-key",
        ),
        (
            "https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXX",
            "webhook-url",
        ),
        (
            "https://0123456789abcdef0123456789abcdef@o1.ingest.sentry.io/1",
            "url-token-userinfo",
        ),
    ];

    #[test]
    fn ordinary_values_are_not_credentials() {
        for value in [
            "/usr/local/bin:/usr/bin",
            "en_US.UTF-8",
            "production",
            "https://example.com/path",
            "xterm-256color",
            "sk-short",
            "task-1234567890",
        ] {
            assert_eq!(credential_kind(value), None, "{value}");
        }
    }

    #[test]
    fn redaction_keeps_the_surrounding_text() {
        assert_eq!(
            redact_values("token=ghp_abcdefghijklmnopqrstuvwxyz0123456789 ok"),
            "token=[REDACTED] ok"
        );
        assert_eq!(
            redact_values("url postgres://u:p4ss@h/db"),
            "url [REDACTED]h/db"
        );
    }
}
