//! Issue 47: the credentials-in-context corpus imported from each of the
//! five agents' formats, as prompts, tool arguments and tool results, from
//! a working directory, title and model that hold a token: none is stored,
//! none is shown, and the look-alikes are stored as they were.

use std::path::{Path, PathBuf};

use rusqlite::Connection;
use serde_json::{Value, json};

use super::{codex, gemini, goose, import, opencode};
use crate::support::{Sandbox, stdout};

use crate::credential_contexts::{self as corpus, Entry, Form};

/// Tokens in what a source says about a session, not in its records.
const IN_CWD: &str = "ghp_CwdQ8nX2tB7wK5rL9cJ3hF6sA1pZ0eYw4Dir";
const IN_TITLE: &str = "sk-proj-TitleQ9nX5tB2wK8rL4cJ7dF1sA6pZ0";
const IN_MODEL: &str = "glpat-ModelN3xT9bK2wR5cL8j";

/// A tool call's arguments for `entry`: its own for an `args` entry, else
/// its text as a command.
fn args_of(entry: &Entry) -> Value {
    match entry.form {
        Form::Args => serde_json::from_str(&entry.body).unwrap(),
        Form::Text => json!({"command": entry.body}),
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn at(seconds: usize) -> String {
    format!("2026-02-03T10:{:02}:{:02}.000Z", seconds / 60, seconds % 60)
}

/// What the user says for `entry`: its text, or a request to run the tool
/// whose arguments it is (a prompt is text, never arguments).
fn prompt_of(entry: &Entry) -> &str {
    match entry.form {
        Form::Text => &entry.body,
        Form::Args => "run it",
    }
}

fn claude(sb: &Sandbox, cwd: &Path, entries: &[Entry]) -> PathBuf {
    let session = "c0ffee00-1111-4222-8333-444455556666";
    let mut lines = Vec::new();
    let mut parent = Value::Null;
    let mut push = |kind: &str, message: Value| {
        let uuid = format!("{session}-{}", lines.len());
        lines.push(
            json!({"parentUuid": parent, "isSidechain": false, "userType": "external",
                "cwd": cwd, "sessionId": session, "version": "2.0.14", "type": kind,
                "uuid": uuid, "timestamp": at(lines.len()), "message": message})
            .to_string(),
        );
        parent = Value::from(uuid);
    };
    for (n, entry) in entries.iter().enumerate() {
        let tool = format!("toolu_{n:04}");
        push("user", json!({"role": "user", "content": prompt_of(entry)}));
        push(
            "assistant",
            json!({"id": format!("msg_{n:04}"), "type": "message", "role": "assistant",
                "model": format!("claude-sonnet-4-5 {IN_MODEL}"),
                "content": [{"type": "tool_use", "id": tool, "name": "Bash", "input": args_of(entry)}]}),
        );
        push(
            "user",
            json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool,
                "content": entry.body, "is_error": false}]}),
        );
    }
    let path = sb
        .work
        .join(format!("sources/claude/projects/-srv-app/{session}.jsonl"));
    write(&path, &(lines.join("\n") + "\n"));
    path
}

fn codex(sb: &Sandbox, cwd: &Path, entries: &[Entry]) -> PathBuf {
    let id = "0199a1b2-c3d4-7e5f-8a9b-0000000000c7";
    let mut lines = vec![
        codex::meta(id, cwd, "codex_cli_rs", "cli"),
        codex::line(
            &at(0),
            "turn_context",
            json!({"cwd": cwd, "model": format!("gpt-5 {IN_MODEL}")}),
        ),
    ];
    for (n, entry) in entries.iter().enumerate() {
        let call = format!("call_{n}");
        lines.extend([
            codex::item(
                &at(3 * n + 1),
                codex::text("user", "input_text", prompt_of(entry)),
            ),
            codex::item(
                &at(3 * n + 2),
                json!({"type": "function_call", "name": "shell",
                    "arguments": args_of(entry).to_string(), "call_id": call}),
            ),
            codex::item(
                &at(3 * n + 3),
                json!({"type": "function_call_output", "call_id": call,
                    "output": json!({"output": entry.body, "metadata": {"exit_code": 0}}).to_string()}),
            ),
        ]);
    }
    let path = sb.work.join(format!(
        "sources/codex/sessions/2026/02/03/rollout-2026-02-03T10-00-00-{id}.jsonl"
    ));
    write(&path, &(lines.join("\n") + "\n"));
    path
}

fn gemini(sb: &Sandbox, cwd: &Path, entries: &[Entry]) -> PathBuf {
    let mut records = vec![gemini::header("5c3e8f2a-1b4d-4e6f-9a0b-0000000000c7", cwd)];
    for (n, entry) in entries.iter().enumerate() {
        let call = format!("c{n}");
        records.push(gemini::user(
            &format!("u{n}"),
            &at(2 * n + 1),
            prompt_of(entry),
        ));
        let result = json!([{"functionResponse": {"id": call, "name": "run_shell_command",
            "response": {"output": entry.body}}}]);
        records.push(gemini::gemini(
            &format!("g{n}"),
            &at(2 * n + 2),
            "Ran it.",
            json!([{"id": call, "name": "run_shell_command", "args": args_of(entry),
                "result": result, "status": "success", "timestamp": at(2 * n + 2),
                "resultDisplay": entry.body}]),
        ));
    }
    let path = sb
        .work
        .join("sources/gemini/tmp/shop/chats/session-2026-02-03T10-00-5c3e8f2a.jsonl");
    write(&path, &gemini::lines(&records));
    path
}

fn goose(sb: &Sandbox, cwd: &Path, entries: &[Entry]) -> PathBuf {
    let path = sb.work.join("sources/goose/sessions.db");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let db = goose::Db(Connection::open(&path).unwrap());
    db.0.execute_batch(goose::SCHEMA).unwrap();
    let id = "20260203_1";
    db.session(id, &format!("deploy with {IN_TITLE}"), cwd);
    for (n, entry) in entries.iter().enumerate() {
        let call = format!("toolu_{n}");
        let n = i64::try_from(n).unwrap();
        db.message(
            id,
            &format!("u{n}"),
            "user",
            3 * n,
            json!([goose::text(prompt_of(entry))]),
            true,
        );
        db.message(
            id,
            &format!("a{n}"),
            "assistant",
            3 * n + 1,
            json!([goose::request(&call, "developer__shell", args_of(entry))]),
            true,
        );
        db.message(
            id,
            &format!("r{n}"),
            "user",
            3 * n + 2,
            json!([goose::response(&call, goose::ok(&entry.body))]),
            true,
        );
    }
    path
}

fn opencode(sb: &Sandbox, cwd: &Path, entries: &[Entry]) -> PathBuf {
    let path = sb.work.join("sources/opencode/opencode.db");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let db = opencode::Db(Connection::open(&path).unwrap());
    db.0.execute_batch(opencode::SCHEMA).unwrap();
    let id = "ses_contexts";
    db.session(id, cwd, &format!("deploy with {IN_TITLE}"));
    let t0 = opencode::T0;
    for (n, entry) in entries.iter().enumerate() {
        let ms = i64::try_from(n).unwrap() * 2000;
        let (user, answer) = (format!("msg_{n:04}_u"), format!("msg_{n:04}_a"));
        db.message(
            id,
            &user,
            ms,
            json!({"role": "user", "time": {"created": t0 + ms}}),
        );
        db.part(
            id,
            &user,
            &format!("prt_{n:04}_u"),
            json!({"type": "text", "text": prompt_of(entry)}),
        );
        db.message(id, &answer, ms + 1000, json!({"role": "assistant",
            "time": {"created": t0 + ms + 1000, "completed": t0 + ms + 1500},
            "modelID": format!("claude {IN_MODEL}"), "providerID": "anthropic", "path": {"cwd": cwd, "root": cwd}}));
        db.part(
            id,
            &answer,
            &format!("prt_{n:04}_a"),
            opencode::tool(
                &format!("call_{n}"),
                "bash",
                json!({"status": "completed", "input": args_of(entry), "output": entry.body,
                    "title": "run", "metadata": {}, "time": {"start": t0 + ms + 1000, "end": t0 + ms + 1200}}),
            ),
        );
    }
    path
}

/// Every message text of a stored session.
fn texts(session: &Value) -> Vec<String> {
    session["messages"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["parts"].as_array().cloned().unwrap_or_default())
        .filter_map(|p| p["text"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn no_credential_in_context_is_imported_from_any_agent_and_look_alikes_stay() {
    let sb = Sandbox::new();
    let entries = corpus::entries();
    let cwd = sb.work.join(format!("srv/{IN_CWD}/app"));
    std::fs::create_dir_all(&cwd).unwrap();
    let sources: [(&str, PathBuf); 5] = [
        ("claude", claude(&sb, &cwd, &entries)),
        ("codex", codex(&sb, &cwd, &entries)),
        ("gemini", gemini(&sb, &cwd, &entries)),
        ("goose", goose(&sb, &cwd, &entries)),
        ("opencode", opencode(&sb, &cwd, &entries)),
    ];
    let mut shown = String::new();
    for (tool, path) in &sources {
        let (sessions, summary) = import(&sb, &["--from", tool, &path.display().to_string()]);
        assert_eq!(sessions.len(), 1, "{tool}: {summary}");
        let id = sessions[0]["sessionId"].as_str().unwrap();
        let session = super::get(&sb, id);
        let stored = texts(&session);
        let args: Vec<&Value> = session["toolCalls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|call| &call["args"])
            .collect();
        for entry in entries.iter().filter(|e| e.is_look_alike()) {
            let kept = match entry.form {
                Form::Text => stored.contains(&entry.body),
                Form::Args => args.contains(&&args_of(entry)),
            };
            assert!(kept, "{tool}: look-alike changed or lost: {}", entry.source);
        }
        for command in [
            vec!["get", id],
            vec!["export", id, "--format", "markdown"],
            vec!["list", "--format", "json"],
        ] {
            shown.push_str(&stdout(
                &sb.cmd("ollm-session").args(&command).output().unwrap(),
            ));
        }
    }
    let stored = crate::support::tree(&sb.ollm_home)
        .into_values()
        .flatten()
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .collect::<Vec<_>>()
        .join("\n");
    let secrets = entries
        .iter()
        .flat_map(|e| e.secrets.iter().map(String::as_str))
        .chain([IN_CWD, IN_TITLE, IN_MODEL]);
    for secret in secrets {
        assert!(
            !stored.contains(secret),
            "stored: {secret} in {}",
            stored
                .lines()
                .find(|l| l.contains(secret))
                .unwrap_or_default()
                .chars()
                .take(600)
                .collect::<String>()
        );
        assert!(!shown.contains(secret), "shown: {secret}");
        let found = sb
            .cmd("ollm-session")
            .args(["search", secret])
            .output()
            .unwrap();
        assert!(!stdout(&found).contains(secret), "search: {secret}");
    }
}
