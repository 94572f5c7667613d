//! What this user was already told about an untrusted workspace: that part
//! of its `.ollm/config.yaml` is ignored, or that some of its context
//! entries are left out of the prompt. Each such warning is printed once
//! for what it is about (the file's text, the entries left out), not by
//! every program on every call; a change to it is told again. What is
//! ignored stays ignored either way, and `ollm config --show-origin` still
//! lists every ignored key with why.
//!
//! Kept in `$OLLM_HOME/trust-notices.json`: per notice (its kind and the
//! workspace's root), the SHA-256 of what it was about. A file that cannot
//! be read or written only means a notice is printed again.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::fs::Durability;

const VERSION: u32 = 1;

#[derive(Debug, Default, Serialize, Deserialize)]
struct Notices {
    version: u32,
    /// `KIND ROOT` → `sha256:HEX` of what was told.
    told: BTreeMap<String, String>,
}

fn path() -> PathBuf {
    crate::paths::ollm_home().join("trust-notices.json")
}

/// Whether the notice `kind` about the workspace at `root` is news: not yet
/// told about `subject` (what it is about: a file's text, a list of
/// entries). Records it as told, so the next call with the same subject
/// answers false.
pub fn is_news(kind: &str, root: &Path, subject: &[u8]) -> bool {
    is_news_in(&path(), kind, root, subject)
}

fn is_news_in(path: &Path, kind: &str, root: &Path, subject: &[u8]) -> bool {
    let key = format!("{kind} {}", root.display());
    let digest = format!("sha256:{:x}", Sha256::digest(subject));
    let mut notices = std::fs::read(path)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Notices>(&bytes).ok())
        .filter(|notices| notices.version == VERSION)
        .unwrap_or_default();
    if notices.told.get(&key) == Some(&digest) {
        return false;
    }
    notices.version = VERSION;
    notices.told.insert(key, digest);
    if let Ok(mut text) = serde_json::to_vec_pretty(&notices) {
        text.push(b'\n');
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = crate::fs::write_atomic(path, &text, Durability::Cache);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_is_news_once_per_subject_and_again_when_it_changes() {
        let home = tempfile::tempdir().unwrap();
        let file = home.path().join("trust-notices.json");
        let news = |kind: &str, root: &str, subject: &[u8]| {
            is_news_in(&file, kind, Path::new(root), subject)
        };
        assert!(news("config", "/work/repo", b"a: 1\n"));
        assert!(!news("config", "/work/repo", b"a: 1\n"));
        assert!(news("context", "/work/repo", b"a: 1\n"), "another kind");
        assert!(news("config", "/other", b"a: 1\n"), "another root");
        assert!(news("config", "/work/repo", b"a: 2\n"), "the file changed");
        assert!(!news("config", "/work/repo", b"a: 2\n"));
        std::fs::write(&file, "not json").unwrap();
        assert!(
            news("config", "/work/repo", b"a: 2\n"),
            "an unreadable record tells again"
        );
        assert!(
            !news("config", "/work/repo", b"a: 2\n"),
            "and is written anew"
        );
    }
}
