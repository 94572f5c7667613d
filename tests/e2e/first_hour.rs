//! What a newcomer trips over in the first hour (issue 17), each pinned by
//! a test named after the trip.

use serde_json::{Value, json};

use crate::support::{
    Sandbox, assert_one_line_error, at_a_terminal, bin_path, json, stderr, stdout,
};

/// A session with two messages and one tool call.
fn a_session(sb: &Sandbox) -> String {
    let out = sb.session(&["create", "--model", "m", "--provider", "p"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let id = json(&out)["sessionId"].as_str().unwrap().to_string();
    for args in [
        vec!["record", &id, "--role", "user", "--text", "Read a.txt"],
        vec![
            "record",
            &id,
            "--tool",
            "read_file",
            "--args",
            r#"{"path":"a.txt"}"#,
            "--result",
            "hello",
        ],
        vec![
            "record",
            &id,
            "--role",
            "assistant",
            "--text",
            "It says hello.",
        ],
    ] {
        let out = sb.session(&args);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    id
}

fn a_history(sb: &Sandbox) -> std::path::PathBuf {
    let messages: Vec<Value> = [
        ("system", "You are helpful."),
        ("user", "hello there"),
        (
            "assistant",
            "Hi! How can I help you today with your project?",
        ),
        ("user", "tell me more"),
        ("assistant", "Sure, here is more."),
    ]
    .iter()
    .enumerate()
    .map(|(i, (role, text))| {
        json!({"role": role, "parts": [{"type": "text", "text": text}],
               "timestamp": format!("2024-01-01T00:00:0{i}Z")})
    })
    .collect();
    sb.write("history.json", &Value::Array(messages).to_string())
}

#[test]
fn a_data_dir_that_does_not_exist_is_an_error_not_an_empty_store() {
    let sb = Sandbox::new();
    let typo = sb.work.join("typo");
    let out = sb.session(&["list", "--data-dir", typo.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-session");
    assert!(
        stderr(&out).contains("no such session data directory"),
        "{}",
        stderr(&out)
    );
    let out = sb
        .cmd("ollm-session")
        .env("OLLM_SESSION_DATA_DIR", &typo)
        .args(["search", "x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(!typo.exists(), "nothing is created by a read");

    // The default store not existing yet is simply empty.
    let out = sb.session(&["list"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out), json!([]));
    // `create` makes a named directory.
    let out = sb.session(&[
        "create",
        "--model",
        "m",
        "--provider",
        "p",
        "--data-dir",
        typo.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = sb.session(&["list", "--data-dir", typo.to_str().unwrap()]);
    assert_eq!(json(&out).as_array().unwrap().len(), 1);
}

#[test]
fn export_to_a_md_file_writes_markdown_unless_format_says_otherwise() {
    let sb = Sandbox::new();
    let id = a_session(&sb);
    let out = sb.session(&["export", &id, "--output", "chat.md"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let written = std::fs::read_to_string(sb.work.join("chat.md")).unwrap();
    assert!(written.starts_with("# "), "{written}");
    assert!(written.contains("It says hello."), "{written}");

    let out = sb.session(&["export", &id, "--output", "raw.md", "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let written = std::fs::read_to_string(sb.work.join("raw.md")).unwrap();
    let parsed: Value = serde_json::from_str(&written).unwrap();
    assert_eq!(parsed["sessionId"], id.as_str());

    let out = sb.session(&["export", &id, "--output", "chat.json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let written = std::fs::read_to_string(sb.work.join("chat.json")).unwrap();
    assert!(serde_json::from_str::<Value>(&written).is_ok());
}

#[test]
fn get_messages_in_markdown_shows_only_the_messages() {
    let sb = Sandbox::new();
    let id = a_session(&sb);
    let out = sb.session(&["get", &id, "--messages", "--format", "markdown"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Read a.txt") && text.contains("It says hello."));
    assert!(!text.contains("Tool call"), "no tool calls: {text}");
    assert!(!text.contains("**Session:**"), "no header: {text}");
    let whole = stdout(&sb.session(&["get", &id, "--format", "markdown"]));
    assert!(whole.contains("Tool call") && whole.contains("**Session:**"));
}

#[test]
fn one_tool_call_is_not_1_tool_calls() {
    let sb = Sandbox::new();
    let out = sb.session(&["create", "--model", "m", "--provider", "p"]);
    let id = json(&out)["sessionId"].as_str().unwrap().to_string();
    let out = sb.session(&["record", &id, "--role", "user", "--text", "hi"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = sb.session(&[
        "record", &id, "--tool", "run", "--args", "{}", "--result", "ok",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&sb.session(&["export", &id, "--format", "markdown"]));
    assert!(
        text.contains("1 message, 1 tool call"),
        "singular forms: {text}"
    );
    assert!(text.contains("(compressed 0 times)"), "{text}");
}

#[test]
fn branch_at_1_keeps_the_first_message_only() {
    let sb = Sandbox::new();
    let id = a_session(&sb);
    let out = sb.session(&["branch", &id, "--at", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let branch = json(&out)["sessionId"].as_str().unwrap().to_string();
    let got = json(&sb.session(&["get", &branch, "--messages"]));
    assert_eq!(got.as_array().unwrap().len(), 1, "{got}");
    let help = stdout(&sb.session(&["branch", "--help"]));
    assert!(help.contains("keeps the first N messages"), "{help}");
}

#[test]
fn config_shows_the_data_dir_resolved_and_the_deny_list_in_force() {
    let sb = Sandbox::new();
    let out = sb.cmd("ollm").arg("config").output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let config = json(&out);
    let data_dir = sb.sessions_dir();
    assert_eq!(
        config["services"]["session"]["dataDir"],
        data_dir.to_str().unwrap()
    );
    assert_eq!(
        config["snapshots"]["dir"],
        sb.ollm_home.join("context-snapshots").to_str().unwrap()
    );
    let deny = config["services"]["environment"]["denyPatterns"]
        .as_array()
        .unwrap();
    for pattern in ["*_KEY", "PGPASS*", "*_DSN", "*WEBHOOK*"] {
        assert!(deny.iter().any(|d| d == pattern), "{pattern}: {deny:?}");
    }
    // What is shown is what is in force: for every name a deny pattern
    // removes, that pattern is in the list shown.
    let mut denied = 0;
    for name in [
        "PGPASSWORD",
        "SENTRY_DSN",
        "SLACK_WEBHOOK_URL",
        "DATABASE_URL",
        "REDIS_URL",
        "MONGODB_URI",
        "MY_API_TOKEN",
        "GITHUB_TOKEN",
    ] {
        let out = sb.cmd("ollm-env").args(["explain", name]).output().unwrap();
        let explained = json(&out);
        if explained["rule"] == "deny-pattern" {
            denied += 1;
            assert!(
                deny.contains(&explained["pattern"]),
                "{explained}: {deny:?}"
            );
        }
    }
    assert!(denied >= 5, "the built-in lists remove these");

    let out = sb
        .cmd("ollm")
        .args(["config", "--show-origin"])
        .output()
        .unwrap();
    let rows = json(&out);
    let row = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["key"] == "services.session.dataDir")
        .unwrap();
    assert_eq!(row["value"], data_dir.to_str().unwrap());
    assert_eq!(row["origin"], "default");
}

#[test]
fn the_default_model_server_is_one_story_in_help_and_config() {
    let sb = Sandbox::new();
    let help = stdout(&sb.cmd("ollm-compress").arg("--help").output().unwrap());
    assert!(
        help.contains("http://127.0.0.1:11434") && help.contains("llama3.2:3b"),
        "{help}"
    );
    let config = json(&sb.cmd("ollm").arg("config").output().unwrap());
    let summarizer = &config["services"]["compression"]["summarizer"];
    assert_eq!(summarizer["url"], "http://127.0.0.1:11434");
    assert_eq!(summarizer["model"], "llama3.2:3b");
    for example in ["agent.py", "agent.sh"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples")
            .join(example);
        let source = std::fs::read_to_string(path).unwrap();
        assert!(
            source.contains("http://127.0.0.1:11434") && source.contains("llama3.2:3b"),
            "{example} defaults to the same server"
        );
    }
}

#[test]
fn an_unreachable_summarizer_is_named_in_the_result() {
    let sb = Sandbox::new();
    let history = a_history(&sb);
    for (args, status) in [
        (vec!["--preserve-recent", "0"], "rejected-not-smaller"),
        (
            vec!["--strategy", "summarize", "--token-limit", "30"],
            "fallback-truncate",
        ),
    ] {
        let out = sb
            .cmd("ollm-compress")
            .args(["--force", "--summarizer-url", "http://127.0.0.1:9"])
            .args(&args)
            .arg(&history)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let result = json(&out);
        assert_eq!(result["status"], status, "{result}");
        let error = result["summarizerError"].as_str().unwrap_or_default();
        assert!(
            error.contains("http://127.0.0.1:9") && error.contains("no server answers"),
            "{result}"
        );
        assert!(
            result["reason"]
                .as_str()
                .unwrap()
                .contains("summarizer failed"),
            "{result}"
        );
        assert!(
            stderr(&out).contains("no server answers"),
            "{}",
            stderr(&out)
        );
    }
    let out = sb
        .cmd("ollm-compress")
        .args(["--strategy", "truncate", "--force"])
        .arg(&history)
        .output()
        .unwrap();
    assert_eq!(json(&out)["summarizerError"], Value::Null);
}

#[test]
fn a_refused_tokenizer_server_is_not_invalid_input() {
    let sb = Sandbox::new();
    let history = a_history(&sb);
    let out = sb
        .cmd("ollm-compress")
        .args([
            "count",
            "--tokenizer",
            "server",
            "--tokenizer-url",
            "http://127.0.0.1:9",
        ])
        .arg(&history)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("tokenizer server http://127.0.0.1:9/tokenize: no server answers"),
        "{err}"
    );
    assert!(!err.contains("invalid input"), "{err}");
    let result = json(&out);
    assert_eq!(result["tokenizer"], "cl100k_base");
    let error = result["tokenizerError"].as_str().unwrap_or_default();
    assert!(error.contains("no server answers"), "{result}");
    for command in [&["check"][..], &["compress", "--force"][..]] {
        let out = sb
            .cmd("ollm-compress")
            .args(command)
            .args([
                "--tokenizer",
                "server",
                "--tokenizer-url",
                "http://127.0.0.1:9",
            ])
            .arg(&history)
            .output()
            .unwrap();
        let result = json(&out);
        let error = result["tokenizerError"].as_str().unwrap_or_default();
        assert!(error.contains("no server answers"), "{command:?}: {result}");
    }
    let out = sb
        .cmd("ollm-compress")
        .arg("count")
        .arg(&history)
        .output()
        .unwrap();
    assert_eq!(json(&out)["tokenizerError"], Value::Null);
}

#[test]
fn loopcheck_and_compress_do_not_wait_silently_on_a_terminal() {
    let sb = Sandbox::new();
    let cases = [
        (
            "ollm-loopcheck",
            "",
            "nothing to check: pipe NDJSON events in",
        ),
        (
            "ollm-compress",
            "",
            "nothing to compress: pipe a JSON history in",
        ),
        (
            "ollm-compress",
            " count",
            "nothing to count: pipe a JSON history in",
        ),
    ];
    for (program, args, hint) in cases {
        let argv = format!("{}{args}", bin_path(program).display());
        let Some((output, code)) = at_a_terminal(&sb, &argv) else {
            return;
        };
        assert_eq!(code, Some(2), "{output}");
        assert!(output.contains(hint), "{program}{args}: {output}");
    }
    // The session exists: record gives the same hint, from the same function.
    let id = a_session(&sb);
    let argv = format!("{} record {id}", bin_path("ollm-session").display());
    if let Some((output, code)) = at_a_terminal(&sb, &argv) {
        assert_eq!(code, Some(2), "{output}");
        assert!(output.contains("nothing to record: pipe JSON records in"));
    }
}
