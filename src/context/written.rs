//! Context entries this user wrote into a workspace with `ollm-context add`,
//! remembered outside the workspace (`$OLLM_HOME/context-written.json`), so
//! that the prompt takes them even where the workspace is not trusted: what
//! the user wrote here with our own command is theirs, what arrived with a
//! clone is not. An entry is known by a hash of its key and content, so an
//! entry edited in the file, or one that came with the repository, is not
//! taken.

use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::entry::Entry;
use crate::config::trust;
use crate::error::{Error, Result};

const VERSION: u32 = 1;

/// Per workspace root, the fingerprints of the entries written there.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Written {
    version: u32,
    workspaces: BTreeMap<PathBuf, BTreeSet<String>>,
}

fn path() -> PathBuf {
    crate::paths::ollm_home().join("context-written.json")
}

/// `sha256:HEX` of an entry's key and content.
pub fn fingerprint(key: &str, content: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(key.as_bytes());
    hasher.update([0]);
    hasher.update(content.as_bytes());
    let hex: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

fn load() -> Result<Written> {
    let path = path();
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Written::default()),
        Err(e) => return Err(Error::io(&path, &e)),
    };
    let meta = std::fs::metadata(&path).map_err(|e| Error::io(&path, &e))?;
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    if meta.uid() != me || meta.permissions().mode() & 0o022 != 0 {
        return Err(Error::Corrupt(format!(
            "{}: not owned by you or writable by others; entries you added to untrusted workspaces are left out until it is fixed (chmod 600, or remove it)",
            path.display()
        )));
    }
    let written: Written = serde_json::from_slice(&bytes).map_err(|e| {
        Error::Corrupt(format!(
            "{}: malformed ({}); remove it, then add your entries again",
            path.display(),
            crate::text::one_line(&e.to_string())
        ))
    })?;
    if written.version != VERSION {
        return Err(Error::Corrupt(format!(
            "{}: version {}, expected {VERSION}",
            path.display(),
            written.version
        )));
    }
    Ok(written)
}

fn save(written: &Written) -> Result<()> {
    let mut text = serde_json::to_string_pretty(written)
        .map_err(|e| Error::Config(format!("encoding {}: {e}", path().display())))?;
    text.push('\n');
    crate::fs::write_atomic(&path(), text.as_bytes(), crate::fs::Durability::Synced)
}

/// Remembers that the user wrote `entries` (the workspace store's entries
/// after an add, the new one among them) into the workspace at `root`;
/// fingerprints of entries no longer there are dropped.
pub fn remember(root: &Path, written_now: &Entry, entries: &[Entry]) -> Result<()> {
    let _lock = trust::lock()?;
    let mut written = load()?;
    written.version = VERSION;
    let live: BTreeSet<String> = entries
        .iter()
        .map(|e| fingerprint(&e.key, &e.content))
        .collect();
    let known = written.workspaces.entry(root.to_path_buf()).or_default();
    known.retain(|f| live.contains(f));
    known.insert(fingerprint(&written_now.key, &written_now.content));
    save(&written)
}

/// The fingerprints of what the user wrote into the workspace at `root`;
/// a bad file is one warning and nothing known (the safe choice).
pub fn known(root: &Path) -> BTreeSet<String> {
    match load() {
        Ok(mut written) => written.workspaces.remove(root).unwrap_or_default(),
        Err(err) => {
            crate::diag::warn(err.to_string());
            BTreeSet::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fingerprint_tells_key_from_content() {
        assert_ne!(fingerprint("ab", "c"), fingerprint("a", "bc"));
        assert_eq!(fingerprint("k", "v"), fingerprint("k", "v"));
        assert!(fingerprint("k", "v").starts_with("sha256:"));
    }
}
