//! What `import` does whatever the tool: finding the sources, working in
//! the project, a dry run, a second run, a killed run, runs at once, and
//! errors. The sources here are plain Claude Code sessions (the format's
//! traps are `claude.rs`'s).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

use super::{get, import, parse};
use crate::on_each_store;
use crate::support::{self, Sandbox, SessionStore, stderr, stdout};

/// A Claude Code session: per turn a prompt, a response of two lines
/// sharing `message.id` (text, then a Bash `tool_use`), the `tool_result`,
/// and a closing answer. 3 messages and 1 tool call a turn.
pub fn claude_session(cwd: &Path, session_id: &str, turns: &[(&str, &str)]) -> String {
    let mut lines = Vec::new();
    let mut parent = Value::Null;
    let mut n = 0;
    let mut push = |kind: &str, extra: Value, lines: &mut Vec<String>| {
        n += 1;
        let uuid = format!("{session_id}-line-{n}");
        let mut line = json!({
            "parentUuid": parent, "isSidechain": false, "userType": "external",
            "cwd": cwd, "sessionId": session_id, "version": "2.0.14", "type": kind,
            "uuid": uuid, "timestamp": format!("2026-02-03T10:{:02}:{:02}.000Z", n / 60, n % 60),
        });
        for (k, v) in extra.as_object().unwrap() {
            line[k] = v.clone();
        }
        lines.push(line.to_string());
        parent = Value::from(uuid);
    };
    for (t, (prompt, output)) in turns.iter().enumerate() {
        push(
            "user",
            json!({"message": {"role": "user", "content": prompt}}),
            &mut lines,
        );
        let id = format!("msg_{session_id}_{t}");
        let tool = format!("toolu_{session_id}_{t}");
        let assistant = |content: Value| {
            json!({"message": {"id": id, "type": "message", "role": "assistant",
                "model": "claude-sonnet-4-5", "content": content}})
        };
        push(
            "assistant",
            assistant(json!([{"type": "text", "text": "Let me run the tests."}])),
            &mut lines,
        );
        push(
            "assistant",
            assistant(json!([{"type": "tool_use", "id": tool, "name": "Bash",
                "input": {"command": "cargo test"}}])),
            &mut lines,
        );
        push(
            "user",
            json!({"message": {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": tool, "content": output, "is_error": false}]}}),
            &mut lines,
        );
        let closing = format!("msg_{session_id}_{t}_done");
        push(
            "assistant",
            json!({"message": {"id": closing, "type": "message", "role": "assistant",
                "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": "All green."}]}}),
            &mut lines,
        );
    }
    lines.join("\n") + "\n"
}

/// Where Claude Code keeps a project's sessions under `config_dir`.
fn project_dir(config_dir: &Path, cwd: &Path) -> PathBuf {
    let slug: String = cwd
        .display()
        .to_string()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    config_dir.join("projects").join(slug)
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn session_ids(sb: &Sandbox) -> Vec<String> {
    let out = sb
        .cmd("ollm-session")
        .args(["list", "--format", "json"])
        .output()
        .unwrap();
    let mut ids = support::ids_of_listing(&out);
    ids.sort();
    ids
}

/// A project (a git work tree) in the sandbox, and a directory inside it.
fn project(sb: &Sandbox) -> (PathBuf, PathBuf) {
    let root = sb.work.join("shop");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    let root = root.canonicalize().unwrap();
    (root.clone(), root.join("src"))
}

fn from_defaults_the_imported_session_is_found_in_its_project(store: SessionStore) {
    let Some(sb) = Sandbox::on(store) else { return };
    let (root, cwd) = project(&sb);
    let id = "5f0c2a9e-1111-4a4a-9b9b-000000000001";
    let text = claude_session(
        &cwd,
        id,
        &[(
            "why do the tests fail?",
            "thread 'retry' panicked: zanzibar-quokka",
        )],
    );
    write(
        &project_dir(&sb.home.join(".claude"), &cwd).join(format!("{id}.jsonl")),
        &text,
    );

    let (sessions, summary) = import(&sb, &[]);
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    assert_eq!(summary["imported"], 1);
    let imported = sessions[0]["sessionId"].as_str().unwrap();
    assert_eq!(sessions[0]["tool"], "claude");
    assert_eq!(sessions[0]["sourceId"], id);
    assert_eq!(
        (
            sessions[0]["messages"].clone(),
            sessions[0]["toolCalls"].clone()
        ),
        (json!(3), json!(1))
    );

    let session = get(&sb, imported);
    assert_eq!(session["workspace"], json!(root.display().to_string()));
    assert_eq!(session["toolCalls"][0]["name"], "Bash");
    assert_eq!(session["metadata"]["importedFrom"]["tool"], "claude");

    // Text that was only in a tool's output is found.
    let out = sb
        .cmd("ollm-session")
        .args(["search", "zanzibar-quokka", "--format", "json"])
        .output()
        .unwrap();
    let hits = support::json(&out);
    assert_eq!(hits.as_array().unwrap().len(), 1, "{hits}");
    assert_eq!(hits[0]["sessionId"], imported);

    // In the project, `resume --continue` and `list --here` pick it.
    let out = sb
        .cmd("ollm-session")
        .args(["resume", "--continue"])
        .current_dir(&cwd)
        .output()
        .unwrap();
    assert_eq!(stdout(&out).trim(), imported, "{}", stderr(&out));
    let out = sb
        .cmd("ollm-session")
        .args(["list", "--here", "--format", "json"])
        .current_dir(&root)
        .output()
        .unwrap();
    assert_eq!(support::json(&out)[0]["sessionId"], imported);
    // Elsewhere it is not this workspace's.
    let out = sb
        .cmd("ollm-session")
        .args(["resume", "--continue"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stdout(&out));
}

on_each_store!(from_defaults_the_imported_session_is_found_in_its_project);

#[test]
fn claude_config_dir_moves_where_sessions_are_looked_for() {
    let sb = Sandbox::new();
    let cwd = sb.work.clone();
    let moved = sb.home.join("elsewhere");
    let a = "5f0c2a9e-1111-4a4a-9b9b-00000000000a";
    let b = "5f0c2a9e-1111-4a4a-9b9b-00000000000b";
    write(
        &project_dir(&moved, &cwd).join(format!("{a}.jsonl")),
        &claude_session(&cwd, a, &[("hi", "ok")]),
    );
    write(
        &project_dir(&sb.home.join(".claude"), &cwd).join(format!("{b}.jsonl")),
        &claude_session(&cwd, b, &[("hi", "ok")]),
    );
    let out = sb
        .cmd("ollm-session")
        .args(["import", "--from", "claude"])
        .env("CLAUDE_CONFIG_DIR", &moved)
        .output()
        .unwrap();
    let (sessions, _) = parse(&stdout(&out));
    let found: Vec<&Value> = sessions.iter().map(|s| &s["sourceId"]).collect();
    assert_eq!(found, [&json!(a)]);
}

#[test]
fn a_dry_run_writes_nothing_and_says_what_an_import_would_do() {
    let sb = Sandbox::new();
    let cwd = sb.work.clone();
    let id = "5f0c2a9e-1111-4a4a-9b9b-000000000002";
    let file = project_dir(&sb.work.join("claude"), &cwd).join(format!("{id}.jsonl"));
    write(&file, &claude_session(&cwd, id, &[("one", "1")]));
    let path = file.display().to_string();

    let before = support::tree(&sb.home);
    let (sessions, summary) = import(&sb, &["--dry-run", &path]);
    assert_eq!(support::tree(&sb.home), before, "a dry run wrote something");
    assert_eq!(sessions[0]["status"], "wouldImport");
    assert_eq!(sessions[0]["added"], 4);
    assert_eq!(summary["dryRun"], true);

    let (sessions, _) = import(&sb, &[&path]);
    assert_eq!(sessions[0]["status"], "imported");
    let (again, summary) = import(&sb, &[&path]);
    assert_eq!(again[0]["status"], "unchanged");
    assert_eq!(
        (summary["added"].clone(), summary["unchanged"].clone()),
        (json!(0), json!(1))
    );

    std::fs::write(
        &file,
        claude_session(&cwd, id, &[("one", "1"), ("two", "2")]),
    )
    .unwrap();
    let before = support::tree(&sb.home);
    let (dry, _) = import(&sb, &["--dry-run", &path]);
    assert_eq!(
        (dry[0]["status"].clone(), dry[0]["added"].clone()),
        (json!("wouldUpdate"), json!(4))
    );
    assert_eq!(support::tree(&sb.home), before);
}

#[test]
fn records_added_to_an_imported_session_stay_when_its_source_grows() {
    let sb = Sandbox::new();
    let cwd = sb.work.clone();
    let id = "5f0c2a9e-1111-4a4a-9b9b-000000000003";
    let file = sb.work.join(format!("{id}.jsonl"));
    write(&file, &claude_session(&cwd, id, &[("one", "1")]));
    let path = file.display().to_string();
    let (sessions, _) = import(&sb, &["--from", "claude", &path]);
    let ours = sessions[0]["sessionId"].as_str().unwrap().to_string();
    sb.cmd("ollm-session")
        .args([
            "record",
            &ours,
            "--role",
            "user",
            "--text",
            "carried on in ollm",
        ])
        .assert()
        .success();

    std::fs::write(
        &file,
        claude_session(&cwd, id, &[("one", "1"), ("two", "2")]),
    )
    .unwrap();
    let (grown, _) = import(&sb, &["--from", "claude", &path]);
    assert_eq!(
        (grown[0]["status"].clone(), grown[0]["added"].clone()),
        (json!("updated"), json!(4))
    );
    let session = get(&sb, &ours);
    let texts: Vec<&str> = session["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["parts"][0]["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts.len(), 7, "{texts:?}");
    assert!(texts.contains(&"carried on in ollm"));
    assert_eq!(texts.iter().filter(|t| **t == "two").count(), 1);
    assert_eq!(session["toolCalls"].as_array().unwrap().len(), 2);
}

/// Thirty sessions of five turns in `dir`.
fn many_sessions(dir: &Path, cwd: &Path) {
    let turns: Vec<(String, String)> = (0..5)
        .map(|t| {
            (
                format!("prompt {t}"),
                format!("output {t} {}", "x".repeat(2000)),
            )
        })
        .collect();
    let turns: Vec<(&str, &str)> = turns
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    for s in 0..30 {
        let id = format!("5f0c2a9e-2222-4a4a-9b9b-{s:012}");
        write(
            &dir.join(format!("{id}.jsonl")),
            &claude_session(cwd, &id, &turns),
        );
    }
}

/// Each session's id and its numbers of messages and tool calls.
fn contents(sb: &Sandbox) -> Vec<(String, usize, usize)> {
    session_ids(sb)
        .into_iter()
        .map(|id| {
            let s = get(sb, &id);
            (
                id,
                s["messages"].as_array().unwrap().len(),
                s["toolCalls"].as_array().unwrap().len(),
            )
        })
        .collect()
}

#[test]
fn a_killed_import_is_finished_by_the_next_run_without_duplicates() {
    let sb = Sandbox::new();
    let source = sb.work.join("sources");
    many_sessions(&source, &sb.work);
    let path = source.display().to_string();
    for delay_ms in [3, 8, 15, 25, 40] {
        let mut child = Command::new(support::bin_path("ollm-session"))
            .args(["import", "--from", "claude", &path])
            .env_clear()
            .env("HOME", &sb.home)
            .env("OLLM_HOME", &sb.ollm_home)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
    }
    let (sessions, summary) = import(&sb, &["--from", "claude", &path]);
    assert_eq!(sessions.len(), 30);
    assert_eq!(summary["failed"], 0);
    let found = contents(&sb);
    assert_eq!(found.len(), 30);
    for (id, messages, calls) in found {
        assert_eq!((messages, calls), (15, 5), "session {id}");
    }
}

#[test]
fn imports_run_at_once_store_each_session_once() {
    let sb = Sandbox::new();
    let source = sb.work.join("sources");
    many_sessions(&source, &sb.work);
    let path = source.display().to_string();
    let children: Vec<_> = (0..3)
        .map(|_| {
            Command::new(support::bin_path("ollm-session"))
                .args(["import", "--from", "auto", &path])
                .env_clear()
                .env("HOME", &sb.home)
                .env("OLLM_HOME", &sb.ollm_home)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut imported = 0;
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        imported += parse(&stdout(&out)).1["imported"].as_u64().unwrap();
    }
    assert_eq!(imported, 30, "each session is imported by exactly one run");
    for (id, messages, calls) in contents(&sb) {
        assert_eq!((messages, calls), (15, 5), "session {id}");
    }
}

#[test]
fn a_path_that_is_not_there_or_holds_no_sessions_is_a_one_line_error() {
    let sb = Sandbox::new();
    let out = sb
        .cmd("ollm-session")
        .args(["import", "no-such-dir"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    support::assert_one_line_error(&out, "ollm-session");
    sb.write("notes/readme.txt", "not a session\n");
    let out = sb
        .cmd("ollm-session")
        .args(["import", "--from", "claude", "notes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    support::assert_one_line_error(&out, "ollm-session");
    assert!(
        stderr(&out).contains("no sessions of claude"),
        "{}",
        stderr(&out)
    );
    let out = sb
        .cmd("ollm-session")
        .args(["import", "--from", "vim"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_source_that_cannot_be_read_is_reported_and_the_others_are_imported() {
    let sb = Sandbox::new();
    let cwd = sb.work.clone();
    let id = "5f0c2a9e-1111-4a4a-9b9b-000000000004";
    write(
        &sb.work.join("mixed").join(format!("{id}.jsonl")),
        &claude_session(&cwd, id, &[("hi", "ok")]),
    );
    let broken = sb
        .work
        .join("mixed/sessions/2026/01/01/rollout-2026-01-01T00-00-00-0198a0a0-0000-7000-8000-000000000001.jsonl.zst");
    std::fs::create_dir_all(broken.parent().unwrap()).unwrap();
    std::fs::write(&broken, b"\x28\xb5\x2f\xfd not really zstd").unwrap();

    let out = sb
        .cmd("ollm-session")
        .args(["import", "mixed"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let (lines, summary) = parse(&stdout(&out));
    let failed: Vec<&Value> = lines.iter().filter(|l| l.get("error").is_some()).collect();
    assert_eq!(failed.len(), 1, "{lines:?}");
    assert_eq!(failed[0]["tool"], "codex");
    assert_eq!(summary["imported"], 1);
    assert_eq!(summary["failed"], 1);
    let warnings = stderr(&out);
    let about: Vec<&str> = warnings
        .lines()
        .filter(|l| l.contains("rollout-2026-01-01"))
        .collect();
    assert_eq!(about.len(), 1, "{warnings}");
    assert_eq!(
        about[0].matches("rollout-2026-01-01").count(),
        1,
        "the path once: {warnings}"
    );
    assert_eq!(session_ids(&sb).len(), 1);
}

#[test]
fn from_names_several_tools_each_read_once_and_no_other() {
    use crate::import_live::{fixture, have_fixtures};
    if !have_fixtures() {
        return;
    }
    let sb = Sandbox::new();
    let claude = fixture("claude/spotter-short/projects");
    let codex = fixture("codex/agent-history-exec/sessions");
    let gemini = fixture("gemini/synthetic-jsonl");
    let (claude_s, codex_s, gemini_s) = (
        claude.to_str().unwrap(),
        codex.to_str().unwrap(),
        gemini.to_str().unwrap(),
    );
    let out = sb
        .cmd("ollm-session")
        .args(["import", "--format", "ndjson", "--from", "codex"])
        .args(["--from", "claude", "--from", "codex"])
        .args([claude_s, codex_s, gemini_s])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let (sessions, summary) = parse(&stdout(&out));
    let mut tools: Vec<&str> = sessions
        .iter()
        .map(|s| s["tool"].as_str().unwrap())
        .collect();
    tools.sort_unstable();
    tools.dedup();
    assert_eq!(tools, ["claude", "codex"]);
    assert_eq!(summary["failed"], 0);
    assert!(
        stderr(&out).contains(&format!(
            "{gemini_s}: no sessions of claude, codex found there"
        )),
        "{}",
        stderr(&out)
    );
    // `auto` among them: every tool.
    let (all, _) = import(&sb, &["--from", "claude", "--from", "auto", gemini_s]);
    assert!(all.iter().all(|s| s["tool"] == "gemini"), "{all:?}");
    assert!(!all.is_empty());
    let bad = sb
        .cmd("ollm-session")
        .args(["import", "--from", "claude", "--from", "nosuch"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(stderr(&bad).trim().lines().count(), 1, "{}", stderr(&bad));
}
