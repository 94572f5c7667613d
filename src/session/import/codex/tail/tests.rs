//! A rollout grown a line (or half a line) at a time, read after each step
//! as a live import does: by its tail where it can be, else whole. What it
//! adds, and the session's fields, must be what reading it whole adds.

use serde_json::json;

use super::super::Codex;
use super::super::tests::{ID, assistant, event, line, session, user};
use crate::session::import::growing_tests::{self as growing, Stored, fixture, lines_of, writes};

const FIXTURES: &[&str] = &[
    "codex/agent-history-exec/sessions/2026/06/05/rollout-2026-06-05T10-28-20-019e9625-802f-7e91-840a-cfe88d14117a.jsonl",
    "codex/localpush-2026-02-23T13-19-38/sessions/2026/02/23/rollout-2026-02-23T13-19-38-019c8a70-dda7-7f33-98ea-f30553347322.jsonl",
    "codex/localpush-2026-02-23T20-34-25/sessions/2026/02/23/rollout-2026-02-23T20-34-25-019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl",
    "codex/localpush-2026-02-23T12-54-34/sessions/2026/02/23/rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl",
];

fn grow(writes: &[Vec<u8>]) -> (Stored, Stored, usize) {
    growing::grow(
        &Codex,
        (
            "rollout-2025-10-01T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl",
            super::JSONL,
        ),
        writes,
    )
}

/// Grown by `writes`, the tail reads store what whole reads store and end
/// with the same session fields; how many reads were of a tail.
/// (A first write of half a line is joined to the next: a whole read of
/// it alone makes an empty session named after the file, which a tail
/// read, having nothing to start from, does not.)
fn same_as_whole(writes: &[Vec<u8>], what: &str) -> usize {
    growing::same_as_whole(grow, writes, what)
}

fn as_lines(lines: &[String]) -> Vec<Vec<u8>> {
    lines
        .iter()
        .map(|l| format!("{l}\n").into_bytes())
        .collect()
}

#[test]
fn real_rollouts_grown_a_few_lines_at_a_time_add_by_their_tails_what_whole_reads_add() {
    let mut tails = 0;
    for relative in FIXTURES {
        let Some(path) = fixture(relative) else {
            continue;
        };
        let mut lines = lines_of(&path);
        // The largest is grown by its first and last lines.
        if lines.len() > 300 {
            let tail = lines.split_off(lines.len() - 120);
            lines.truncate(120);
            lines.extend(tail);
        }
        for (sizes, halves) in [(&[1][..], false), (&[1], true), (&[3, 1, 7, 2, 12], true)] {
            let writes = writes(&lines, sizes, halves);
            tails += same_as_whole(
                &writes,
                &format!("{relative} ({sizes:?}, halves: {halves})"),
            );
        }
    }
    if fixture(FIXTURES[3]).is_some() {
        assert!(tails > 200, "only {tails} steps read a tail");
    }
}

#[test]
fn a_tail_starting_at_any_line_of_a_real_rollout_adds_what_a_whole_read_adds() {
    for relative in &FIXTURES[..3] {
        let Some(path) = fixture(relative) else {
            continue;
        };
        let lines = lines_of(&path);
        for split in 1..lines.len() {
            let (first, rest) = lines.split_at(split);
            same_as_whole(
                &[first.concat(), rest.concat()],
                &format!("{relative}: a tail from line {}", split + 1),
            );
        }
    }
}

#[test]
fn a_title_a_model_and_a_prompt_copy_in_the_new_lines_are_read_as_a_whole_read_reads_them() {
    let mut later = vec![
        user("2025-10-01T11:00:00.000Z", "and the hidden ones?"),
        event(
            "2025-10-01T11:00:00.100Z",
            json!({"type": "user_message", "message": "and the hidden ones?"}),
        ),
        line(
            "2025-10-01T11:00:00.200Z",
            "turn_context",
            json!({"cwd": "/elsewhere", "model": "gpt-5.1-codex"}),
        ),
        event(
            "2025-10-01T11:00:00.300Z",
            json!({"type": "thread_name_updated", "thread_id": ID, "thread_name": "Hidden files"}),
        ),
        assistant("2025-10-01T11:00:01.000Z", "There is .env too."),
    ];
    let mut lines = session();
    lines.append(&mut later);
    let lines = as_lines(&lines);
    // Each split, and the prompt's copy read alone after its prompt.
    let mut tails = 0;
    for split in 1..lines.len() {
        let (first, rest) = lines.split_at(split);
        tails += same_as_whole(
            &[first.concat(), rest.concat()],
            &format!("split at {split}"),
        );
    }
    assert!(tails > 5, "only {tails} splits read a tail");
    let (_, tailed, _) = grow(&writes(&lines, &[1], true));
    let head = &tailed.heads[ID];
    assert_eq!(head.title.as_deref(), Some("Hidden files"));
    assert_eq!(head.model.as_deref(), Some("gpt-5.1-codex"));
    assert_eq!(
        head.cwd.as_deref(),
        Some(std::path::Path::new("/work/project"))
    );
}

#[test]
fn a_rollback_or_an_output_after_the_lines_read_makes_the_file_read_whole() {
    let mut lines = session();
    lines.push(user("2025-10-01T10:10:00.000Z", "a prompt taken back"));
    lines.push(line(
        "2025-10-01T10:10:01.000Z",
        "response_item",
        json!({"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "call_back"}),
    ));
    lines.push(assistant(
        "2025-10-01T10:10:02.000Z",
        "an answer taken back",
    ));
    lines.push(event(
        "2025-10-01T10:10:03.000Z",
        json!({"type": "thread_rolled_back", "num_turns": 1}),
    ));
    lines.push(user("2025-10-01T10:10:05.000Z", "the prompt instead"));
    let lines = as_lines(&lines);
    for split in 1..lines.len() {
        let (first, rest) = lines.split_at(split);
        same_as_whole(
            &[first.concat(), rest.concat()],
            &format!("split at {split}"),
        );
    }
    // The call's output in the next write: that write is read whole.
    let at = lines
        .iter()
        .position(|l| String::from_utf8_lossy(l).contains("function_call\""))
        .unwrap();
    let (first, rest) = lines.split_at(at + 1);
    let (_, _, tails) = grow(&[first.concat(), rest.concat()]);
    assert_eq!(tails, 0);
    let (_, _, tails) = grow(&[
        lines.concat(),
        as_lines(&[user("2025-10-01T10:11:00.000Z", "more")]).concat(),
    ]);
    assert_eq!(tails, 1, "a tail after the rollback, all of it read before");
}
