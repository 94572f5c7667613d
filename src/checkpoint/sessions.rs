//! What checkpoint asks of the session store, and the paths a session's
//! recorded tool calls named.
//!
//! The session store is reached through [`Sessions`], which `session`
//! implements and the programs hand in: the session CLI's `rewind` and
//! `delete` use checkpoint, so checkpoint cannot import session (no import
//! cycle, DESIGN.md "Architecture").

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

use serde_json::Value;

use crate::config::Config;
use crate::error::Result;

/// The session store as checkpoint sees it.
pub trait Sessions {
    /// The whole id `reference` names (an id, a unique prefix of one, a
    /// title) or, with `last`, the most recently active session, as every
    /// session command resolves it. A whole id is taken as given, in the
    /// store or not (a runtime may checkpoint before it records).
    fn resolve(&self, config: &Config, reference: Option<&str>, last: bool) -> Result<String>;

    /// The arguments of each tool call the session recorded; none when the
    /// session is not in the store.
    fn tool_call_args(&self, config: &Config, session: &str) -> Result<Vec<Value>>;
}

/// The argument names under which agent CLIs' tools name a file: Claude
/// Code's Read/Write/Edit/MultiEdit (`file_path`), NotebookEdit
/// (`notebook_path`), gemini-cli's read_file/write_file/replace
/// (`file_path`, `absolute_path`, `path`), opencode (`filePath`), others
/// (`path`, `paths`, `filename`, `target_file`).
const PATH_KEYS: &[&str] = &[
    "file_path",
    "filePath",
    "notebook_path",
    "absolute_path",
    "path",
    "paths",
    "filename",
    "target_file",
];

/// The lines of an `apply_patch` patch (Codex) that name a file.
const PATCH_HEADERS: &[&str] = &[
    "*** Add File: ",
    "*** Update File: ",
    "*** Delete File: ",
    "*** Move to: ",
];

/// Every path the tool calls' arguments name, as written (absolute, or
/// relative to the session's work tree).
pub(crate) fn named_in(args: &[Value]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for value in args {
        collect(value, false, &mut out);
    }
    out
}

/// Walks one argument value: a string under a path key is a path; any
/// string may be an `apply_patch` patch (Codex passes it whole, or as the
/// last word of a shell command).
fn collect(value: &Value, under_path_key: bool, out: &mut Vec<PathBuf>) {
    match value {
        Value::String(text) => {
            if under_path_key && !text.is_empty() && !text.contains('\n') {
                out.push(PathBuf::from(text));
            }
            if text.starts_with("*** Begin Patch") || text.contains("\n*** Begin Patch") {
                out.extend(text.lines().filter_map(|line| {
                    PATCH_HEADERS
                        .iter()
                        .find_map(|header| line.strip_prefix(header))
                        .map(|path| PathBuf::from(path.trim_end()))
                }));
            }
        }
        Value::Array(items) => {
            for item in items {
                collect(item, under_path_key, out);
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                collect(item, PATH_KEYS.contains(&key.as_str()), out);
            }
        }
        _ => {}
    }
}

/// `named` as paths relative to `root` (bytes, as the file set keys them),
/// keeping only those inside it: a relative one is taken against the
/// root; an absolute one must lie below it (as written, or once its
/// folder's links are resolved). A path reached through a symbolic link to
/// a folder is dropped: a snapshot never reads through one.
pub(crate) fn relative_to(root: &Path, named: &[PathBuf]) -> Vec<Vec<u8>> {
    named
        .iter()
        .filter_map(|path| inside(root, path))
        .filter(|relative| !through_link(root, relative))
        .map(|relative| relative.as_os_str().as_bytes().to_vec())
        .collect()
}

fn inside(root: &Path, path: &Path) -> Option<PathBuf> {
    let relative = if path.is_absolute() {
        let plain = normal(path)?;
        match plain.strip_prefix(root) {
            Ok(relative) => relative.to_path_buf(),
            Err(_) => {
                let folder = std::fs::canonicalize(plain.parent()?).ok()?;
                folder.strip_prefix(root).ok()?.join(plain.file_name()?)
            }
        }
    } else {
        normal(path)?
    };
    (!relative.as_os_str().is_empty()).then_some(relative)
}

/// `path` without `.` components; `None` if it climbs with `..`.
fn normal(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => return None,
            other => out.push(other),
        }
    }
    Some(out)
}

/// Whether a folder on the way to `relative` is a symbolic link.
fn through_link(root: &Path, relative: &Path) -> bool {
    relative
        .ancestors()
        .skip(1)
        .filter(|folder| !folder.as_os_str().is_empty())
        .any(|folder| {
            std::fs::symlink_metadata(root.join(OsStr::new(folder)))
                .is_ok_and(|meta| meta.file_type().is_symlink())
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_are_taken_from_the_argument_names_agent_clis_use() {
        let args = [
            json!({"file_path": "/w/a.rs", "content": "x"}),
            json!({"file_path": "b.rs", "edits": [{"old_string": "a", "new_string": "b"}]}),
            json!({"notebook_path": "n.ipynb"}),
            json!({"filePath": "c.ts"}),
            json!({"paths": ["d.md", "e.md"]}),
            json!({"command": "ls", "description": "path: not a path"}),
        ];
        let named = named_in(&args);
        let expected = ["/w/a.rs", "b.rs", "n.ipynb", "c.ts", "d.md", "e.md"];
        assert_eq!(named, expected.map(PathBuf::from));
    }

    #[test]
    fn an_apply_patch_names_its_files_in_the_header_lines() {
        let patch = "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-x\n+y\n\
                     *** Add File: new.txt\n+hi\n*** Delete File: old.txt\n\
                     *** Update File: b.rs\n*** Move to: c.rs\n*** End Patch\n";
        let named = named_in(&[json!(patch), json!({"command": ["apply_patch", patch]})]);
        let once = ["src/a.rs", "new.txt", "old.txt", "b.rs", "c.rs"].map(PathBuf::from);
        assert_eq!(named, [once.clone(), once].concat());
    }

    #[test]
    fn only_paths_inside_the_root_are_kept_relative_to_it() {
        let root = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(root.path()).unwrap();
        std::fs::create_dir(root.join("src")).unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("out")).unwrap();
        let named = [
            root.join("src/a.rs"),
            root.join("./b.rs"),
            PathBuf::from("src/c.rs"),
            PathBuf::from("../elsewhere.rs"),
            PathBuf::from("/etc/passwd"),
            root.join("src/../../escape"),
            PathBuf::from("out/secret"),
            root.clone(),
        ];
        let kept = relative_to(&root, &named);
        let expected: Vec<Vec<u8>> = ["src/a.rs", "b.rs", "src/c.rs"]
            .iter()
            .map(|p| p.as_bytes().to_vec())
            .collect();
        assert_eq!(kept, expected);
    }
}
