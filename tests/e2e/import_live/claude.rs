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
    assert!(watcher.stop().0.success());
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
