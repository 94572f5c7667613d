//! One store with the OLLM CLI (issue 25): sessions in its `<id>.json`
//! format stay in it, each program sees and extends the other's sessions
//! under default settings, lone surrogates round-trip, and reads change
//! nothing. The CLI's side is `tests/fixtures/ollm-cli/recording.js`, its
//! documented storage protocol run by Node.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::Stdio;

use serde_json::{Value, json};

use crate::support::{Sandbox, assert_one_line_error, at_a_terminal, json, stderr, stdout, tree};

const ID: &str = "550e8400-e29b-41d4-a716-446655440000";

/// A session as the OLLM CLI writes it: two-space JSON, no newline at the
/// end, a lone surrogate where a string was cut inside an emoji, a field of
/// its `metadata` and a top-level field this toolkit does not know.
const CLI_SESSION: &str = r#"{
  "sessionId": "550e8400-e29b-41d4-a716-446655440000",
  "startTime": "2026-01-27T10:00:00.000Z",
  "lastActivity": "2026-01-27T10:00:07.000Z",
  "model": "llama3.2:3b",
  "provider": "ollama",
  "messages": [
    {
      "role": "user",
      "parts": [
        {
          "type": "text",
          "text": "Write me a haiku"
        }
      ],
      "timestamp": "2026-01-27T10:00:00.000Z"
    },
    {
      "role": "assistant",
      "parts": [
        {
          "type": "text",
          "text": "Autumn moonlight \ud83d"
        }
      ],
      "timestamp": "2026-01-27T10:00:05.000Z"
    }
  ],
  "toolCalls": [
    {
      "id": "call_1",
      "name": "read_file",
      "args": {
        "path": "notes.txt"
      },
      "result": {
        "llmContent": "ok",
        "returnDisplay": "ok"
      },
      "timestamp": "2026-01-27T10:00:06.000Z"
    }
  ],
  "metadata": {
    "tokenCount": 42,
    "compressionCount": 0,
    "modeHistory": [
      {
        "from": "assistant",
        "to": "developer",
        "timestamp": "2026-01-27T10:00:07.000Z",
        "trigger": "auto",
        "confidence": 0.9
      }
    ]
  },
  "uiState": {
    "pinned": true
  }
}"#;

fn write_cli_session(sb: &Sandbox) -> PathBuf {
    let dir = sb.sessions_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{ID}.json"));
    std::fs::write(&path, CLI_SESSION).unwrap();
    path
}

/// The OLLM CLI's side, or `None` (SKIPPED; a failure under CI) without Node.
fn cli(sb: &Sandbox, args: &[&str]) -> Option<std::process::Output> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ollm-cli/recording.js");
    let dir = sb.sessions_dir();
    match std::process::Command::new("node")
        .arg(&script)
        .arg(&dir)
        .args(args)
        .env("HOME", &sb.home)
        .output()
    {
        Ok(out) => {
            assert!(out.status.success(), "node {args:?}: {}", stderr(&out));
            Some(out)
        }
        Err(err) => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI=true and no node ({err})"
            );
            eprintln!("SKIPPED: no node to play the OLLM CLI ({err})");
            None
        }
    }
}

/// JSON that may hold lone surrogate escapes, as ollm prints them.
fn parse(bytes: &[u8]) -> Value {
    serde_json::from_slice(&ollm::lossless::decode(bytes).text)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(bytes)))
}

fn record(sb: &Sandbox, id: &str, text: &str) -> Value {
    json(&sb.session_ok(&["record", id, "--role", "user", "--text", text]))
}

fn texts(session: &Value) -> Vec<String> {
    session["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["parts"][0]["text"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn a_cli_session_recorded_into_stays_a_cli_file_with_everything_in_it() {
    let sb = Sandbox::new();
    let path = write_cli_session(&sb);
    record(&sb, ID, "and another");
    sb.session_ok(&["rename", ID, "haiku"]);
    let dir = sb.sessions_dir();
    assert!(!dir.join(ID).exists(), "converted to a journal");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!text.ends_with('\n'), "the CLI writes no trailing newline");
    assert!(
        text.contains(r#""text": "Autumn moonlight \ud83d""#),
        "{text}"
    );
    let file = parse(text.as_bytes());
    let original = parse(CLI_SESSION.as_bytes());
    assert_eq!(
        file["messages"].as_array().unwrap()[..2],
        original["messages"].as_array().unwrap()[..]
    );
    assert_eq!(texts(&file)[2], "and another");
    assert_eq!(file["toolCalls"], original["toolCalls"]);
    assert_eq!(
        file["metadata"]["modeHistory"],
        original["metadata"]["modeHistory"]
    );
    assert_eq!(file["uiState"], original["uiState"]);
    assert_eq!(file["title"], "haiku");
    assert!(file["metadata"]["tokenCount"].as_u64().unwrap() > 42);
    // Byte for byte what the CLI itself would write for that object.
    let Some(out) = cli(&sb, &["get", ID]) else {
        return;
    };
    let read_by_cli = parse(&out.stdout);
    assert_eq!(texts(&read_by_cli).len(), 3);
    let node = std::process::Command::new("node")
        .args(["-e", "process.stdout.write(JSON.stringify(JSON.parse(require('fs').readFileSync(process.argv[1], 'utf-8')), null, 2))"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(node.stdout).unwrap(), text);
}

#[test]
fn a_lone_surrogate_is_read_shown_and_written_back_as_it_was() {
    let sb = Sandbox::new();
    let path = write_cli_session(&sb);
    let out = sb.session_ok(&["get", ID]);
    assert!(
        stdout(&out).contains(r"Autumn moonlight \ud83d"),
        "{}",
        stdout(&out)
    );
    let list = json(&sb.session_ok(&["list"]));
    assert_eq!(list[0]["sessionId"], ID);
    assert_eq!(list[0]["messageCount"], 2);
    let exported = sb.work.join("haiku.json");
    sb.session_ok(&["export", ID, "--output", exported.to_str().unwrap()]);
    let text = std::fs::read_to_string(&exported).unwrap();
    assert!(text.contains(r"Autumn moonlight \ud83d"), "{text}");
    let markdown = sb.session_ok(&["export", ID, "--format", "markdown"]);
    assert!(
        stdout(&markdown).contains("Autumn moonlight \u{FFFD}"),
        "{}",
        stdout(&markdown)
    );
    if let Some((screen, code)) = at_a_terminal(&sb, &format!("ollm-session get {ID}")) {
        assert_eq!(code, Some(0), "{screen}");
        assert!(
            screen.contains('\u{FFFD}') || screen.contains(r"\ud83d"),
            "{screen}"
        );
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap(), CLI_SESSION);
    // Written back: everything up to the new record is the CLI's bytes.
    record(&sb, ID, "more");
    let after = std::fs::read_to_string(&path).unwrap();
    let kept = CLI_SESSION.find("\n  ],\n  \"toolCalls\"").unwrap();
    let start = CLI_SESSION.find("\"lastActivity\"").unwrap();
    assert_eq!(after[..start], CLI_SESSION[..start]);
    let from = CLI_SESSION.find("  \"messages\"").unwrap();
    let at = after.find("  \"messages\"").unwrap();
    assert_eq!(after[at..at + (kept - from)], CLI_SESSION[from..kept]);
}

#[test]
fn with_default_settings_each_side_lists_and_extends_the_others_sessions() {
    let sb = Sandbox::new();
    let ours = sb.create_session();
    record(&sb, &ours, "from ollm");
    assert!(sb.sessions_dir().join(format!("{ours}.json")).is_file());
    let Some(out) = cli(&sb, &["list"]) else {
        return;
    };
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(listed[0]["sessionId"], ours.as_str());
    assert_eq!(listed[0]["messageCount"], 1);
    cli(&sb, &["record", &ours, "assistant", "from the CLI"]);
    cli(&sb, &["record-tool", &ours, "read_file", "contents"]);
    record(&sb, &ours, "from ollm again");
    let got = json(&sb.session_ok(&["get", &ours]));
    assert_eq!(
        texts(&got),
        ["from ollm", "from the CLI", "from ollm again"]
    );
    assert_eq!(got["toolCalls"][0]["result"]["llmContent"], "contents");

    let theirs = stdout(&cli(&sb, &["create", "qwen3:8b", "ollama"]).unwrap());
    cli(&sb, &["record", &theirs, "user", "hello from the CLI"]);
    let list = json(&sb.session_ok(&["list"]));
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["sessionId"].as_str().unwrap())
        .collect();
    assert!(
        ids.contains(&theirs.as_str()) && ids.contains(&ours.as_str()),
        "{list}"
    );
    record(&sb, &theirs, "answered by ollm");
    let read_by_cli: Value =
        serde_json::from_slice(&cli(&sb, &["get", &theirs]).unwrap().stdout).unwrap();
    assert_eq!(
        texts(&read_by_cli),
        ["hello from the CLI", "answered by ollm"]
    );
}

#[test]
fn an_upgraded_home_keeps_its_session_data_store_until_moved() {
    let sb = Sandbox::new();
    let legacy = sb.ollm_home.join("session-data");
    std::fs::create_dir_all(&legacy).unwrap();
    let out = sb.cmd("ollm").arg("config").output().unwrap();
    assert_eq!(
        json(&out)["services"]["session"]["dataDir"],
        legacy.to_str().unwrap()
    );
    let id = sb.create_session();
    assert!(legacy.join(format!("{id}.json")).is_file());
    // Moved into the OLLM CLI's directory by the command docs/ollm-cli.md gives.
    let sessions = sb.sessions_dir();
    let copied = sb.session_ok(&[
        "copy",
        "--from",
        legacy.to_str().unwrap(),
        "--to",
        sessions.to_str().unwrap(),
        "--all",
    ]);
    assert_eq!(json(&copied)["copied"], json!([id]));
    std::fs::remove_dir_all(&legacy).unwrap();
    let list = json(&sb.session_ok(&["list"]));
    assert_eq!(list[0]["sessionId"], id.as_str());
    assert!(sessions.join(format!("{id}.json")).is_file());
}

#[test]
fn a_cli_rewriting_its_cached_copy_between_our_records_loses_nothing_it_had_seen() {
    let sb = Sandbox::new();
    write_cli_session(&sb);
    record(&sb, ID, "A (seen by the CLI)");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ollm-cli/recording.js");
    let Ok(mut stale) = std::process::Command::new("node")
        .arg(&script)
        .arg(sb.sessions_dir())
        .args(["record-after-line", ID, "assistant", "C (the CLI)"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
    else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true and no node"
        );
        eprintln!("SKIPPED: no node to play the OLLM CLI");
        return;
    };
    let mut line = String::new();
    BufReader::new(stale.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line.trim(), "loaded");
    record(&sb, ID, "B (not seen by the CLI)");
    stale.stdin.take().unwrap().write_all(b"go\n").unwrap();
    assert!(stale.wait().unwrap().success());
    record(&sb, ID, "D (after the CLI's rewrite)");
    let got = parse(&sb.session_ok(&["get", ID]).stdout);
    let texts = texts(&got);
    assert_eq!(
        texts[2..],
        [
            "A (seen by the CLI)",
            "C (the CLI)",
            "D (after the CLI's rewrite)"
        ],
        "{texts:?}"
    );
    assert!(!sb.sessions_dir().join(ID).exists());
}

#[test]
fn parallel_writers_into_one_cli_session_lose_no_record() {
    let sb = Sandbox::new();
    write_cli_session(&sb);
    let writers: Vec<_> = (0..4)
        .map(|w| {
            let mut child = std::process::Command::new(crate::support::bin_path("ollm-session"))
                .env_clear()
                .env("HOME", &sb.home)
                .env("OLLM_HOME", &sb.ollm_home)
                .args(["record", ID])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let mut input = child.stdin.take().unwrap();
            for n in 0..25 {
                let record = json!({"role": "user", "parts": [{"type": "text", "text": format!("w{w}-{n}")}]});
                writeln!(input, "{record}").unwrap();
            }
            drop(input);
            child
        })
        .collect();
    for child in writers {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out).lines().count(), 25);
    }
    let got = parse(&sb.session_ok(&["get", ID]).stdout);
    let texts = texts(&got);
    assert_eq!(texts.len(), 2 + 100);
    for w in 0..4 {
        let mine: Vec<&String> = texts
            .iter()
            .filter(|t| t.starts_with(&format!("w{w}-")))
            .collect();
        let expected: Vec<String> = (0..25).map(|n| format!("w{w}-{n}")).collect();
        assert_eq!(
            mine,
            expected.iter().collect::<Vec<_>>(),
            "writer {w} out of order"
        );
    }
}

#[test]
fn read_only_commands_leave_every_file_byte_identical() {
    let sb = Sandbox::new();
    // A good session in each format, with a snapshot and a context entry.
    let good = sb.create_session();
    record(&sb, &good, "zanzibar");
    let snapshot = json(&sb.session_ok(&["snapshot", "create", &good]));
    let snapshot_id = snapshot["id"].as_str().unwrap().to_string();
    let journal = sb.create_journal_session();
    record(&sb, &journal, "zanzibar in a journal");
    sb.cmd("ollm-context")
        .args(["add", "rules", "be brief"])
        .assert()
        .success();
    // The damage: a corrupt journal, a foreign file under a session's name,
    // and the CLI's session with a lone surrogate.
    let corrupt = sb.create_journal_session();
    let dir = sb.sessions_dir();
    std::fs::write(dir.join(&corrupt).join("journal.ndjson"), "garbage\n{}\n").unwrap();
    let _ = std::fs::remove_file(dir.join(&corrupt).join("summary.json"));
    let foreign = "6ba7b810-9dad-41d1-80b4-00c04fd430c8";
    std::fs::write(
        dir.join(format!("{foreign}.json")),
        r#"{"name": "my-app", "version": "1.0.0", "dependencies": {}}"#,
    )
    .unwrap();
    write_cli_session(&sb);

    // ollm's own index of the store (a cache derived from the files, in
    // `.index/`) is the one thing a read may write: it is built on first use.
    let tree = |dir: &std::path::Path| -> Tree {
        tree(dir)
            .into_iter()
            .filter(|(path, _)| !path.components().any(|c| c.as_os_str() == ".index"))
            .collect()
    };
    let before = (tree(&sb.ollm_home), tree(&sb.work));
    let commands: Vec<Vec<String>> = [
        vec!["ollm-session", "list"],
        vec!["ollm-session", "list", "--corrupt"],
        vec!["ollm-session", "get", &good],
        vec!["ollm-session", "get", &corrupt],
        vec!["ollm-session", "get", foreign],
        vec!["ollm-session", "get", ID],
        vec!["ollm-session", "get", "--last"],
        vec!["ollm-session", "search", "zanzibar"],
        vec!["ollm-session", "search", "--regex", "zan.ibar"],
        vec!["ollm-session", "export", ID],
        vec!["ollm-session", "export", &corrupt],
        vec!["ollm-session", "export", &good, "--format", "markdown"],
        vec!["ollm-session", "branches", ID],
        vec!["ollm-session", "snapshot", "list", &good],
        vec!["ollm-session", "snapshot", "show", &snapshot_id],
        vec!["ollm-session", "cleanup", "--keep", "0", "--dry-run"],
        vec!["ollm-session", "scan", "--all"],
        vec!["ollm-session", "scan", ID],
        vec!["ollm-session", "scan", &corrupt],
        vec!["ollm-session", "redact", "--all", "--dry-run"],
        vec!["ollm-session", "config"],
        vec!["ollm-context", "list"],
        vec!["ollm-context", "get", "rules"],
        vec!["ollm-context", "prompt"],
        vec!["ollm-compress", "check", "--session", ID],
        vec!["ollm-compress", "check", "--session", &corrupt],
        vec!["ollm-compress", "config"],
        vec!["ollm-loopcheck", "--session", ID],
        vec!["ollm-loopcheck", "--session", &corrupt],
    ]
    .iter()
    .map(|c| c.iter().map(ToString::to_string).collect())
    .collect();
    for command in &commands {
        let out = sb.cmd(&command[0]).args(&command[1..]).output().unwrap();
        let code = out.status.code();
        assert!(
            code != Some(70) && code.is_some(),
            "{command:?}: {}",
            stderr(&out)
        );
        let whole_store = command.iter().any(|a| a == "--all");
        if !out.status.success() && code != Some(1) && whole_store {
            // `scan`/`redact --all` name each session they could not read,
            // then fail with one line saying how many.
            let err = stderr(&out);
            assert!(
                err.lines().all(|l| l.starts_with("ollm-session: "))
                    && err
                        .lines()
                        .last()
                        .is_some_and(|l| l.contains("could not be read")),
                "{command:?}: {err}"
            );
        } else if !out.status.success() && code != Some(1) {
            assert_one_line_error(&out, &command[0]);
        }
        let after = (tree(&sb.ollm_home), tree(&sb.work));
        assert!(
            before == after,
            "{command:?} changed the tree: {}",
            describe(&before, &after)
        );
    }
    let out = sb
        .cmd("ollm-session")
        .args(["get", &corrupt])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(6), "{}", stderr(&out));
    let out = sb
        .cmd("ollm-session")
        .args(["get", foreign])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(6), "{}", stderr(&out));
}

type Tree = BTreeMap<PathBuf, Option<Vec<u8>>>;

fn describe(before: &(Tree, Tree), after: &(Tree, Tree)) -> String {
    let mut changed = Vec::new();
    for (b, a) in [(&before.0, &after.0), (&before.1, &after.1)] {
        for (path, bytes) in a {
            if b.get(path) != Some(bytes) {
                changed.push(format!("{} (new or changed)", path.display()));
            }
        }
        for path in b.keys() {
            if !a.contains_key(path) {
                changed.push(format!("{} (gone)", path.display()));
            }
        }
    }
    changed.join(", ")
}
