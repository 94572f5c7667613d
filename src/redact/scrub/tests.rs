use super::*;

fn redact(text: &str) -> String {
    Scrubber::default()
        .redact(text)
        .map_or_else(|| text.to_string(), |(t, _)| t)
}

#[test]
fn a_shape_is_replaced_with_its_kind_and_the_text_around_it_stays() {
    assert_eq!(
        redact("token ghp_abcdefghijklmnopqrstuvwxyz0123456789 ok"),
        "token [REDACTED:github-token] ok"
    );
    assert_eq!(
        redact("see Authorization: Bearer abcdefghijklmnop ok"),
        "see Authorization: [REDACTED:authorization-header] ok"
    );
}

#[test]
fn a_private_key_block_goes_whole() {
    let text =
        "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\ndef\n-----END RSA PRIVATE KEY-----\nafter";
    assert_eq!(redact(text), "key:\n[REDACTED:private-key]\nafter");
    let cut = "x -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk";
    assert_eq!(redact(cut), "x [REDACTED:private-key]");
    let escaped =
        r#"{"private_key": "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n"}"#;
    assert_eq!(
        redact(escaped),
        r#"{"private_key": "[REDACTED:private-key]"}"#
    );
    let certificate = "-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----";
    assert_eq!(redact(certificate), certificate);
}

#[test]
fn secret_assignments_lose_their_value() {
    assert_eq!(
        redact("DB_PASSWORD=hunter22\nDB_HOST=localhost"),
        "DB_PASSWORD=[REDACTED:secret-assignment]\nDB_HOST=localhost"
    );
    assert_eq!(
        redact(r#"{"api_key": "abc123def456", "user": "bob"}"#),
        r#"{"api_key": "[REDACTED:secret-assignment]", "user": "bob"}"#
    );
    assert_eq!(
        redact("  secret: s3cr3t-value\n"),
        "  secret: [REDACTED:secret-assignment]\n"
    );
    assert_eq!(
        redact("export STRIPE_SECRET='abc def ghi'"),
        "export STRIPE_SECRET='[REDACTED:secret-assignment]'"
    );
    assert_eq!(
        redact("mysql --pass=hunter22x -h db; apiKey := \"q1w2e3r4\""),
        "mysql --pass=[REDACTED:secret-assignment] -h db; apiKey := \"[REDACTED:secret-assignment]\""
    );
    assert_eq!(
        redact("x=1,db_pass: s3cr3tpw"),
        "x=1,db_pass: [REDACTED:secret-assignment]"
    );
}

#[test]
fn samples_and_ordinary_assignments_stay() {
    for text in [
        "API_KEY=$API_KEY",
        "GITHUB_TOKEN=${GITHUB_TOKEN}",
        "token: <your token>",
        "PASSWORD=YOUR_PASSWORD_HERE",
        "TOKEN_TTL=3600",
        "password: xxxxxxxx",
        "SSL_CERT_FILE=/etc/ssl/cert.pem",
        "auth_required: true",
        "AUTHENTICATION_FLOW=pkce-with-s256",
        "key_name: production-signing",
        "The password must be at least 12 characters.",
        "api_key = os.environ[\"API_KEY\"]",
        "token = process.env.TOKEN",
    ] {
        assert_eq!(redact(text), text, "{text}");
    }
}

#[test]
fn environment_values_are_found_whatever_their_shape() {
    let scrubber = Scrubber::new([
        SecretValue {
            name: "PGPASSWORD".into(),
            value: "plain words here".into(),
        },
        SecretValue {
            name: "SHORT".into(),
            value: "abc".into(),
        },
    ]);
    let (text, count) = scrubber
        .redact("echo plain words here; abc; plain words here")
        .unwrap();
    assert_eq!(
        text,
        "echo [REDACTED:env:PGPASSWORD]; abc; [REDACTED:env:PGPASSWORD]"
    );
    assert_eq!(count, 2);
}

#[test]
fn overlapping_finds_are_one_span() {
    let scrubber = Scrubber::new([SecretValue {
        name: "GH".into(),
        value: "ghp_abcdefghijklmnopqrstuvwxyz0123456789".into(),
    }]);
    let (text, count) = scrubber
        .redact("GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789")
        .unwrap();
    assert_eq!(count, 1);
    assert_eq!(text, "GITHUB_TOKEN=[REDACTED:github-token]");
}

#[test]
fn a_clean_text_is_not_rewritten() {
    assert!(
        Scrubber::default()
            .redact("hello world: nothing here")
            .is_none()
    );
}

const TOKEN: &str = "ghp_0123456789abcdefghijABCDEFGHIJ012345";

#[test]
fn past_the_limit_the_rest_is_withheld_from_the_last_line_end_and_counted() {
    let scrubber = Scrubber::default().with_limit(64 + 64);
    let text =
        format!("one {TOKEN}\nclean line\nthe next token {TOKEN} crosses the limit, and more\n");
    let (redacted, tally) = scrubber.redact_tallied(&text).unwrap();
    let kept = "one [REDACTED:github-token]\nclean line\n";
    let withheld = text.len() - "one \nclean line\n".len() - TOKEN.len();
    assert_eq!(
        redacted,
        format!("{kept}[REDACTED:withheld {withheld} bytes past the limit]")
    );
    assert_eq!(
        tally,
        Tally {
            replaced: 2,
            withheld: withheld as u64
        }
    );
    // Stored again, nothing changes: the marker is not read as new text.
    assert!(scrubber.redact(&redacted).is_none());
}

#[test]
fn a_line_past_the_limit_is_cut_at_a_blank_and_never_inside_a_token() {
    let text = format!("{} {TOKEN}{}", "a".repeat(10), "b".repeat(100));
    let (redacted, tally) = Scrubber::default()
        .with_limit(30 + 64)
        .redact_tallied(&text)
        .unwrap();
    assert!(!redacted.contains("ghp_"), "{redacted}");
    assert!(redacted.starts_with(&format!("{} [REDACTED:withheld ", "a".repeat(10))));
    assert_eq!(tally.withheld as usize, text.len() - 11);
    // No blank at all before the limit: nothing of it is kept.
    let (redacted, _) = Scrubber::default()
        .with_limit(30 + 64)
        .redact_tallied(&TOKEN.repeat(3))
        .unwrap();
    assert_eq!(redacted, "[REDACTED:withheld 120 bytes past the limit]");
}

#[test]
fn a_text_within_the_limit_is_read_whole() {
    let text = format!("x\n{TOKEN}");
    let (redacted, tally) = Scrubber::default()
        .with_limit(text.len())
        .redact_tallied(&text)
        .unwrap();
    assert_eq!(redacted, "x\n[REDACTED:github-token]");
    assert_eq!(tally.withheld, 0);
}

/// The credential examples: (public rule, value).
fn credential_examples() -> Vec<(&'static str, &'static str)> {
    include_str!("../../../tests/data/credential-values.txt")
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .collect()
}

/// The look-alikes, `\n` standing for a newline.
fn look_alikes() -> Vec<String> {
    include_str!("../../../tests/data/credential-lookalikes.txt")
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.replace("\\n", "\n"))
        .collect()
}

/// The coverage table of docs/security.md: per kind, the examples caught and the
/// look-alikes wrongly redacted as that kind.
fn coverage_table() -> String {
    use std::collections::BTreeMap;
    let scrubber = Scrubber::default();
    let mut kinds: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    let mut missed = Vec::new();
    for (rule, value) in credential_examples() {
        let text = format!("tool output: {value} (end)");
        match scrubber.find(&text).first() {
            Some(span) => {
                let entry = kinds.entry(span.kind.to_string()).or_default();
                entry.0 += 1;
                entry.1 += 1;
            }
            None => missed.push(format!("{rule}: {value}")),
        }
    }
    let look_alikes = look_alikes();
    for text in &look_alikes {
        for span in scrubber.find(text) {
            kinds.entry(span.kind.to_string()).or_default().2 += 1;
        }
    }
    assert!(missed.is_empty(), "not caught: {missed:#?}");
    let (examples, false_positives): (usize, usize) =
        kinds.values().fold((0, 0), |(e, f), k| (e + k.0, f + k.2));
    let mut table =
        String::from("| kind | examples caught | look-alikes redacted |\n|---|---|---|\n");
    for (kind, (total, caught, wrong)) in &kinds {
        table.push_str(&format!("| `{kind}` | {caught} of {total} | {wrong} |\n"));
    }
    table.push_str(&format!(
        "| **all** | **{examples} of {examples}** | **{false_positives} of {}** |\n",
        look_alikes.len()
    ));
    table
}

/// Issue 47: a token is found wherever its prefix starts, whatever
/// comes before it.
#[test]
fn a_token_is_found_glued_escaped_or_percent_encoded() {
    let tokens = [
        ("github-token", "ghp_0123456789abcdefghijABCDEFGHIJ012345"),
        (
            "github-token",
            "github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
        ),
        ("api-key-sk", "sk-proj-abcdefghijklmnopqrstuvwx1234"),
        (
            "anthropic-admin-key",
            "sk-ant-admin01-abcdefghijklmnopqrstuvwx",
        ),
        ("api-key-sk", "sk-ant-api03-abcdefghijklmnopqrstuvwx"),
        ("aws-access-key-id", "AKIAIOSFODNN7ABCDEFG"),
        ("slack-token", "xoxb-1234567890-abcdefghij"),
        ("gitlab-token", "glpat-abcdefghij0123456789"),
        ("npm-token", "npm_abcdefghijklmnopqrstuvwxyz0123456789"),
    ];
    let before = [
        "x",
        "1",
        "MY_",
        "\\n",
        "\\t",
        "line1\\n",
        "%20",
        "Bearer%20",
        "token%3D",
        "key%3D",
        "id%3D",
    ];
    for (kind, token) in tokens {
        for context in before {
            let text = format!("{context}{token} next");
            assert_eq!(
                redact(&text),
                format!("{context}[REDACTED:{kind}] next"),
                "{text}"
            );
        }
    }
}

/// Issue 47: credentials inside JSON-escaped and percent-encoded text.
#[test]
fn escaped_and_percent_encoded_credentials_are_redacted_in_place() {
    for (text, kept) in [
        (
            r"url: https:\/\/admin:S3cretPassw0rdX@db.example.com\/app",
            r"url: https:\/\/[REDACTED:url-password]@db.example.com\/app",
        ),
        (
            r#"{\"password\": \"Tr0ub4dor-and-3\"}"#,
            r#"{\"password\": \"[REDACTED:secret-assignment]\"}"#,
        ),
        (
            "user=bob&password=S3cret%21Passw0rd&next=1",
            "user=bob&password=[REDACTED:password-parameter]&next=1",
        ),
        (
            "q=1&password%3DS3cret%21Passw0rd%26next%3D1",
            "q=1&password%3D[REDACTED:password-parameter]%26next%3D1",
        ),
    ] {
        assert_eq!(redact(text), kept, "{text}");
    }
}

/// Issue 47: a tool's JSON output kept as a string in an agent's
/// JSON (Codex's `function_call_output`) is escaped twice.
#[test]
fn a_credential_escaped_twice_is_found_and_redacted_in_place() {
    let once = r#"{\"password\": \"Tr0ub4dor-and-3-more\"}"#;
    let twice =
        r#"{"output":"{\"config\": \"{\\\"password\\\": \\\"Tr0ub4dor-and-3-more\\\"}\"}"}"#;
    for text in [once, twice] {
        let redacted = redact(text);
        assert!(!redacted.contains("Tr0ub4dor"), "{text} -> {redacted}");
        assert!(
            redacted.contains("[REDACTED:secret-assignment]"),
            "{redacted}"
        );
    }
}

#[test]
fn every_example_is_caught_no_look_alike_is_and_the_docs_say_so() {
    let table = coverage_table();
    let page = include_str!("../../../docs/security.md");
    let start = page
        .find("<!-- redaction-coverage -->\n")
        .map(|at| at + "<!-- redaction-coverage -->\n".len())
        .unwrap();
    let end = start + page[start..].find("<!-- /redaction-coverage -->").unwrap();
    assert_eq!(
        &page[start..end],
        table,
        "docs/security.md's table is out of date; it should be:\n{table}"
    );
    for text in look_alikes() {
        assert_eq!(Scrubber::default().redact(&text), None, "{text}");
    }
}

proptest::proptest! {
    #[test]
    fn redaction_is_idempotent_and_leaves_no_span(
        text in "([ -~\n]{0,40}|\\PC{0,8}|postgres://ü:p4ss/wé@db|password=xé€|ghp_[a-z]{36}|DB_PASSWORD=hunter22é){0,6}"
    ) {
        let scrubber = Scrubber::default();
        if let Some((once, _)) = scrubber.redact(&text) {
            proptest::prop_assert!(scrubber.redact(&once).is_none(), "{:?} -> {:?}", text, once);
        }
    }
}
