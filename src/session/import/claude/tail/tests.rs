//! A transcript grown a line (or half a line) at a time, read after each
//! step as a live import does: by its tail where it can be, else whole.
//! What it adds must be what reading it whole every time adds.

use super::super::Claude;
use crate::session::import::growing_tests::{self as growing, Stored, fixture, lines_of, writes};

const FIXTURES: &[&str] = &[
    "claude/spotter-short/projects/-home-marco-projects-spotter/55604662-cf2a-4331-851a-ec234028f8ca.jsonl",
    "claude/spotter-tool-heavy/projects/-home-marco-projects-spotter/d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl",
    "claude/spotter-subagent/projects/-home-marco-projects-spotter/491e126e-1e71-469c-ade2-fcc8af567c74.jsonl",
    "claude/spotter-compaction/projects/-home-USER-projects-spotter-worktrees-spotter-4te/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl",
    "claude/agent-history-sdk/projects/-tmp-agent-history-real-agent-claude-workspace/06090cb1-3e64-433a-bc7e-a621c0f596d2.jsonl",
];

/// [`growing::grow`] of a Claude Code transcript.
fn grow(writes: &[Vec<u8>]) -> (Stored, Stored, usize) {
    growing::grow(
        &Claude,
        ("6f1c0a52-0d3c-4b7e-9d57-1b2c3d4e5f60.jsonl", "session"),
        writes,
    )
}

#[test]
fn real_transcripts_grown_a_few_lines_at_a_time_add_by_their_tails_what_whole_reads_add() {
    let mut tails = 0;
    for relative in FIXTURES {
        let Some(path) = fixture(relative) else {
            continue;
        };
        let mut lines = lines_of(&path);
        // The largest is grown by its first and last few hundred lines.
        if lines.len() > 300 {
            let tail = lines.split_off(lines.len() - 120);
            lines.truncate(120);
            lines.extend(tail);
        }
        for (sizes, halves) in [
            (&[1][..], false),
            (&[1], true),
            (&[3, 1, 7, 2, 12], true),
            (&[1, 3, 2, 9, 1, 17, 40], true),
        ] {
            let writes = writes(&lines, sizes, halves);
            let (whole, tailed, read) = grow(&writes);
            assert_eq!(
                tailed, whole,
                "{relative} ({sizes:?} lines a write, halves: {halves})"
            );
            tails += read;
        }
    }
    if fixture(FIXTURES[1]).is_some() {
        assert!(tails > 50, "only {tails} steps read a tail");
    }
}

#[test]
fn a_tail_starting_at_any_line_of_a_real_transcript_adds_what_a_whole_read_adds() {
    let mut tails = 0;
    for relative in &FIXTURES[..3] {
        let Some(path) = fixture(relative) else {
            continue;
        };
        let lines = lines_of(&path);
        for split in 1..lines.len() {
            let (first, rest) = lines.split_at(split);
            let (whole, tailed, read) = grow(&[first.concat(), rest.concat()]);
            assert_eq!(tailed, whole, "{relative}: a tail from line {}", split + 1);
            tails += read;
        }
    }
    if fixture(FIXTURES[1]).is_some() {
        assert!(tails > 10, "only {tails} splits read a tail");
    }
}
