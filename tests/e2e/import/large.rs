//! A source session larger than one part (2,000 items): imported whole,
//! once, in order; grown across a part's boundary; and finished without
//! duplicates after a run killed while writing it.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{get, import, source_keys};
use crate::support::{self, Sandbox};

const SESSION: &str = "5f0c2a9e-3333-4a4a-9b9b-000000000001";

/// A Claude Code session of `turns` turns: per turn a prompt, a response
/// of two lines sharing `message.id` (text, then a `tool_use`), its
/// `tool_result` and a closing answer; 3 messages and 1 tool call (4
/// items) a turn, one second apart.
fn long_session(cwd: &Path, turns: usize) -> String {
    let mut out = String::new();
    let mut parent = Value::Null;
    let mut n = 0u64;
    let mut push = |kind: &str, message: Value, out: &mut String| {
        n += 1;
        let uuid = format!("00000000-0000-4000-8000-{n:012}");
        let at = format!(
            "2026-02-03T{:02}:{:02}:{:02}.000Z",
            n / 3600,
            n / 60 % 60,
            n % 60
        );
        let line = json!({
            "parentUuid": parent, "isSidechain": false, "userType": "external",
            "cwd": cwd, "sessionId": SESSION, "version": "2.0.14", "type": kind,
            "uuid": uuid, "timestamp": at, "message": message,
        });
        out.push_str(&line.to_string());
        out.push('\n');
        parent = Value::from(uuid);
    };
    let padding = "x".repeat(300);
    for t in 0..turns {
        push(
            "user",
            json!({"role": "user", "content": format!("prompt {t}")}),
            &mut out,
        );
        let id = format!("msg_{t}");
        let tool = format!("toolu_{t}");
        let assistant = |content: Value| {
            json!({"id": id, "type": "message", "role": "assistant",
                   "model": "claude-sonnet-4-5", "content": content})
        };
        push(
            "assistant",
            assistant(json!([{"type": "text", "text": format!("running {t}")}])),
            &mut out,
        );
        push(
            "assistant",
            assistant(json!([{"type": "tool_use", "id": tool, "name": "Bash",
                              "input": {"command": format!("test {t}")}}])),
            &mut out,
        );
        push(
            "user",
            json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool,
                   "content": format!("output {t} {padding}")}]}),
            &mut out,
        );
        push(
            "assistant",
            json!({"id": format!("msg_{t}_done"), "type": "message", "role": "assistant",
                   "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": format!("done {t}")}]}),
            &mut out,
        );
    }
    out
}

/// The stored session's messages' texts, tool calls' outputs, and source
/// keys, each in time order.
fn stored(sb: &Sandbox, id: &str) -> (Vec<String>, Vec<String>, Vec<String>) {
    let session = get(sb, id);
    let texts = session["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["parts"][0]["text"].as_str().unwrap().to_string())
        .collect();
    let outputs = session["toolCalls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["result"]["llmContent"].as_str().unwrap().to_string())
        .collect();
    (texts, outputs, source_keys(&session))
}

/// What a session of `turns` turns must be stored as.
fn expected(turns: usize) -> (Vec<String>, Vec<String>) {
    let texts = (0..turns)
        .flat_map(|t| {
            [
                format!("prompt {t}"),
                format!("running {t}"),
                format!("done {t}"),
            ]
        })
        .collect();
    let outputs = (0..turns)
        .map(|t| format!("output {t} {}", "x".repeat(300)))
        .collect();
    (texts, outputs)
}

fn assert_whole(sb: &Sandbox, id: &str, turns: usize) {
    let (texts, outputs, keys) = stored(sb, id);
    let (want_texts, want_outputs) = expected(turns);
    assert_eq!(texts.len(), want_texts.len());
    assert!(
        texts == want_texts,
        "the messages are not the source's, in order"
    );
    assert!(
        outputs == want_outputs,
        "the tool results are not the source's, in order"
    );
    let mut unique = keys.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), keys.len(), "a record is stored twice");
}

#[test]
fn a_session_of_many_parts_is_imported_whole_once_and_grows_across_a_part() {
    let sb = Sandbox::new();
    let file = sb.work.join(format!("{SESSION}.jsonl"));
    // 700 turns: 2,800 items, a part and a bit.
    std::fs::write(&file, long_session(&sb.work, 700)).unwrap();
    let path = file.display().to_string();
    let (sessions, summary) = import(&sb, &["--from", "claude", &path]);
    let line = &sessions[0];
    assert_eq!(line["status"], "imported");
    assert_eq!(
        (line["messages"].clone(), line["toolCalls"].clone()),
        (json!(2100), json!(700))
    );
    assert_eq!(summary["added"], 2800);
    let id = line["sessionId"].as_str().unwrap().to_string();
    assert_whole(&sb, &id, 700);
    // Its last activity is the source's last line, not the time of import.
    let listed = support::json(
        &sb.cmd("ollm-session")
            .args(["list", "--format", "json"])
            .output()
            .unwrap(),
    );
    let last_line = 700 * 5;
    assert_eq!(
        listed[0]["lastActivity"],
        format!(
            "2026-02-03T{:02}:{:02}:{:02}.000Z",
            last_line / 3600,
            last_line / 60 % 60,
            last_line % 60
        )
    );

    let (again, _) = import(&sb, &["--from", "claude", &path]);
    assert_eq!(
        (again[0]["status"].clone(), again[0]["added"].clone()),
        (json!("unchanged"), json!(0))
    );

    // Grown to 1,300 turns (5,200 items): the new items span two parts.
    std::fs::write(&file, long_session(&sb.work, 1300)).unwrap();
    let (grown, _) = import(&sb, &["--from", "claude", &path]);
    assert_eq!(
        (grown[0]["status"].clone(), grown[0]["added"].clone()),
        (json!("updated"), json!(2400))
    );
    assert_whole(&sb, &id, 1300);
}

#[test]
fn a_run_killed_while_writing_a_large_session_is_finished_without_duplicates() {
    let sb = Sandbox::new();
    let file = sb.work.join(format!("{SESSION}.jsonl"));
    // 4,000 turns: 16,000 items in 8 parts, about 4 MB.
    std::fs::write(&file, long_session(&sb.work, 4000)).unwrap();
    let path = file.display().to_string();
    // Killed as soon as the session is there (its first part stored),
    // then again while the next run adds the rest.
    let mut partial = 0;
    for wait_ms in [0, 0, 100, 300] {
        let mut child = Command::new(support::bin_path("ollm-session"))
            .args(["import", "--from", "claude", &path])
            .env_clear()
            .env("HOME", &sb.home)
            .env("OLLM_HOME", &sb.ollm_home)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while !has_a_session(&sb.sessions_dir()) && started.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(2));
        }
        std::thread::sleep(Duration::from_millis(wait_ms));
        let _ = child.kill();
        let _ = child.wait();
        let listed = support::json(
            &sb.cmd("ollm-session")
                .args(["list", "--format", "json"])
                .output()
                .unwrap(),
        );
        if listed[0]["messageCount"]
            .as_u64()
            .is_some_and(|n| n < 12_000)
        {
            partial += 1;
        }
    }
    let (sessions, summary) = import(&sb, &["--from", "claude", &path]);
    assert_eq!(summary["failed"], 0);
    let id = sessions[0]["sessionId"].as_str().unwrap().to_string();
    assert_whole(&sb, &id, 4000);
    // Where a kill lands depends on the machine's speed: say so when none
    // left a part written, since the test then checked less.
    if partial == 0 {
        eprintln!("note: no kill left a partly written session on this machine");
    }
}

/// Whether a session directory is in `dir` yet.
fn has_a_session(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| !e.file_name().to_string_lossy().starts_with('.') && e.path().is_dir())
    })
}

#[test]
fn two_imports_at_once_into_one_postgresql_store_keep_each_record_once() {
    // Two machines: two OLLM_HOMEs (so two file locks), one store.
    let Some(sb) = Sandbox::on(support::SessionStore::Postgres) else {
        return;
    };
    let other = Sandbox::new();
    let file = sb.work.join(format!("{SESSION}.jsonl"));
    // 4,000 turns: 16,000 items in 8 parts.
    std::fs::write(&file, long_session(&sb.work, 4000)).unwrap();
    let path = file.display().to_string();
    let start = |home: &Sandbox| {
        let mut cmd = home.std_cmd("ollm-session");
        cmd.envs(sb.store_env())
            .args(["import", "--from", "claude", &path])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let runs = [start(&sb), start(&other)];
    let (mut statuses, mut ids) = (Vec::new(), Vec::new());
    for run in runs {
        let out = run.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{stderr}");
        let (sessions, summary) = super::parse(&String::from_utf8_lossy(&out.stdout));
        assert_eq!(summary["failed"], 0, "{stderr}");
        statuses.push(sessions[0]["status"].as_str().unwrap().to_string());
        ids.push(sessions[0]["sessionId"].as_str().unwrap().to_string());
    }
    assert_eq!(ids[0], ids[1]);
    statuses.sort();
    // One stored it all; the other, held until then, found it stored.
    assert_eq!(statuses, ["imported", "unchanged"]);
    assert_whole(&sb, &ids[0], 4000);
}
