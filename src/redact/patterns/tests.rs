use super::*;

#[test]
fn every_pattern_compiles_and_has_its_own_group() {
    for pattern in VALUE_PATTERNS {
        assert!(Regex::new(pattern.regex).is_ok(), "{}", pattern.name);
        let bytes = pattern.regex.as_bytes();
        let capturing = (0..bytes.len()).any(|i| {
            bytes[i] == b'(' && (i == 0 || bytes[i - 1] != b'\\') && bytes.get(i + 1) != Some(&b'?')
        });
        assert!(!capturing, "{} has a capture group", pattern.name);
    }
    let shapes = shapes().unwrap();
    assert_eq!(shapes.captures_len(), VALUE_PATTERNS.len() + 1);
}

/// Whether `value` holds one of the shape's triggers, the plain way:
/// what [`triggered`] finds in one pass.
fn reference_is_triggered(pattern: &ValuePattern, value: &str) -> bool {
    if pattern.is_case_insensitive() {
        let lower = value.to_ascii_lowercase();
        pattern.triggers.iter().any(|t| lower.contains(t))
    } else {
        pattern.triggers.iter().any(|t| value.contains(t))
    }
}

#[test]
fn case_insensitive_shapes_have_lower_case_triggers() {
    for pattern in VALUE_PATTERNS.iter().filter(|p| p.is_case_insensitive()) {
        for trigger in pattern.triggers {
            assert_eq!(*trigger, trigger.to_ascii_lowercase(), "{}", pattern.name);
        }
    }
}

/// Text made of trigger literals in any case, pieces of them and other
/// characters.
fn trigger_text() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let trigger = proptest::sample::select(
        VALUE_PATTERNS
            .iter()
            .flat_map(|p| p.triggers.iter().copied())
            .collect::<Vec<_>>(),
    );
    let piece = prop_oneof![
        (trigger.clone(), any::<bool>()).prop_map(|(t, upper)| if upper {
            t.to_ascii_uppercase()
        } else {
            t.to_string()
        }),
        (trigger, 0..4usize).prop_map(|(t, cut)| t[..t.len().saturating_sub(cut)].to_string()),
        "[ -~]{0,4}",
        "[^\\x00]{0,2}",
    ];
    proptest::collection::vec(piece, 0..6).prop_map(|pieces| pieces.concat())
}

proptest::proptest! {
    #[test]
    fn property_28_one_pass_triggers_as_each_shape_alone(value in trigger_text()) {
        let shapes = triggered(value.as_bytes());
        for (index, pattern) in VALUE_PATTERNS.iter().enumerate() {
            proptest::prop_assert_eq!(
                shapes.contains(index),
                reference_is_triggered(pattern, &value),
                "{} in {:?}", pattern.name, value
            );
        }
    }
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
fn every_listed_credential_format_passes_the_prefilter_and_matches() {
    let listed = include_str!("../../../tests/data/credential-values.txt");
    for line in listed
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (rule, value) = line.split_once('\t').unwrap();
        assert!(has_trigger(value), "{rule}: {value}");
        assert!(credential_kind(value).is_some(), "{rule}: {value}");
    }
}

/// The listed formats as (rule, value) pairs.
fn listed() -> Vec<(&'static str, &'static str)> {
    include_str!("../../../tests/data/credential-values.txt")
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split_once('\t').unwrap())
        .collect()
}

#[test]
fn every_shape_has_a_listed_example_it_recognises() {
    let kinds: Vec<&str> = listed()
        .iter()
        .filter_map(|(_, value)| credential_kind(value))
        .collect();
    for pattern in VALUE_PATTERNS {
        assert!(
            kinds.contains(&pattern.name),
            "no example of {}",
            pattern.name
        );
    }
}

#[test]
fn look_alikes_are_not_credentials() {
    let text = include_str!("../../../tests/data/credential-lookalikes.txt");
    let mut count = 0;
    for line in text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let value = line.replace("\\n", "\n");
        assert_eq!(credential_kind(&value), None, "{value}");
        assert_eq!(redact_values(&value), value);
        count += 1;
    }
    assert!(count >= 60, "{count} look-alikes");
}

#[test]
fn a_whole_aws_secret_key_is_one_but_hashes_and_words_are_not() {
    let key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    assert_eq!(whole_value_kind(key), Some("aws-secret-access-key"));
    assert_eq!(
        whole_value_kind(&format!(" {key}\n")),
        Some("aws-secret-access-key")
    );
    // Inside free text it is not: only the keyed form is.
    assert_eq!(credential_kind(&format!("blob {key} blob")), None);
    for value in [
        "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
        "4B825DC642CB6EB9A060E54BF8D69288FBEE4904",
        "4b825DC642cb6eb9a060e54bf8d69288fbee4904",
        &key[1..],
        &format!("{key}A"),
        "wjalrxutnfemi/k7mdeng/bpxrficyexamplekey",
        "WJALRXUTNFEMI/K7MDENG/BPXRFICYEXAMPLEKEY",
        "wJalrXUtnFEMI/KsMDENG/bPxRfiCYEXAMPLEKEY"
            .replace('s', "-")
            .as_str(),
        "wJalrXUtnFEMIxKzMDENGxbPxRfiCYEXAMPLEKEY",
    ] {
        assert_eq!(whole_value_kind(value), None, "{value}");
    }
    assert_eq!(
        whole_value_kind("wJalrXUtnFEMIxKzMDENGxbPxRfiCYEXAMPLEKE7"),
        Some("aws-secret-access-key")
    );
}

#[test]
fn keyed_forms_keep_their_key_when_redacted() {
    assert_eq!(
        redact_values("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        "aws_secret_access_key = [REDACTED]"
    );
    assert_eq!(
        redact_values(
            "//registry.npmjs.org/:_authToken=0a1b2c3d-1234-4abc-9def-0123456789ab\nnext"
        ),
        "//registry.npmjs.org/:_authToken=[REDACTED]\nnext"
    );
    assert_eq!(
        credential_kind("//registry.npmjs.org/:_authToken=0a1b2c3d-1234-4abc-9def-0123456789ab"),
        Some("npm-auth")
    );
    assert_eq!(
        credential_kind("//registry.npmjs.org/:_authToken=${NPM_TOKEN}"),
        None
    );
}

#[test]
fn a_documentation_sample_is_neither_a_kind_nor_redacted_but_a_later_key_is() {
    assert!(is_filler(b"sk-xxxxxxxxxxxxxxxxxxxx"));
    assert!(is_filler(b"AKIA********"));
    assert!(!is_filler(b"sk-xxxxxxx-yyyyyyyyyyyy"));
    assert!(!is_filler(b"AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQ"));
    let text = "sk-xxxxxxxxxxxxxxxxxxxx then sk-proj-abcdefghijklmnopqrstuvwx1234";
    assert_eq!(credential_kind(text), Some("api-key-sk"));
    assert_eq!(
        redact_values(text),
        "sk-xxxxxxxxxxxxxxxxxxxx then [REDACTED]"
    );
}

#[test]
fn new_shapes_report_their_own_kind() {
    for (value, kind) in [
        ("SK0123456789abcdef0123456789abcdef", "twilio-api-key"),
        ("key-0123456789abcdef0123456789abcdef", "mailgun-key"),
        (
            "eyJhbGciOiJkaXIiLCJlbmMiOiJBMTI4R0NNIn0..abcdefghijklmnop.abcdefghijkl.abcdefghijklmnop",
            "jwe",
        ),
        (
            "sk-ant-admin01-abcdefghijklmnopqrstuvwxyz",
            "anthropic-admin-key",
        ),
        (
            "123456789:AAabcdefghijklmnopqrstuvwxyz0123456",
            "telegram-bot-token",
        ),
        ("0123456789abcdef0123456789abcdef-us12", "mailchimp-key"),
    ] {
        assert_eq!(credential_kind(value), Some(kind), "{value}");
    }
    // A JWT (second segment a JSON object) stays a jwt.
    assert_eq!(credential_kind("eyJhbGciOiJub25lIn0.e30."), Some("jwt"));
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
    ("xapp-1-A0123456789-abcdefghij", "slack-token"),
    ("sk_test_abcdefghijklmnop1234", "stripe-key"),
    ("eyJhbGciOiJub25lIn0.e30.", "jwt"),
    ("redis://:hunter22@cache:6379", "url-password"),
    ("postgres://u:pa/ss@db/x", "url-password"),
    (
        "jdbc:postgresql://db/x?user=u&password=hunter22",
        "password-parameter",
    ),
    (
        "https://a.blob.core.windows.net/c?sv=2022&sig=abcdefghijklmnop1234%3D",
        "azure-sas-signature",
    ),
    (
        "AUTHORIZATION: bearer abcdefghijklmnop",
        "authorization-header",
    ),
    (
        r#"{"auths":{"r.io":{"auth":"dXNlcjpwYXNzd29yZA=="}}}"#,
        "docker-auth",
    ),
];

#[test]
fn ordinary_values_are_not_credentials() {
    for value in [
        "/usr/local/bin:/usr/bin",
        "en_US.UTF-8",
        "production",
        "https://example.com/path",
        "http://proxy.internal:3128",
        "https://registry.npmjs.org:443/@scope/pkg",
        "xterm-256color",
        "sk-short",
        "task-1234567890",
        "/home/u/.config/gcloud/credentials.json",
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
        redact_values("url postgres://u:p4ss@db/x"),
        "url postgres://[REDACTED]@db/x"
    );
    assert_eq!(
        redact_values("Server=db;User Id=u;Password=hunter22;"),
        "Server=db;User Id=u;Password=[REDACTED];"
    );
    assert_eq!(
        redact_values("Authorization: Bearer abcdefghijklmnop"),
        "Authorization: [REDACTED]"
    );
}
