//! The reference agent loops in `examples/` against the real model
//! (`real_model()`: skipped visibly when no server answers), checked by what
//! landed in the session store.
//!
//! The Python agent runs on the `ollm_tools` client installed from the
//! wheel (`package_python::installed()`: a fresh virtual environment), as a
//! user who ran `pip install ollm-tools` would run it.
//!
//! Each turn runs with `--look-first --max-steps 2`: the schema offers no
//! `answer` on the first step and only `answer` on the last, so every turn is
//! exactly one tool call and one answer whatever the model says.

use std::path::PathBuf;
use std::process::Output;
use std::time::Duration;

use serde_json::{Value, json};

use crate::package_python::installed;
use crate::support::{Sandbox, json, real_model, serve, stderr, stdout, terminal_bytes};

const TOOLS: [&str; 3] = ["list_files", "read_file", "run"];

#[derive(Clone, Copy)]
enum Example {
    Python,
    Shell,
}

fn example_path(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(file)
}

/// Whether the example can run: the Python one needs the installed wheel
/// (without the pinned tools to build it, that test says SKIPPED).
fn ready(example: Example) -> bool {
    match example {
        Example::Python => installed().is_some(),
        Example::Shell => true,
    }
}

fn project(sandbox: &Sandbox) {
    sandbox.write("notes.txt", "The build needs cargo 1.85 or later.\n");
    sandbox.write("src/main.rs", "fn main() {\n    println!(\"hi\");\n}\n");
}

/// Runs the example with `args`, plus the model URL and a small budget.
fn agent(
    sandbox: &Sandbox,
    example: Example,
    url: &str,
    env: &[(&str, &str)],
    args: &[&str],
) -> Output {
    let mut cmd = match example {
        Example::Python => {
            let installed = installed().expect("ready() checked the wheel");
            let mut c = sandbox.program(installed.python());
            c.arg(example_path("agent.py"));
            c
        }
        Example::Shell => {
            let mut c = sandbox.program("sh");
            c.arg(example_path("agent.sh"));
            c
        }
    };
    cmd.args(["--model-url", url, "--max-tokens", "96"]);
    for (key, value) in env {
        cmd.env(key, value);
    }
    let out = cmd
        .args(args)
        .timeout(Duration::from_secs(900))
        .output()
        .expect("run the example");
    eprintln!("{}", stderr(&out));
    out
}

fn sessions(sandbox: &Sandbox) -> Vec<Value> {
    let out = sandbox.cmd("ollm-session").arg("list").output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    json(&out).as_array().unwrap().clone()
}

fn last_session(sandbox: &Sandbox) -> Value {
    let out = sandbox
        .cmd("ollm-session")
        .args(["get", "--last", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    json(&out)
}

fn text(message: &Value) -> String {
    message["parts"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["text"].as_str())
        .collect()
}

/// A tool call in the spec's shape, with a non-empty result; a listing shows
/// the project's files and not the agent's own `.ollm/` state.
fn check_tool_call(call: &Value) {
    assert!(!call["id"].as_str().unwrap().is_empty(), "{call}");
    let name = call["name"].as_str().unwrap();
    assert!(TOOLS.contains(&name), "{call}");
    assert!(call["args"].is_object(), "{call}");
    assert!(call["timestamp"].is_string(), "{call}");
    let content = call["result"]["llmContent"].as_str().unwrap();
    assert!(!content.trim().is_empty(), "{call}");
    assert!(!call["result"]["returnDisplay"].as_str().unwrap().is_empty());
    if name == "list_files" {
        assert!(content.contains("notes.txt"), "{call}");
        assert!(!content.contains(".ollm/"), "{call}");
    }
    if name == "run" {
        assert!(content.contains("[exit code"), "{call}");
    }
}

/// Turn 1 in a new session, then `--resume` with a context limit small
/// enough that the history is compressed before the model sees it.
fn a_turn_then_a_resumed_turn(example: Example) {
    if !ready(example) {
        return;
    }
    let Some(url) = real_model() else { return };
    let sandbox = Sandbox::new();
    project(&sandbox);
    let first = "Which files are in this project?";
    let out = agent(
        &sandbox,
        example,
        &url,
        &[],
        &["--look-first", "--max-steps", "2", first],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stdout(&out).trim().is_empty(), "the answer is printed");

    assert_eq!(sessions(&sandbox).len(), 1);
    let session = last_session(&sandbox);
    let messages = session["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 2, "{session}");
    assert_eq!(messages[0]["role"], "user");
    assert_eq!(text(&messages[0]), first);
    assert_eq!(messages[1]["role"], "assistant");
    assert_eq!(text(&messages[1]).trim(), stdout(&out).trim());
    let calls = session["toolCalls"].as_array().unwrap();
    assert_eq!(calls.len(), 1, "{session}");
    check_tool_call(&calls[0]);
    assert_eq!(session["metadata"]["compressionCount"], 0);
    let id = session["sessionId"].as_str().unwrap().to_string();
    assert!(
        sandbox.work.join(format!(".ollm/loop-{id}.json")).is_file(),
        "loopcheck's state is kept per session"
    );

    let second = "What does notes.txt say?";
    let out = agent(
        &sandbox,
        example,
        &url,
        &[],
        &[
            "--resume",
            "--look-first",
            "--max-steps",
            "2",
            "--context-limit",
            "20",
            "--compress-strategy",
            "truncate",
            second,
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("compress"), "{}", stderr(&out));

    assert_eq!(
        sessions(&sandbox).len(),
        1,
        "--resume appends to the same session"
    );
    let session = last_session(&sandbox);
    assert_eq!(session["sessionId"], id.as_str());
    let messages = session["messages"].as_array().unwrap();
    let roles: Vec<&str> = messages
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(
        roles,
        ["user", "assistant", "user", "assistant"],
        "{session}"
    );
    assert_eq!(
        text(&messages[0]),
        first,
        "the store keeps what compression dropped"
    );
    assert_eq!(text(&messages[2]), second);
    let calls = session["toolCalls"].as_array().unwrap();
    assert_eq!(calls.len(), 2, "{session}");
    check_tool_call(&calls[1]);
    assert_eq!(session["metadata"]["compressionCount"], 1, "{session}");
}

/// With a turn limit of 1 and no warning before a stop, the second step of
/// a turn is a runaway: the agent stops with the loop's details (exit 1),
/// after recording the first step.
fn a_loop_stops_the_agent(example: Example) {
    if !ready(example) {
        return;
    }
    let Some(url) = real_model() else { return };
    let sandbox = Sandbox::new();
    project(&sandbox);
    let out = agent(
        &sandbox,
        example,
        &url,
        &[
            ("OLLM_LOOP_DETECTION_MAX_TURNS", "1"),
            ("OLLM_LOOP_DETECTION_WARNINGS_BEFORE_STOP", "0"),
        ],
        &["--look-first", "--max-steps", "3", "List the files."],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("loop detected") && err.contains("turn-limit"),
        "{err}"
    );
    let session = last_session(&sandbox);
    let calls = session["toolCalls"].as_array().unwrap();
    assert!(!calls.is_empty(), "{session}");
    check_tool_call(&calls[0]);
    assert_eq!(session["messages"][0]["role"], "user");
}

/// With the defaults (six steps, the model free to call any tool), SmolLM2
/// calls the same tool over and over: the loop warning makes the next step
/// an answer, so every run records a final answer, and exits 0 unless even
/// that answer loops.
fn every_default_run_ends_with_an_answer(example: Example) {
    if !ready(example) {
        return;
    }
    let Some(url) = real_model() else { return };
    for run in 1..=3 {
        let sandbox = Sandbox::new();
        project(&sandbox);
        let out = agent(
            &sandbox,
            example,
            &url,
            &[],
            &["What does this project do?"],
        );
        let err = stderr(&out);
        match out.status.code() {
            Some(0) => {}
            Some(1) => assert!(err.contains("loop detected"), "run {run}: {err}"),
            code => panic!("run {run}: exit {code:?}: {err}"),
        }
        let session = last_session(&sandbox);
        let messages = session["messages"].as_array().unwrap();
        let last = messages.last().unwrap();
        assert_eq!(last["role"], "assistant", "run {run}: {session}");
        assert!(!text(last).trim().is_empty(), "run {run}: {session}");
        if err.contains("loop warning") {
            // The answer came at the step after the warning.
            assert!(
                session["toolCalls"].as_array().unwrap().len() < 6,
                "run {run}: {session}"
            );
        }
    }
}

/// An unknown session to resume is exit 3, before any model call.
fn resuming_an_unknown_session_is_not_found(example: Example) {
    if !ready(example) {
        return;
    }
    let sandbox = Sandbox::new();
    let out = agent(
        &sandbox,
        example,
        "http://127.0.0.1:9",
        &[],
        &["--resume", "3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1b", "hello"],
    );
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(sessions(&sandbox).is_empty());
}

/// With no model server at the URL the agent stops before creating a
/// session (exit 4), naming what to start and how.
fn an_unreachable_model_leaves_no_session(example: Example) {
    if !ready(example) {
        return;
    }
    let sandbox = Sandbox::new();
    let out = agent(&sandbox, example, "http://127.0.0.1:9", &[], &["hello"]);
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("no model server answers at http://127.0.0.1:9")
            && err.contains("ollama serve")
            && err.contains("--model-url"),
        "{err}"
    );
    assert!(sessions(&sandbox).is_empty(), "no empty session is left");
}

/// Started at a terminal with no message to give, the agent says what to
/// type and shows a prompt, and leaves no empty session behind when input
/// ends at once.
fn an_interactive_run_prompts_and_leaves_no_empty_session(example: Example) {
    if !ready(example) {
        return;
    }
    let sandbox = Sandbox::new();
    let reply = json!({"data": []});
    let (url, _) = serve(reply, Duration::ZERO, 1);
    let command = match example {
        Example::Python => format!(
            "{} {}",
            installed().expect("ready() checked it").python().display(),
            example_path("agent.py").display()
        ),
        Example::Shell => format!("sh {}", example_path("agent.sh").display()),
    };
    let Some((bytes, code)) =
        terminal_bytes(&sandbox, &format!("{command} --model-url {url}"), &[])
    else {
        return;
    };
    let shown = String::from_utf8_lossy(&bytes);
    assert_eq!(code, Some(0), "{shown}");
    assert!(
        shown.contains("type a message; an empty line or end of input (ctrl-d) stops")
            && shown.contains("> "),
        "{shown}"
    );
    assert!(
        sessions(&sandbox).is_empty(),
        "an empty session was left: {shown}"
    );
}

/// The request each API gets, checked on a local test server (no model
/// answers Ollama's `/api/chat` here): the system prompt carries the
/// workspace's context entries, the schema offers only `answer` on the last
/// step, and the reply's step is recorded.
fn request_and_reply_over(example: Example, api: &str) {
    if !ready(example) {
        return;
    }
    let sandbox = Sandbox::new();
    project(&sandbox);
    let out = sandbox
        .cmd("ollm-context")
        .args(["add", "conventions", "Run the tests with cargo test."])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let step = r#"{"tool": "answer", "arg": "A small Rust program."}"#;
    let reply = if api == "ollama" {
        json!({"model": "m1", "message": {"role": "assistant", "content": step}, "done": true})
    } else {
        json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": step}}]})
    };
    // Two requests: the check that a server answers, then the step.
    let (url, seen) = serve(reply, Duration::ZERO, 2);
    let out = agent(
        &sandbox,
        example,
        &url,
        &[],
        &[
            "--api",
            api,
            "--model",
            "m1",
            "--max-steps",
            "1",
            "What is this?",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "A small Rust program.");

    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 2, "{seen:?}");
    let probe = if api == "ollama" {
        "GET /api/tags "
    } else {
        "GET /v1/models "
    };
    assert!(seen[0].0.starts_with(probe), "{seen:?}");
    let (line, body) = &seen[1];
    let body: Value = serde_json::from_str(body).unwrap();
    assert_eq!(body["model"], "m1");
    let schema = if api == "ollama" {
        assert!(line.starts_with("POST /api/chat "), "{line}");
        assert_eq!(body["stream"], false);
        assert_eq!(body["options"]["num_predict"], 96);
        &body["format"]
    } else {
        assert!(line.starts_with("POST /v1/chat/completions "), "{line}");
        assert_eq!(body["max_tokens"], 96);
        assert_eq!(body["response_format"]["type"], "json_schema");
        &body["response_format"]["json_schema"]["schema"]
    };
    assert_eq!(schema["properties"]["tool"]["enum"], json!(["answer"]));
    assert_eq!(schema["required"], json!(["tool", "arg"]));
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages[0]["role"], "system");
    let system = messages[0]["content"].as_str().unwrap();
    assert!(
        system.contains("list_files") && system.contains("read_file"),
        "{system}"
    );
    assert!(
        system.contains("## conventions\n\nRun the tests with cargo test."),
        "the context prompt is in the system prompt: {system}"
    );
    assert_eq!(messages.last().unwrap()["role"], "user");
    assert_eq!(messages.last().unwrap()["content"], "What is this?");

    let session = last_session(&sandbox);
    assert_eq!(session["provider"], api);
    assert_eq!(session["model"], "m1");
    assert_eq!(text(&session["messages"][1]), "A small Rust program.");
}

#[test]
fn python_agent_speaks_the_openai_api() {
    request_and_reply_over(Example::Python, "openai");
}

#[test]
fn python_agent_speaks_the_ollama_api() {
    request_and_reply_over(Example::Python, "ollama");
}

#[test]
fn shell_agent_speaks_the_openai_api() {
    request_and_reply_over(Example::Shell, "openai");
}

#[test]
fn shell_agent_speaks_the_ollama_api() {
    request_and_reply_over(Example::Shell, "ollama");
}

#[test]
fn python_agent_records_a_turn_and_resumes_it() {
    a_turn_then_a_resumed_turn(Example::Python);
}

#[test]
fn shell_agent_records_a_turn_and_resumes_it() {
    a_turn_then_a_resumed_turn(Example::Shell);
}

#[test]
fn python_agent_stops_at_a_loop() {
    a_loop_stops_the_agent(Example::Python);
}

#[test]
fn shell_agent_stops_at_a_loop() {
    a_loop_stops_the_agent(Example::Shell);
}

#[test]
fn python_agent_ends_every_default_run_with_an_answer() {
    every_default_run_ends_with_an_answer(Example::Python);
}

#[test]
fn shell_agent_ends_every_default_run_with_an_answer() {
    every_default_run_ends_with_an_answer(Example::Shell);
}

#[test]
fn python_agent_resuming_an_unknown_session_is_not_found() {
    resuming_an_unknown_session_is_not_found(Example::Python);
}

#[test]
fn shell_agent_resuming_an_unknown_session_is_not_found() {
    resuming_an_unknown_session_is_not_found(Example::Shell);
}

#[test]
fn python_agent_with_no_model_server_says_what_to_start() {
    an_unreachable_model_leaves_no_session(Example::Python);
}

#[test]
fn shell_agent_with_no_model_server_says_what_to_start() {
    an_unreachable_model_leaves_no_session(Example::Shell);
}

#[test]
fn python_agent_at_a_terminal_prompts_and_leaves_no_empty_session() {
    an_interactive_run_prompts_and_leaves_no_empty_session(Example::Python);
}

#[test]
fn shell_agent_at_a_terminal_prompts_and_leaves_no_empty_session() {
    an_interactive_run_prompts_and_leaves_no_empty_session(Example::Shell);
}
