//! A gemini-cli log grown a line (or half a line) at a time, read after
//! each step as a live import does: by its tail where it can be, else
//! whole. What it adds, and the session's fields, must be what reading it
//! whole adds.

use serde_json::json;

use super::super::{Gemini, JSONL};
use crate::session::import::growing_tests::{self as growing, Stored, fixture, lines_of, writes};

const LOG: &str = "gemini/synthetic-jsonl/tmp/webapp/chats/session-2026-09-20T10-18-63a95ada.jsonl";

fn grow(writes: &[Vec<u8>]) -> (Stored, Stored, usize) {
    growing::grow(
        &Gemini,
        ("session-2026-09-20T10-18-63a95ada.jsonl", JSONL),
        writes,
    )
}

/// (A first write of half a line is joined to the next: a whole read of
/// it alone makes an empty session named after the file.)
fn same_as_whole(writes: &[Vec<u8>], what: &str) -> usize {
    growing::same_as_whole(grow, writes, what)
}

fn message(id: &str, at: &str, kind: &str, text: &str, model: Option<&str>) -> Vec<u8> {
    let mut record = json!({"id": id, "timestamp": at, "type": kind, "content": text});
    if let Some(model) = model {
        record["model"] = json!(model);
    }
    format!("{record}\n").into_bytes()
}

#[test]
fn a_log_grown_a_few_lines_at_a_time_adds_by_its_tails_what_whole_reads_add() {
    let Some(path) = fixture(LOG) else {
        return;
    };
    let lines = lines_of(&path);
    let mut tails = 0;
    for (sizes, halves) in [(&[1][..], false), (&[1], true), (&[3, 1, 7, 2], true)] {
        tails += same_as_whole(
            &writes(&lines, sizes, halves),
            &format!("{sizes:?}, halves: {halves}"),
        );
    }
    for split in 1..lines.len() {
        let (first, rest) = lines.split_at(split);
        tails += same_as_whole(
            &[first.concat(), rest.concat()],
            &format!("split at {split}"),
        );
    }
    assert!(tails > 20, "only {tails} reads of a tail");
}

#[test]
fn a_replaced_message_before_the_last_and_the_model_of_a_replaced_last_are_read_as_whole_reads_read_them()
 {
    let lines = vec![
        format!(
            "{}\n",
            json!({"sessionId": "s-1", "projectHash": "h", "startTime": "2026-09-20T10:00:00Z"})
        )
        .into_bytes(),
        message("u1", "2026-09-20T10:00:01Z", "user", "first", None),
        message(
            "g1",
            "2026-09-20T10:00:02Z",
            "gemini",
            "one",
            Some("gemini-2.5-pro"),
        ),
        message("u2", "2026-09-20T10:00:03Z", "user", "second", None),
        message(
            "g2",
            "2026-09-20T10:00:04Z",
            "gemini",
            "two",
            Some("gemini-2.5-flash"),
        ),
        // The last message again, without its model; then an earlier one.
        message("g2", "2026-09-20T10:00:04Z", "gemini", "two, longer", None),
        message("u3", "2026-09-20T10:00:05Z", "user", "third", None),
        message(
            "g1",
            "2026-09-20T10:00:02Z",
            "gemini",
            "one, edited",
            Some("gemini-2.5-pro"),
        ),
        message("g3", "2026-09-20T10:00:06Z", "gemini", "three", None),
        format!("{}\n", json!({"$set": {"summary": "A title"}})).into_bytes(),
    ];
    let mut tails = 0;
    for split in 1..lines.len() {
        let (first, rest) = lines.split_at(split);
        tails += same_as_whole(
            &[first.concat(), rest.concat()],
            &format!("split at {split}"),
        );
    }
    tails += same_as_whole(&writes(&lines, &[1], true), "line by line");
    assert!(tails > 5, "only {tails} reads of a tail");
    let (_, tailed, _) = grow(&writes(&lines, &[1], false));
    let head = &tailed.heads["s-1"];
    assert_eq!(head.title.as_deref(), Some("A title"));
    assert_eq!(head.model.as_deref(), Some("gemini-2.5-pro"));
}
