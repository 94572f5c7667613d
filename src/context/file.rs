//! Where the store lives and how it is read and changed on disk.

use std::path::{Path, PathBuf};

use super::store::{Store, VERSION};
use crate::error::{Error, Result};
use crate::fs::locked_file;
use crate::paths;

/// The store for the workspace: the nearest `.ollm/` above the current
/// directory, or when there is none `.ollm/` at the top of the git work
/// tree, or in the current directory outside one (created on first write).
pub(crate) fn workspace_store(cwd: &Path) -> PathBuf {
    paths::workspace_dir_for(cwd).join("context.json")
}

/// The per-session store `$OLLM_HOME/context/<id>.json`. The id must be a
/// UUID, so no input names a path outside the store directory.
pub(crate) fn session_store(id: &str) -> Result<PathBuf> {
    if !is_uuid(id) {
        return Err(Error::usage(format!(
            "{:?} is not a session id (expected a UUID such as 3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1b)",
            crate::text::shorten(id, 64)
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

/// How a context store file is told from any other: the marker, or the
/// layout of the versions before it (`{"version":N,"entries":[…]}`).
pub(crate) const FORMAT: locked_file::Format = locked_file::Format {
    what: "context store",
    marker: super::store::FORMAT,
    slotted: false,
    earlier: |object| {
        object.len() == 2
            && object.get("version").is_some_and(serde_json::Value::is_u64)
            && object
                .get("entries")
                .is_some_and(serde_json::Value::is_array)
    },
    earlier_start: "{\"version\":1,\"entries\":",
};

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

/// Reads the store for a query: no lock (writes replace the file
/// atomically), and nothing is changed or created. A missing store is
/// empty; a file that is not a context store is refused (exit 2) and one
/// that cannot be parsed reported (exit 6), both left where they are.
pub fn read(path: &Path) -> Result<Store> {
    match locked_file::read_only::<Store>(path, &FORMAT)? {
        Some(store) => check_version(store, path),
        None => Ok(Store::new()),
    }
}

/// Changes the store under the exclusive lock: read, `change`, write
/// atomically. A file that is not a context store is refused before
/// anything is created beside it; one of ours that cannot be parsed is set
/// aside (exit 6) and the next change starts an empty store.
pub fn update<R>(path: &Path, change: impl FnOnce(&mut Store) -> Result<R>) -> Result<R> {
    let _lock = locked_file::lock(path, &FORMAT)?;
    // The per-session stores live in the ollm home: make it private.
    if let Some(dir) = path.parent()
        && dir.starts_with(paths::ollm_home())
    {
        crate::fs::tighten_store(dir);
    }
    let mut store = match locked_file::read::<Store>(path, &FORMAT)? {
        Some(store) => check_version(store, path)?,
        None => Store::new(),
    };
    let result = change(&mut store)?;
    store.format = super::store::FORMAT.to_string();
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

    fn names(dir: &Path) -> Vec<String> {
        crate::fs::names_in(dir)
    }

    #[test]
    fn what_is_written_carries_the_marker_and_earlier_stores_still_load() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("context.json");
        let earlier = r#"{"version":1,"entries":[{"key":"k","content":"c","priority":1,"source":"user","timestamp":"2024-01-15T10:30:27.690Z"}]}"#;
        std::fs::write(&path, earlier).unwrap();
        assert_eq!(read(&path).unwrap().entries.len(), 1);
        // Someone else's file with entries of its own is not ours.
        std::fs::write(&path, r#"{"entries":[{"id":1}]}"#).unwrap();
        let err = update(&path, |_| Ok(())).unwrap_err();
        assert_eq!(err.exit_code(), crate::ExitCode::Usage, "{err}");
        assert_eq!(names(dir.path()), ["context.json"]);
        std::fs::write(&path, earlier).unwrap();
        update(&path, |_| Ok(())).unwrap();
        let written: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(written["format"], "ollm-context-store");
        assert_eq!(written["entries"][0]["key"], "k");
        assert_eq!(read(&path).unwrap().entries.len(), 1);
    }

    #[test]
    fn a_file_that_is_not_a_store_is_neither_read_nor_changed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tsconfig.json");
        let text = "{\n  \"compilerOptions\": {\"strict\": true}\n}\n";
        std::fs::write(&path, text).unwrap();
        let read_err = read(&path).unwrap_err();
        let write_err = update(&path, |_| Ok(())).unwrap_err();
        for err in [read_err, write_err] {
            assert_eq!(err.exit_code(), crate::ExitCode::Usage, "{err}");
        }
        assert_eq!(names(dir.path()), ["tsconfig.json"]);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }

    #[test]
    fn a_damaged_store_is_left_by_reads_and_set_aside_by_writes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("context.json");
        let damaged = "{\"format\":\"ollm-context-store\",\"version\":1,\"entries\":[{\"key\":";
        std::fs::write(&path, damaged).unwrap();
        let err = read(&path).unwrap_err();
        assert_eq!(err.exit_code(), crate::ExitCode::Corrupt);
        assert_eq!(names(dir.path()), ["context.json"]);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), damaged);
        let err = update(&path, |_| Ok(())).unwrap_err();
        assert_eq!(err.exit_code(), crate::ExitCode::Corrupt);
        assert!(!path.exists());
        assert!(
            names(dir.path())
                .iter()
                .any(|n| n.starts_with("context.json.corrupt-"))
        );
    }
}
