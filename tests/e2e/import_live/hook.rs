//! `import --hook claude`: Claude Code's hook input on standard input.
//! A sequence of hook calls ends where a one-shot import does (and so
//! where a watcher does: see `claude.rs`).

use std::path::Path;

use super::{append, fixture, have_fixtures, lines_of, one_shot, store_of};
use crate::support::{self, Sandbox};

const TOOL_HEAVY: &str = "claude/spotter-tool-heavy/projects/-home-marco-projects-spotter/d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl";
const COMPACTION: &str =
    "claude/spotter-compaction/projects/-home-USER-projects-spotter-worktrees-spotter-4te";

fn hook_input(transcript: &Path, event: &str) -> String {
    serde_json::json!({
        "session_id": transcript.file_stem().unwrap().to_string_lossy(),
        "transcript_path": transcript,
        "cwd": "/home/marco/projects/spotter",
        "hook_event_name": event,
        "permission_mode": "default",
    })
    .to_string()
}

/// Runs the hook with `input`: it exits 0 and prints nothing on stdout
/// (Claude Code reads a hook's stdout); its stderr.
fn call_hook(sb: &Sandbox, input: &str) -> String {
    let out = sb
        .cmd("ollm-session")
        .args(["import", "--hook", "claude"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", support::stderr(&out));
    assert_eq!(support::stdout(&out), "");
    support::stderr(&out)
}

#[test]
fn a_sequence_of_hook_calls_equals_a_one_shot_import() {
    if !have_fixtures() {
        return;
    }
    let sb = Sandbox::new();
    let dir = sb
        .home
        .join(".claude/projects/-home-marco-projects-spotter");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(Path::new(TOOL_HEAVY).file_name().unwrap());
    let lines = lines_of(&fixture(TOOL_HEAVY));
    let mut written = 0;
    for end in [6, 13, 21, 30, lines.len()] {
        for line in &lines[written..end] {
            append(&path, line);
        }
        written = end;
        let err = call_hook(&sb, &hook_input(&path, "Stop"));
        assert!(!err.contains("import --hook"), "{err}");
    }
    // A Stop hook while the next line is half written, then SessionEnd.
    let before = store_of(&sb);
    let torn = b"{\"type\":\"user\",\"uuid\":\"";
    append(&path, torn);
    call_hook(&sb, &hook_input(&path, "Stop"));
    assert_eq!(store_of(&sb), before, "half a line imports nothing");
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(u64::try_from(lines.concat().len()).unwrap())
        .unwrap();
    call_hook(&sb, &hook_input(&path, "SessionEnd"));
    let expected = one_shot("claude", &[&dir]);
    let got = store_of(&sb);
    assert_eq!(got, expected);
    super::assert_no_duplicates(&got);
    assert_eq!(std::fs::read(&path).unwrap(), lines.concat());
}

/// The real transcripts of sessions (not subagents), by fixture path.
/// (`spotter-subagent` is cut between its parallel `WebSearch` calls and
/// their results, which end in another order than they were made: the
/// calls are stored in the order made, as a one-shot import stores them.)
const SESSIONS: &[&str] = &[
    "claude/spotter-subagent/projects/-home-marco-projects-spotter/491e126e-1e71-469c-ade2-fcc8af567c74.jsonl",
    "claude/spotter-short/projects/-home-marco-projects-spotter/55604662-cf2a-4331-851a-ec234028f8ca.jsonl",
    TOOL_HEAVY,
    "claude/agent-history-sdk/projects/-tmp-agent-history-real-agent-claude-workspace/06090cb1-3e64-433a-bc7e-a621c0f596d2.jsonl",
    "claude/spotter-compaction/projects/-home-USER-projects-spotter-worktrees-spotter-4te/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl",
];

/// Whether a cursor of `sb`'s store holds an anchor: a later hook call
/// reads only the lines appended after it.
fn anchored(sb: &Sandbox) -> bool {
    let dir = sb.sessions_dir().join(".import/cursors");
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .any(|entry| {
            std::fs::read_to_string(entry.path()).is_ok_and(|text| text.contains("\"anchor\""))
        })
}

#[test]
fn hook_calls_after_writes_of_every_size_read_only_the_new_lines_and_equal_a_one_shot_import() {
    if !have_fixtures() {
        return;
    }
    for relative in SESSIONS {
        let sb = Sandbox::new();
        let dir = sb.home.join(".claude/projects/p");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(Path::new(relative).file_name().unwrap());
        let lines = lines_of(&fixture(relative));
        // Writes of 1 to 40 lines (a turn of the agent), the last line of
        // every third one written in two halves with a hook call between.
        let (mut at, mut turn) = (0, 0);
        while at < lines.len() {
            let end = (at + [1, 3, 2, 9, 1, 17, 40][turn % 7]).min(lines.len());
            let write = lines[at..end].concat();
            let last = lines[end - 1].len();
            if turn % 3 == 0 && last > 2 {
                let cut = write.len() - last / 2;
                append(&path, &write[..cut]);
                call_hook(&sb, &hook_input(&path, "Stop"));
                append(&path, &write[cut..]);
            } else {
                append(&path, &write);
            }
            let err = call_hook(&sb, &hook_input(&path, "Stop"));
            assert!(!err.contains("import --hook"), "{relative}: {err}");
            (at, turn) = (end, turn + 1);
        }
        call_hook(&sb, &hook_input(&path, "SessionEnd"));
        let got = store_of(&sb);
        let want = one_shot("claude", &[&dir]);
        assert_eq!(got, want, "{relative}");
        super::assert_no_duplicates(&got);
        assert_eq!(std::fs::read(&path).unwrap(), lines.concat());
        assert!(anchored(&sb), "{relative}: no cursor holds an anchor");
    }
}

#[test]
fn a_hook_imports_the_subagents_of_its_session_too() {
    if !have_fixtures() {
        return;
    }
    let sb = Sandbox::new();
    let dir = sb.home.join(".claude/projects/p");
    let source = fixture(COMPACTION);
    let main = "ae4a77f8-aedd-4bc1-888f-c94edc91af04";
    std::fs::create_dir_all(dir.join(main).join("subagents")).unwrap();
    for relative in [
        format!("{main}.jsonl"),
        format!("{main}/subagents/agent-aac57f5.jsonl"),
        format!("{main}/subagents/agent-acompact-946d2b.jsonl"),
    ] {
        std::fs::copy(source.join(&relative), dir.join(&relative)).unwrap();
    }
    call_hook(
        &sb,
        &hook_input(&dir.join(format!("{main}.jsonl")), "SessionEnd"),
    );
    let expected = one_shot("claude", &[&dir]);
    assert!(expected.len() >= 3, "{}", expected.len());
    assert_eq!(store_of(&sb), expected);
}

#[test]
fn a_hook_that_cannot_import_exits_0_and_logs_why() {
    let sb = Sandbox::new();
    let log = sb.ollm_home.join("logs/import-hook.log");
    let err = call_hook(&sb, "this is not JSON");
    assert!(err.contains("not a hook's JSON"), "{err}");
    let err = call_hook(&sb, &hook_input(&sb.home.join("gone.jsonl"), "Stop"));
    assert!(err.contains("no such transcript"), "{err}");
    // The store held by another import past the hook's wait.
    let transcript = sb.write("t.jsonl", "{\"type\":\"user\"}\n");
    let locks = sb.sessions_dir().join(".locks");
    std::fs::create_dir_all(&locks).unwrap();
    let held = std::fs::File::create(locks.join("import.lock")).unwrap();
    held.lock().unwrap();
    let err = call_hook(&sb, &hook_input(&transcript, "Stop"));
    assert!(err.contains("another import"), "{err}");
    drop(held);
    let logged = std::fs::read_to_string(&log).unwrap();
    assert_eq!(logged.lines().count(), 3, "{logged}");
    assert!(logged.contains("not a hook's JSON"), "{logged}");
    assert!(logged.contains("(Stop gone)"), "{logged}");
    assert!(logged.contains("another import"), "{logged}");
}
