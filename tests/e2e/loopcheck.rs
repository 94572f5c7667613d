//! `ollm-loopcheck` end to end: the rules, the three modes, false positives
//! on legitimate batch work, and bad input.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::support::{Sandbox, assert_one_line_error, bin_path, json, stderr, stdout, test_path};

const BIN: &str = "ollm-loopcheck";

fn ndjson(events: &[Value]) -> String {
    events.iter().map(|e| format!("{e}\n")).collect()
}

fn tool(name: &str, args: Value) -> Value {
    json!({"type": "tool", "name": name, "args": args})
}

fn output(text: &str) -> Value {
    json!({"type": "output", "text": text})
}

fn turn() -> Value {
    json!({"type": "turn"})
}

fn check(sandbox: &Sandbox, events: &[Value], args: &[&str]) -> std::process::Output {
    sandbox
        .cmd(BIN)
        .args(args)
        .write_stdin(ndjson(events))
        .output()
        .expect("run ollm-loopcheck")
}

fn assert_quiet(sandbox: &Sandbox, events: &[Value]) {
    let out = check(sandbox, events, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(json(&out)["loop"], false, "{}", stdout(&out));
}

/// A loop is reported: a first detection warns (exit 0), one after a
/// warning stops (exit 1).
fn assert_loop(sandbox: &Sandbox, events: &[Value], kind: &str) -> Value {
    let out = check(sandbox, events, &[]);
    let verdict = json(&out);
    assert_eq!(verdict["loop"], true, "{verdict}");
    let code = match verdict["level"].as_str() {
        Some("warn") => 0,
        Some("stop") => 1,
        _ => panic!("no level: {verdict}"),
    };
    assert_eq!(out.status.code(), Some(code), "{verdict}");
    assert_eq!(verdict["pattern"]["type"], kind, "{verdict}");
    verdict
}

#[test]
fn identical_calls_in_any_key_order_are_a_loop() {
    let sandbox = Sandbox::new();
    let events = [
        tool(
            "read_file",
            json!({"path": "a.rs", "opts": {"line": 1, "limit": 5}}),
        ),
        tool(
            "read_file",
            json!({"opts": {"limit": 5, "line": 1}, "path": "a.rs"}),
        ),
        tool(
            "read_file",
            json!({"path": "a.rs", "opts": {"line": 1, "limit": 5}}),
        ),
    ];
    let verdict = assert_loop(&sandbox, &events, "repeated-tool");
    assert_eq!(verdict["pattern"]["count"], 3);
    assert_eq!(verdict["event"], 3);
    let details = verdict["pattern"]["details"].as_str().unwrap();
    assert!(
        details.contains("read_file") && details.contains("3 times"),
        "{details}"
    );
}

#[test]
fn a_nested_argument_difference_is_not_a_repeat() {
    // The OLLM CLI's own check compares only top-level keys and calls this a loop.
    let sandbox = Sandbox::new();
    let events: Vec<Value> = (1..=3)
        .map(|line| tool("read_file", json!({"path": "a.rs", "opts": {"line": line}})))
        .collect();
    assert_quiet(&sandbox, &events);
}

#[test]
fn twenty_different_file_reads_stay_quiet() {
    let sandbox = Sandbox::new();
    let mut events = Vec::new();
    for i in 0..20 {
        events.push(turn());
        events.push(tool(
            "read_file",
            json!({"path": format!("src/module_{i}.rs")}),
        ));
        events.push(output(&format!(
            "pub fn handler_{i}(input: &str) -> usize {{\n    input.len() * {i} + {}\n}}\n// module {i}: {}\n",
            i * 7,
            ["parsing", "rendering", "storage", "network"][i % 4]
        )));
    }
    assert_quiet(&sandbox, &events);
}

#[test]
fn editing_many_files_in_turn_stays_quiet() {
    let sandbox = Sandbox::new();
    let mut events = Vec::new();
    for i in 0..15 {
        let path = format!("src/file_{i}.rs");
        events.push(tool("read_file", json!({"path": path})));
        events.push(tool(
            "edit_file",
            json!({"path": path, "edits": [{"old": "foo", "new": format!("bar_{i}")}]}),
        ));
        events.push(tool("run_tests", json!({})));
        events.push(output(&format!("Edited {path}: renamed foo to bar_{i}.")));
    }
    assert_quiet(&sandbox, &events);
}

#[test]
fn the_same_tool_with_different_nested_args_stays_quiet() {
    let sandbox = Sandbox::new();
    let events: Vec<Value> = (0..12)
        .map(|i| tool("search", json!({"query": "TODO", "filters": {"dir": format!("pkg{}", i % 6), "depth": i / 6}})))
        .collect();
    assert_quiet(&sandbox, &events);
}

#[test]
fn polling_like_batch_work_stays_quiet() {
    let sandbox = Sandbox::new();
    let mut events = Vec::new();
    for page in 1..=25 {
        events.push(tool(
            "fetch_issues",
            json!({"repo": "x/y", "page": page, "perPage": 50}),
        ));
        events.push(output(&format!(
            "Page {page}: issues #{}–#{}, {} open",
            page * 50,
            page * 50 + 49,
            (page * 13) % 50
        )));
    }
    assert_quiet(&sandbox, &events);
}

#[test]
fn near_identical_outputs_are_a_loop_but_different_file_contents_are_not() {
    let sandbox = Sandbox::new();
    let waiting: Vec<Value> = (0..3)
        .flat_map(|i| [json!({"type": "turn"}), output(&format!("[2026-11-22T04:1{i}:00Z] Deployment still in progress (check {i}); waiting 30 seconds before checking again."))])
        .collect();
    assert_loop(&sandbox, &waiting, "repeated-output");
    // The same lines as chunks of one streamed output: its chunks are not
    // outputs repeating each other.
    let streamed: Vec<Value> = waiting
        .iter()
        .filter(|e| e["type"] == "output")
        .cloned()
        .collect();
    assert_quiet(&sandbox, &streamed);
    let files = [
        output("[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"),
        output("fn main() {\n    println!(\"hello\");\n}\n"),
        output("# Demo\n\nA small demonstration crate. Run it with `cargo run`.\n"),
    ];
    assert_quiet(&sandbox, &files);
}

#[test]
fn cycles_of_calls_are_a_loop() {
    let sandbox = Sandbox::new();
    let a = tool("read_file", json!({"path": "a.rs"}));
    let b = tool("write_file", json!({"path": "a.rs", "content": "x"}));
    let verdict = assert_loop(
        &sandbox,
        &[a.clone(), b.clone(), a.clone(), b.clone(), a, b],
        "tool-cycle",
    );
    assert_eq!(verdict["pattern"]["count"], 3);
}

#[test]
fn a_user_message_resets_tracking() {
    let sandbox = Sandbox::new();
    let call = tool("ls", json!({}));
    let user = json!({"type": "user", "text": "try again"});
    assert_quiet(
        &sandbox,
        &[call.clone(), call.clone(), user, call.clone(), call],
    );
}

#[test]
fn the_turn_limit_is_exceeded_on_the_turn_after_max_turns() {
    let sandbox = Sandbox::new();
    assert_quiet(&sandbox, &vec![turn(); 50]);
    let verdict = assert_loop(&sandbox, &vec![turn(); 51], "turn-limit");
    assert_eq!(
        (&verdict["turn"], &verdict["level"]),
        (&json!(51), &json!("warn"))
    );
    let out = check(&sandbox, &vec![turn(); 6], &["--max-turns", "5"]);
    assert_eq!(out.status.code(), Some(0));
    let out = check(&sandbox, &vec![turn(); 7], &["--max-turns", "5"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        (&json(&out)["turn"], &json(&out)["level"]),
        (&json!(7), &json!("stop"))
    );
    let out = sandbox
        .cmd(BIN)
        .env("OLLM_LOOP_DETECTION_MAX_TURNS", "100")
        .write_stdin(ndjson(&vec![turn(); 60]))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

#[test]
fn disabled_detection_never_reports_and_warn_only_exits_zero() {
    let sandbox = Sandbox::new();
    let events = vec![tool("ls", json!({})); 5];
    let config = sandbox.write(
        "off.yaml",
        "services:\n  loopDetection:\n    enabled: false\n",
    );
    let out = check(&sandbox, &events, &["--config", config.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json(&out)["loop"], false);
    let out = check(&sandbox, &events, &["--warn-only"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json(&out)["level"], "stop");
}

#[test]
fn a_first_detection_warns_and_exits_zero_and_one_after_it_stops_with_exit_one() {
    let sandbox = Sandbox::new();
    let call = tool("ls", json!({}));
    let out = check(&sandbox, &vec![call.clone(); 3], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(json(&out)["level"], "warn");
    // The gravest report of the input is the verdict: the stop at the fourth call.
    let out = check(&sandbox, &vec![call.clone(); 4], &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert_eq!(
        (&json(&out)["level"], &json(&out)["event"]),
        (&json!("stop"), &json!(4))
    );
    // The state file carries the warning from one call to the next.
    for (events, code, level) in [
        (vec![call.clone(); 3], 0, json!("warn")),
        (vec![turn()], 0, Value::Null),
        (vec![call.clone()], 1, json!("stop")),
        (
            vec![json!({"type": "user", "text": "go on"}), call.clone()],
            0,
            Value::Null,
        ),
    ] {
        let out = check(&sandbox, &events, &["--state", "state.json"]);
        assert_eq!(out.status.code(), Some(code), "{}", stdout(&out));
        assert_eq!(json(&out)["level"], level, "{}", stdout(&out));
    }
    // Every report a stop, as before levels existed; or two warnings first.
    let out = check(
        &sandbox,
        &vec![call.clone(); 3],
        &["--warnings-before-stop", "0"],
    );
    assert_eq!(
        (out.status.code(), json(&out)["level"].clone()),
        (Some(1), json!("stop"))
    );
    let out = check(&sandbox, &vec![call; 4], &["--warnings-before-stop", "2"]);
    assert_eq!(
        (out.status.code(), json(&out)["level"].clone()),
        (Some(0), json!("warn"))
    );
}

#[test]
fn thresholds_state_their_minimum_and_non_finite_numbers_get_their_own_message() {
    let sandbox = Sandbox::new();
    let events = [turn()];
    let out = check(&sandbox, &events, &["--repeat-threshold", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("at least 2"), "{}", stderr(&out));
    let help = sandbox.cmd(BIN).arg("--help").output().unwrap();
    assert!(stdout(&help).contains("Repeats that make a loop, at least 2"));
    let out = check(&sandbox, &events, &["--repeat-threshold", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for value in ["NaN", "inf", "-inf"] {
        let flag = format!("--similarity-threshold={value}");
        let out = check(&sandbox, &events, &[&flag]);
        assert_eq!(out.status.code(), Some(2), "{value}");
        assert!(
            stderr(&out).contains("must be a finite number"),
            "{}",
            stderr(&out)
        );
    }
    for value in [".nan", ".inf", "-.inf"] {
        let config = sandbox.write(
            "nan.yaml",
            &format!("services:\n  loopDetection:\n    similarityThreshold: {value}\n"),
        );
        let out = check(&sandbox, &events, &["--config", config.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(5), "{value}");
        let err = stderr(&out);
        assert!(
            err.contains("`services.loopDetection.similarityThreshold`: must be a finite number")
                && !err.contains("null"),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let out = sandbox
        .cmd(BIN)
        .env("OLLM_LOOP_DETECTION_SIMILARITY_THRESHOLD", "nan")
        .write_stdin(ndjson(&events))
        .output()
        .unwrap();
    assert!(
        stderr(&out).contains("must be a finite number"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn streaming_reports_a_loop_before_the_input_ends() {
    let sandbox = Sandbox::new();
    let mut child = Command::new(bin_path(BIN))
        .arg("--stream")
        .env_clear()
        .env("PATH", test_path())
        .env("HOME", &sandbox.home)
        .env("OLLM_HOME", &sandbox.ollm_home)
        .current_dir(&sandbox.work)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let call = ndjson(&[tool("ls", json!({"dir": "."}))]);
    for _ in 0..3 {
        stdin.write_all(call.as_bytes()).unwrap();
    }
    stdin.flush().unwrap();
    // stdin is still open: the verdict must already be out.
    let first: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    assert_eq!(first["loop"], true);
    assert_eq!(
        (&first["event"], &first["level"]),
        (&json!(3), &json!("warn"))
    );
    stdin.write_all(call.as_bytes()).unwrap();
    let second: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    assert_eq!(second["pattern"]["count"], 4);
    assert_eq!(second["level"], "stop");
    drop(stdin);
    assert!(lines.next().is_none());
    assert_eq!(child.wait().unwrap().code(), Some(1));
}

#[test]
fn streaming_without_a_loop_prints_the_quiet_verdict() {
    let sandbox = Sandbox::new();
    let out = check(&sandbox, &[turn(), tool("ls", json!({}))], &["--stream"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        json(&out),
        json!({"loop": false, "level": null, "pattern": null, "event": 2, "turn": 1})
    );
}

#[test]
fn the_three_modes_agree_on_a_session_of_turns() {
    let sandbox = Sandbox::new();
    let mut turns: Vec<Vec<Value>> = Vec::new();
    for i in 0..4 {
        turns.push(vec![
            turn(),
            tool("read_file", json!({"path": format!("f{i}")})),
            output(&format!("contents {i}")),
        ]);
    }
    for _ in 0..3 {
        turns.push(vec![
            turn(),
            tool("run_tests", json!({"filter": {"name": "x"}})),
            output("1 failed"),
        ]);
    }
    let all: Vec<Value> = turns.concat();
    let one_shot = check(&sandbox, &all, &[]);
    let streamed = check(&sandbox, &all, &["--stream"]);
    assert_eq!(one_shot.status.code(), Some(1));
    // One-shot gives the gravest report: the first stop the stream prints.
    let first_line = stdout(&streamed)
        .lines()
        .find(|line| line.contains(r#""level":"stop""#))
        .unwrap()
        .to_string();
    assert_eq!(stdout(&one_shot).trim_end(), first_line);
    let mut incremental = Vec::new();
    for events in &turns {
        let out = check(&sandbox, events, &["--state", "state.json"]);
        incremental.push((out.status.code(), stdout(&out).trim_end().to_string()));
    }
    let first_loop = incremental
        .iter()
        .find(|(code, _)| *code == Some(1))
        .unwrap();
    assert_eq!(first_loop.1, first_line);
    assert!(incremental[..5].iter().all(|(code, _)| *code == Some(0)));
}

#[test]
fn the_state_stays_small_however_long_the_conversation() {
    let sandbox = Sandbox::new();
    let turn_events = |i: usize| {
        vec![
            turn(),
            tool("read_file", json!({"path": format!("src/{i}.rs")})),
            output(&format!("file {i}: {}", "x".repeat(i % 50))),
        ]
    };
    let early: Vec<Value> = (0..5).flat_map(turn_events).collect();
    check(
        &sandbox,
        &early,
        &["--state", "short.json", "--max-turns", "100000"],
    );
    let late: Vec<Value> = (0..3000).flat_map(turn_events).collect();
    let out = check(
        &sandbox,
        &late,
        &["--state", "long.json", "--max-turns", "100000"],
    );
    assert_eq!(out.status.code(), Some(0));
    let short = std::fs::metadata(sandbox.work.join("short.json"))
        .unwrap()
        .len();
    let long = std::fs::metadata(sandbox.work.join("long.json"))
        .unwrap()
        .len();
    assert!(
        long < short + 200,
        "state grew from {short} to {long} bytes"
    );
}

#[test]
fn a_whole_session_is_checked_in_timestamp_order() {
    let sandbox = Sandbox::new();
    let at = |s: u32| format!("2026-11-22T04:{:02}:{:02}Z", s / 60, s % 60);
    let mut messages = vec![
        json!({"role": "user", "parts": [{"type": "text", "text": "fix the build"}], "timestamp": at(0)}),
    ];
    let mut calls = Vec::new();
    for i in 0..3 {
        messages.push(json!({"role": "assistant", "parts": [{"type": "text", "text": format!("Let me look ({i}).")}], "timestamp": at(10 * i + 1)}));
        calls.push(json!({"id": format!("c{i}"), "name": "shell", "args": {"command": "cargo build"}, "result": {"llmContent": "error"}, "timestamp": at(10 * i + 2)}));
    }
    let session = json!({
        "sessionId": "3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1b",
        "startTime": at(0), "lastActivity": at(40), "model": "m", "provider": "p",
        "messages": messages, "toolCalls": calls,
        "metadata": {"tokenCount": 0, "compressionCount": 0}
    });
    let path = sandbox.write(
        "session.json",
        &serde_json::to_string_pretty(&session).unwrap(),
    );
    let out = sandbox.cmd(BIN).arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let verdict = json(&out);
    assert_eq!(verdict["level"], "warn");
    assert_eq!(verdict["pattern"]["type"], "repeated-tool");
    assert_eq!(verdict["turn"], 3);

    let out = sandbox
        .cmd(BIN)
        .args(["--state", "s.json"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_one_line_error(&out, BIN);
}

#[test]
fn bad_input_is_one_line_and_exit_two() {
    let sandbox = Sandbox::new();
    for input in [
        "{\"type\":\"turn\"}\n{\"type\":\n".as_bytes().to_vec(),
        b"{\"type\":\"dance\"}\n".to_vec(),
        b"{\"type\":\"tool\",\"name\":{}}\n".to_vec(),
        b"[1,2]\n".to_vec(),
        b"{\"type\":\"output\",\"text\":\"\xff\"}\n".to_vec(),
        b"{\"messages\":[{\"role\":\"user\",\"parts\":[],\"timestamp\":\"noon\"}]}".to_vec(),
    ] {
        for args in [&[][..], &["--stream"][..]] {
            let out = sandbox
                .cmd(BIN)
                .args(args)
                .write_stdin(input.clone())
                .output()
                .unwrap();
            assert_eq!(
                out.status.code(),
                Some(2),
                "{:?} {args:?}",
                String::from_utf8_lossy(&input)
            );
            assert_one_line_error(&out, BIN);
        }
    }
    let out = sandbox.cmd(BIN).arg("missing.ndjson").output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_one_line_error(&out, BIN);
    let out = sandbox
        .cmd(BIN)
        .args(["--similarity-threshold", "1.5"])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_one_line_error(&out, BIN);
}

#[test]
fn a_corrupt_state_is_set_aside_and_reported() {
    let sandbox = Sandbox::new();
    sandbox.write("state.json", "{\"version\":1,\"detector\":");
    let out = check(&sandbox, &[turn()], &["--state", "state.json"]);
    assert_eq!(out.status.code(), Some(6));
    assert_one_line_error(&out, BIN);
    assert!(!sandbox.work.join("state.json").exists());
    let aside: Vec<String> = std::fs::read_dir(&sandbox.work)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("state.json.corrupt-"))
        .collect();
    assert_eq!(aside.len(), 1);
    let out = check(&sandbox, &[turn()], &["--state", "state.json"]);
    assert_eq!(out.status.code(), Some(0));
}

/// A user's `package.json`, as `--state` might name it by mistake.
const PACKAGE_JSON: &str =
    "{\n  \"name\": \"app\",\n  \"version\": \"1.0.0\",\n  \"scripts\": {\"test\": \"jest\"}\n}\n";

#[test]
fn a_state_file_that_is_not_ours_is_refused_and_nothing_is_made_beside_it() {
    let sandbox = Sandbox::new();
    sandbox.write("package.json", PACKAGE_JSON);
    sandbox.write("notes.txt", "not json at all\n");
    sandbox.write("empty.json", "");
    for name in ["package.json", "notes.txt", "empty.json"] {
        let before = crate::support::tree(&sandbox.work);
        let out = check(&sandbox, &[turn()], &["--state", name]);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", stdout(&out));
        assert_one_line_error(&out, BIN);
        assert!(crate::support::stderr(&out).contains(name));
        assert_eq!(
            crate::support::tree(&sandbox.work),
            before,
            "{name}: changed or created something"
        );
    }
}

#[test]
fn without_state_nothing_is_changed_even_for_a_damaged_state_file() {
    let sandbox = Sandbox::new();
    sandbox.write("package.json", PACKAGE_JSON);
    sandbox.write("state.json", "{\"version\":1,\"detector\":");
    for input in ["package.json", "state.json"] {
        let before = crate::support::tree(&sandbox.work);
        let out = sandbox.cmd(BIN).arg(input).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{input}");
        assert_one_line_error(&out, BIN);
        assert_eq!(crate::support::tree(&sandbox.work), before, "{input}");
    }
}

#[test]
fn the_state_carries_the_format_marker() {
    let sandbox = Sandbox::new();
    let out = check(&sandbox, &[turn(), turn()], &["--state", "state.json"]);
    assert_eq!(out.status.code(), Some(0));
    // The state carries the marker inside its slot.
    let bytes = std::fs::read(sandbox.work.join("state.json")).unwrap();
    assert!(bytes.starts_with(b"OLLMSLOT"));
    let text = String::from_utf8_lossy(&bytes);
    assert!(text.contains("\"format\":\"ollm-loop-state\""), "{text}");
}

#[test]
fn a_new_ollm_dir_for_the_state_gets_a_gitignore_that_hides_the_state() {
    let sandbox = Sandbox::new();
    let git = |args: &[&str]| {
        let out = sandbox.program("git").args(args).output().unwrap();
        assert!(out.status.success(), "git {args:?}");
        stdout(&out)
    };
    git(&["init", "-q"]);
    for _ in 0..2 {
        let out = check(&sandbox, &[turn()], &["--state", ".ollm/loop-state.json"]);
        assert_eq!(out.status.code(), Some(0));
    }
    assert!(sandbox.work.join(".ollm/loop-state.json.lock").exists());
    let ignore = std::fs::read_to_string(sandbox.work.join(".ollm/.gitignore")).unwrap();
    assert!(ignore.contains("*.lock"), "{ignore}");
    let status = git(&["status", "--porcelain", "--untracked-files=all"]);
    assert_eq!(status, "?? .ollm/.gitignore\n");
}
