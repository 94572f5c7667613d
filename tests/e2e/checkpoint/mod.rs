//! `ollm-checkpoint`: each test is named after the incident it prevents
//! (issue 50's list): agent CLIs whose rewind missed shell edits, deleted
//! user files with `git clean`, overwrote staged work, or broke the user's
//! git repository.

mod crash;
mod git;
mod restore;
mod rewind;
mod sessions;
mod store;
mod watcher;

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::{Sandbox, json};

/// A sandbox with one session checkpointing its work tree.
pub struct Cp {
    pub sb: Sandbox,
    pub id: String,
}

impl Cp {
    pub fn new() -> Cp {
        Cp::with_id("3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1b")
    }

    pub fn with_id(id: &str) -> Cp {
        Cp {
            sb: Sandbox::new(),
            id: id.to_string(),
        }
    }

    pub fn work(&self) -> &Path {
        &self.sb.work
    }

    pub fn path(&self, relative: &str) -> PathBuf {
        self.sb.work.join(relative)
    }

    /// `ollm-checkpoint ARGS` for this session; the output whatever it is.
    pub fn run(&self, args: &[&str]) -> std::process::Output {
        self.sb.cmd("ollm-checkpoint").args(args).output().unwrap()
    }

    fn ok(&self, args: &[&str]) -> Value {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        json(&out)
    }

    /// Takes a snapshot of the work tree; returns its turn.
    pub fn snapshot(&self) -> u64 {
        self.ok(&["snapshot", "--session", &self.id])["turn"]
            .as_u64()
            .unwrap()
    }

    /// `restore --turn N EXTRA…` with its exit code and report.
    pub fn restore(&self, turn: u64, extra: &[&str]) -> (i32, Value) {
        let turn = turn.to_string();
        let mut args = vec!["restore", "--session", &self.id, "--turn", &turn];
        args.extend_from_slice(extra);
        let out = self.run(&args);
        let code = out.status.code().unwrap_or(-1);
        assert!(
            code == 0 || code == 1,
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        (code, json(&out))
    }

    pub fn write(&self, relative: &str, contents: &str) {
        self.sb.write(relative, contents);
    }

    pub fn read(&self, relative: &str) -> Option<String> {
        std::fs::read_to_string(self.path(relative)).ok()
    }

    /// A shell command in the work tree (what an agent's bash tool runs).
    pub fn sh(&self, script: &str) {
        let status = std::process::Command::new("sh")
            .args(["-c", script])
            .current_dir(self.work())
            .status()
            .unwrap();
        assert!(status.success(), "{script}");
    }
}

/// The paths listed under `key` of a restore's report.
pub fn listed(report: &Value, key: &str) -> Vec<String> {
    report[key]
        .as_array()
        .unwrap_or_else(|| panic!("no {key} in {report}"))
        .iter()
        .map(|v| v.get("path").unwrap_or(v).as_str().unwrap().to_string())
        .collect()
}
