//! Which project a chat file belongs to. gemini-cli keeps a project's
//! chats in `~/.gemini/tmp/<id>/chats/`, where `<id>` is a slug with the
//! project's path in `<id>/.project_root` (since February 2026) or, before,
//! the SHA-256 of the path. Every record also holds that hash as
//! `projectHash`, so a path is recovered by hashing candidates.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};

/// How many directories under the home are hashed at most.
const HOME_SCAN_LIMIT: usize = 20_000;

/// The project directory (`tmp/<id>/`) of a chat file, when it lies in one.
fn project_dir(chat: &Path) -> Option<&Path> {
    chat.ancestors()
        .skip(1)
        .take(2)
        .find(|dir| dir.file_name().is_some_and(|n| n == "chats"))
        .and_then(Path::parent)
}

/// The session a sub-agent's chat (`chats/<parent id>/<id>.jsonl`) ran in.
pub fn parent_session(chat: &Path) -> Option<String> {
    let dir = chat.parent()?;
    let grand = dir.parent()?;
    (grand.file_name()? == "chats")
        .then(|| dir.file_name().map(|n| n.to_string_lossy().into_owned()))?
}

/// The working directory of the session in `chat`, when it can be told.
pub fn cwd(chat: &Path, project_hash: Option<&str>, directories: &[String]) -> Option<PathBuf> {
    let project = project_dir(chat);
    if let Some(project) = project
        && let Ok(root) = std::fs::read_to_string(project.join(".project_root"))
        && !root.trim().is_empty()
    {
        return Some(PathBuf::from(root.trim()));
    }
    let hash = project_hash.map(str::to_ascii_lowercase).or_else(|| {
        let name = project?.file_name()?.to_string_lossy().into_owned();
        is_sha256(&name).then_some(name)
    });
    let Some(hash) = hash else {
        // Nothing to check a candidate against: the first directory the
        // session named is the best guess there is.
        return directories.first().map(PathBuf::from);
    };
    let mut candidates: Vec<PathBuf> = directories.iter().map(PathBuf::from).collect();
    // `~/.gemini` of `~/.gemini/tmp/<id>/chats/…`.
    let gemini = project
        .and_then(Path::parent)
        .filter(|tmp| tmp.file_name().is_some_and(|n| n == "tmp"))
        .and_then(Path::parent);
    if let Some(gemini) = gemini {
        candidates.extend(registered_projects(gemini));
    }
    if let Some(found) = candidates.into_iter().find(|c| hash_of(c) == hash) {
        return Some(found);
    }
    let home = gemini.and_then(Path::parent)?;
    home_hashes(home).get(&hash).cloned()
}

fn is_sha256(name: &str) -> bool {
    name.len() == 64 && name.bytes().all(|b| b.is_ascii_hexdigit())
}

/// gemini-cli's `getProjectHash`: the SHA-256 of the path as a string.
pub fn hash_of(path: &Path) -> String {
    let digest = Sha256::digest(path.as_os_str().as_encoded_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The projects `~/.gemini/projects.json` lists (`{"projects": {path: slug}}`).
fn registered_projects(gemini: &Path) -> Vec<PathBuf> {
    let Ok(text) = std::fs::read_to_string(gemini.join("projects.json")) else {
        return Vec::new();
    };
    let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Vec::new();
    };
    value
        .get("projects")
        .and_then(serde_json::Value::as_object)
        .map(|projects| projects.keys().map(PathBuf::from).collect())
        .unwrap_or_default()
}

type Hashes = Arc<HashMap<String, PathBuf>>;

/// Hashed once per process and home: every chat of a home would otherwise
/// hash the same directories again.
static HOME_CACHE: Mutex<Vec<(PathBuf, Hashes)>> = Mutex::new(Vec::new());

/// The home and the directories one and two levels under it (hidden ones
/// left out), by hash.
fn home_hashes(home: &Path) -> Hashes {
    if let Ok(cache) = HOME_CACHE.lock()
        && let Some((_, hashes)) = cache.iter().find(|(h, _)| h == home)
    {
        return Arc::clone(hashes);
    }
    let mut dirs = vec![home.to_path_buf()];
    let mut level = vec![home.to_path_buf()];
    for _ in 0..2 {
        let mut next = Vec::new();
        for dir in &level {
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let hidden = entry.file_name().to_string_lossy().starts_with('.');
                if !hidden && entry.file_type().is_ok_and(|t| t.is_dir()) {
                    next.push(entry.path());
                }
                if dirs.len() + next.len() >= HOME_SCAN_LIMIT {
                    break;
                }
            }
        }
        dirs.extend(next.iter().cloned());
        level = next;
    }
    let hashes: Hashes = Arc::new(dirs.into_iter().map(|d| (hash_of(&d), d)).collect());
    if let Ok(mut cache) = HOME_CACHE.lock() {
        cache.push((home.to_path_buf(), Arc::clone(&hashes)));
    }
    hashes
}
