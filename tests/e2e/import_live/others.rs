//! Codex rollouts and gemini-cli chats written while a watcher runs.

use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use super::{
    Watcher, append, fixture, have_fixtures, lines_of, one_shot, store_of, wait_for_store,
    wait_until,
};
use crate::support::Sandbox;

const EXEC: &str = "codex/agent-history-exec/sessions/2026/06/05/rollout-2026-06-05T10-28-20-019e9625-802f-7e91-840a-cfe88d14117a.jsonl";
const SMALL: &str = "codex/localpush-2026-02-23T13-19-38/sessions/2026/02/23/rollout-2026-02-23T13-19-38-019c8a70-dda7-7f33-98ea-f30553347322.jsonl";
const LEGACY: &str = "gemini/agent-history-legacy-json/tmp/d30f91067027d10192e4aed3e7b03fecf08089dd3370f047f14f38b1845c8042/chats/session-2026-06-05T04-59-dcbe78d3.json";
const LOG: &str = "gemini/synthetic-jsonl/tmp/webapp/chats/session-2026-09-20T10-18-63a95ada.jsonl";

/// `relative` (under the fixture's `sessions/` or `tmp/`) at the same
/// place under `root` in the sandbox.
fn under(root: &Path, relative: &str, from: &str) -> std::path::PathBuf {
    let tail = &relative[relative.find(from).unwrap() + from.len()..];
    let path = root.join(tail);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    path
}

#[test]
fn a_codex_rollout_made_in_a_new_date_directory_equals_a_one_shot_import() {
    if !have_fixtures() {
        return;
    }
    let sb = Sandbox::new();
    let sessions = sb.home.join(".codex/sessions");
    std::fs::copy(fixture(SMALL), under(&sessions, SMALL, "sessions/")).unwrap();
    let watcher = Watcher::start(&sb, &["--from", "codex"]);
    wait_until("the catch-up", || store_of(&sb).len() == 1);
    // A new day: its directory appears, then the rollout is written.
    let rollout = under(&sessions, EXEC, "sessions/");
    let lines = lines_of(&fixture(EXEC));
    for line in &lines {
        append(&rollout, line);
        std::thread::sleep(Duration::from_millis(20));
    }
    let expected = one_shot("codex", &[&sessions]);
    assert_eq!(expected.len(), 2);
    wait_for_store(&sb, &expected);
    assert_eq!(std::fs::read(&rollout).unwrap(), lines.concat());
    assert!(watcher.stop().0.success());
}

#[test]
fn a_gemini_chat_rewritten_by_rename_and_a_log_appended_equal_a_one_shot_import() {
    if !have_fixtures() {
        return;
    }
    let sb = Sandbox::new();
    let tmp = sb.home.join(".gemini/tmp");
    let legacy = under(&tmp, LEGACY, "tmp/");
    let full = std::fs::read(fixture(LEGACY)).unwrap();
    let mut first: Value = serde_json::from_slice(&full).unwrap();
    first["messages"].as_array_mut().unwrap().truncate(1);
    std::fs::write(&legacy, serde_json::to_vec_pretty(&first).unwrap()).unwrap();
    let log = under(&tmp, LOG, "tmp/");
    std::fs::copy(
        fixture("gemini/synthetic-jsonl/tmp/webapp/.project_root"),
        log.parent()
            .unwrap()
            .parent()
            .unwrap()
            .join(".project_root"),
    )
    .unwrap();
    let log_lines = lines_of(&fixture(LOG));
    std::fs::write(&log, log_lines[..5].concat()).unwrap();
    let watcher = Watcher::start(&sb, &["--from", "gemini"]);
    wait_until("the catch-up", || store_of(&sb).len() == 2);
    // gemini-cli saves a chat whole: a temp file renamed over the old one.
    let temp = legacy.with_extension("json.tmp");
    std::fs::write(&temp, &full).unwrap();
    std::fs::rename(&temp, &legacy).unwrap();
    for line in &log_lines[5..] {
        append(&log, line);
        std::thread::sleep(Duration::from_millis(20));
    }
    let expected = one_shot("gemini", &[&tmp]);
    assert_eq!(expected.len(), 2);
    wait_for_store(&sb, &expected);
    assert_eq!(std::fs::read(&legacy).unwrap(), full);
    assert_eq!(std::fs::read(&log).unwrap(), log_lines.concat());
    assert!(watcher.stop().0.success());
}

const TURNS: &str = "codex/localpush-2026-02-23T20-34-25/sessions/2026/02/23/rollout-2026-02-23T20-34-25-019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl";

/// Whether the cursor of a source holds what a tail read of a rollout
/// continues from (the session's fields: `state`).
fn tail_anchored(sb: &crate::support::Sandbox) -> bool {
    let dir = sb.sessions_dir().join(".import/cursors");
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .any(|entry| {
            std::fs::read_to_string(entry.path()).is_ok_and(|text| text.contains("\"state\""))
        })
}

#[test]
fn a_codex_rollout_appended_in_turns_and_half_lines_equals_a_one_shot_import() {
    if !have_fixtures() {
        return;
    }
    for relative in [SMALL, TURNS] {
        let sb = Sandbox::new();
        let sessions = sb.home.join(".codex/sessions");
        let rollout = under(&sessions, relative, "sessions/");
        let lines = lines_of(&fixture(relative));
        // The meta line first, so that the catch-up has a session to tail.
        append(&rollout, &lines[0]);
        let watcher = Watcher::start(&sb, &["--from", "codex"]);
        wait_until("the catch-up", || store_of(&sb).len() == 1);
        // Writes of 1 to 9 lines, the last line of every other one in two
        // halves a moment apart.
        let (mut at, mut turn) = (1, 0);
        while at < lines.len() {
            let end = (at + [1, 3, 2, 9][turn % 4]).min(lines.len());
            let write = lines[at..end].concat();
            let last = lines[end - 1].len();
            if turn % 2 == 0 && last > 2 {
                let cut = write.len() - last / 2;
                append(&rollout, &write[..cut]);
                std::thread::sleep(Duration::from_millis(150));
                append(&rollout, &write[cut..]);
            } else {
                append(&rollout, &write);
            }
            std::thread::sleep(Duration::from_millis(150));
            (at, turn) = (end, turn + 1);
        }
        let expected = one_shot("codex", &[&sessions]);
        assert_eq!(expected.len(), 1);
        wait_for_store(&sb, &expected);
        assert_eq!(std::fs::read(&rollout).unwrap(), lines.concat());
        // (The smaller one ends on a call whose output never came: the
        // next read of it is whole, as its output may come.)
        if relative == TURNS {
            assert!(tail_anchored(&sb), "{relative}: no cursor to tail from");
        }
        assert!(watcher.stop().0.success());
    }
}

/// Runs `import --hook gemini` on `transcript`, as gemini-cli's hooks do:
/// it exits 0 and prints nothing on stdout.
fn gemini_hook(sb: &Sandbox, transcript: &Path) {
    let input = serde_json::json!({
        "session_id": "63a95ada-876f-483a-bc98-099900d7ee46",
        "transcript_path": transcript,
        "cwd": "/home/user/webapp",
        "hook_event_name": "AfterAgent",
    })
    .to_string();
    let out = sb
        .cmd("ollm-session")
        .args(["import", "--hook", "gemini"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
}

/// Imports `log` with a one-shot `import` (a whole read, whatever the
/// cursors say).
fn gemini_one_shot(sb: &Sandbox, log: &Path) {
    let out = sb
        .cmd("ollm-session")
        .args(["import", "--from", "gemini"])
        .arg(log)
        .output()
        .unwrap();
    assert!(out.status.success());
}

/// A log grown by writes with hook calls between (which read only its new
/// lines where they can) stores what one-shot imports at the same steps
/// store. (Not what one import of the final log stores: this log rewinds
/// and replaces messages, and a message stored is never taken back.)
#[test]
fn a_gemini_log_appended_in_turns_and_half_lines_with_hook_calls_equals_one_shot_imports() {
    if !have_fixtures() {
        return;
    }
    let (sb, reference) = (Sandbox::new(), Sandbox::new());
    let tmp = sb.home.join(".gemini/tmp");
    let log = under(&tmp, LOG, "tmp/");
    let other = under(&reference.home.join(".gemini/tmp"), LOG, "tmp/");
    for log in [&log, &other] {
        std::fs::copy(
            fixture("gemini/synthetic-jsonl/tmp/webapp/.project_root"),
            log.parent()
                .unwrap()
                .parent()
                .unwrap()
                .join(".project_root"),
        )
        .unwrap();
    }
    let lines = lines_of(&fixture(LOG));
    // Writes of 1 to 3 lines, the last line of every other one in two
    // halves with a hook call between, and a hook call after each.
    let (mut at, mut turn) = (0, 0);
    while at < lines.len() {
        let end = (at + [1, 3, 2][turn % 3]).min(lines.len());
        let write = lines[at..end].concat();
        let last = lines[end - 1].len();
        let step = |bytes: &[u8]| {
            append(&log, bytes);
            gemini_hook(&sb, &log);
            append(&other, bytes);
            gemini_one_shot(&reference, &other);
        };
        if turn % 2 == 1 && last > 2 {
            let cut = write.len() - last / 2;
            step(&write[..cut]);
            step(&write[cut..]);
        } else {
            step(&write);
        }
        (at, turn) = (end, turn + 1);
    }
    let got = store_of(&sb);
    assert_eq!(got.len(), 1);
    assert_eq!(got, store_of(&reference));
    super::assert_no_duplicates(&got);
    assert_eq!(std::fs::read(&log).unwrap(), lines.concat());
    assert!(tail_anchored(&sb), "no cursor to tail from");
}
