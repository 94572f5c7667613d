//! Issue 26: the six credential forms and the secret words of a name never
//! reach a tool run by `ollm-env run`, while look-alikes of them do; and
//! `ollm-env report` names the rule that decided.

use crate::support::{Sandbox, child_env, json};

/// The six forms of issue 26, each under a name no rule removes.
const SIX_FORMS: &[(&str, &str)] = &[
    (
        "NPMRC_LINE",
        "//registry.npmjs.org/:_authToken=0a1b2c3d-1234-4abc-9def-0123456789ab",
    ),
    ("TWILIO_SID_ISH", "SK0123456789abcdef0123456789abcdef"),
    ("MAILER", "key-3ax6xnjp29jd6fds4gc373sgvjxteol0"),
    ("INNOCENT", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    (
        "SESSION_BLOB",
        "eyJhbGciOiJkaXIiLCJlbmMiOiJBMTI4R0NNIn0..q8Rw2ZkT4mNx7PbL.c3JdYq8Rw2ZkT4mN.x7PbL9sVc3JdYq8R",
    ),
];

/// Variables named by a secret word, with values no shape matches.
const SECRET_WORD_NAMES: &[(&str, &str)] = &[
    ("KEY", "KEY"),
    ("some_auth_var", "AUTH"),
    ("PRIVATE_STUFF", "PRIVATE"),
    ("SSL_CERT", "CERT"),
    ("myKey", "KEY"),
];

/// Variables that must reach the tool unchanged.
const KEPT: &[(&str, &str)] = &[
    ("KEYNOTE_SPEAKER", "Ada"),
    ("CERTIFIED_DIVER", "yes"),
    ("AUTHENTICATION_FLOW", "pkce"),
    ("KEYBOARD_LAYOUT", "us"),
    ("XAUTHORITY", "/home/dev/.Xauthority"),
    ("PRIVATE_JET_OWNER", "nobody"),
    ("AUTH_TYPE", "oauth"),
    ("MAX_TOKENS", "4096"),
    ("PWD", "/home/dev/project"),
    ("OLDPWD", "/home/dev"),
    ("SSH_AUTH_SOCK", "/run/user/1000/ssh-agent.sock"),
    ("SSL_CERT_FILE", "/etc/ssl/certs/ca-certificates.crt"),
    ("NODE_EXTRA_CA_CERTS", "/etc/ssl/extra-ca.pem"),
    ("CI_COMMIT_SHA", "4b825dc642cb6eb9a060e54bf8d69288fbee4904"),
    ("GIT_SHA_UPPER", "4B825DC642CB6EB9A060E54BF8D69288FBEE4904"),
    (
        "CA_BUNDLE",
        "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ7kZ3bF0aWzv1qN8cQyXb9E2pL0w\n-----END CERTIFICATE-----",
    ),
    (
        "NPMRC_TEMPLATE",
        "//registry.npmjs.org/:_authToken=${NPM_TOKEN}",
    ),
];

#[test]
fn six_forms_and_secret_words_are_removed_and_look_alikes_kept() {
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd("ollm-env");
    cmd.args(["run", "--", "env", "-0"]);
    for (name, value) in SIX_FORMS.iter().chain(KEPT) {
        cmd.env(name, value);
    }
    for (name, _) in SECRET_WORD_NAMES {
        cmd.env(name, "plain-value-0000");
    }
    cmd.env(
        "DEPLOY_MATERIAL",
        "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIB\n-----END EC PRIVATE KEY-----",
    );
    let output = cmd.output().unwrap();
    assert!(output.status.success());
    let env = child_env(&output);
    for (name, _) in SIX_FORMS.iter().chain(SECRET_WORD_NAMES) {
        assert!(!env.contains_key(*name), "{name} reached the tool");
    }
    assert!(!env.contains_key("DEPLOY_MATERIAL"));
    for (name, value) in KEPT {
        assert_eq!(
            env.get(*name).map(String::as_str),
            Some(*value),
            "{name} was not kept"
        );
    }
}

#[test]
fn report_names_the_secret_word_and_the_value_kind() {
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd("ollm-env");
    cmd.arg("report");
    for (name, value) in SIX_FORMS.iter().chain(KEPT) {
        cmd.env(name, value);
    }
    for (name, _) in SECRET_WORD_NAMES {
        cmd.env(name, "plain-value-0000");
    }
    let output = cmd.output().unwrap();
    assert!(output.status.success());
    let report = json(&output);
    let rule_of = |list: &str, name: &str| {
        report[list]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == name)
            .map(|e| {
                (
                    e["rule"].as_str().unwrap_or("").to_string(),
                    e["pattern"].as_str().unwrap_or("").to_string(),
                    e["why"].as_str().unwrap_or("").to_string(),
                )
            })
    };
    for (name, word) in SECRET_WORD_NAMES {
        let (rule, pattern, why) = rule_of("removed", name).expect(name);
        assert_eq!((rule.as_str(), pattern.as_str()), ("secret-word", *word));
        assert_eq!(why, format!("name has the word {word}"));
    }
    for (name, kind) in [
        ("NPMRC_LINE", "npm-auth"),
        ("TWILIO_SID_ISH", "twilio-api-key"),
        ("MAILER", "mailgun-key"),
        ("INNOCENT", "aws-secret-access-key"),
        ("SESSION_BLOB", "jwe"),
    ] {
        let (rule, pattern, _) = rule_of("removed", name).expect(name);
        assert_eq!((rule.as_str(), pattern.as_str()), ("secret-value", kind));
    }
    let (rule, _, _) = rule_of("kept", "SSH_AUTH_SOCK").unwrap();
    assert_eq!(rule, "path-value");
    let (rule, _, _) = rule_of("kept", "KEYNOTE_SPEAKER").unwrap();
    assert_eq!(rule, "no-deny-match");
}

#[test]
fn explain_says_why_a_word_removes_a_name_and_replace_defaults_drops_it() {
    let sandbox = Sandbox::new();
    let output = sandbox
        .cmd("ollm-env")
        .args(["explain", "some_auth_var"])
        .env("some_auth_var", "plain-value-0000")
        .output()
        .unwrap();
    let explanation = json(&output);
    assert_eq!(explanation["kept"], false);
    assert_eq!(explanation["rule"], "secret-word");
    assert_eq!(explanation["why"], "name has the word AUTH");

    let output = sandbox
        .cmd("ollm-env")
        .args(["run", "--replace-defaults", "--", "env", "-0"])
        .env("some_auth_var", "plain-value-0000")
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(child_env(&output).contains_key("some_auth_var"));
}
