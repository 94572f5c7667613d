//! `$CODEX_HOME/session_index.jsonl`: an append-only list of
//! `{id, thread_name, updated_at}`, the newest line for a thread naming it
//! (`codex-rs/core/src/rollout/session_index.rs`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use serde::Deserialize;

use crate::session::import::{Skipped, lines};

#[derive(Deserialize)]
struct Entry {
    id: String,
    thread_name: String,
}

type Names = Arc<HashMap<String, String>>;

/// Each index read once per process (and again if it changed): a home of
/// thousands of rollouts would otherwise read it once per rollout.
static CACHE: Mutex<Vec<(PathBuf, Option<SystemTime>, Names)>> = Mutex::new(Vec::new());

/// The name the index gives `thread_id`, if any. An index that cannot be
/// read names nothing: a title is not worth failing an import for.
pub fn thread_name(codex_home: &Path, thread_id: &str) -> Option<String> {
    let path = codex_home.join("session_index.jsonl");
    let modified = std::fs::metadata(&path).ok()?.modified().ok();
    let names = cached(&path, modified).or_else(|| {
        let names: Names = Arc::new(read_index(&path));
        if let Ok(mut cache) = CACHE.lock() {
            cache.retain(|(p, _, _)| p != &path);
            cache.push((path.clone(), modified, Arc::clone(&names)));
        }
        Some(names)
    })?;
    names.get(thread_id).cloned()
}

fn cached(path: &Path, modified: Option<SystemTime>) -> Option<Names> {
    let cache = CACHE.lock().ok()?;
    cache
        .iter()
        .find(|(p, m, _)| p == path && *m == modified)
        .map(|(_, _, names)| Arc::clone(names))
}

fn read_index(path: &Path) -> HashMap<String, String> {
    let mut names = HashMap::new();
    let mut skipped = Skipped::default();
    let _ = lines::each_line(path, &mut skipped, |line, skipped| {
        if let Some(entry) = line.parse::<Entry>(skipped)
            && !entry.thread_name.trim().is_empty()
        {
            names.insert(entry.id, entry.thread_name);
        }
        Ok(())
    });
    names
}
