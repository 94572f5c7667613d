//! Importing the real transcripts of `shared/importer-fixtures` (Claude
//! Code, Codex and gemini-cli files from public repositories, read in
//! place, never copied into this repository) and cases derived from them
//! at test time: every session's prompts, answers, tool calls and pairs
//! must be what an independent reading of the file finds
//! ([`super::recount`]).

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::recount::{self, Counts};
use super::{get, import};
use crate::support::Sandbox;

/// `shared/importer-fixtures` beside the checkout (`../shared` of the
/// repository, or further up for a worktree inside it); `None`, saying
/// SKIPPED, where it is not. Under `CI=true` a missing one fails.
pub fn fixtures() -> Option<PathBuf> {
    let found = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|dir| dir.join("shared/importer-fixtures"))
        .find(|dir| dir.join("README.md").is_file());
    if found.is_none() {
        let why = "no shared/importer-fixtures beside the repository (the real transcripts \
                   the import tests read in place)";
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true and {why}"
        );
        eprintln!("SKIPPED: {why}");
    }
    found
}

/// Every transcript file under `dir`, sorted.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == ext) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The stores (`<tool>/<name>`) of `tool` in the fixtures.
fn stores(fixtures: &Path, tool: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(fixtures.join(tool))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    out.sort();
    out
}

/// Imports `path` (`--from tool`) into `sb`: each imported session's
/// counts, with the file it came from.
fn imported(sb: &Sandbox, tool: &str, path: &Path) -> Vec<(PathBuf, Counts, Value)> {
    let (lines, summary) = import(sb, &["--from", tool, &path.display().to_string()]);
    assert_eq!(summary["failed"], 0, "{summary}");
    lines
        .iter()
        .map(|line| {
            let session = get(sb, line["sessionId"].as_str().unwrap());
            let file = PathBuf::from(line["source"].as_str().unwrap());
            (file, recount::of_session(&session), line.clone())
        })
        .collect()
}

fn is_agent_file(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with("agent-"))
}

/// Imports the Claude Code store `projects` and checks every session
/// against the independent reading of its file; returns the sessions.
fn claude_agrees(sb: &Sandbox, projects: &Path) -> Vec<(PathBuf, Counts, Value)> {
    let sessions = imported(sb, "claude", projects);
    let transcripts = files(projects, "jsonl");
    assert_eq!(sessions.len(), transcripts.len(), "{sessions:#?}");
    for (file, counts, line) in &sessions {
        let text = std::fs::read_to_string(file).unwrap();
        let expected = recount::claude(&text, is_agent_file(file));
        assert_eq!(*counts, expected, "{}: {line}", file.display());
    }
    sessions
}

#[test]
fn every_real_claude_transcript_imports_what_an_independent_reading_finds() {
    let Some(fixtures) = fixtures() else { return };
    let mut prompts = 0;
    for store in stores(&fixtures, "claude") {
        let sb = Sandbox::new();
        for (_, counts, line) in claude_agrees(&sb, &store.join("projects")) {
            assert!(counts.answers > 0, "{line}");
            prompts += counts.prompts;
        }
    }
    assert!(prompts >= 5, "{prompts} prompts in all");
}

#[test]
fn a_slash_command_written_twice_by_claude_code_is_one_prompt_and_the_copy_is_counted() {
    let Some(fixtures) = fixtures() else { return };
    let sb = Sandbox::new();
    let projects = fixtures.join("claude/spotter-tool-heavy/projects");
    let sessions = claude_agrees(&sb, &projects);
    let (_, _, line) = &sessions[0];
    let session = get(&sb, line["sessionId"].as_str().unwrap());
    let typed: Vec<&str> = session["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "user")
        .map(|m| m["parts"][0]["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        typed.iter().filter(|t| **t == "/mcp").count(),
        1,
        "{typed:#?}"
    );
    assert_eq!(line["skipped"]["copies"], 1, "{line}");
    // The caveat (`isMeta`) and the two interruption markers.
    assert_eq!(line["skipped"]["notTyped"], 3, "{line}");
}

/// A copy of the store `projects` in `sb` with each transcript's lines
/// passed through `change` (the file's lines; `false`: left as it is).
fn derived(
    sb: &Sandbox,
    projects: &Path,
    ext: &str,
    change: impl Fn(&mut Vec<Value>) -> bool,
) -> (PathBuf, usize) {
    let copy = sb.home.join("derived");
    let mut changed = 0;
    for file in files(projects, ext) {
        let text = std::fs::read_to_string(&file).unwrap();
        let mut lines: Vec<Value> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        changed += usize::from(change(&mut lines));
        let to = copy.join(file.strip_prefix(projects).unwrap());
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        let out: Vec<String> = lines.iter().map(Value::to_string).collect();
        std::fs::write(&to, out.join("\n") + "\n").unwrap();
    }
    (copy, changed)
}

/// Takes out a `progress` line that a message names as its parent, after
/// the transcript's second prompt: that message's `parentUuid` then names
/// a line never written (what a hook's progress line did in Claude Code
/// 2.1.29).
fn break_the_chain(lines: &mut Vec<Value>) -> bool {
    let prompts_before = |at: usize, lines: &[Value]| {
        lines[..at]
            .iter()
            .filter(|l| l["type"] == "user" && l["message"]["content"].is_string())
            .count()
    };
    let parents: std::collections::HashSet<String> = lines
        .iter()
        .filter(|l| l["type"] == "user" || l["type"] == "assistant")
        .filter_map(|l| l["parentUuid"].as_str().map(str::to_string))
        .collect();
    let found = (0..lines.len()).find(|&at| {
        lines[at]["type"] == "progress"
            && lines[at]["uuid"]
                .as_str()
                .is_some_and(|uuid| parents.contains(uuid))
            && prompts_before(at, lines) >= 2
    });
    found.map(|at| lines.remove(at)).is_some()
}

#[test]
fn a_broken_parent_chain_loses_nothing_before_the_break() {
    let Some(fixtures) = fixtures() else { return };
    let mut broken = 0;
    for store in stores(&fixtures, "claude") {
        let sb = Sandbox::new();
        let (copy, changed) = derived(&sb, &store.join("projects"), "jsonl", break_the_chain);
        broken += changed;
        if changed > 0 {
            claude_agrees(&sb, &copy);
        }
    }
    assert!(
        broken >= 2,
        "only {broken} transcripts had a chain to break"
    );
}

#[test]
fn a_prompt_that_is_only_an_image_is_kept_as_one() {
    let Some(fixtures) = fixtures() else { return };
    let sb = Sandbox::new();
    let projects = fixtures.join("claude/spotter-tool-heavy/projects");
    let (copy, changed) = derived(&sb, &projects, "jsonl", |lines| {
        let Some(prompt) = lines
            .iter_mut()
            .find(|l| l["type"] == "user" && l["message"]["content"].is_string())
        else {
            return false;
        };
        prompt["message"]["content"] = serde_json::json!([{"type": "image", "source":
            {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}]);
        true
    });
    assert_eq!(changed, 1);
    let sessions = claude_agrees(&sb, &copy);
    let session = get(&sb, sessions[0].2["sessionId"].as_str().unwrap());
    let first = &session["messages"][0];
    assert_eq!(first["role"], "user", "{first}");
    assert_eq!(
        first["parts"],
        serde_json::json!([{"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="}]),
        "the image is kept"
    );
}

/// Imports the Codex store `sessions` and checks every rollout against the
/// independent reading of its file; returns the sessions.
fn codex_agrees(sb: &Sandbox, sessions_dir: &Path) -> Vec<(PathBuf, Counts, Value)> {
    let sessions = imported(sb, "codex", sessions_dir);
    assert_eq!(sessions.len(), files(sessions_dir, "jsonl").len());
    for (file, counts, line) in &sessions {
        let expected = recount::codex(&std::fs::read_to_string(file).unwrap());
        assert_eq!(*counts, expected, "{}: {line}", file.display());
    }
    sessions
}

#[test]
fn every_real_codex_rollout_imports_what_an_independent_reading_finds() {
    let Some(fixtures) = fixtures() else { return };
    for store in stores(&fixtures, "codex") {
        let sb = Sandbox::new();
        for (_, counts, line) in codex_agrees(&sb, &store.join("sessions")) {
            assert!(counts.prompts > 0 && counts.answers > 0, "{line}");
            // Each prompt's `event_msg` copy is counted, not imported.
            assert!(line["skipped"]["copies"].as_u64() > Some(0), "{line}");
        }
    }
}

#[test]
fn prompts_kept_only_as_user_message_events_are_prompts() {
    let Some(fixtures) = fixtures() else { return };
    for store in stores(&fixtures, "codex") {
        let sb = Sandbox::new();
        // As Codex Desktop 0.128 writes some rollouts: no `response_item`
        // of role user.
        let (copy, changed) = derived(&sb, &store.join("sessions"), "jsonl", |lines| {
            let before = lines.len();
            lines.retain(|l| !(l["type"] == "response_item" && l["payload"]["role"] == "user"));
            lines.len() < before
        });
        assert_eq!(changed, 1, "{}", store.display());
        for (_, counts, line) in codex_agrees(&sb, &copy) {
            assert!(counts.prompts > 0, "{line}");
            assert_eq!(line["skipped"]["copies"], 0, "{line}");
        }
    }
}

#[test]
fn the_real_gemini_chat_imports_what_an_independent_reading_finds() {
    let Some(fixtures) = fixtures() else { return };
    let store = fixtures.join("gemini/agent-history-legacy-json/tmp");
    let sb = Sandbox::new();
    let sessions = imported(&sb, "gemini", &store);
    assert_eq!(sessions.len(), 1, "{sessions:#?}");
    let (file, counts, line) = &sessions[0];
    let expected = recount::gemini_document(&std::fs::read_to_string(file).unwrap());
    assert_eq!(*counts, expected, "{line}");
    assert!(counts.prompts > 0 && counts.answers > 0, "{line}");
}

#[test]
fn every_synthetic_store_imports_what_an_independent_reading_finds() {
    let Some(fixtures) = fixtures() else { return };
    let goose = fixtures.join("goose/synthetic-db/sessions/sessions.db");
    let opencode = fixtures.join("opencode/synthetic-db/opencode.db");
    let chats = fixtures.join("gemini/synthetic-jsonl/tmp");
    let log = files(&chats, "jsonl");
    assert_eq!(log.len(), 1);
    for (tool, path, expected) in [
        (
            "goose",
            goose.parent().unwrap().to_path_buf(),
            recount::goose(&goose),
        ),
        (
            "opencode",
            opencode.parent().unwrap().to_path_buf(),
            recount::opencode(&opencode),
        ),
        (
            "gemini",
            chats,
            recount::gemini_log(&std::fs::read_to_string(&log[0]).unwrap()),
        ),
    ] {
        let sb = Sandbox::new();
        let sessions = imported(&sb, tool, &path);
        assert_eq!(sessions.len(), 1, "{tool}: {sessions:#?}");
        let (_, counts, line) = &sessions[0];
        assert_eq!(*counts, expected, "{tool}: {line}");
        assert!(counts.prompts > 0 && counts.calls > 0, "{tool}: {line}");
    }
}
