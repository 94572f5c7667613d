//! Where Claude Code keeps its transcripts, and which files are its.

use std::collections::HashSet;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::parse;
use crate::error::{Error, Result};
use crate::session::import::{Homes, Source, Tool, files_under};

/// The variable that moves Claude Code's configuration directory.
pub(super) const CONFIG_DIR: &str = "CLAUDE_CONFIG_DIR";

/// `$CLAUDE_CONFIG_DIR/projects` (several directories may be given,
/// separated by commas; a directory named `projects` is taken as it is),
/// else `~/.claude/projects` and `~/.config/claude/projects`: those that
/// exist.
pub fn default_roots(homes: &Homes) -> Vec<PathBuf> {
    let mut roots = Vec::new();
    match homes.var(CONFIG_DIR) {
        Some(dirs) => {
            let dirs = dirs.to_string_lossy();
            for dir in dirs.split(',').map(str::trim).filter(|d| !d.is_empty()) {
                let dir = expand_home(dir, homes);
                if dir.file_name().is_some_and(|name| name == "projects") && dir.is_dir() {
                    roots.push(dir);
                } else {
                    roots.push(dir.join("projects"));
                }
            }
        }
        None => {
            roots.extend(homes.in_home(".claude/projects"));
            roots.extend(homes.config_home().map(|c| c.join("claude/projects")));
        }
    }
    let mut seen = HashSet::new();
    roots.retain(|root| root.is_dir() && seen.insert(root.clone()));
    roots
}

fn expand_home(dir: &str, homes: &Homes) -> PathBuf {
    match (dir.strip_prefix("~/"), homes.home()) {
        (Some(rest), Some(home)) => home.join(rest),
        _ if dir == "~" => homes
            .home()
            .map_or_else(|| PathBuf::from(dir), Path::to_path_buf),
        _ => PathBuf::from(dir),
    }
}

/// The Claude Code transcripts at `path`: the file itself, or every one
/// under the directory. A `.jsonl` file is claimed only when its first
/// lines look like Claude Code's.
/// How deep below a directory given transcripts are looked for (a
/// project's `<session>/subagents/` is two levels below the project).
const MAX_DEPTH: usize = 8;

pub fn sources(path: &Path) -> Result<Vec<Source>> {
    let meta = fs::metadata(path).map_err(|e| Error::io(path, &e))?;
    let mut files = Vec::new();
    if meta.is_dir() {
        files = files_under(path, MAX_DEPTH)?;
        // Sessions before the subagents that ran in them.
        files.sort_by(|a, b| (is_agent_file(a), a).cmp(&(is_agent_file(b), b)));
    } else {
        files.push(path.to_path_buf());
    }
    Ok(files
        .into_iter()
        .filter(|file| file.extension().is_some_and(|ext| ext == "jsonl") && is_claude(file))
        .map(|file| Source {
            tool: Tool::new(&super::Claude),
            kind: if is_agent_file(&file) {
                "subagent"
            } else {
                "session"
            },
            bytes: fs::metadata(&file).map_or(0, |m| m.len()),
            path: file,
        })
        .collect())
}

pub fn is_agent_file(path: &Path) -> bool {
    path.file_stem()
        .and_then(|s| s.to_str())
        .is_some_and(|s| s.starts_with("agent-"))
}

/// Whether the first lines of `path` are Claude Code transcript lines.
fn is_claude(path: &Path) -> bool {
    const SNIFF: u64 = 64 * 1024;
    let Ok(file) = fs::File::open(path) else {
        return false;
    };
    let mut head = Vec::new();
    if file.take(SNIFF).read_to_end(&mut head).is_err() {
        return false;
    }
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&head);
    let mut lines = head.split(|&b| b == b'\n').peekable();
    let mut looked = 0;
    while let Some(line) = lines.next() {
        let complete = lines.peek().is_some();
        let line = line.trim_ascii();
        if line.is_empty() {
            continue;
        }
        if !complete {
            // A first line longer than what was read: Claude Code writes
            // `parentUuid` first.
            return looked == 0 && line.starts_with(b"{\"parentUuid\":");
        }
        if let Ok(sniff) = serde_json::from_slice::<parse::Sniff>(line)
            && sniff.is_claude()
        {
            return true;
        }
        looked += 1;
        if looked == 20 {
            break;
        }
    }
    false
}
