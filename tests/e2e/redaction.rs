//! Credentials never reach the session store (issue 26): every write path
//! of every store replaces them with `[REDACTED:<kind>]`, look-alikes stay
//! as they are, `scan` finds what an older session holds, `redact` scrubs
//! it, and a SIGKILL of `redact` loses no record.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use crate::on_each_store;
use crate::support::{Sandbox, SessionStore, bin_path, json, stderr, stdout};

on_each_store!(
    no_credential_reaches_the_store_through_any_write_path,
    scan_finds_what_an_older_session_holds_and_redact_removes_it,
);

/// The value of a secret variable of the recording process: no shape of
/// its own, redacted because the environment policy classes PGPASSWORD as
/// secret.
const ENV_SECRET: &str = "correct horse battery staple 42";

/// Credentials in the forms a tool prints them, each a (text, secret)
/// pair: the secret must not be stored, the text around it may.
fn credential_forms() -> Vec<(String, String)> {
    let mut forms: Vec<(String, String)> = include_str!("../data/credential-values.txt")
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .map(|(_, value)| (format!("output: {value} end"), secret_of(value)))
        .collect();
    let key = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\nAAAAMwAAAAtzc2gtZWQyNTUxOQ\n-----END OPENSSH PRIVATE KEY-----";
    forms.push((
        format!("$ cat id_ed25519\n{key}\n"),
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ".into(),
    ));
    forms.push((
        "$ cat .env\nDB_PASSWORD=hunter2hunter2\nDB_HOST=localhost\n".into(),
        "hunter2hunter2".into(),
    ));
    forms.push((
        r#"{"database": {"user": "app", "password": "Tr0ub4dor&3xyz"}}"#.into(),
        "Tr0ub4dor&3xyz".into(),
    ));
    forms.push((
        "curl -H 'Authorization: Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0' https://api.example.com"
            .into(),
        "9f8e7d6c5b4a39281706f5e4d3c2b1a0".into(),
    ));
    forms.push((
        format!("psql says: password is {ENV_SECRET}"),
        ENV_SECRET.into(),
    ));
    forms
}

/// The part of a listed credential value that must not survive: a URL's
/// password (or its token userinfo), a private key header whole, else the
/// value's last run of token characters (a keyed shape keeps its key).
pub(crate) fn secret_of(value: &str) -> String {
    if value.starts_with("-----BEGIN") {
        return value.to_string();
    }
    if let Some((_, rest)) = value.split_once("://")
        && let Some((userinfo, _)) = rest.split_once('@')
    {
        return userinfo
            .rsplit_once(':')
            .map_or(userinfo, |(_, p)| p)
            .to_string();
    }
    let token = |c: char| c.is_ascii_alphanumeric() || "+/=_-.~%".contains(c);
    value
        .split(|c: char| !token(c))
        .rfind(|run| run.len() >= 8)
        .unwrap_or(value)
        .to_string()
}

/// Texts that look like credentials but are not: stored unchanged.
fn look_alikes() -> Vec<String> {
    include_str!("../data/credential-lookalikes.txt")
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.replace("\\n", "\n"))
        .collect()
}

fn session(sb: &Sandbox, args: &[&str]) -> std::process::Output {
    sb.cmd("ollm-session")
        .env("PGPASSWORD", ENV_SECRET)
        .args(args)
        .output()
        .unwrap()
}

fn ok(sb: &Sandbox, args: &[&str]) -> Value {
    let out = session(sb, args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    json(&out)
}

fn record_stdin(sb: &Sandbox, args: &[&str], input: &str) -> Vec<Value> {
    let out = sb
        .cmd("ollm-session")
        .env("PGPASSWORD", ENV_SECRET)
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Every byte under `dir`, as one lossy text.
fn everything_under(dir: &Path) -> String {
    crate::support::tree(dir)
        .into_values()
        .flatten()
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

fn no_credential_reaches_the_store_through_any_write_path(store: SessionStore) {
    let Some(sb) = Sandbox::on(store) else { return };
    let forms = credential_forms();
    let first = &forms[0].0;
    let created = ok(
        &sb,
        &[
            "create",
            "--model",
            "m",
            "--provider",
            "p",
            "--title",
            first,
        ],
    );
    let id = created["sessionId"].as_str().unwrap().to_string();
    let mut redacted = 0;
    for (text, _) in &forms {
        let ack = ok(&sb, &["record", &id, "--role", "user", "--text", text]);
        redacted += ack["redacted"].as_u64().unwrap();
        let args = serde_json::json!({ "cmd": text }).to_string();
        let ack = ok(
            &sb,
            &[
                "record",
                &id,
                "--tool",
                "run",
                "--args",
                &args,
                "--result",
                text,
                "--display",
                text,
            ],
        );
        assert!(ack["redacted"].as_u64().unwrap() >= 3, "{text}: {ack}");
    }
    assert!(redacted >= forms.len() as u64);
    let look_alikes = look_alikes();
    let batch: Vec<&str> = look_alikes
        .iter()
        .map(String::as_str)
        .chain(forms.iter().take(5).map(|(text, _)| text.as_str()))
        .collect();
    let ndjson: String = batch
        .iter()
        .map(|text| {
            serde_json::json!({"role": "assistant", "parts": [{"type": "text", "text": text}]})
                .to_string()
                + "\n"
        })
        .collect();
    record_stdin(&sb, &["record", &id], &ndjson);
    ok(&sb, &["rename", &id, &forms[1].0]);
    let branch = ok(&sb, &["branch", &id, "--at", "2"]);
    let snapshot = ok(&sb, &["snapshot", "create", &id]);
    let restored = ok(
        &sb,
        &[
            "snapshot",
            "restore",
            snapshot["id"].as_str().unwrap(),
            "--as-session",
        ],
    );
    let copy_dir = sb.ollm_home.join("copied");
    let to = copy_dir.display().to_string();
    let from = match &sb.pg {
        Some(pg) => pg.url.clone(),
        None => "file".to_string(),
    };
    ok(&sb, &["copy", "--from", &from, "--to", &to, "--all"]);

    let mut shown = String::new();
    for session_id in [
        id.as_str(),
        branch["sessionId"].as_str().unwrap(),
        restored["sessionId"].as_str().unwrap(),
    ] {
        shown.push_str(&stdout(&session(&sb, &["get", session_id])));
        shown.push_str(&stdout(&session(
            &sb,
            &["export", session_id, "--format", "markdown"],
        )));
    }
    shown.push_str(&stdout(&session(
        &sb,
        &["snapshot", "show", snapshot["id"].as_str().unwrap()],
    )));
    let stored = everything_under(&sb.ollm_home);
    for (text, secret) in &forms {
        assert!(
            !stored.contains(secret.as_str()),
            "stored: {secret} (from {text:?})"
        );
        assert!(
            !shown.contains(secret.as_str()),
            "shown: {secret} (from {text:?})"
        );
        let found = session(&sb, &["search", secret]);
        assert!(
            !stdout(&found).contains(secret.as_str()),
            "search: {secret}"
        );
    }
    let got = ok(&sb, &["get", &id]);
    let texts: Vec<&str> = got["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["parts"][0]["text"].as_str())
        .collect();
    for look_alike in &look_alikes {
        assert!(
            texts.contains(&look_alike.as_str()),
            "changed: {look_alike}"
        );
    }
    assert!(texts.iter().any(|t| t.contains("[REDACTED:github-token]")));
    assert!(
        texts
            .iter()
            .any(|t| t.contains("[REDACTED:env:PGPASSWORD]"))
    );
    assert!(texts.iter().any(|t| t.contains("[REDACTED:private-key]")));
    // Nothing left for scan to find, in the session, its branch, the
    // restored copy or the snapshot.
    let out = session(&sb, &["scan", "--all"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

fn scan_finds_what_an_older_session_holds_and_redact_removes_it(store: SessionStore) {
    let Some(sb) = Sandbox::on(store) else { return };
    // An older session: recorded before redaction, as --no-redact does.
    let created = ok(&sb, &["create", "--model", "m", "--provider", "p"]);
    let id = created["sessionId"].as_str().unwrap().to_string();
    let secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    let texts = [
        format!("the token is {secret}"),
        "nothing to see".to_string(),
        format!("DB_PASSWORD=hunter2hunter2 and {ENV_SECRET}"),
    ];
    for text in &texts {
        let ack = ok(
            &sb,
            &[
                "--no-redact",
                "record",
                &id,
                "--role",
                "user",
                "--text",
                text,
            ],
        );
        assert_eq!(ack["redacted"], 0);
    }
    ok(&sb, &["--no-redact", "snapshot", "create", &id]);
    let before = ok(&sb, &["get", &id]);

    let out = session(&sb, &["scan", &id]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let findings: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kinds: Vec<(&str, &str, bool)> = findings
        .iter()
        .map(|f| {
            (
                f["record"].as_str().unwrap(),
                f["kind"].as_str().unwrap(),
                f.get("snapshotId").is_some(),
            )
        })
        .collect();
    for expected in [
        ("messages[0]", "github-token", false),
        ("messages[2]", "secret-assignment", false),
        ("messages[2]", "env:PGPASSWORD", false),
    ] {
        assert!(kinds.contains(&expected), "{expected:?} not in {kinds:?}");
    }
    assert!(
        kinds.iter().any(|(_, _, in_snapshot)| *in_snapshot),
        "{kinds:?}"
    );
    assert!(!stdout(&out).contains(secret) && !stdout(&out).contains("hunter2hunter2"));

    let dry = session(&sb, &["redact", &id, "--dry-run"]);
    assert!(dry.status.success());
    assert_eq!(
        ok(&sb, &["get", &id]),
        before,
        "--dry-run changed the session"
    );

    let done = record_stdin(&sb, &["redact", "--all"], "");
    assert_eq!(done.len(), 1, "{done:?}");
    assert_eq!(done[0]["redacted"].as_u64(), Some(findings.len() as u64));
    let after = ok(&sb, &["get", &id]);
    assert_eq!(
        after["messages"].as_array().unwrap().len(),
        texts.len(),
        "a record was lost"
    );
    assert_eq!(after["messages"][1], before["messages"][1]);
    assert_eq!(
        after["messages"][0]["parts"][0]["text"],
        "the token is [REDACTED:github-token]"
    );
    let out = session(&sb, &["scan", "--all"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(!everything_under(&sb.ollm_home).contains(secret));
    // Recording goes on after a scrub.
    ok(&sb, &["record", &id, "--role", "user", "--text", "after"]);
    assert_eq!(
        ok(&sb, &["get", &id])["messages"].as_array().unwrap().len(),
        4
    );
}

/// `redact` killed at random instants over and over: every session is
/// always either as it was or fully scrubbed, with all its records.
#[test]
fn a_killed_redact_leaves_each_session_whole_as_it_was_or_scrubbed() {
    for format in ["cli", "journal"] {
        let sb = Sandbox::new();
        let secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
        let mut ids = Vec::new();
        for _ in 0..6 {
            let created = sb
                .cmd("ollm-session")
                .env("OLLM_SESSION_FORMAT", format)
                .args(["create", "--model", "m", "--provider", "p"])
                .output()
                .unwrap();
            let id = json(&created)["sessionId"].as_str().unwrap().to_string();
            for n in 0..20 {
                let text = if n % 3 == 0 {
                    format!(
                        "record {n} holds {secret} in a long line {}",
                        "x".repeat(2000)
                    )
                } else {
                    format!("record {n}")
                };
                let out = sb
                    .cmd("ollm-session")
                    .args([
                        "--no-redact",
                        "record",
                        &id,
                        "--role",
                        "user",
                        "--text",
                        &text,
                    ])
                    .output()
                    .unwrap();
                assert!(out.status.success(), "{}", stderr(&out));
            }
            ids.push(id);
        }
        for round in 0..12u64 {
            let mut child = Command::new(bin_path("ollm-session"))
                .env_clear()
                .env("PATH", crate::support::test_path())
                .env("HOME", &sb.home)
                .env("OLLM_HOME", &sb.ollm_home)
                .args(["redact", "--all"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            std::thread::sleep(Duration::from_micros(500 + round * 1500));
            let _ = child.kill();
            let _ = child.wait();
            for id in &ids {
                let out = session(&sb, &["get", id]);
                assert!(
                    out.status.success(),
                    "{format} round {round}: {}",
                    stderr(&out)
                );
                let messages = json(&out)["messages"].as_array().unwrap().clone();
                assert_eq!(
                    messages.len(),
                    20,
                    "{format} round {round}: a record was lost"
                );
                let text = serde_json::to_string(&messages).unwrap();
                let left = text.matches(secret).count();
                assert!(
                    left == 0 || left == 7,
                    "{format} round {round}: half scrubbed ({left} left)"
                );
            }
        }
        let out = session(&sb, &["redact", "--all"]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(!everything_under(&sb.ollm_home).contains(secret));
    }
}

/// A workspace's configuration cannot switch redaction off until the user
/// trusts it: the record is redacted, and the warning (said by the first
/// command run there) names the key.
#[test]
fn an_untrusted_workspace_cannot_switch_redaction_off() {
    let sb = Sandbox::new();
    sb.write(
        "p/.ollm/config.yaml",
        "services:\n  session:\n    redact: false\n",
    );
    let dir = sb.work.join("p");
    let created = sb
        .cmd("ollm-session")
        .current_dir(&dir)
        .args(["create", "--model", "m", "--provider", "p"])
        .output()
        .unwrap();
    assert!(
        stderr(&created).contains("services.session.redact"),
        "{}",
        stderr(&created)
    );
    let id = json(&created)["sessionId"].as_str().unwrap().to_string();
    let record = |text: &str| {
        sb.cmd("ollm-session")
            .current_dir(&dir)
            .args(["record", &id, "--role", "user", "--text", text])
            .output()
            .unwrap()
    };
    let out = record("ghp_abcdefghijklmnopqrstuvwxyz0123456789");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["redacted"], 1);
    let trusted = sb.cmd("ollm").args(["trust"]).arg(&dir).output().unwrap();
    assert!(trusted.status.success(), "{}", stderr(&trusted));
    let out = record("ghp_abcdefghijklmnopqrstuvwxyz0123456789");
    assert_eq!(json(&out)["redacted"], 0, "{}", stderr(&out));
}

/// Issue 47: a store whose one session cannot be read is not "clean".
#[test]
fn scan_and_redact_name_a_session_they_cannot_read_and_fail() {
    let sb = Sandbox::new();
    let good = sb.create_session();
    let broken = "0d6c3b7e-1f2a-4c5d-8e9f-a0b1c2d3e4f5";
    std::fs::write(
        sb.sessions_dir().join(format!("{broken}.json")),
        "{\"sessionId\": \"ghp_0123456789abcdefghijABCDEFGHIJ012345\", ",
    )
    .unwrap();
    for args in [["scan", "--all"], ["redact", "--all"]] {
        let out = session(&sb, &args);
        assert_eq!(out.status.code(), Some(6), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(broken), "{args:?}: {}", stderr(&out));
        assert!(!stdout(&out).contains(&good), "{args:?}");
    }
}
