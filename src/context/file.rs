//! Where the store lives and how it is read and changed on disk.

use std::path::{Path, PathBuf};

use super::store::{Store, VERSION};
use crate::error::{Error, Result};
use crate::fs::locked_file;
use crate::paths;

/// The store for the workspace: the nearest `.ollm/` above the current
/// directory, or when there is none `.ollm/` at the top of the git work
/// tree, or in the current directory outside one (created on first write).
pub fn workspace_store(cwd: &Path) -> PathBuf {
    paths::workspace_dir_for(cwd).join("context.json")
}

/// The per-session store `$OLLM_HOME/context/<id>.json`. The id must be a
/// UUID, so no input names a path outside the store directory.
pub fn session_store(id: &str) -> Result<PathBuf> {
    if !is_uuid(id) {
        return Err(Error::usage(format!(
            "{:?} is not a session id (expected a UUID such as 3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1b)",
            crate::io_util::shorten(id, 64)
        )));
    }
    Ok(paths::ollm_home()
        .join("context")
        .join(format!("{}.json", id.to_ascii_lowercase())))
}

fn is_uuid(id: &str) -> bool {
    let groups: Vec<&str> = id.split('-').collect();
    let lengths = [8, 4, 4, 4, 12];
    groups.len() == 5
        && groups
            .iter()
            .zip(lengths)
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn check_version(store: Store, path: &Path) -> Result<Store> {
    if store.version != VERSION {
        return Err(Error::input(format!(
            "{} has format version {}, this ollm-context reads version {VERSION}",
            path.display(),
            store.version
        )));
    }
    Ok(store)
}

/// Reads the store for a query. No lock is needed to read (writes replace
/// the file atomically); only a file that fails to parse is re-read under
/// the lock, to move it aside without racing a writer.
pub fn read(path: &Path) -> Result<Store> {
    let Some(bytes) = crate::fs::read_regular(path)? else {
        return Ok(Store::new());
    };
    if let Ok(store) = serde_json::from_slice::<Store>(&bytes) {
        return check_version(store, path);
    }
    let _lock = locked_file::lock(path)?;
    match locked_file::read::<Store>(path, "context store")? {
        Some(store) => check_version(store, path),
        None => Ok(Store::new()),
    }
}

/// Changes the store under the exclusive lock: read, `change`, write atomically.
pub fn update<R>(path: &Path, change: impl FnOnce(&mut Store) -> Result<R>) -> Result<R> {
    let _lock = locked_file::lock(path)?;
    // The per-session stores live in the ollm home: make it private.
    if let Some(dir) = path.parent()
        && dir.starts_with(paths::ollm_home())
    {
        crate::fs::tighten_store(dir);
    }
    let mut store = match locked_file::read::<Store>(path, "context store")? {
        Some(store) => check_version(store, path)?,
        None => Store::new(),
    };
    let result = change(&mut store)?;
    locked_file::write(path, &store)?;
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_ids_must_be_uuids() {
        assert!(session_store("3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1b").is_ok());
        for bad in [
            "../../etc/passwd",
            "",
            "3f2b8c1e9d4a4e7ba1c25d6e7f809a1b",
            "3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1/",
            "zzzzzzzz-9d4a-4e7b-a1c2-5d6e7f809a1b",
        ] {
            assert!(session_store(bad).is_err(), "{bad}");
        }
    }
}
