use proptest::prelude::*;

use super::globs::{is_simple, simple_match};
use super::*;

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
    for name in ["TOKENIZERS_PARALLELISM", "PWD", "OLDPWD", "KEYMAP"] {
        assert!(!policy.decide(name, "plain").is_removed(), "{name}");
    }
    // SSH_AUTH_SOCK has the word AUTH: kept for its path, not its name.
    assert_eq!(
        policy.decide("SSH_AUTH_SOCK", "/run/user/1000/ssh-agent.sock"),
        Decision::Keep(Reason::PathValue)
    );
    assert_eq!(
        policy.decide("SSH_AUTH_SOCK", "plain"),
        Decision::Remove(Reason::SecretWord("AUTH".into()))
    );
}

#[test]
fn secret_words_remove_a_name_and_substrings_do_not() {
    let policy = Policy::defaults();
    for (name, word) in [
        ("some_auth_var", "AUTH"),
        ("PRIVATE_STUFF", "PRIVATE"),
        ("SSL_CERT", "CERT"),
        ("KEY", "KEY"),
        ("myKey", "KEY"),
        ("myAuthValue", "AUTH"),
        ("deploy.keys", "KEYS"),
        ("MY_CREDS", "CREDS"),
        ("TOKENS_FILE_CONTENT", "TOKENS"),
        ("CLIENT_CERT", "CERT"),
        ("signing.private.pem", "PRIVATE"),
    ] {
        assert_eq!(
            policy.decide(name, "plain"),
            Decision::Remove(Reason::SecretWord(word.into())),
            "{name}"
        );
    }
    // Names a built-in glob removes first keep that glob as the reason.
    for name in ["myApiKey", "OPENAI-APIKEY-2", "serviceSecrets"] {
        assert!(policy.decide(name, "plain").is_removed(), "{name}");
    }
    for name in [
        "KEYNOTE_SPEAKER",
        "CERTIFIED_DIVER",
        "AUTHENTICATION_FLOW",
        "KEYBOARD_LAYOUT",
        "XAUTHORITY",
        "PWD",
        "OLDPWD",
        "PRIVATE_JET_OWNER",
        "AUTH_TYPE",
        "AUTH_MODE",
        "AUTH_METHOD",
        "AUTH_PROVIDER",
        "MAX_TOKENS",
        "keyName",
    ] {
        assert_eq!(
            policy.decide(name, "plain"),
            Decision::Keep(Reason::NoDenyMatch),
            "{name}"
        );
    }
}

#[test]
fn the_secret_word_rule_spares_a_path_whatever_the_suffix() {
    let policy = Policy::defaults();
    for (name, value) in [
        ("SSH_AUTH_SOCK", "/run/user/1000/ssh-agent.sock"),
        ("SSL_CERT", "/etc/ssl/certs/ca-certificates.crt"),
        ("MY_PRIVATE", "~/keys/id"),
        ("NODE_EXTRA_CA_CERTS", "/etc/ssl/extra.pem"),
    ] {
        assert!(!policy.decide(name, value).is_removed(), "{name}");
    }
    // A path with credential syntax is not spared.
    assert!(policy.decide("SSL_CERT", "/x?token=abc").is_removed());
    assert!(policy.decide("SSL_CERT", "/x\ny").is_removed());
}

#[test]
fn replace_defaults_drops_the_secret_word_rule() {
    let config = EnvironmentConfig {
        replace_defaults: true,
        ..EnvironmentConfig::default()
    };
    let policy = Policy::from_config(&config, &ExtraRules::default(), |_| {});
    assert!(!policy.decide("some_auth_var", "plain").is_removed());
    assert!(!policy.is_denied("some_auth_var"));
    assert!(Policy::defaults().is_denied("some_auth_var"));
    assert!(!Policy::defaults().is_denied("KEYNOTE_SPEAKER"));
}

#[test]
fn an_aws_secret_key_is_a_secret_as_a_whole_value_but_a_git_sha_is_not() {
    let policy = Policy::defaults();
    assert_eq!(
        policy.decide("INNOCENT", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        Decision::Remove(Reason::SecretValue("aws-secret-access-key".into()))
    );
    for sha in [
        "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
        "4B825DC642CB6EB9A060E54BF8D69288FBEE4904",
    ] {
        assert!(!policy.decide("CI_COMMIT_SHA", sha).is_removed());
    }
}

#[test]
fn a_certificate_is_kept_and_a_private_key_is_not() {
    let policy = Policy::defaults();
    let certificate =
        "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ7\n-----END CERTIFICATE-----";
    assert_eq!(
        policy.decide("CA_BUNDLE", certificate),
        Decision::Keep(Reason::NoDenyMatch)
    );
    let key = "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIB\n-----END EC PRIVATE KEY-----";
    assert_eq!(
        policy.decide("CA_BUNDLE", key),
        Decision::Remove(Reason::SecretValue("private-key".into()))
    );
}

#[test]
fn the_secret_word_reason_names_the_word() {
    let reason = Reason::SecretWord("AUTH".into());
    assert_eq!(reason.to_string(), "name has the word AUTH");
    assert_eq!(
        serde_json::to_value(&reason).unwrap(),
        serde_json::json!({"rule": "secret-word", "pattern": "AUTH"})
    );
}

#[test]
fn simple_globs_match_as_globset_does() {
    let names: Vec<&str> = include_str!("../../../tests/data/secret-names.txt")
        .lines()
        .chain(include_str!("../../../tests/data/ordinary-names.txt").lines())
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

/// The straightforward policy the indexed one must decide exactly as:
/// each list's globs tried one by one in order with globset, every
/// credential shape's regex run on every value.
fn reference_decide(
    policy: &Policy,
    matchers: &[globset::GlobMatcher],
    name: &str,
    value: &str,
) -> Decision {
    use regex::bytes::RegexBuilder;
    let first_in = |list: List| {
        (0..policy.globs.texts.len())
            .filter(|&glob| policy.globs.list_of[glob] == list)
            .find(|&glob| matchers[glob].is_match(name))
            .map(|glob| policy.globs.text(glob))
    };
    if let Some(exact) = policy
        .allow_names
        .iter()
        .find(|a| a.eq_ignore_ascii_case(name))
    {
        return Decision::Keep(Reason::AllowName(exact.to_string()));
    }
    if policy.scan_values {
        static SHAPES: std::sync::OnceLock<Vec<regex::bytes::Regex>> = std::sync::OnceLock::new();
        let shapes = SHAPES.get_or_init(|| {
            redact::patterns::VALUE_PATTERNS
                .iter()
                .map(|shape| {
                    RegexBuilder::new(shape.regex)
                        .unicode(false)
                        .build()
                        .unwrap()
                })
                .collect()
        });
        let found = shapes
            .iter()
            .zip(redact::patterns::VALUE_PATTERNS)
            .filter_map(|(regex, shape)| {
                regex
                    .find_iter(value.as_bytes())
                    .find(|m| !redact::patterns::is_filler(m.as_bytes()))
                    .map(|m| (m.start(), shape.name))
            })
            .min_by_key(|(start, _)| *start)
            .map(|(_, kind)| kind)
            .or_else(|| redact::whole_value_kind(value));
        if let Some(kind) = found {
            return Decision::Remove(Reason::SecretValue(kind.to_string()));
        }
    }
    if let Some(text) = first_in(List::Allow) {
        return Decision::Keep(Reason::AllowPattern(text.to_string()));
    }
    if let Some(text) = first_in(List::Deny) {
        return Decision::Remove(Reason::DenyPattern(text.to_string()));
    }
    if let Some(text) = first_in(List::Builtin) {
        if redact::is_path_value(name, value) {
            return Decision::Keep(Reason::PathValue);
        }
        return Decision::Remove(Reason::DenyPattern(text.to_string()));
    }
    if !policy.secret_words {
        return Decision::Keep(Reason::NoDenyMatch);
    }
    if let Some(word) = redact::secret_word(name) {
        if redact::looks_like_path(value) {
            return Decision::Keep(Reason::PathValue);
        }
        return Decision::Remove(Reason::SecretWord(word.to_string()));
    }
    Decision::Keep(Reason::NoDenyMatch)
}

/// Pieces of the built-in globs and of path-name suffixes, in any case,
/// between other name characters.
fn tricky_name() -> impl Strategy<Value = String> {
    let pieces: Vec<String> = DEFAULT_DENY
        .iter()
        .chain(EXTENDED_DENY)
        .chain(CONNECTION_DENY)
        .chain(DEFAULT_ALLOW)
        .flat_map(|glob| glob.split(['*', '[', ']']))
        .filter(|piece| !piece.is_empty())
        .map(str::to_string)
        .chain(["_DIR", "_PATH", "KUBECONFIG", "URL", "URI", "MYAPP_"].map(String::from))
        .collect();
    let piece = prop_oneof![
        (proptest::sample::select(pieces), any::<bool>()).prop_map(|(p, lower)| if lower {
            p.to_ascii_lowercase()
        } else {
            p
        }),
        "[A-Za-z0-9_]{0,3}",
        "[a-zé.-]{0,2}",
    ];
    proptest::collection::vec(piece, 0..5).prop_map(|pieces| pieces.concat())
}

/// Credential examples, trigger literals, paths and other text, cut and
/// joined.
fn tricky_value() -> impl Strategy<Value = String> {
    let examples: Vec<String> = include_str!("../../../tests/data/credential-values.txt")
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t').map(|(_, value)| value.to_string()))
        .chain(
            redact::patterns::VALUE_PATTERNS
                .iter()
                .flat_map(|p| p.triggers.iter().map(|t| (*t).to_string())),
        )
        .chain(
            [
                "/home/u/.store",
                "~/x",
                "postgres://u:p@h/db",
                "https://h:443/@s",
            ]
            .map(String::from),
        )
        .collect();
    let piece = prop_oneof![
        (proptest::sample::select(examples), 0..6usize, any::<bool>()).prop_map(
            |(example, cut, upper)| {
                let end = example.len().saturating_sub(cut);
                let piece = example.get(..end).unwrap_or(&example);
                if upper {
                    piece.to_ascii_uppercase()
                } else {
                    piece.to_string()
                }
            }
        ),
        "[ -~]{0,8}",
        "[^\\x00]{0,2}",
    ];
    proptest::collection::vec(piece, 0..4).prop_map(|pieces| pieces.concat())
}

/// User rules: exact names, simple globs (indexed by their literal)
/// and others (`?`, `{a,b}`: a GlobSet).
fn user_rules() -> impl Strategy<Value = Vec<String>> {
    let rule = prop_oneof![
        tricky_name(),
        tricky_name().prop_map(|n| format!("{n}*")),
        tricky_name().prop_map(|n| format!("*{n}")),
        tricky_name().prop_map(|n| format!("*{n}*")),
        (tricky_name(), tricky_name()).prop_map(|(a, b)| format!("{a}*{b}")),
        tricky_name().prop_map(|n| format!("[AB]{n}")),
        tricky_name().prop_map(|n| format!("{n}?")),
        (tricky_name(), tricky_name()).prop_map(|(a, b)| format!("{{{a},{b}}}_*")),
        Just("*".to_string()),
    ];
    // An empty rule is invalid: its warning is tested elsewhere.
    proptest::collection::vec(rule.prop_filter("not empty", |r| !r.is_empty()), 0..4)
}

/// One glob's matcher, compiled once per test process.
fn matcher(text: &str) -> globset::GlobMatcher {
    static CACHE: std::sync::Mutex<Vec<(String, globset::GlobMatcher)>> =
        std::sync::Mutex::new(Vec::new());
    let mut cache = CACHE.lock().unwrap();
    if let Some((_, m)) = cache.iter().find(|(t, _)| t == text) {
        return m.clone();
    }
    let m = compile(text).unwrap().compile_matcher();
    cache.push((text.to_string(), m.clone()));
    m
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Property 27: the one-pass matcher (glob literals and credential
    /// triggers found in one scan each) keeps and removes exactly what
    /// trying every glob and every shape one by one does, for the same
    /// reason.
    #[test]
    fn property_27_one_pass_sanitization_decides_as_each_rule_alone(
        env in proptest::collection::vec((tricky_name(), tricky_value()), 1..8),
        allow in user_rules(),
        deny in user_rules(),
        replace_defaults in any::<bool>(),
        scan_values in any::<bool>(),
    ) {
        let config = EnvironmentConfig {
            allow_list: allow,
            deny_patterns: deny,
            replace_defaults,
            scan_values,
        };
        let policy = Policy::from_config(&config, &ExtraRules::default(), |_| {});
        let matchers: Vec<_> = policy.globs.texts.iter().map(|text| matcher(text)).collect();
        for (name, value) in &env {
            prop_assert_eq!(
                policy.decide(name, value),
                reference_decide(&policy, &matchers, name, value),
                "{} = {:?}", name, value
            );
        }
    }
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
    let policy = Policy::from_config(&EnvironmentConfig::default(), &extra, |_| {});
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
    let policy = Policy::from_config(&config, &extra, |_| {});
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
    let policy = Policy::from_config(&config, &ExtraRules::default(), |_| {});
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
    let policy = Policy::from_config(&config, &ExtraRules::default(), |_| {});
    assert!(policy.decide("API_KEY", "plain").is_removed());
    assert!(policy.decide("AWS_REGION", "us-east-1").is_removed());
}
