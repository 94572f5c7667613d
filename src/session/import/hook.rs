//! `import --hook TOOL`: what Claude Code (and gemini-cli, whose hooks
//! take the same fields) hands a hook on standard input (`session_id`,
//! `transcript_path`, `cwd`, `hook_event_name`), turned into the files to
//! import, and the log where a hook that could not import
//! says why (a hook never fails the agent that called it).

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::{Error, Result};

/// The most of standard input a hook reads: Claude Code's hook input is a
/// few hundred bytes (a `Stop` hook's may quote the last message).
pub const MAX_INPUT: u64 = 1 << 20;

/// The fields of an agent's hook input that the import uses.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct HookInput {
    #[serde(default)]
    pub session_id: Option<String>,
    #[serde(default)]
    pub transcript_path: Option<PathBuf>,
    #[serde(default)]
    pub cwd: Option<PathBuf>,
    #[serde(default)]
    pub hook_event_name: Option<String>,
}

impl HookInput {
    /// An agent's hook input in `bytes`.
    pub fn parse(bytes: &[u8]) -> Result<HookInput> {
        serde_json::from_slice(bytes)
            .map_err(|e| Error::input(format!("the hook's input is not a hook's JSON: {e}")))
    }

    /// What to import: the transcript, and the directory of its subagents'
    /// transcripts (Claude Code's `<session>/subagents/`) where there is one. A relative
    /// transcript path is taken from the hook's `cwd`.
    pub fn paths(&self) -> Result<Vec<PathBuf>> {
        let given = self
            .transcript_path
            .as_deref()
            .filter(|p| !p.as_os_str().is_empty())
            .ok_or_else(|| Error::input("the hook's input has no transcript_path"))?;
        let transcript = match &self.cwd {
            Some(cwd) if given.is_relative() => cwd.join(given),
            _ => given.to_path_buf(),
        };
        if !transcript.is_file() {
            return Err(Error::NotFound(format!(
                "{}: no such transcript",
                transcript.display()
            )));
        }
        let mut paths = vec![transcript.clone()];
        let subagents = transcript.with_extension("").join("subagents");
        if subagents.is_dir() {
            paths.push(subagents);
        }
        Ok(paths)
    }

    /// The input as the log names it: its event and session.
    pub fn describe(&self) -> String {
        format!(
            "{} {}",
            self.hook_event_name.as_deref().unwrap_or("-"),
            self.session_id.as_deref().unwrap_or("-")
        )
    }
}

/// The log a hook writes what went wrong to (`$OLLM_HOME/logs/
/// import-hook.log`): bounded, the older half kept as `.1` beside it.
#[derive(Debug, Clone)]
pub struct HookLog {
    path: PathBuf,
}

/// The size at which the log starts over (the old one kept as `.1`).
pub const LOG_BYTES: u64 = 256 * 1024;

impl HookLog {
    pub fn at(path: PathBuf) -> HookLog {
        HookLog { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `line` (scrubbed of anything that looks like a secret, one
    /// line, stamped), moving a full log aside first.
    pub fn append(&self, line: &str) -> Result<()> {
        if let Some(dir) = self.path.parent() {
            crate::fs::create_private_dir_all(dir)?;
        }
        if std::fs::metadata(&self.path).is_ok_and(|meta| meta.len() >= LOG_BYTES) {
            let mut old = self.path.clone().into_os_string();
            old.push(".1");
            std::fs::rename(&self.path, &old).map_err(|e| Error::io(&self.path, &e))?;
        }
        let line = crate::text::one_line(&crate::redact::scrub_message(line));
        let mut file = crate::fs::open_append(&self.path, true)?
            .ok_or_else(|| Error::input(format!("{}: not a regular file", self.path.display())))?;
        writeln!(file, "{} {line}", crate::timestamp::now_iso())
            .map_err(|e| Error::io(&self.path, &e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hook_input_names_the_transcript_and_its_subagents() {
        let dir = tempfile::tempdir().unwrap();
        let transcript = dir.path().join("abc.jsonl");
        std::fs::write(&transcript, "{}\n").unwrap();
        let input = HookInput::parse(
            format!(
                r#"{{"session_id":"abc","transcript_path":"abc.jsonl","cwd":"{}","hook_event_name":"Stop","stop_hook_active":false}}"#,
                dir.path().display()
            )
            .as_bytes(),
        )
        .unwrap();
        assert_eq!(input.paths().unwrap(), vec![transcript.clone()]);
        std::fs::create_dir_all(dir.path().join("abc/subagents")).unwrap();
        assert_eq!(
            input.paths().unwrap(),
            vec![transcript, dir.path().join("abc/subagents")]
        );
        assert_eq!(input.describe(), "Stop abc");
    }

    #[test]
    fn input_that_is_not_a_hooks_or_names_no_transcript_is_refused() {
        assert!(HookInput::parse(b"not json").is_err());
        let none = HookInput::parse(b"{}").unwrap();
        assert!(matches!(none.paths(), Err(Error::Input(_))));
        let gone = HookInput::parse(br#"{"transcript_path":"/nonexistent/x.jsonl"}"#).unwrap();
        assert!(matches!(gone.paths(), Err(Error::NotFound(_))));
    }

    #[test]
    fn the_log_is_bounded_and_keeps_the_previous_one() {
        let dir = tempfile::tempdir().unwrap();
        let log = HookLog::at(dir.path().join("logs/import-hook.log"));
        let long = "x".repeat(1000);
        for _ in 0..600 {
            log.append(&long).unwrap();
        }
        let size = std::fs::metadata(log.path()).unwrap().len();
        assert!(size <= LOG_BYTES + 1100, "{size}");
        assert!(dir.path().join("logs/import-hook.log.1").is_file());
    }
}
