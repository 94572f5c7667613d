//! Which environment variables a tool may see (Requirement 7).
//!
//! A variable is kept when an exact allow-list name matches it; otherwise it
//! is removed when its value looks like a credential; otherwise kept when an
//! allow glob matches; otherwise removed when a spec or user deny glob
//! matches; otherwise kept when it names a path and its value is one;
//! otherwise removed when a built-in extended or connection-string glob
//! matches; otherwise kept. All names match case-insensitively.

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::Serialize;

use crate::config::EnvironmentConfig;
use crate::diag;
use crate::redact::{self, CONNECTION_DENY, DEFAULT_ALLOW, DEFAULT_DENY, EXTENDED_DENY};

/// Why a variable is kept or removed. Never holds a value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "rule", content = "pattern", rename_all = "kebab-case")]
pub enum Reason {
    /// Named exactly by the allow list.
    AllowName(String),
    /// Matched by an allow-list glob such as `LC_*`.
    AllowPattern(String),
    /// Matched by a deny pattern.
    DenyPattern(String),
    /// Its value has the shape of a credential of this kind.
    SecretValue(String),
    /// Its name says it holds a path, and its value is one: a path to a
    /// credential file is not itself a secret.
    PathValue,
    /// Matched no deny pattern.
    NoDenyMatch,
    /// Set explicitly with `--set`.
    SetByFlag,
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reason::AllowName(p) => write!(f, "allow list names {p}"),
            Reason::AllowPattern(p) => write!(f, "allow list pattern {p}"),
            Reason::DenyPattern(p) => write!(f, "deny pattern {p}"),
            Reason::SecretValue(kind) => write!(f, "value looks like a credential ({kind})"),
            Reason::PathValue => write!(f, "value is a path (to a file, not a secret)"),
            Reason::NoDenyMatch => write!(f, "matches no deny pattern"),
            Reason::SetByFlag => write!(f, "set by --set"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Keep(Reason),
    Remove(Reason),
}

impl Decision {
    pub fn is_removed(&self) -> bool {
        matches!(self, Decision::Remove(_))
    }

    pub fn reason(&self) -> &Reason {
        match self {
            Decision::Keep(r) | Decision::Remove(r) => r,
        }
    }
}

/// A compiled set of case-insensitive globs that remembers their source text.
/// Simple globs (letters, digits, `_`, `*`, `[...]` classes: all the
/// built-in ones) are matched directly, without compiling anything; the
/// others go through a `GlobSet`.
#[derive(Debug, Clone)]
struct Patterns {
    texts: Vec<String>,
    /// Indices (into `texts`) of the globs in `set`, in order.
    complex: Vec<usize>,
    set: GlobSet,
}

impl Patterns {
    fn build(texts: &[String]) -> Result<Patterns, String> {
        let mut builder = GlobSetBuilder::new();
        let mut complex = Vec::new();
        for (index, text) in texts.iter().enumerate() {
            let glob = compile(text)?;
            if !is_simple(text) {
                builder.add(glob);
                complex.push(index);
            }
        }
        let set = if complex.is_empty() {
            GlobSet::empty()
        } else {
            builder.build().map_err(|e| e.to_string())?
        };
        Ok(Patterns {
            texts: texts.to_vec(),
            complex,
            set,
        })
    }

    fn first_match(&self, name: &str) -> Option<&str> {
        let hits: Vec<usize> = if self.complex.is_empty() {
            Vec::new()
        } else {
            self.set
                .matches(name)
                .into_iter()
                .map(|i| self.complex[i])
                .collect()
        };
        self.texts
            .iter()
            .enumerate()
            .find(|(index, text)| {
                if self.complex.contains(index) {
                    hits.contains(index)
                } else {
                    simple_match(text.as_bytes(), name.as_bytes())
                }
            })
            .map(|(_, text)| text.as_str())
    }
}

/// Whether a glob uses only what [`simple_match`] knows.
fn is_simple(text: &str) -> bool {
    let mut in_class = false;
    for b in text.bytes() {
        match b {
            b'[' if !in_class => in_class = true,
            b']' if in_class => in_class = false,
            b'*' if !in_class => {}
            b if b.is_ascii_alphanumeric() || b == b'_' => {}
            _ => return false,
        }
    }
    !in_class
}

/// Case-insensitive match of a simple glob (`*`, `[abc]`, literals), in
/// O(glob × name) steps whatever the stars: after a mismatch only the last
/// `*` is retried, one byte further.
fn simple_match(glob: &[u8], name: &[u8]) -> bool {
    // One glob item at `g`: its length in the glob, and whether it takes `c`.
    let item = |g: usize, c: u8| -> (usize, bool) {
        if glob[g] == b'[' {
            let close = glob[g..]
                .iter()
                .position(|&b| b == b']')
                .map_or(glob.len(), |p| g + p);
            let takes = glob[g + 1..close]
                .iter()
                .any(|x| x.eq_ignore_ascii_case(&c));
            (close + 1 - g, takes)
        } else {
            (1, glob[g].eq_ignore_ascii_case(&c))
        }
    };
    let (mut g, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        if g < glob.len() && glob[g] == b'*' {
            star = Some((g, n));
            g += 1;
            continue;
        }
        if g < glob.len() {
            let (len, takes) = item(g, name[n]);
            if takes {
                g += len;
                n += 1;
                continue;
            }
        }
        match star {
            Some((star_g, star_n)) => {
                g = star_g + 1;
                n = star_n + 1;
                star = Some((star_g, star_n + 1));
            }
            None => return false,
        }
    }
    glob[g..].iter().all(|&b| b == b'*')
}

fn compile(text: &str) -> Result<Glob, String> {
    redact::compile_glob(text)
}

fn is_glob(text: &str) -> bool {
    text.contains(['*', '?', '[', '{'])
}

/// The compiled policy.
#[derive(Debug, Clone)]
pub struct Policy {
    allow_names: Vec<String>,
    allow_patterns: Patterns,
    deny: Patterns,
    /// The built-in extended and connection-string globs (empty with
    /// `replaceDefaults`), which a path-valued variable is exempt from.
    builtin_deny: Patterns,
    scan_values: bool,
}

/// Extra rules given on the command line.
#[derive(Debug, Clone, Default)]
pub struct ExtraRules {
    pub allow: Vec<String>,
    pub deny: Vec<String>,
}

impl Policy {
    /// The spec's defaults, with value scanning on.
    pub fn defaults() -> Policy {
        Policy::from_config(&EnvironmentConfig::default(), &ExtraRules::default())
    }

    /// Builds the policy from configuration and flags. User lists extend the
    /// built-in lists unless `replaceDefaults` is set, which drops every one
    /// of them (the spec's allow and deny lists, the extended and the
    /// connection-string deny lists). An invalid pattern is
    /// dropped with a warning; if that leaves a deny list without the spec's
    /// defaults, the defaults are used (Requirement 10.5).
    pub fn from_config(config: &EnvironmentConfig, extra: &ExtraRules) -> Policy {
        let mut allow: Vec<String> = Vec::new();
        let mut deny: Vec<String> = Vec::new();
        let mut builtin: Vec<String> = Vec::new();
        if !config.replace_defaults {
            allow.extend(DEFAULT_ALLOW.iter().map(std::string::ToString::to_string));
            deny.extend(DEFAULT_DENY.iter().map(std::string::ToString::to_string));
            builtin.extend(EXTENDED_DENY.iter().map(std::string::ToString::to_string));
            builtin.extend(CONNECTION_DENY.iter().map(std::string::ToString::to_string));
        }
        allow.extend(config.allow_list.iter().cloned());
        allow.extend(extra.allow.iter().cloned());
        deny.extend(config.deny_patterns.iter().cloned());
        deny.extend(extra.deny.iter().cloned());
        dedup(&mut allow);
        dedup(&mut deny);

        let (allow, bad_allow) = split_valid(allow);
        for (text, why) in bad_allow {
            diag::warn(format!("ignoring invalid allow pattern {text:?}: {why}"));
        }
        let (mut deny, bad_deny) = split_valid(deny);
        if !bad_deny.is_empty() {
            for (text, why) in &bad_deny {
                diag::warn(format!(
                    "invalid deny pattern {text:?} ({why}); using the default deny patterns too"
                ));
            }
            deny.extend(DEFAULT_DENY.iter().map(std::string::ToString::to_string));
            dedup(&mut deny);
        }

        let (names, globs): (Vec<String>, Vec<String>) =
            allow.into_iter().partition(|text| !is_glob(text));
        Policy {
            allow_names: names,
            allow_patterns: Patterns::build(&globs).unwrap_or_else(|_| empty_patterns()),
            deny: Patterns::build(&deny).unwrap_or_else(|_| default_deny_patterns()),
            builtin_deny: Patterns::build(&builtin).unwrap_or_else(|_| default_deny_patterns()),
            scan_values: config.scan_values,
        }
    }

    /// Decides one variable. `value` is only inspected, never stored.
    pub fn decide(&self, name: &str, value: &str) -> Decision {
        if let Some(exact) = self
            .allow_names
            .iter()
            .find(|allowed| allowed.eq_ignore_ascii_case(name))
        {
            return Decision::Keep(Reason::AllowName(exact.clone()));
        }
        if let Some(kind) = self
            .scan_values
            .then(|| redact::credential_kind(value))
            .flatten()
        {
            return Decision::Remove(Reason::SecretValue(kind.to_string()));
        }
        if let Some(pattern) = self.allow_patterns.first_match(name) {
            return Decision::Keep(Reason::AllowPattern(pattern.to_string()));
        }
        if let Some(pattern) = self.deny.first_match(name) {
            return Decision::Remove(Reason::DenyPattern(pattern.to_string()));
        }
        if let Some(pattern) = self.builtin_deny.first_match(name) {
            if redact::is_path_value(name, value) {
                return Decision::Keep(Reason::PathValue);
            }
            return Decision::Remove(Reason::DenyPattern(pattern.to_string()));
        }
        Decision::Keep(Reason::NoDenyMatch)
    }

    /// Whether the name alone is allowed (exact name or allow glob).
    pub fn is_allowed(&self, name: &str) -> bool {
        self.allow_names
            .iter()
            .any(|a| a.eq_ignore_ascii_case(name))
            || self.allow_patterns.first_match(name).is_some()
    }

    /// Whether the name alone matches a deny pattern (a built-in extended
    /// one spares a path-valued variable: see [`Reason::PathValue`]).
    pub fn is_denied(&self, name: &str) -> bool {
        self.deny.first_match(name).is_some() || self.builtin_deny.first_match(name).is_some()
    }

    /// The sanitized copy of `env`: only the kept variables, in input order.
    pub fn sanitize<'a, I>(&self, env: I) -> Vec<(String, String)>
    where
        I: IntoIterator<Item = (&'a str, &'a str)>,
    {
        env.into_iter()
            .filter(|(name, value)| !self.decide(name, value).is_removed())
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect()
    }
}

fn dedup(list: &mut Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    list.retain(|item| seen.insert(item.to_ascii_uppercase()));
}

fn split_valid(texts: Vec<String>) -> (Vec<String>, Vec<(String, String)>) {
    let mut good = Vec::new();
    let mut bad = Vec::new();
    for text in texts {
        match compile(&text) {
            Ok(_) => good.push(text),
            Err(why) => bad.push((text, why)),
        }
    }
    (good, bad)
}

fn empty_patterns() -> Patterns {
    Patterns {
        texts: Vec::new(),
        complex: Vec::new(),
        set: GlobSet::empty(),
    }
}

fn default_deny_patterns() -> Patterns {
    let texts: Vec<String> = DEFAULT_DENY
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    Patterns::build(&texts).unwrap_or_else(|_| empty_patterns())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(kept: &[(String, String)]) -> Vec<&str> {
        kept.iter().map(|(n, _)| n.as_str()).collect()
    }

    #[test]
    fn spec_default_case_keeps_exactly_the_first_eight() {
        let env = [
            ("PATH", "/usr/bin"),
            ("HOME", "/home/u"),
            ("USER", "u"),
            ("SHELL", "/bin/bash"),
            ("TERM", "xterm"),
            ("LANG", "en_US.UTF-8"),
            ("NODE_ENV", "production"),
            ("DEBUG", "1"),
            ("API_KEY", "abc123"),
            ("DATABASE_SECRET", "s3cr3t"),
            ("AUTH_TOKEN", "tok"),
            ("AWS_ACCESS_KEY_ID", "AKIAIOSFODNN7EXAMPLE"),
            ("GITHUB_TOKEN", "ghp_x"),
        ];
        let kept = Policy::defaults().sanitize(env);
        assert_eq!(
            names(&kept),
            [
                "PATH", "HOME", "USER", "SHELL", "TERM", "LANG", "NODE_ENV", "DEBUG"
            ]
        );
    }

    #[test]
    fn spec_innocent_variables_are_kept() {
        let env = [
            ("NODE_ENV", "development"),
            ("DEBUG", "app:*"),
            ("PORT", "3000"),
            ("HOSTNAME", "box"),
            ("TZ", "UTC"),
            ("EDITOR", "vim"),
            ("PAGER", "less"),
        ];
        assert_eq!(Policy::defaults().sanitize(env).len(), 7);
    }

    #[test]
    fn common_credential_names_beyond_the_spec_are_removed() {
        let policy = Policy::defaults();
        for name in [
            "PGPASSWORD",
            "MYSQL_PWD",
            "GOOGLE_APPLICATION_CREDENTIALS",
            "DATABASE_URL",
            "SECRET",
            "TOKEN",
            "SLACK_WEBHOOK_URL",
            "SENTRY_DSN",
            "AZURE_STORAGE_CONNECTION_STRING",
            "NPM_CONFIG__AUTH",
            "HF_TOKEN_PATH",
        ] {
            assert!(policy.decide(name, "plain").is_removed(), "{name}");
        }
        for name in [
            "TOKENIZERS_PARALLELISM",
            "PWD",
            "OLDPWD",
            "KEYMAP",
            "SSH_AUTH_SOCK",
        ] {
            assert!(!policy.decide(name, "plain").is_removed(), "{name}");
        }
    }

    #[test]
    fn simple_globs_match_as_globset_does() {
        let names: Vec<&str> = include_str!("../../tests/data/secret-names.txt")
            .lines()
            .chain(include_str!("../../tests/data/ordinary-names.txt").lines())
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|l| l.split('=').next().unwrap_or(l))
            .chain(["", "x", "LC_", "lc_all", "DB_URLX", "A_KEY_", "_KEY"])
            .collect();
        for text in DEFAULT_DENY
            .iter()
            .chain(EXTENDED_DENY)
            .chain(CONNECTION_DENY)
            .chain(DEFAULT_ALLOW)
        {
            assert!(is_simple(text), "{text}");
            let glob = compile(text).unwrap().compile_matcher();
            for name in &names {
                assert_eq!(
                    simple_match(text.as_bytes(), name.as_bytes()),
                    glob.is_match(name),
                    "{text} vs {name}"
                );
            }
        }
        assert!(!is_simple("{A,B}_X") && !is_simple("A?") && !is_simple("[unclosed"));
        let many_stars = format!("{}x", "*".repeat(60));
        assert!(!simple_match(
            many_stars.as_bytes(),
            "a".repeat(200).as_bytes()
        ));
    }

    #[test]
    fn names_match_case_insensitively() {
        let policy = Policy::defaults();
        assert!(policy.decide("my_api_key", "x").is_removed());
        assert!(policy.decide("Github_Foo", "x").is_removed());
        assert!(!policy.decide("lc_all", "C").is_removed());
    }

    #[test]
    fn secret_values_are_removed_under_innocent_names() {
        let policy = Policy::defaults();
        let decision = policy.decide("CONFIG", "ghp_abcdefghijklmnopqrstuvwxyz0123456789");
        assert_eq!(
            decision,
            Decision::Remove(Reason::SecretValue("github-token".into()))
        );
        assert!(
            policy
                .decide("LC_X", "sk-abcdefghijklmnopqrstuvwxyz")
                .is_removed()
        );
    }

    #[test]
    fn an_exact_user_allow_keeps_a_secret_looking_value() {
        let extra = ExtraRules {
            allow: vec!["DATABASE_URL".into(), "MY_TOKEN".into()],
            deny: vec![],
        };
        let policy = Policy::from_config(&EnvironmentConfig::default(), &extra);
        assert!(
            !policy
                .decide("DATABASE_URL", "postgres://u:p@h/db")
                .is_removed()
        );
        assert!(!policy.decide("MY_TOKEN", "x").is_removed());
    }

    #[test]
    fn replace_defaults_drops_every_builtin_list() {
        let config = EnvironmentConfig {
            replace_defaults: true,
            ..EnvironmentConfig::default()
        };
        let extra = ExtraRules {
            allow: vec![],
            deny: vec!["BLOCKED_*".into()],
        };
        let policy = Policy::from_config(&config, &extra);
        for name in ["MY_API_TOKEN", "DB_PASSWORD", "DATABASE_URL", "AWS_REGION"] {
            assert!(!policy.decide(name, "plain").is_removed(), "{name}");
        }
        assert!(policy.decide("BLOCKED_X", "plain").is_removed());
    }

    #[test]
    fn a_path_to_a_credential_file_is_kept_and_a_password_is_not() {
        let policy = Policy::defaults();
        let kept = policy.decide("PASSWORD_STORE_DIR", "/home/u/.password-store");
        assert_eq!(kept, Decision::Keep(Reason::PathValue));
        assert!(policy.decide("PASSWORD_STORE_DIR", "hunter22").is_removed());
        assert!(policy.decide("GITHUB_TOKEN_PATH", "/x").is_removed());
    }

    #[test]
    fn replace_defaults_uses_the_user_lists_alone() {
        let config = EnvironmentConfig {
            allow_list: vec!["PATH".into()],
            deny_patterns: vec!["SECRET_*".into()],
            replace_defaults: true,
            scan_values: true,
        };
        let policy = Policy::from_config(&config, &ExtraRules::default());
        assert!(!policy.decide("API_KEY", "plain").is_removed());
        assert!(policy.decide("SECRET_THING", "plain").is_removed());
        assert!(!policy.is_allowed("HOME"));
    }

    #[test]
    fn an_invalid_deny_pattern_falls_back_to_the_defaults() {
        let config = EnvironmentConfig {
            allow_list: vec![],
            deny_patterns: vec!["[unclosed".into()],
            replace_defaults: true,
            scan_values: true,
        };
        let policy = Policy::from_config(&config, &ExtraRules::default());
        assert!(policy.decide("API_KEY", "plain").is_removed());
        assert!(policy.decide("AWS_REGION", "us-east-1").is_removed());
    }
}
