//! Claude Code transcripts written while a watcher runs.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{
    Watcher, append, fixture, have_fixtures, lines_of, one_shot, store_of, wait_for_store,
    wait_until,
};
use crate::support::{self, Sandbox};

const TOOL_HEAVY: &str = "claude/spotter-tool-heavy/projects/-home-marco-projects-spotter/d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl";
const SHORT: &str = "claude/spotter-short/projects/-home-marco-projects-spotter/55604662-cf2a-4331-851a-ec234028f8ca.jsonl";

/// Where Claude Code keeps `fixture`'s transcript in `sb`.
fn projects(sb: &Sandbox) -> PathBuf {
    sb.home.join(".claude/projects")
}

fn placed(sb: &Sandbox, relative: &str) -> PathBuf {
    let name = Path::new(relative).file_name().unwrap();
    let dir = projects(sb).join("-home-marco-projects-spotter");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn a_transcript_appended_line_by_line_and_a_line_in_two_halves_equals_a_one_shot_import() {
    if !have_fixtures() {
        return;
    }
    let sb = Sandbox::new();
    let lines = lines_of(&fixture(TOOL_HEAVY));
    let path = placed(&sb, TOOL_HEAVY);
    std::fs::write(&path, lines[..8].concat()).unwrap();
    let watcher = Watcher::start(&sb, &["--from", "claude"]);
    wait_until("the catch-up", || store_of(&sb).len() == 1);
    for (n, line) in lines[8..].iter().enumerate() {
        if n == 10 {
            // Half a line, a pause the watcher sees it in, then the rest.
            let (head, tail) = line.split_at(line.len() / 2);
            append(&path, head);
            std::thread::sleep(Duration::from_millis(700));
            append(&path, tail);
        } else {
            append(&path, line);
        }
        std::thread::sleep(Duration::from_millis(30));
    }
    let expected = one_shot("claude", &[&projects(&sb)]);
    wait_for_store(&sb, &expected);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        lines.concat(),
        "the source is unchanged"
    );
    let warnings = watcher.stderr();
    assert!(!warnings.contains("cannot"), "{warnings}");
    let (status, events) = watcher.stop();
    assert!(status.success());
    // Each line counts the whole session, also after a read of new lines
    // alone: the counts only grow, up to the session's.
    let session = expected.values().next().unwrap();
    let counts: Vec<(u64, u64)> = events
        .iter()
        .filter(|e| e.get("sessionId").is_some())
        .map(|e| {
            (
                e["messages"].as_u64().unwrap(),
                e["toolCalls"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(counts.len() > 1, "{events:?}");
    assert!(counts.is_sorted(), "{counts:?}");
    assert_eq!(
        counts.last(),
        Some(&(
            session["messages"].as_array().unwrap().len() as u64,
            session["toolCalls"].as_array().unwrap().len() as u64
        )),
        "{counts:?}"
    );
}

/// A user's line after a finished answer is read alone (from the cursor's
/// offset); its event still counts the whole session.
#[test]
fn a_line_read_alone_is_reported_with_the_whole_sessions_counts() {
    if !have_fixtures() {
        return;
    }
    let sb = Sandbox::new();
    let lines = lines_of(&fixture(SHORT));
    let path = placed(&sb, SHORT);
    std::fs::write(&path, lines[..12].concat()).unwrap();
    let watcher = Watcher::start(&sb, &["--from", "claude"]);
    wait_until("the catch-up", || store_of(&sb).len() == 1);
    let count = |sb: &Sandbox| {
        let store = store_of(sb);
        let session = store.values().next().unwrap().clone();
        (
            session["messages"].as_array().unwrap().len() as u64,
            session["toolCalls"].as_array().unwrap().len() as u64,
        )
    };
    let before = count(&sb);
    // The user's next question, continuing from the transcript's last line
    // (its own question's line, re-parented and re-dated).
    let last: serde_json::Value = serde_json::from_slice(&lines[11]).unwrap();
    let mut question: serde_json::Value = serde_json::from_slice(&lines[3]).unwrap();
    question["parentUuid"] = last["uuid"].clone();
    question["uuid"] = "6f1d6a52-3c1e-4a7e-9a55-0c2f4f6b9e01".into();
    question["timestamp"] = "2030-01-01T00:00:00.000Z".into();
    question["message"]["content"] = "And what does the watcher cost idle?".into();
    append(&path, format!("{question}\n").as_bytes());
    wait_until("the new line", || count(&sb).0 > before.0);
    let (status, events) = watcher.stop();
    assert!(status.success());
    let last = events
        .iter()
        .rfind(|e| e.get("sessionId").is_some())
        .expect("a session's line");
    let reported = (
        last["messages"].as_u64().unwrap(),
        last["toolCalls"].as_u64().unwrap(),
    );
    assert_eq!(reported, count(&sb), "{last}");
}

#[test]
fn a_restarted_watcher_reads_only_what_changed_since_its_cursors() {
    if !have_fixtures() {
        return;
    }
    let sb = Sandbox::new();
    let short = placed(&sb, SHORT);
    std::fs::copy(fixture(SHORT), &short).unwrap();
    let heavy = placed(&sb, TOOL_HEAVY);
    std::fs::copy(fixture(TOOL_HEAVY), &heavy).unwrap();
    let out = sb
        .cmd("ollm-session")
        .args(["import", "--from", "claude"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", support::stderr(&out));
    let before = store_of(&sb);
    // Touched only (the times move, the content not), as a desktop app
    // bulk-touching every file does.
    let file = std::fs::OpenOptions::new()
        .append(true)
        .open(&short)
        .unwrap();
    file.set_modified(std::time::SystemTime::now()).unwrap();
    let watcher = Watcher::start(&sb, &["--from", "claude"]);
    std::thread::sleep(Duration::from_secs(2));
    let (status, lines) = watcher.stop();
    assert!(status.success());
    assert_eq!(lines.len(), 1, "only the summary: {lines:?}");
    assert_eq!(lines[0]["summary"]["sessions"], 0, "{lines:?}");
    assert_eq!(store_of(&sb), before);
}

#[test]
fn a_file_truncated_and_rewritten_is_read_again_and_a_deleted_ones_session_stays() {
    if !have_fixtures() {
        return;
    }
    let sb = Sandbox::new();
    let lines = lines_of(&fixture(TOOL_HEAVY));
    let heavy = placed(&sb, TOOL_HEAVY);
    std::fs::write(&heavy, lines[..20].concat()).unwrap();
    let short = placed(&sb, SHORT);
    std::fs::copy(fixture(SHORT), &short).unwrap();
    let watcher = Watcher::start(&sb, &["--from", "claude"]);
    wait_until("the catch-up", || store_of(&sb).len() == 2);
    let with_short = store_of(&sb);
    std::fs::remove_file(&short).unwrap();
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(&heavy)
        .unwrap();
    file.set_len(0).unwrap();
    std::thread::sleep(Duration::from_millis(500));
    append(&heavy, &lines.concat());
    let mut expected = one_shot("claude", &[&projects(&sb)]);
    // An import never deletes: the deleted transcript's session stays as it was.
    let (short_id, short_session) = with_short
        .iter()
        .find(|(id, _)| !expected.contains_key(*id))
        .expect("the short transcript's session");
    expected.insert(short_id.clone(), short_session.clone());
    wait_for_store(&sb, &expected);
    assert_eq!(std::fs::read(&heavy).unwrap(), lines.concat());
    assert!(watcher.stop().0.success());
}

#[test]
fn a_watcher_killed_and_restarted_loses_and_duplicates_nothing() {
    if !have_fixtures() {
        return;
    }
    let sb = Sandbox::new();
    let lines = lines_of(&fixture(TOOL_HEAVY));
    let path = placed(&sb, TOOL_HEAVY);
    std::fs::write(&path, lines[..10].concat()).unwrap();
    let first = Watcher::start(&sb, &["--from", "claude"]);
    wait_until("the catch-up", || store_of(&sb).len() == 1);
    for line in &lines[10..25] {
        append(&path, line);
    }
    std::thread::sleep(Duration::from_millis(300));
    first.kill();
    for line in &lines[25..] {
        append(&path, line);
    }
    let second = Watcher::start(&sb, &["--from", "claude"]);
    let expected = one_shot("claude", &[&projects(&sb)]);
    wait_for_store(&sb, &expected);
    assert!(second.stop().0.success());
}

#[test]
fn a_second_watcher_of_a_store_is_refused_naming_the_first() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(projects(&sb)).unwrap();
    let first = Watcher::start(&sb, &["--from", "claude"]);
    // The first holds the store before a second tries (on a loaded machine
    // a second started at once could take it first, and refuse the first).
    let holder = first.pid().to_string();
    wait_until("the first watcher's lock", || {
        support::tree(&sb.ollm_home)
            .into_iter()
            .any(|(path, bytes)| {
                path.file_name().is_some_and(|n| n == "import-watch.pid")
                    && bytes.as_deref() == Some(holder.as_bytes())
            })
    });
    let mut refused = None;
    wait_until("the second watcher's refusal", || {
        let out = sb
            .cmd("ollm-session")
            .args(["import", "--watch", "--from", "claude"])
            .write_stdin("")
            .output()
            .unwrap();
        let held = out.status.code() == Some(4);
        if held {
            refused = Some(out);
        }
        held
    });
    let out = refused.unwrap();
    support::assert_one_line_error(&out, "ollm-session");
    let err = support::stderr(&out);
    assert!(err.contains(&format!("pid {}", first.pid())), "{err}");
    assert!(first.stop().0.success());
}
