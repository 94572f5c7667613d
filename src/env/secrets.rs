//! Values that look like credentials, whatever the variable is called.
//! Name rules alone leak (`DATABASE_URL=postgres://u:pw@host`,
//! `OPENAI=sk-…`), so values are checked too.

use std::sync::OnceLock;

use regex::Regex;

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

fn compiled() -> &'static [(&'static str, Regex)] {
    static COMPILED: OnceLock<Vec<(&'static str, Regex)>> = OnceLock::new();
    COMPILED.get_or_init(|| {
        VALUE_PATTERNS
            .iter()
            .filter_map(|p| Regex::new(p.regex).ok().map(|r| (p.name, r)))
            .collect()
    })
}

fn combined() -> &'static Regex {
    static COMBINED: OnceLock<Regex> = OnceLock::new();
    COMBINED.get_or_init(|| {
        let alternation: Vec<String> = VALUE_PATTERNS
            .iter()
            .map(|p| format!("(?:{})", p.regex))
            .collect();
        // The patterns are constants checked by a unit test; a failure here
        // would be a bug, and an empty-matching fallback keeps us safe.
        Regex::new(&alternation.join("|")).unwrap_or_else(|_| never_matching())
    })
}

fn never_matching() -> Regex {
    Regex::new(r"[^\s\S]").unwrap_or_else(|_| unreachable!("constant regex"))
}

/// The name of the first credential shape `value` contains, if any.
pub fn credential_kind(value: &str) -> Option<&'static str> {
    // A literal scan rules out almost every value without compiling any
    // regex; the combined pattern confirms, the per-kind ones name the kind.
    if !has_trigger(value) || !combined().is_match(value) {
        return None;
    }
    compiled()
        .iter()
        .find(|(_, regex)| regex.is_match(value))
        .map(|(name, _)| *name)
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

/// The regex alternation of every value pattern, for the output redactor.
pub fn combined_pattern() -> String {
    VALUE_PATTERNS
        .iter()
        .map(|p| format!("(?:{})", p.regex))
        .collect::<Vec<_>>()
        .join("|")
}

/// Replaces every credential-shaped substring of `text` with `[REDACTED]`.
pub fn redact_values(text: &str) -> String {
    combined().replace_all(text, "[REDACTED]").into_owned()
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
    fn every_pattern_compiles() {
        assert_eq!(compiled().len(), VALUE_PATTERNS.len());
        assert!(Regex::new(&combined_pattern()).is_ok());
    }

    #[test]
    fn known_credential_shapes_are_recognised() {
        let cases = [
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
        for (value, kind) in cases {
            assert_eq!(credential_kind(value), Some(kind), "{value}");
        }
    }

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
