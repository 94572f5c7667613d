//! Snapshot tests (insta) of every program's and subcommand's `--help`, and
//! of one JSON (piped) and one terminal output per runnable command, with
//! ids, times and paths filtered. The commands are found by walking the
//! clap definitions: a new subcommand fails `every_command_has_an_output_snapshot`
//! until it has a line in [`OUTPUTS`], and gets its help snapshot at once.
//!
//! A changed output shows up as a reviewed diff: run with
//! `INSTA_UPDATE=always` (or `cargo insta review`) and commit the `.snap` files.

use crate::support::{Sandbox, stdout, terminal_bytes};

/// A runnable command and the arguments it is shown with. In the arguments,
/// `{ID}` is a session with four messages and a tool call, `{SNAP}` a
/// snapshot of it, `{HISTORY}` that history as a file, `{EVENTS}` a loop of
/// tool-call events as a file, `{CLAUDE}` a Claude Code session to import.
const OUTPUTS: &[(&str, &[&str])] = &[
    ("ollm", &["--list"]),
    ("ollm config", &["config"]),
    ("ollm help", &["help", "config"]),
    ("ollm trust", &["trust", "--list"]),
    (
        "ollm-compress",
        &[
            "--strategy",
            "truncate",
            "--token-limit",
            "60",
            "--force",
            "{HISTORY}",
        ],
    ),
    (
        "ollm-compress compress",
        &["compress", "--strategy", "truncate", "--force", "{HISTORY}"],
    ),
    ("ollm-compress count", &["count", "{HISTORY}"]),
    (
        "ollm-compress check",
        &["check", "--token-limit", "50", "{HISTORY}"],
    ),
    ("ollm-compress config", &["config"]),
    (
        "ollm-context add",
        &["add", "style", "Use tabs.", "--priority", "80"],
    ),
    ("ollm-context remove", &["remove", "rules"]),
    ("ollm-context clear", &["clear"]),
    ("ollm-context list", &["list"]),
    ("ollm-context get", &["get", "rules"]),
    ("ollm-context prompt", &["prompt"]),
    ("ollm-context config", &["config"]),
    ("ollm-discover", &["--sort", "--paths"]),
    ("ollm-discover config", &["config"]),
    ("ollm-env report", &["report"]),
    ("ollm-env explain", &["explain", "GITHUB_TOKEN"]),
    ("ollm-env run", &["run", "--", "printf", "ran\\n"]),
    ("ollm-env config", &["config"]),
    ("ollm-loopcheck", &["{EVENTS}"]),
    ("ollm-loopcheck config", &["config"]),
    ("ollm-mcp config", &["config"]),
    (
        "ollm-checkpoint snapshot",
        &["snapshot", "--session", "{ID}"],
    ),
    (
        "ollm-checkpoint restore",
        &["restore", "--session", "{ID}", "--turn", "1", "--dry-run"],
    ),
    (
        "ollm-checkpoint diff",
        &["diff", "--session", "{ID}", "--turn", "2"],
    ),
    ("ollm-checkpoint list", &["list", "--session", "{ID}"]),
    ("ollm-checkpoint gc", &["gc"]),
    ("ollm-checkpoint config", &["config"]),
    ("ollm-session rewind", &["rewind", "{ID}", "1", "--code"]),
    (
        "ollm-session create",
        &["create", "--model", "m", "--provider", "p", "--title", "t"],
    ),
    (
        "ollm-session record",
        &["record", "{ID}", "--role", "user", "--text", "more"],
    ),
    ("ollm-session get", &["get", "{ID}"]),
    ("ollm-session list", &["list"]),
    ("ollm-session search", &["search", "hello"]),
    (
        "ollm-session export",
        &["export", "{ID}", "--format", "markdown"],
    ),
    ("ollm-session delete", &["delete", "{ID}"]),
    (
        "ollm-session cleanup",
        &["cleanup", "--keep", "0", "--dry-run"],
    ),
    (
        "ollm-session clear",
        &["clear", "--all", "--yes", "--dry-run"],
    ),
    ("ollm-session branch", &["branch", "{ID}", "--at", "2"]),
    ("ollm-session branches", &["branches", "{ID}"]),
    ("ollm-session scan", &["scan", "{ID}"]),
    ("ollm-session redact", &["redact", "{ID}", "--dry-run"]),
    (
        "ollm-session import",
        &["import", "--from", "claude", "{CLAUDE}"],
    ),
    ("ollm-session reindex", &["reindex"]),
    (
        "ollm-session snapshot create",
        &["snapshot", "create", "{ID}"],
    ),
    ("ollm-session snapshot list", &["snapshot", "list", "{ID}"]),
    (
        "ollm-session snapshot show",
        &["snapshot", "show", "{SNAP}", "--session", "{ID}"],
    ),
    (
        "ollm-session snapshot restore",
        &["snapshot", "restore", "{SNAP}", "--session", "{ID}"],
    ),
    (
        "ollm-session snapshot delete",
        &["snapshot", "delete", "{SNAP}", "--session", "{ID}"],
    ),
    ("ollm-session rename", &["rename", "{ID}", "renamed"]),
    ("ollm-session resume", &["resume", "{ID}"]),
    (
        "ollm-session copy",
        &["copy", "--from", "file", "--to", "file", "{ID}"],
    ),
    ("ollm-session config", &["config"]),
];

/// Runnable commands without an output snapshot, and why.
const NOT_SNAPSHOTTED: &[(&str, &str)] = &[
    (
        "ollm completions",
        "prints completions/ as checked in (help.rs compares them)",
    ),
    (
        "ollm man",
        "prints man/ as checked in (help.rs compares them)",
    ),
    (
        "ollm-discover watch",
        "runs until interrupted (discover's own tests drive it)",
    ),
    (
        "ollm-session keep",
        "runs until stopped and needs a PostgreSQL store (session_keep.rs reads its ready and stopped lines)",
    ),
    (
        "ollm-checkpoint watch",
        "runs until idle for 15 minutes and prints nothing (checkpoint/watcher.rs asks it through snapshots)",
    ),
];

/// The program and the words of a command path (`ollm-session snapshot list`).
fn split(path: &str) -> (&str, Vec<&str>) {
    let mut words = path.split(' ');
    let program = words.next().unwrap_or_default();
    (program, words.collect())
}

/// Every command path of every program: (path, runs without a subcommand).
fn all_commands() -> Vec<(String, bool)> {
    let mut paths = Vec::new();
    for (_, mut command) in ollm::ollm::programs::all() {
        command.build();
        ollm::command_tree::walk(&command, "", &mut |path, sub| {
            let leaf = sub.get_subcommands().all(|s| s.get_name() == "help");
            paths.push((path.to_string(), leaf));
        });
    }
    paths
}

fn snapshot_name(kind: &str, path: &str) -> String {
    format!("{kind}__{}", path.replace(' ', "__"))
}

/// A sandbox whose path has the same length on every machine, whatever
/// `$TMPDIR` is (CI puts the other tests' sandboxes on a tmpfs): `/tmp`,
/// then tempfile's `.tmp` and six random characters.
fn snapshot_sandbox() -> Sandbox {
    let fixed = std::path::Path::new("/tmp");
    if fixed.is_dir() {
        Sandbox::in_dir(fixed)
    } else {
        Sandbox::new()
    }
}

/// Replaces what changes from run to run.
fn filtered(sandbox: &Sandbox, text: &str) -> String {
    let text = text.replace("\r\n", "\n");
    let root = sandbox.home.parent().unwrap().display().to_string();
    let text = text.replace(&root, "[SANDBOX]");
    // The built programs' directory (`ollm --list`) depends on the checkout.
    let built = std::path::Path::new(env!("CARGO_BIN_EXE_ollm"))
        .parent()
        .unwrap()
        .display()
        .to_string();
    let text = text.replace(&built, "[BIN]");
    let rules: &[(&str, &str)] = &[
        (
            r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
            "[UUID]",
        ),
        // A session's short id in tables (its first eight hex digits).
        (r"\b[0-9a-f]{8}\b", "[SHORT]"),
        // An id cut short by a column fitted to the terminal.
        (r"\[SHORT\][-0-9a-f]*…", "[SHORT]…"),
        (
            r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?",
            "[TIME]",
        ),
        (r"snap[-_][0-9A-Za-z_-]+", "[SNAPSHOT]"),
        (r"call_[0-9a-f]{8,}", "call_[ID]"),
        (r"\b1[6-9]\d{8,11}\b", "[EPOCH]"),
        (r"\d+(\.\d+)? ?(ms|µs|s) ago", "[AGO]"),
        (r"\b\d+[smhd] ago\b", "[AGO]"),
        (r"/(usr/)?(local/)?bin:[^\s\x22]*", "/[PATH]"),
        (r"ollm-tools \d+\.\d+\.\d+|\b0\.1\.0\b", "[VERSION]"),
        (r#""elapsedMs":( ?)\d+"#, r#""elapsedMs":${1}[MS]"#),
        // A checkpoint store's compressed manifests hold times and inodes.
        (r#""bytesKept":( ?)\d+"#, r#""bytesKept":${1}[BYTES]"#),
    ];
    let mut text = text;
    for (pattern, replacement) in rules {
        text = regex::Regex::new(pattern)
            .unwrap()
            .replace_all(&text, *replacement)
            .into_owned();
    }
    text
}

/// A sandbox with a session (four messages, a tool call), a snapshot of
/// it, two context entries, a history and an events file, and a small
/// tree of files. Returns the placeholders' values.
fn scenario() -> (Sandbox, Vec<(&'static str, String)>) {
    let sandbox = snapshot_sandbox();
    let out = sandbox
        .cmd("ollm-session")
        .args([
            "create",
            "--model",
            "llama3.2:3b",
            "--provider",
            "ollama",
            "--title",
            "demo",
        ])
        .output()
        .unwrap();
    let id = crate::support::json(&out)["sessionId"]
        .as_str()
        .unwrap()
        .to_string();
    for (role, text) in [
        ("user", "hello, list the files"),
        ("assistant", "Here they are."),
        ("user", "thanks"),
        ("assistant", "You are welcome."),
    ] {
        sandbox
            .cmd("ollm-session")
            .args(["record", &id, "--role", role, "--text", text])
            .assert()
            .success();
    }
    sandbox
        .cmd("ollm-session")
        .args([
            "record",
            &id,
            "--tool",
            "ls",
            "--args",
            "{\"path\":\".\"}",
            "--result",
            "a.txt",
        ])
        .assert()
        .success();
    let out = sandbox
        .cmd("ollm-session")
        .args(["snapshot", "create", &id])
        .output()
        .unwrap();
    let created = crate::support::json(&out);
    let snap = created["snapshotId"]
        .as_str()
        .or(created["id"].as_str())
        .unwrap_or_default()
        .to_string();
    for (key, text) in [("rules", "No force pushes."), ("status", "clean")] {
        sandbox
            .cmd("ollm-context")
            .args(["add", key, text])
            .assert()
            .success();
    }
    let history = sandbox.write(
        "history.json",
        r#"[{"role":"system","parts":[{"type":"text","text":"You help."}]},
{"role":"user","parts":[{"type":"text","text":"Tell me about the weather in three long sentences please."}]},
{"role":"assistant","parts":[{"type":"text","text":"It is sunny and warm with a light breeze from the west all afternoon."}]},
{"role":"user","parts":[{"type":"text","text":"And tomorrow?"}]}]"#,
    );
    let events = sandbox.write(
        "events.ndjson",
        &r#"{"type":"tool","name":"ls","args":{}}
"#
        .repeat(3),
    );
    sandbox.write("src/main.rs", "fn main() {}\n");
    sandbox.write("README.md", "# demo\n");
    // Two checkpoint turns of the session: before and after an edit.
    for body in ["", "fn main() { println!(\"hi\"); }\n"] {
        if !body.is_empty() {
            sandbox.write("src/main.rs", body);
        }
        sandbox
            .cmd("ollm-checkpoint")
            .args(["snapshot", "--session", &id])
            .assert()
            .success();
    }
    let cwd = sandbox.work.display().to_string();
    // Outside the work tree, which `ollm-discover` lists.
    let claude = sandbox
        .home
        .join("0a8b1c2d-0000-4000-8000-000000000001.jsonl");
    std::fs::write(
        &claude,
        [
            serde_json::json!({"parentUuid": null, "cwd": cwd, "type": "user", "uuid": "u1",
                "sessionId": "0a8b1c2d-0000-4000-8000-000000000001", "timestamp": "2026-02-03T10:00:01Z",
                "message": {"role": "user", "content": "why do the tests fail?"}}),
            serde_json::json!({"parentUuid": "u1", "cwd": cwd, "type": "assistant", "uuid": "a1",
                "sessionId": "0a8b1c2d-0000-4000-8000-000000000001", "timestamp": "2026-02-03T10:00:02Z",
                "message": {"id": "msg_1", "role": "assistant", "model": "claude-sonnet-4-5",
                    "content": [{"type": "text", "text": "The retry test times out."}]}}),
            serde_json::json!({"type": "custom-title", "customTitle": "Flaky retry test",
                "sessionId": "0a8b1c2d-0000-4000-8000-000000000001"}),
        ]
        .map(|line| line.to_string() + "\n")
        .concat(),
    )
    .unwrap();
    let values = vec![
        ("{ID}", id),
        ("{SNAP}", snap),
        ("{HISTORY}", history.display().to_string()),
        ("{EVENTS}", events.display().to_string()),
        ("{CLAUDE}", claude.display().to_string()),
    ];
    (sandbox, values)
}

fn bind(args: &[&str], values: &[(&'static str, String)]) -> Vec<String> {
    args.iter()
        .map(|arg| {
            values.iter().fold(arg.to_string(), |arg, (name, value)| {
                arg.replace(name, value)
            })
        })
        .collect()
}

fn shell_quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

#[test]
fn every_command_has_an_output_snapshot() {
    let missing: Vec<String> = all_commands()
        .into_iter()
        .filter(|(path, leaf)| *leaf && path.contains(' '))
        .map(|(path, _)| path)
        .filter(|path| {
            !OUTPUTS.iter().any(|(p, _)| p == path)
                && !NOT_SNAPSHOTTED.iter().any(|(p, _)| p == path)
        })
        .collect();
    assert!(missing.is_empty(), "add these to OUTPUTS: {missing:#?}");
}

#[test]
fn help_of_every_program_and_subcommand() {
    let sandbox = snapshot_sandbox();
    for (path, _) in all_commands() {
        let (program, words) = split(&path);
        let out = sandbox
            .cmd(program)
            .env("COLUMNS", "100")
            .args(&words)
            .arg("--help")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{path} --help");
        insta::assert_snapshot!(
            snapshot_name("help", &path),
            filtered(&sandbox, &stdout(&out))
        );
    }
}

#[test]
fn json_output_of_every_command() {
    for (path, args) in OUTPUTS {
        let (sandbox, values) = scenario();
        let (program, _) = split(path);
        let out = sandbox
            .cmd(program)
            .env("COLUMNS", "100")
            .args(bind(args, &values))
            .output()
            .unwrap();
        let text = format!(
            "exit: {:?}\n{}",
            out.status.code(),
            filtered(&sandbox, &stdout(&out))
        );
        insta::assert_snapshot!(snapshot_name("json", path), text);
    }
}

#[test]
fn terminal_output_of_every_command() {
    for (path, args) in OUTPUTS {
        let (sandbox, values) = scenario();
        let (program, _) = split(path);
        let line: Vec<String> = std::iter::once(program.to_string())
            .chain(bind(args, &values).iter().map(|a| shell_quote(a)))
            .collect();
        let Some((bytes, code)) = terminal_bytes(
            &sandbox,
            &line.join(" "),
            &[
                ("COLUMNS", "100"),
                ("LINES", "40"),
                ("TERM", "dumb"),
                ("PAGER", "cat"),
            ],
        ) else {
            return;
        };
        let text = format!(
            "exit: {code:?}\n{}",
            filtered(&sandbox, &String::from_utf8_lossy(&bytes))
        );
        insta::assert_snapshot!(snapshot_name("terminal", path), text);
    }
}
