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
use ollm::session::import::{self, Tool};

/// Each importer (by its name in the table) and where a file of its goes.
const FILES: &[(&str, &str)] = &[
    (
        "claude",
        "claude/-work/0a8b1c2d-0000-4000-8000-000000000001.jsonl",
    ),
    (
        "codex",
        "codex/sessions/2026/01/01/rollout-2026-01-01T00-00-00-0198a0a0-0000-7000-8000-000000000001.jsonl",
    ),
    (
        "gemini",
        "gemini/tmp/work/chats/session-2026-01-01T00-00-0a8b1c2d.jsonl",
    ),
    (
        "gemini",
        "gemini/tmp/work/chats/session-2026-01-01T00-00-0a8b1c2e.json",
    ),
    ("goose", "goose/sessions/20260101_1.jsonl"),
];

fn read_as(tool: Tool, path: &Path) {
    let sources = match tool.sources(path) {
        Ok(sources) => sources,
        Err(err) => return assert!(!err.to_string().contains('\n'), "{err}"),
    };
    for source in &sources {
        let mut keys = HashSet::new();
        let read = tool.read_parts(source, usize::MAX, &mut |part| {
            if part.first {
                keys.clear();
            }
            for item in &part.transcript.items {
                assert!(
                    keys.insert(item.key.clone()),
                    "two items keyed {:?}",
                    item.key
                );
            }
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
    for (name, relative) in FILES {
        let tool = import::named(name).expect("an importer of the table");
        let path = dir.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, data).unwrap();
        read_as(tool, &path);
        std::fs::remove_file(&path).unwrap();
    }
});
