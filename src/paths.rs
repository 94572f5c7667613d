//! Where user and workspace data live.

use std::path::{Path, PathBuf};

/// The user's home directory, from `$HOME`.
pub fn home_dir() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

/// `$OLLM_HOME`, or `~/.ollm`.
pub fn ollm_home() -> PathBuf {
    if let Some(dir) = std::env::var_os("OLLM_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    home_dir().map_or_else(|| PathBuf::from(".ollm"), |h| h.join(".ollm"))
}

/// Expands a leading `~` to the home directory and `$OLLM_HOME`/`${OLLM_HOME}`
/// to the ollm home, so configured paths can name either.
pub fn expand(path: &str) -> PathBuf {
    for var in ["${OLLM_HOME}", "$OLLM_HOME"] {
        if let Some(rest) = path.strip_prefix(var) {
            return join_rest(ollm_home(), rest);
        }
    }
    if (path == "~" || path.starts_with("~/"))
        && let Some(home) = home_dir()
    {
        return join_rest(home, &path[1..]);
    }
    PathBuf::from(path)
}

fn join_rest(base: PathBuf, rest: &str) -> PathBuf {
    let rest = rest.trim_start_matches('/');
    if rest.is_empty() {
        base
    } else {
        base.join(rest)
    }
}

/// The workspace's `.ollm` directory: the nearest one found walking up from
/// `start`, skipping the ollm home itself (which also lives in a `.ollm`).
pub fn find_workspace_dir(start: &Path) -> Option<PathBuf> {
    let home = ollm_home();
    let home = home.canonicalize().unwrap_or(home);
    for dir in start.ancestors() {
        let candidate = dir.join(".ollm");
        if candidate.is_dir() {
            let resolved = candidate
                .canonicalize()
                .unwrap_or_else(|_| candidate.clone());
            if resolved != home {
                return Some(candidate);
            }
        }
    }
    None
}

/// The top directory of the git work tree `start` is in: the nearest
/// ancestor (or `start` itself) holding a `.git` entry, a directory or the
/// file of a linked worktree or submodule. The one definition of "the
/// workspace's top" for sessions (`list --here`), the workspace `.ollm/`
/// and discovery's tracked files.
pub fn work_tree_top(start: &Path) -> Option<&Path> {
    start
        .ancestors()
        .find(|dir| std::fs::symlink_metadata(dir.join(".git")).is_ok())
}

/// The `.ollm/` a workspace command uses from `start`: the nearest existing
/// one ([`find_workspace_dir`]), else `.ollm/` at the top of the git work
/// tree `start` is in (the nearest ancestor holding `.git`, a directory or a
/// worktree's file), else `.ollm/` in `start` itself.
pub fn workspace_dir_for(start: &Path) -> PathBuf {
    if let Some(found) = find_workspace_dir(start) {
        return found;
    }
    work_tree_top(start).unwrap_or(start).join(".ollm")
}

/// Whether `id` is a UUID in its canonical hyphenated form. Session and
/// snapshot ids are only ever UUIDs, so no input names a path.
pub fn is_uuid(id: &str) -> bool {
    id.len() == 36 && uuid::Uuid::try_parse(id).is_ok() && id.as_bytes()[8] == b'-'
}

/// Refuses anything but a UUID as a session id.
pub fn check_id(id: &str, what: &str) -> crate::error::Result<()> {
    if is_uuid(id) {
        Ok(())
    } else {
        let shown: String = id.chars().take(60).collect();
        Err(crate::error::Error::input(format!(
            "{what} id {shown:?} is not a UUID (like 550e8400-e29b-41d4-a716-446655440000)"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_paths_are_unchanged() {
        assert_eq!(expand("/var/x"), PathBuf::from("/var/x"));
        assert_eq!(expand("rel/x"), PathBuf::from("rel/x"));
    }

    #[test]
    fn workspace_dir_is_found_from_a_subdirectory() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join(".ollm")).unwrap();
        std::fs::create_dir_all(root.path().join("a/b")).unwrap();
        let found = find_workspace_dir(&root.path().join("a/b")).unwrap();
        assert_eq!(found, root.path().join(".ollm"));
    }

    #[test]
    fn a_new_workspace_dir_goes_to_the_top_of_the_git_work_tree() {
        let root = tempfile::tempdir().unwrap();
        let sub = root.path().join("repo/src/deep");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::create_dir_all(root.path().join("repo/.git")).unwrap();
        assert_eq!(workspace_dir_for(&sub), root.path().join("repo/.ollm"));
        // An existing .ollm/ nearer than the top of the work tree wins.
        std::fs::create_dir_all(root.path().join("repo/src/.ollm")).unwrap();
        assert_eq!(workspace_dir_for(&sub), root.path().join("repo/src/.ollm"));
        // Outside any work tree: here.
        let plain = root.path().join("plain");
        std::fs::create_dir_all(&plain).unwrap();
        assert_eq!(workspace_dir_for(&plain), plain.join(".ollm"));
    }
}
