//! Which environment variables a tool may see (Requirement 7).
//!
//! A variable is kept when an exact allow-list name matches it; otherwise it
//! is removed when its value looks like a credential; otherwise kept when an
//! allow glob matches; otherwise removed when a spec or user deny glob
//! matches; otherwise kept when it names a path and its value is one;
//! otherwise removed when a built-in extended or connection-string glob
//! matches; otherwise removed when a word of its name says it holds a
//! secret (`SSL_CERT`, `myApiKey`; not when its value is a path);
//! otherwise kept. All names match case-insensitively.

use std::borrow::Cow;

use serde::Serialize;

use crate::redact::environment::EnvironmentConfig;
use crate::redact::scrub::{Classify, Scrubber, SecretValue};
use crate::redact::{self, CONNECTION_DENY, DEFAULT_ALLOW, DEFAULT_DENY, EXTENDED_DENY};

mod globs;
use globs::{Globs, List, compile, is_glob};

/// Why a variable is kept or removed. Never holds a value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(rename = "EnvRule")]
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
    /// A word of its name says it holds a secret (`AUTH` in
    /// `some_auth_var`): a built-in rule, dropped by `replaceDefaults`.
    SecretWord(String),
    /// Its name says it holds a path, and its value is one: a path to a
    /// credential file is not itself a secret.
    PathValue,
    /// Matched no deny pattern.
    NoDenyMatch,
    /// Set explicitly with `--set`.
    SetByFlag,
    /// A second variable of a name already in the environment: the first
    /// is the one a program reads, and the only one decided.
    Duplicate,
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reason::AllowName(p) => write!(f, "allow list names {p}"),
            Reason::AllowPattern(p) => write!(f, "allow list pattern {p}"),
            Reason::DenyPattern(p) => write!(f, "deny pattern {p}"),
            Reason::SecretValue(kind) => write!(f, "value looks like a credential ({kind})"),
            Reason::SecretWord(word) => write!(f, "name has the word {word}"),
            Reason::PathValue => write!(f, "value is a path (to a file, not a secret)"),
            Reason::NoDenyMatch => write!(f, "matches no deny pattern"),
            Reason::SetByFlag => write!(f, "set by --set"),
            Reason::Duplicate => write!(
                f,
                "a second variable of this name (the first is the one used)"
            ),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Keep(Reason),
    Remove(Reason),
}

impl Decision {
    pub(crate) fn is_removed(&self) -> bool {
        matches!(self, Decision::Remove(_))
    }

    pub fn reason(&self) -> &Reason {
        match self {
            Decision::Keep(r) | Decision::Remove(r) => r,
        }
    }
}

/// The rule that decides a variable, borrowing the policy's texts: what
/// [`Policy::decide`] returns, without building strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rule<'a> {
    AllowName(&'a str),
    AllowPattern(&'a str),
    DenyPattern(&'a str),
    SecretValue(&'static str),
    SecretWord(&'static str),
    PathValue,
    NoDenyMatch,
}

impl Rule<'_> {
    fn removes(self) -> bool {
        matches!(
            self,
            Rule::DenyPattern(_) | Rule::SecretValue(_) | Rule::SecretWord(_)
        )
    }

    fn decision(self) -> Decision {
        let removed = self.removes();
        let reason = match self {
            Rule::AllowName(text) => Reason::AllowName(text.to_string()),
            Rule::AllowPattern(text) => Reason::AllowPattern(text.to_string()),
            Rule::DenyPattern(text) => Reason::DenyPattern(text.to_string()),
            Rule::SecretValue(kind) => Reason::SecretValue(kind.to_string()),
            Rule::SecretWord(word) => Reason::SecretWord(word.to_string()),
            Rule::PathValue => Reason::PathValue,
            Rule::NoDenyMatch => Reason::NoDenyMatch,
        };
        if removed {
            Decision::Remove(reason)
        } else {
            Decision::Keep(reason)
        }
    }
}

/// The compiled policy.
#[derive(Debug, Clone)]
pub struct Policy {
    allow_names: Vec<Cow<'static, str>>,
    /// The allow globs, the deny globs (the spec's and the user's), and the
    /// built-in extended and connection-string globs (none with
    /// `replaceDefaults`), which a path-valued variable is exempt from.
    globs: Globs,
    /// Whether the built-in secret word rule applies (not with
    /// `replaceDefaults`).
    secret_words: bool,
    scan_values: bool,
}

/// Where a policy's warnings go (an invalid pattern, dropped): the
/// program's diagnostics, handed in by the caller, since `diag` scrubs its
/// messages with this module and so is above it.
pub type Warn = fn(&str);

/// The scrubber of a process recording a session: the credential rules,
/// and the value of every variable of its environment that the policy of
/// `config` removes from a tool's environment (the policy is built, and a
/// variable decided, only when a text holds its value; its warnings go to
/// `warn`).
pub fn environment_scrubber(config: &EnvironmentConfig, warn: Warn) -> Scrubber {
    let variables = std::env::vars_os().filter_map(|(name, value)| {
        Some(SecretValue {
            name: name.into_string().ok()?,
            value: value.into_string().ok()?,
        })
    });
    let config = config.clone();
    let policy = std::sync::OnceLock::new();
    let classify: Classify = std::sync::Arc::new(move |name, value| {
        policy
            .get_or_init(|| Policy::from_config(&config, &ExtraRules::default(), warn))
            .removes(name, value)
    });
    Scrubber::default().with_variables(variables, classify)
}

/// The redaction of what a session store writes, made the first time
/// something is written (a read never pays for it).
#[derive(Debug, Default)]
pub struct Redaction {
    /// Whose secret variables' values are redacted too (none: only the
    /// credential rules), and where the policy's warnings go.
    environment: Option<(EnvironmentConfig, Warn)>,
    /// Made for large amounts of text ([`Scrubber::for_bulk`]).
    bulk: bool,
    scrubber: std::sync::OnceLock<Scrubber>,
}

impl Redaction {
    /// The credential rules and this process's secret variables, as the
    /// environment policy of `config` classes them.
    pub(crate) fn for_environment(config: &EnvironmentConfig, warn: Warn) -> Redaction {
        Redaction {
            environment: Some((config.clone(), warn)),
            bulk: false,
            scrubber: std::sync::OnceLock::new(),
        }
    }

    /// The same rules, searched with one automaton over every rule's
    /// trigger ([`Scrubber::for_bulk`]): slower to make, faster per byte,
    /// for a command that writes megabytes (an import).
    pub fn for_bulk(mut self) -> Redaction {
        self.bulk = true;
        self
    }

    pub fn scrubber(&self) -> &Scrubber {
        self.scrubber.get_or_init(|| {
            let scrubber = match &self.environment {
                Some((config, warn)) => environment_scrubber(config, *warn),
                None => Scrubber::default(),
            };
            if self.bulk {
                scrubber.for_bulk()
            } else {
                scrubber
            }
        })
    }
}

/// Extra rules given on the command line.
#[derive(Debug, Clone, Default)]
pub(crate) struct ExtraRules {
    pub allow: Vec<String>,
    pub deny: Vec<String>,
}

impl Policy {
    /// The spec's defaults, with value scanning on.
    pub fn defaults() -> Policy {
        // The built-in lists are valid: nothing to warn about.
        Policy::from_config(
            &EnvironmentConfig::default(),
            &ExtraRules::default(),
            |_| {},
        )
    }

    /// Builds the policy from configuration and flags. User lists extend the
    /// built-in lists unless `replaceDefaults` is set, which drops every one
    /// of them (the spec's allow and deny lists, the extended and the
    /// connection-string deny lists). An invalid pattern is
    /// dropped with a warning; if that leaves a deny list without the spec's
    /// defaults, the defaults are used (Requirement 10.5).
    pub(crate) fn from_config(
        config: &EnvironmentConfig,
        extra: &ExtraRules,
        warn: Warn,
    ) -> Policy {
        let builtin = |list: &'static [&'static str]| list.iter().map(|t| Cow::Borrowed(*t));
        let mut allow: Vec<Cow<'static, str>> = Vec::new();
        let mut deny: Vec<Cow<'static, str>> = Vec::new();
        let mut builtin_deny: Vec<Cow<'static, str>> = Vec::new();
        if !config.replace_defaults {
            allow.extend(builtin(DEFAULT_ALLOW));
            deny.extend(builtin(DEFAULT_DENY));
            builtin_deny.extend(builtin(EXTENDED_DENY));
            builtin_deny.extend(builtin(CONNECTION_DENY));
        }
        let user = |list: &[String]| {
            list.iter()
                .map(|t| Cow::Owned(t.clone()))
                .collect::<Vec<_>>()
        };
        allow.extend(user(&config.allow_list));
        allow.extend(user(&extra.allow));
        deny.extend(user(&config.deny_patterns));
        deny.extend(user(&extra.deny));
        dedup(&mut allow);
        dedup(&mut deny);

        let (allow, bad_allow) = split_valid(allow);
        for (text, why) in bad_allow {
            warn(&format!("ignoring invalid allow pattern {text:?}: {why}"));
        }
        let (mut deny, bad_deny) = split_valid(deny);
        if !bad_deny.is_empty() {
            for (text, why) in &bad_deny {
                warn(&format!(
                    "invalid deny pattern {text:?} ({why}); using the default deny patterns too"
                ));
            }
            deny.extend(builtin(DEFAULT_DENY));
            dedup(&mut deny);
        }

        let (names, globs): (Vec<_>, Vec<_>) = allow.into_iter().partition(|text| !is_glob(text));
        Policy {
            allow_names: names,
            globs: Globs::build(globs, deny, builtin_deny),
            secret_words: !config.replace_defaults,
            scan_values: config.scan_values,
        }
    }

    /// Decides one variable. `value` is only inspected, never stored.
    pub fn decide(&self, name: &str, value: &str) -> Decision {
        self.rule(name, value).decision()
    }

    /// Whether [`Policy::decide`] removes the variable.
    pub(crate) fn removes(&self, name: &str, value: &str) -> bool {
        self.rule(name, value).removes()
    }

    fn rule(&self, name: &str, value: &str) -> Rule<'_> {
        if let Some(exact) = self.allowed_name(name) {
            return Rule::AllowName(exact);
        }
        if let Some(kind) = self
            .scan_values
            .then(|| redact::credential_kind(value).or_else(|| redact::whole_value_kind(value)))
            .flatten()
        {
            return Rule::SecretValue(kind);
        }
        let first = self.globs.first_matches(name);
        if let Some(glob) = first.get(List::Allow) {
            return Rule::AllowPattern(self.globs.text(glob));
        }
        if let Some(glob) = first.get(List::Deny) {
            return Rule::DenyPattern(self.globs.text(glob));
        }
        if let Some(glob) = first.get(List::Builtin) {
            if redact::is_path_value(name, value) {
                return Rule::PathValue;
            }
            return Rule::DenyPattern(self.globs.text(glob));
        }
        if let Some(word) = self.secret_word(name) {
            if redact::looks_like_path(value) {
                return Rule::PathValue;
            }
            return Rule::SecretWord(word);
        }
        Rule::NoDenyMatch
    }

    /// The secret word of `name`, when the built-in word rule applies.
    fn secret_word(&self, name: &str) -> Option<&'static str> {
        self.secret_words
            .then(|| redact::secret_word(name))
            .flatten()
    }

    fn allowed_name(&self, name: &str) -> Option<&str> {
        self.allow_names
            .iter()
            .find(|allowed| allowed.eq_ignore_ascii_case(name))
            .map(AsRef::as_ref)
    }

    /// Whether the name alone is allowed (exact name or allow glob).
    pub fn is_allowed(&self, name: &str) -> bool {
        self.allowed_name(name).is_some()
            || self.globs.first_matches(name).get(List::Allow).is_some()
    }

    /// Whether the name alone matches a deny pattern or the secret word
    /// rule (a built-in extended pattern and the word rule spare a
    /// path-valued variable: see [`Reason::PathValue`]).
    pub fn is_denied(&self, name: &str) -> bool {
        let first = self.globs.first_matches(name);
        first.get(List::Deny).is_some()
            || first.get(List::Builtin).is_some()
            || self.secret_word(name).is_some()
    }
}

/// Keeps the first of the texts that are equal ignoring ASCII case.
fn dedup(list: &mut Vec<Cow<'static, str>>) {
    let mut kept: Vec<Cow<'static, str>> = Vec::with_capacity(list.len());
    for item in list.drain(..) {
        if !kept.iter().any(|k| k.eq_ignore_ascii_case(&item)) {
            kept.push(item);
        }
    }
    *list = kept;
}

/// Splits off the invalid globs, with why. The built-in ones (borrowed)
/// are valid, as a unit test checks, and are not compiled again.
fn split_valid(texts: Vec<Cow<'static, str>>) -> (Vec<Cow<'static, str>>, Vec<(String, String)>) {
    let mut good = Vec::new();
    let mut bad = Vec::new();
    for text in texts {
        match &text {
            Cow::Owned(owned) => match compile(owned) {
                Ok(_) => good.push(text),
                Err(why) => bad.push((text.into_owned(), why)),
            },
            Cow::Borrowed(_) => good.push(text),
        }
    }
    (good, bad)
}

#[cfg(test)]
mod tests;
