//! The bad-input corpus: hundreds of malformed inputs across every program
//! and subcommand. Each must be answered with one line on stderr prefixed by
//! the program's name and a documented exit code: never a panic, never the
//! internal-error code. A session and a context store written before the
//! corpus must read back unchanged afterwards.

use crate::support::{Sandbox, json, stderr};

/// Exit codes a bad input may get (see docs/conventions.md's table).
const DOCUMENTED: &[i32] = &[1, 2, 3, 4, 5, 6, 126, 127];

struct Case {
    label: String,
    bin: &'static str,
    args: Vec<String>,
    stdin: Vec<u8>,
    /// Whether this input must be refused (otherwise it may be accepted,
    /// as empty input is by a program for which no input is valid).
    must_fail: bool,
}

/// Payloads that are not JSON, or not text.
fn malformed() -> Vec<(&'static str, Vec<u8>)> {
    let mut deep = "[".repeat(100_000);
    deep.push_str(&"]".repeat(100_000));
    vec![
        ("open-brace", b"{".to_vec()),
        ("open-bracket", b"[".to_vec()),
        (
            "truncated-object",
            b"{\"role\": \"user\", \"parts\": [".to_vec(),
        ),
        ("truncated-string", b"{\"role\": \"us".to_vec()),
        ("close-brace", b"}".to_vec()),
        ("single-quotes", b"{'role': 'user'}".to_vec()),
        ("trailing-comma", b"{\"role\": \"user\",}".to_vec()),
        ("nan", b"NaN".to_vec()),
        ("bare-word", b"hello".to_vec()),
        ("invalid-utf8", vec![0xff, 0xfe, 0xfd, b'\n']),
        ("utf8-in-string", b"{\"role\": \"\xc3\x28\"}".to_vec()),
        ("nul-bytes", vec![0, 0, 0, b'\n']),
        ("lone-surrogate", b"{\"role\": \"\\ud800\"}".to_vec()),
        ("deep-nesting", deep.into_bytes()),
        ("control-chars", b"{\"role\": \"a\x01b\"}".to_vec()),
        ("comment", b"// comment\n{}".to_vec()),
    ]
}

/// Valid JSON of a shape no consumer accepts.
fn wrong_shape() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("number", b"1".to_vec()),
        ("string", b"\"text\"".to_vec()),
        ("boolean", b"true".to_vec()),
        ("role-number", b"{\"role\": 5, \"parts\": []}".to_vec()),
        (
            "parts-string",
            b"{\"role\": \"user\", \"parts\": \"hi\"}".to_vec(),
        ),
        (
            "huge-number",
            b"{\"role\": \"user\", \"parts\": [], \"n\": 1e999999}".to_vec(),
        ),
        (
            "tool-name-number",
            b"{\"type\": \"tool\", \"name\": 7, \"args\": {}}".to_vec(),
        ),
        ("unknown-type", b"{\"type\": \"teleport\"}".to_vec()),
        ("array-of-numbers", b"[1, 2, 3]".to_vec()),
    ]
}

fn case(label: String, bin: &'static str, args: &[&str], stdin: Vec<u8>, must_fail: bool) -> Case {
    Case {
        label,
        bin,
        args: args.iter().map(std::string::ToString::to_string).collect(),
        stdin,
        must_fail,
    }
}

/// Commands that read JSON from stdin, with whether empty input is valid.
fn stdin_consumers(session: &str, state: &str) -> Vec<(&'static str, Vec<String>, bool)> {
    let owned = |v: &[&str]| {
        v.iter()
            .map(std::string::ToString::to_string)
            .collect::<Vec<_>>()
    };
    vec![
        ("ollm-loopcheck", owned(&[]), true),
        ("ollm-loopcheck", owned(&["--stream"]), true),
        ("ollm-loopcheck", owned(&["--state", state]), true),
        ("ollm-session", owned(&["record", session]), false),
        (
            "ollm-session",
            owned(&["snapshot", "create", session, "--stdin"]),
            false,
        ),
    ]
}

fn invalid_ids() -> Vec<&'static str> {
    vec![
        "../../etc/passwd",
        "/etc/passwd",
        "..",
        "",
        "not-a-uuid",
        "550e8400-e29b-41d4-a716-446655440000/../x",
        "550e8400-e29b-41d4-a716-44665544000g",
    ]
}

/// `not_a_dir` is a path under a regular file: no one, root included, can
/// create it.
fn corpus(session: &str, state: &str, bad_config: &str, not_a_dir: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for (bin, args, empty_ok) in stdin_consumers(session, state) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        for (label, payload) in malformed() {
            cases.push(case(
                format!("{bin} {args:?} <{label}>"),
                bin,
                &args,
                payload,
                true,
            ));
        }
        for (label, payload) in wrong_shape() {
            cases.push(case(
                format!("{bin} {args:?} <{label}>"),
                bin,
                &args,
                payload,
                true,
            ));
        }
        cases.push(case(
            format!("{bin} {args:?} <empty>"),
            bin,
            &args,
            Vec::new(),
            !empty_ok,
        ));
    }

    let unknown = "00000000-0000-4000-8000-000000000000";
    for id in invalid_ids().into_iter().chain([unknown]) {
        for args in [
            vec!["get", id],
            vec!["export", id],
            vec!["delete", id],
            vec!["branch", id, "--at", "0"],
            vec!["branches", id],
            vec!["scan", id],
            vec!["redact", id],
            vec!["snapshot", "create", id],
            vec!["snapshot", "list", id],
        ] {
            cases.push(case(
                format!("ollm-session {args:?}"),
                "ollm-session",
                &args,
                Vec::new(),
                true,
            ));
        }
        cases.push(case(
            format!("ollm-session record {id}"),
            "ollm-session",
            &["record", id, "--role", "user", "--text", "x"],
            Vec::new(),
            true,
        ));
        cases.push(case(
            format!("ollm-context --session {id}"),
            "ollm-context",
            &["list", "--session", id],
            Vec::new(),
            id != unknown,
        ));
    }

    let flag_cases: Vec<(&'static str, Vec<&str>)> = vec![
        ("ollm-context", vec!["add", "k", "v", "--priority", "abc"]),
        (
            "ollm-context",
            vec!["add", "k", "v", "--priority", "99999999999999999999999"],
        ),
        ("ollm-context", vec!["add", "k", "v", "--ttl", "-5"]),
        ("ollm-context", vec!["add", "k", "v", "--ttl", "5x"]),
        (
            "ollm-context",
            vec!["add", "k", "v", "--ttl", "99999999999999999999d"],
        ),
        ("ollm-context", vec!["add", "k", "v", "--source", "wizard"]),
        ("ollm-context", vec!["add", "", "v"]),
        (
            "ollm-context",
            vec!["add", "k", "--from-file", "/nonexistent/file"],
        ),
        ("ollm-context", vec!["get", "missing-key"]),
        ("ollm-context", vec!["remove", "missing-key"]),
        ("ollm-context", vec!["--file", not_a_dir, "add", "k", "v"]),
        ("ollm-context", vec!["frobnicate"]),
        ("ollm-session", vec!["create", "--max-sessions", "-1"]),
        ("ollm-session", vec!["cleanup", "--keep", "lots"]),
        ("ollm-session", vec!["list", "--limit", "-3"]),
        ("ollm-session", vec!["search", "(unclosed", "--regex"]),
        ("ollm-session", vec!["branch", session, "--at", "99999"]),
        ("ollm-session", vec!["branch", session, "--at", "-1"]),
        ("ollm-session", vec!["snapshot", "show", "no-such-snapshot"]),
        ("ollm-session", vec!["clear", "--all"]),
        (
            "ollm-session",
            vec!["record", session, "--role", "wizard", "--text", "x"],
        ),
        ("ollm-session", vec!["export", session, "--format", "pdf"]),
        ("ollm-loopcheck", vec!["/nonexistent/events.ndjson"]),
        ("ollm-loopcheck", vec!["--bogus"]),
        ("ollm-env", vec!["run"]),
        ("ollm-env", vec!["run", "--set", "=x", "--", "true"]),
        ("ollm-env", vec!["explain"]),
        ("ollm", vec!["no-such-tool"]),
        ("ollm", vec!["help", "no-such-tool"]),
    ];
    // Loop checking accepts any JSON as arguments (OpenAI sends them as a
    // JSON string); a stored tool call's `args` must be an object.
    let tool_call = br#"{"id":"c","name":"x","args":"no","result":{"llmContent":"r"}}"#;
    cases.push(case(
        "session record <args-string>".into(),
        "ollm-session",
        &["record", session],
        tool_call.to_vec(),
        true,
    ));
    cases.push(case(
        "loopcheck state under a regular file".into(),
        "ollm-loopcheck",
        &["--state", not_a_dir],
        b"{\"type\":\"turn\"}\n".to_vec(),
        true,
    ));
    for (bin, args) in flag_cases {
        cases.push(case(
            format!("{bin} {args:?}"),
            bin,
            &args,
            Vec::new(),
            true,
        ));
    }

    for bin in [
        "ollm",
        "ollm-env",
        "ollm-session",
        "ollm-loopcheck",
        "ollm-context",
    ] {
        for config in [bad_config, "/nonexistent/config.yaml"] {
            cases.push(case(
                format!("{bin} --config {config} config"),
                bin,
                &["--config", config, "config"],
                Vec::new(),
                true,
            ));
        }
    }
    cases
}

#[test]
fn every_bad_input_gets_one_line_and_a_documented_code_and_loses_nothing() {
    let sandbox = Sandbox::new();
    let created = json(
        &sandbox
            .cmd("ollm-session")
            .args(["create", "--model", "m", "--provider", "p"])
            .output()
            .unwrap(),
    );
    let session = created["sessionId"].as_str().unwrap().to_string();
    for text in ["first", "second", "third"] {
        sandbox
            .cmd("ollm-session")
            .args(["record", &session, "--role", "user", "--text", text])
            .assert()
            .success();
    }
    sandbox
        .cmd("ollm-context")
        .args(["add", "a", "alpha"])
        .assert()
        .success();
    sandbox
        .cmd("ollm-context")
        .args(["add", "b", "beta"])
        .assert()
        .success();
    let before_session = sandbox
        .cmd("ollm-session")
        .args(["get", &session])
        .output()
        .unwrap();
    let before_context = sandbox.cmd("ollm-context").arg("list").output().unwrap();

    let state = sandbox.work.join("loop-state.json").display().to_string();
    let bad_config = sandbox
        .write("bad.yaml", "services: [unclosed\n")
        .display()
        .to_string();
    let file = sandbox.write("a-file", "x");
    let not_a_dir = file.join("store.json").display().to_string();
    let cases = corpus(&session, &state, &bad_config, &not_a_dir);
    assert!(cases.len() >= 200, "only {} cases", cases.len());

    let mut failures = Vec::new();
    for case in &cases {
        let output = sandbox
            .cmd(case.bin)
            .args(&case.args)
            .write_stdin(case.stdin.clone())
            .output()
            .unwrap();
        let code = output.status.code();
        let err = stderr(&output);
        let lines: Vec<&str> = err.lines().collect();
        let problem = if err.contains("panicked") || code == Some(70) || code == Some(101) {
            Some("panicked".to_string())
        } else if code.is_none() {
            Some("killed by a signal".to_string())
        } else if code == Some(0) {
            case.must_fail.then(|| "accepted".to_string())
        } else if !DOCUMENTED.contains(&code.unwrap_or(-1)) {
            Some(format!("undocumented exit code {code:?}"))
        } else if lines.len() != 1 || !lines[0].starts_with(&format!("{}: ", case.bin)) {
            Some(format!("not one prefixed line: {err:?}"))
        } else {
            None
        };
        if let Some(problem) = problem {
            failures.push(format!("{}: {problem}", case.label));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );

    let after_session = sandbox
        .cmd("ollm-session")
        .args(["get", &session])
        .output()
        .unwrap();
    assert_eq!(
        json(&before_session),
        json(&after_session),
        "the session changed"
    );
    let after_context = sandbox.cmd("ollm-context").arg("list").output().unwrap();
    assert_eq!(
        json(&before_context),
        json(&after_context),
        "the context store changed"
    );
}

#[test]
fn a_hundred_megabyte_line_is_refused_not_read_into_a_record() {
    let sandbox = Sandbox::new();
    let created = json(
        &sandbox
            .cmd("ollm-session")
            .args(["create", "--model", "m", "--provider", "p"])
            .output()
            .unwrap(),
    );
    let session = created["sessionId"].as_str().unwrap().to_string();
    let mut line = b"{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"".to_vec();
    line.resize(100 * 1024 * 1024, b'a');
    line.extend_from_slice(b"\"}]}\n");
    for (bin, args) in [
        ("ollm-session", vec!["record", session.as_str()]),
        ("ollm-loopcheck", vec!["--stream"]),
    ] {
        let output = sandbox
            .cmd(bin)
            .args(&args)
            .write_stdin(line.clone())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{bin}: {}", stderr(&output));
        crate::support::assert_one_line_error(&output, bin);
    }
    let got = json(
        &sandbox
            .cmd("ollm-session")
            .args(["get", &session])
            .output()
            .unwrap(),
    );
    assert_eq!(got["messages"].as_array().unwrap().len(), 0);
}
