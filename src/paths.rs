//! Where user and workspace data live.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

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

/// The `.gitignore` a workspace `.ollm/` gets when one of the tools creates
/// it: what is machine-local there (lock files, temp files of writers,
/// copies set aside as corrupt, loop state named `loop-*`). The workspace's
/// `config.yaml` and its context store `context.json` are meant to be
/// committed and shared, so they are not ignored, nor is this file.
pub const WORKSPACE_GITIGNORE: &str = "\
# Written by the ollm tools when they created this directory; they never
# rewrite it. Ignored: what is local to this machine. Not ignored, to be
# committed: config.yaml (the workspace's settings) and context.json (its
# context entries).
*.lock
*.corrupt-*
.*.ollm-tmp-*
.*.tmp-*
*.tmp
loop-*
";

/// Creates the directory `dir` a store is about to write in, with its
/// missing parents (0700). A workspace `.ollm/` among the directories it
/// creates (not the ollm home) gets [`WORKSPACE_GITIGNORE`] as its
/// `.gitignore`; a `.ollm/` that exists already is left as it is.
pub fn create_store_dir(dir: &Path) -> Result<()> {
    let mut missing = Vec::new();
    for at in dir.ancestors() {
        if at.as_os_str().is_empty() || crate::fs::entry(at)?.is_some() {
            break;
        }
        missing.push(at);
    }
    if missing.is_empty() {
        return Ok(());
    }
    crate::fs::create_private_dir_all(dir)?;
    let home = std::path::absolute(ollm_home()).ok();
    for created in missing {
        if created.file_name().is_some_and(|n| n == ".ollm")
            && std::path::absolute(created).ok() != home
        {
            write_gitignore(created)?;
        }
    }
    Ok(())
}

/// Writes `dir/.gitignore` unless something is already there.
fn write_gitignore(dir: &Path) -> Result<()> {
    let path = dir.join(".gitignore");
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(crate::fs::FILE_MODE)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(&path);
    match file {
        Ok(mut file) => file
            .write_all(WORKSPACE_GITIGNORE.as_bytes())
            .map_err(|e| Error::io(&path, &e)),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(Error::io(&path, &e)),
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

    #[test]
    fn a_workspace_dir_the_tools_create_gets_a_gitignore() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("repo/.ollm");
        create_store_dir(&dir).unwrap();
        let ignore = std::fs::read_to_string(dir.join(".gitignore")).unwrap();
        assert_eq!(ignore, WORKSPACE_GITIGNORE);
        // Nested: the .ollm/ created on the way down gets one too.
        let nested = root.path().join("other/.ollm/loops");
        create_store_dir(&nested).unwrap();
        assert!(root.path().join("other/.ollm/.gitignore").is_file());
        assert!(!nested.join(".gitignore").exists());
    }

    #[test]
    fn an_existing_workspace_dir_and_other_dirs_are_left_as_they_are() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join(".ollm");
        std::fs::create_dir(&dir).unwrap();
        create_store_dir(&dir).unwrap();
        assert!(!dir.join(".gitignore").exists());
        let plain = root.path().join("state/dir");
        create_store_dir(&plain).unwrap();
        assert!(plain.is_dir());
        assert!(!plain.join(".gitignore").exists());
        assert!(!root.path().join("state/.gitignore").exists());
        create_store_dir(Path::new("")).unwrap();
    }

    #[test]
    fn the_gitignore_ignores_what_is_local_and_keeps_what_is_shared() {
        let patterns: Vec<&str> = WORKSPACE_GITIGNORE
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .collect();
        let ignored = |name: &str| patterns.iter().any(|p| glob_matches(p, name));
        for local in [
            "context.json.lock",
            "loop-state.json",
            "loop-state.json.lock",
            "loop-3f2b.json",
            "context.json.corrupt-1700000000000",
            ".context.json.ollm-tmp-abcdef",
            ".context.json.tmp-4242",
            "context.json.tmp",
        ] {
            assert!(ignored(local), "{local}");
        }
        for shared in ["config.yaml", "context.json", ".gitignore"] {
            assert!(!ignored(shared), "{shared}");
        }
    }

    /// A `*`-only glob match, enough for the patterns above.
    fn glob_matches(pattern: &str, name: &str) -> bool {
        let parts: Vec<&str> = pattern.split('*').collect();
        let (first, last) = (parts[0], parts[parts.len() - 1]);
        if parts.len() == 1 {
            return name == pattern;
        }
        if name.len() < first.len() + last.len()
            || !name.starts_with(first)
            || !name[first.len()..].ends_with(last)
        {
            return false;
        }
        let mut rest = &name[first.len()..name.len() - last.len()];
        for middle in &parts[1..parts.len() - 1] {
            match rest.find(middle) {
                Some(at) => rest = &rest[at + middle.len()..],
                None => return false,
            }
        }
        true
    }
}
