//! A transcript grown a line (or half a line) at a time, read after each
//! step as a live import does: by its tail where it can be, else whole.
//! What it adds must be what reading it whole every time adds.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::super::Claude;
use crate::session::import::cursor::Tail;
use crate::session::import::write::stored_key;
use crate::session::import::{Importer, Item, Part, Source, TailRead, Tool};

const FIXTURES: &[&str] = &[
    "claude/spotter-short/projects/-home-marco-projects-spotter/55604662-cf2a-4331-851a-ec234028f8ca.jsonl",
    "claude/spotter-tool-heavy/projects/-home-marco-projects-spotter/d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl",
    "claude/spotter-subagent/projects/-home-marco-projects-spotter/491e126e-1e71-469c-ade2-fcc8af567c74.jsonl",
    "claude/spotter-compaction/projects/-home-USER-projects-spotter-worktrees-spotter-4te/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl",
    "claude/agent-history-sdk/projects/-tmp-agent-history-real-agent-claude-workspace/06090cb1-3e64-433a-bc7e-a621c0f596d2.jsonl",
];

fn fixture(relative: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/importer-fixtures")
        .join(relative);
    path.is_file().then_some(path)
}

/// A store as the writer keeps it: each session's records in the order
/// they were added, none twice (by its stored key).
#[derive(Debug, Default, PartialEq)]
struct Stored(HashMap<String, (HashSet<String>, Vec<Item>)>);

impl Stored {
    fn add(&mut self, part: Part) {
        let (keys, items) = self.0.entry(part.transcript.source_id).or_default();
        for item in part.transcript.items {
            if keys.insert(stored_key(&item).into_owned()) {
                items.push(item);
            }
        }
    }
}

fn source(path: &Path) -> Source {
    Source {
        tool: Tool::new(&Claude),
        path: path.to_path_buf(),
        kind: "session",
        bytes: 0,
    }
}

/// The writes that grow a file to `lines`: `sizes` lines at a time (in
/// turn), the last line of each write cut in two halves when `halves`.
fn writes(lines: &[Vec<u8>], sizes: &[usize], halves: bool) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let (mut at, mut turn) = (0, 0);
    while at < lines.len() {
        let end = (at + sizes[turn % sizes.len()]).min(lines.len());
        turn += 1;
        let mut write = lines[at..end].concat();
        let last = &lines[end - 1];
        if halves && last.len() > 2 {
            let cut = write.len() - last.len() / 2;
            out.push(write[..cut].to_vec());
            write.drain(..cut);
        }
        out.push(write);
        at = end;
    }
    out
}

/// Grows a file by `writes`, reading it after each; returns the store made
/// by whole reads, the one made by tail reads where possible, and how many
/// reads were of a tail.
fn grow(writes: &[Vec<u8>]) -> (Stored, Stored, usize) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir
        .path()
        .join("6f1c0a52-0d3c-4b7e-9d57-1b2c3d4e5f60.jsonl");
    let src = source(&path);
    let (mut whole, mut tailed) = (Stored::default(), Stored::default());
    let (mut anchor, mut offset, mut tails) = (None, 0u64, 0);
    let mut bytes = Vec::new();
    for write in writes {
        {
            bytes.extend_from_slice(write);
            std::fs::write(&path, &bytes).unwrap();
            Claude
                .read_parts(&src, usize::MAX, &mut |part| {
                    whole.add(part);
                    Ok(())
                })
                .unwrap();
            let end = bytes
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |at| at as u64 + 1);
            if end == offset {
                continue;
            }
            let read = match anchor.take() {
                Some(anchor) => Claude
                    .read_tail(
                        &src,
                        &Tail {
                            from: offset,
                            to: end,
                            anchor,
                        },
                        usize::MAX,
                        &mut |part| {
                            tailed.add(part);
                            Ok(())
                        },
                    )
                    .unwrap(),
                None => TailRead::Whole,
            };
            anchor = match read {
                TailRead::Read(next) => {
                    tails += 1;
                    next
                }
                TailRead::Whole => Claude
                    .read_anchored(&src, usize::MAX, &mut |part| {
                        tailed.add(part);
                        Ok(())
                    })
                    .unwrap(),
            };
            offset = end;
        }
    }
    (whole, tailed, tails)
}

fn lines_of(path: &Path) -> Vec<Vec<u8>> {
    std::fs::read(path)
        .unwrap()
        .split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect()
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
