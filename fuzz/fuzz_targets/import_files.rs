//! Any bytes as another agent's session file, read by `ollm-session
//! import`'s readers: as a Claude Code transcript, a Codex rollout, a
//! gemini-cli chat (log and legacy document) and a goose session file.
//! Never a panic; an error is one line; within a session every item's key
//! is its own (a second import skips items by key, so two items sharing a
//! key would lose one).
#![no_main]
use std::collections::HashSet;
use std::path::Path;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use ollm::session::import::{Tool, Transcript};

const FILES: &[(Tool, &str)] = &[
    (
        Tool::Claude,
        "claude/-work/0a8b1c2d-0000-4000-8000-000000000001.jsonl",
    ),
    (
        Tool::Codex,
        "codex/sessions/2026/01/01/rollout-2026-01-01T00-00-00-0198a0a0-0000-7000-8000-000000000001.jsonl",
    ),
    (
        Tool::Gemini,
        "gemini/tmp/work/chats/session-2026-01-01T00-00-0a8b1c2d.jsonl",
    ),
    (
        Tool::Gemini,
        "gemini/tmp/work/chats/session-2026-01-01T00-00-0a8b1c2e.json",
    ),
    (Tool::Goose, "goose/sessions/20260101_1.jsonl"),
];

fn check(transcript: &Transcript) {
    let mut keys = HashSet::new();
    for item in &transcript.items {
        assert!(
            keys.insert(item.key.as_str()),
            "two items keyed {:?}",
            item.key
        );
    }
}

fn read_as(tool: Tool, path: &Path) {
    let sources = match tool.sources(path) {
        Ok(sources) => sources,
        Err(err) => return assert!(!err.to_string().contains('\n'), "{err}"),
    };
    for source in &sources {
        let read = tool.read(source, &mut |transcript| {
            check(&transcript);
            Ok(())
        });
        if let Err(err) = read {
            assert!(!err.to_string().contains('\n'), "{err}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    let dir = DIR
        .get_or_init(|| tempfile::tempdir().expect("temp dir"))
        .path();
    for (tool, relative) in FILES {
        let path = dir.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, data).unwrap();
        read_as(*tool, &path);
        std::fs::remove_file(&path).unwrap();
    }
});
