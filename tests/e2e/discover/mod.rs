//! `ollm-discover` end to end: git parity, built-ins and `.ollmignore`,
//! bad input, permissions, symbolic links, deep trees, and watch mode.

mod cache;
mod errors;
mod listing;
mod parity;
pub mod watch;

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::Command;

use crate::support::{Sandbox, test_path};

/// Runs git in `dir` with the sandbox's home and no system configuration,
/// so the real user's settings never leak in.
pub fn git(sandbox: &Sandbox, dir: &Path, args: &[&str]) -> Vec<u8> {
    let output = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env_clear()
        .env("PATH", test_path())
        .env("HOME", &sandbox.home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("LANG", "C")
        .output()
        .expect("git is installed (the parity tests compare with it)");
    assert!(
        output.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

pub fn git_init(sandbox: &Sandbox, dir: &Path) {
    git(sandbox, dir, &["init", "-q", "."]);
}

/// What git lists (tracked, and untracked but not ignored), sorted bytes.
pub fn git_files(sandbox: &Sandbox, dir: &Path) -> Vec<Vec<u8>> {
    let out = git(
        sandbox,
        dir,
        &[
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ],
    );
    split_nul(&out)
}

/// What `ollm-discover --paths --null --sort` lists in `dir`, plus stderr.
pub fn discover_paths(sandbox: &Sandbox, dir: &Path, extra: &[&str]) -> (Vec<Vec<u8>>, String) {
    let output = sandbox
        .cmd("ollm-discover")
        .current_dir(dir)
        .args(["--paths", "--null", "--sort", "--max-depth", "unlimited"])
        .args(extra)
        .output()
        .expect("run ollm-discover");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "ollm-discover failed: {stderr}");
    (split_nul(&output.stdout), stderr)
}

pub fn split_nul(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut list: Vec<Vec<u8>> = bytes
        .split(|b| *b == 0)
        .filter(|p| !p.is_empty())
        .map(<[u8]>::to_vec)
        .collect();
    list.sort();
    list
}

/// Creates a file (and its parents) below `dir`; `name` may hold any bytes.
pub fn touch(dir: &Path, name: &[u8], contents: &str) {
    let path = dir.join(OsStr::from_bytes(name));
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create parent");
    }
    std::fs::write(&path, contents).expect("write file");
}

/// Paths as readable text, for assertion messages.
pub fn show(list: &[Vec<u8>]) -> Vec<String> {
    list.iter()
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect()
}

/// Asserts two sorted path lists are equal, showing the differences.
pub fn assert_same(ours: &[Vec<u8>], expected: &[Vec<u8>]) {
    let missing: Vec<_> = expected
        .iter()
        .filter(|p| !ours.contains(p))
        .cloned()
        .collect();
    let extra: Vec<_> = ours
        .iter()
        .filter(|p| !expected.contains(p))
        .cloned()
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing (git lists, we do not): {:?}\nextra (we list, git does not): {:?}",
        show(&missing),
        show(&extra)
    );
}
