//! The wire types' JSON Schemas (`ollm::wire`, from which the Python and
//! TypeScript clients' types are generated) describe what the programs
//! really print: each test runs the built programs and checks their output
//! against the schema of the type the clients read it as.

pub(crate) mod validate;

use std::path::Path;

use serde_json::{Value, json};

use crate::support::{Sandbox, stderr, stdout};

/// The JSON values of `output`'s stdout: one document, or one a line.
fn values(output: &std::process::Output) -> Vec<Value> {
    let text = stdout(output);
    if let Ok(one) = serde_json::from_str::<Value>(&text) {
        return vec![one];
    }
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// Fails with every place where `value` (an array is read item by item)
/// does not fit the wire type `name`.
#[track_caller]
fn assert_fits(name: &str, value: &Value) {
    let schemas = ollm::ollm::wire::schemas();
    let schema = schemas
        .get(name)
        .unwrap_or_else(|| panic!("no wire type {name}"));
    let items = match value {
        Value::Array(items) => items.clone(),
        one => vec![one.clone()],
    };
    assert!(!items.is_empty(), "{name}: nothing printed");
    for item in &items {
        let problems = validate::problems(item, schema, &schemas);
        assert!(problems.is_empty(), "{name}: {problems:#?}\nin {item}");
    }
}

#[track_caller]
fn ran(output: std::process::Output) -> std::process::Output {
    assert!(
        output.status.code().is_some_and(|c| c <= 1),
        "{}",
        stderr(&output)
    );
    output
}

#[track_caller]
fn assert_printed(name: &str, output: std::process::Output) -> Value {
    let values = values(&ran(output));
    let value = if values.len() == 1 {
        values.into_iter().next().unwrap()
    } else {
        Value::Array(values)
    };
    assert_fits(name, &value);
    value
}

#[test]
fn the_session_programs_print_their_wire_types() {
    let sb = Sandbox::new();
    let created = assert_printed(
        "Created",
        sb.session(&["create", "--model", "m", "--provider", "p", "--title", "t"]),
    );
    let id = created["sessionId"].as_str().unwrap().to_string();
    let record = |record: Value| {
        sb.cmd("ollm-session")
            .args(["record", &id, "-"])
            .write_stdin(record.to_string())
            .output()
            .unwrap()
    };
    for text in ["find the parser", "it is in src/parse.rs"] {
        let role = if text.starts_with("find") {
            "user"
        } else {
            "assistant"
        };
        assert_printed(
            "RecordAck",
            record(json!({"role": role, "parts": [{"type": "text", "text": text}]})),
        );
    }
    let call = json!({"id": "c1", "name": "grep", "args": {"q": "parser"}, "result": {"llmContent": "src/parse.rs"}});
    assert_printed("RecordAck", record(call));
    assert_printed(
        "SessionDocument",
        sb.session(&["get", &id, "--format", "json"]),
    );
    assert_printed("SessionSummary", sb.session(&["list", "--format", "json"]));
    assert_printed("SearchHit", sb.session(&["search", "parser"]));
    let branch = assert_printed("Created", sb.session(&["branch", &id, "--at", "1"]));
    let child = branch["sessionId"].as_str().unwrap();
    // The branch's header and summary carry the fields the clients lacked.
    let doc = assert_printed(
        "SessionDocument",
        sb.session(&["get", child, "--format", "json"]),
    );
    assert_eq!(doc["branchPoint"], 1);
    let rows = assert_printed("SessionSummary", sb.session(&["list", "--format", "json"]));
    assert!(
        rows.as_array()
            .unwrap()
            .iter()
            .any(|r| r["parentSessionId"] == id.as_str()),
        "{rows}"
    );
    assert_printed("Renamed", sb.session(&["rename", &id, "parser hunt"]));
    assert_printed(
        "CleanupResult",
        sb.session(&["cleanup", "--keep", "1", "--dry-run"]),
    );
    assert_printed("Deleted", sb.session(&["delete", child]));
}

/// Sessions imported from real transcripts of other agents (read in
/// place): every role and field they hold is one the clients' types name.
#[test]
fn sessions_imported_from_real_transcripts_fit_the_session_document() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/importer-fixtures");
    if !fixtures.is_dir() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true and no {}",
            fixtures.display()
        );
        eprintln!("SKIPPED: no importer fixtures at {}", fixtures.display());
        return;
    }
    let sb = Sandbox::new();
    for (tool, fixture) in [
        ("claude", "claude/spotter-tool-heavy"),
        ("claude", "claude/spotter-compaction"),
        ("codex", "codex/agent-history-exec"),
        ("gemini", "gemini/agent-history-legacy-json"),
    ] {
        let out = sb
            .cmd("ollm-session")
            .args(["import", "--from", tool])
            .arg(fixtures.join(fixture))
            .output()
            .unwrap();
        assert!(out.status.success(), "{fixture}: {}", stderr(&out));
    }
    let listed = assert_printed("SessionSummary", sb.session(&["list", "--format", "json"]));
    let listed = listed.as_array().unwrap();
    assert!(listed.len() >= 4, "{listed:?}");
    for summary in listed {
        let id = summary["sessionId"].as_str().unwrap();
        assert_printed(
            "SessionDocument",
            sb.session(&["get", id, "--format", "json"]),
        );
    }
}

fn conversation() -> Value {
    let mut messages =
        vec![json!({"role": "system", "parts": [{"type": "text", "text": "You are terse."}]})];
    for i in 0..12 {
        let text = format!("turn {i}: {}", "explain the parser again ".repeat(20));
        let role = if i % 2 == 0 { "user" } else { "assistant" };
        messages.push(json!({"role": role, "parts": [{"type": "text", "text": text}]}));
    }
    let calls = json!([{"id": "c1", "name": "grep", "args": {"q": "x"}, "result": {"llmContent": "found"}, "timestamp": "2024-01-15T10:30:27.690Z"}]);
    json!({"messages": messages, "toolCalls": calls})
}

#[test]
fn compress_and_loopcheck_print_their_wire_types() {
    let sb = Sandbox::new();
    let history = conversation().to_string();
    let compress = |args: &[&str]| {
        sb.cmd("ollm-compress")
            .args(args)
            .write_stdin(history.clone())
            .output()
            .unwrap()
    };
    assert_printed("TokenCount", compress(&["count", "-"]));
    assert_printed(
        "CompressionCheck",
        compress(&["check", "-", "--token-limit", "200"]),
    );
    let result = assert_printed(
        "CompressionResult",
        compress(&["--strategy", "truncate", "--token-limit", "400", "--force"]),
    );
    assert_eq!(result["status"], "compressed", "{result}");
    let events = [
        json!({"type": "turn"}),
        json!({"type": "user", "text": "go"}),
    ]
    .into_iter()
    .chain(std::iter::repeat_n(
        json!({"type": "tool", "name": "ls", "args": {"p": "."}}),
        6,
    ))
    .map(|e| {
        assert_fits("LoopEvent", &e);
        e.to_string() + "\n"
    })
    .collect::<String>();
    let verdict = assert_printed(
        "LoopVerdict",
        sb.cmd("ollm-loopcheck")
            .write_stdin(events)
            .output()
            .unwrap(),
    );
    assert_eq!(verdict["loop"], true, "{verdict}");
}

#[test]
fn context_discover_and_env_print_their_wire_types() {
    let sb = Sandbox::new();
    let context = |args: &[&str]| sb.cmd("ollm-context").args(args).output().unwrap();
    assert_printed(
        "ContextAdded",
        context(&["add", "style", "Use tabs.", "--ttl", "1h"]),
    );
    assert_printed("ContextAdded", context(&["add", "notes", "Run the tests."]));
    assert_printed("ContextEntry", context(&["list"]));
    assert_printed("ContextRemoved", context(&["remove", "notes"]));
    let tree = sb.work.join("tree");
    std::fs::create_dir_all(tree.join("src")).unwrap();
    std::fs::write(tree.join("src/main.rs"), "fn main() {}\n").unwrap();
    assert_printed(
        "FileEntry",
        sb.cmd("ollm-discover").arg(&tree).output().unwrap(),
    );
    let env = |args: &[&str]| {
        sb.cmd("ollm-env")
            .args(args)
            .env("AWS_SECRET_ACCESS_KEY", "x")
            .env("LC_ALL", "C")
            .output()
            .unwrap()
    };
    let report = assert_printed("EnvReport", env(&["report"]));
    assert!(
        !report["removed"].as_array().unwrap().is_empty(),
        "{report}"
    );
    assert_printed("EnvExplanation", env(&["explain", "AWS_SECRET_ACCESS_KEY"]));
    assert_printed("EnvExplanation", env(&["explain", "LC_ALL"]));
}
