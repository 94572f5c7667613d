//! A store's directory, made when a store first writes: 0700, and a
//! workspace `.ollm/` the tools create gets a `.gitignore` saying what is
//! local to this machine.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use crate::error::{Error, Result};

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
        if at.as_os_str().is_empty() || super::entry(at)?.is_some() {
            break;
        }
        missing.push(at);
    }
    if missing.is_empty() {
        return Ok(());
    }
    super::create_private_dir_all(dir)?;
    let home = std::path::absolute(crate::paths::ollm_home()).ok();
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
        .mode(super::FILE_MODE)
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

/// Whether this process's user may write to `path` (and, for a
/// directory, enter it): false for another user's directory or file of
/// mode 0755/0644, always true for root. (The real ids, which are the
/// effective ones: no program here is set-user-id.)
pub fn writable(path: &Path) -> bool {
    use rustix::fs::{Access, access};
    let mode = if path.is_dir() {
        Access::WRITE_OK | Access::EXEC_OK
    } else {
        Access::WRITE_OK
    };
    access(path, mode).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

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
