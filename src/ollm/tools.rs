//! The tools `ollm` runs: the toolkit's programs and their aliases, and
//! every `ollm-*` executable found beside `ollm` or on `PATH`.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::output::Tabular;

/// The toolkit's programs as `ollm --help` names them, each in a line that
/// fits 80 columns (`programs::tests` checks the list is whole).
pub const TOOLS: &[(&str, &str)] = &[
    ("session", "durable, searchable, branchable session history"),
    (
        "compress",
        "count tokens and compress a conversation to fit",
    ),
    (
        "loopcheck",
        "stop an agent's runaway tool loops and repeated output",
    ),
    (
        "context",
        "prioritized context entries for the system prompt",
    ),
    (
        "discover",
        "list and watch a project's files as git sees them",
    ),
    (
        "env",
        "run a tool with secrets stripped from its environment",
    ),
    ("mcp", "serve sessions, context and files over MCP"),
    (
        "checkpoint",
        "rewind the files an agent changed, never the user's work",
    ),
];

/// Names that stand for another tool, so the command lines of the sessions
/// document (`ollm sessions list`) work as written.
pub const ALIASES: &[(&str, &str)] = &[("sessions", "session")];

/// A tool the dispatcher can run.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Tool {
    pub name: String,
    pub path: PathBuf,
}

impl Tabular for Tool {
    fn headers() -> &'static [&'static str] {
        &["TOOL", "PATH"]
    }

    fn cells(&self) -> Vec<String> {
        vec![self.name.clone(), self.path.display().to_string()]
    }
}

/// Every `ollm-*` executable beside `own_dir` and on `path_var`, first found
/// wins, sorted by name.
pub fn find_tools(own_dir: Option<&Path>, path_var: Option<OsString>) -> Vec<Tool> {
    let mut found: BTreeMap<String, PathBuf> = BTreeMap::new();
    let dirs = own_dir
        .map(Path::to_path_buf)
        .into_iter()
        .chain(path_var.iter().flat_map(std::env::split_paths));
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let file_name = entry.file_name();
            let Some(name) = file_name.to_str().and_then(|n| n.strip_prefix("ollm-")) else {
                continue;
            };
            if name.is_empty() || name.contains('.') || found.contains_key(name) {
                continue;
            }
            if is_executable(&entry.path()) {
                found.insert(name.to_string(), entry.path());
            }
        }
    }
    found
        .into_iter()
        .map(|(name, path)| Tool { name, path })
        .collect()
}

/// The path of `ollm-NAME`, beside `own_dir` first, then on `path_var`.
pub fn find_tool(
    name: &str,
    own_dir: Option<&Path>,
    path_var: Option<OsString>,
) -> Option<PathBuf> {
    let file = format!("ollm-{name}");
    own_dir
        .map(Path::to_path_buf)
        .into_iter()
        .chain(path_var.iter().flat_map(std::env::split_paths))
        .map(|dir| dir.join(&file))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

pub fn own_dir() -> Option<PathBuf> {
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf))
}

pub fn resolve_alias(name: &str) -> &str {
    ALIASES
        .iter()
        .find(|(alias, _)| *alias == name)
        .map_or(name, |(_, target)| *target)
}

pub fn tool_names() -> Vec<String> {
    let tools = find_tools(own_dir().as_deref(), std::env::var_os("PATH"));
    tools.into_iter().map(|t| t.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sessions_alias_names_the_session_tool() {
        assert_eq!(resolve_alias("sessions"), "session");
        assert_eq!(resolve_alias("env"), "env");
    }

    #[test]
    fn tools_are_found_beside_first_then_on_path() {
        let own = tempfile::tempdir().unwrap();
        let on_path = tempfile::tempdir().unwrap();
        for (dir, name) in [
            (own.path(), "ollm-a"),
            (on_path.path(), "ollm-a"),
            (on_path.path(), "ollm-b"),
            (on_path.path(), "ollm-notexec"),
        ] {
            let file = dir.join(name);
            std::fs::write(&file, "#!/bin/sh\n").unwrap();
            let mode = if name.ends_with("notexec") {
                0o644
            } else {
                0o755
            };
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
        }
        let path_var = Some(on_path.path().as_os_str().to_owned());
        let tools = find_tools(Some(own.path()), path_var.clone());
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(tools[0].path, own.path().join("ollm-a"));
        assert_eq!(
            find_tool("b", Some(own.path()), path_var),
            Some(on_path.path().join("ollm-b"))
        );
    }
}
