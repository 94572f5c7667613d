//! Bad input, unreadable directories, symbolic-link loops, deep trees.

use std::os::unix::fs::PermissionsExt;

use super::*;
use crate::support::{Sandbox, assert_one_line_error, is_root, stderr, stdout};

#[test]
fn a_missing_root_is_not_found() {
    let sandbox = Sandbox::new();
    let output = sandbox
        .cmd("ollm-discover")
        .arg("nope")
        .output()
        .expect("run");
    assert_eq!(output.status.code(), Some(3));
    assert_one_line_error(&output, "ollm-discover");
}

#[test]
fn a_file_as_root_and_bad_flags_are_usage_errors() {
    let sandbox = Sandbox::new();
    sandbox.write("f.txt", "x");
    for args in [
        vec!["f.txt"],
        vec!["--max-depth", "deep"],
        vec!["--max-depth", "-1"],
        vec!["--include", "a["],
        vec!["--type", "socket"],
        vec!["--null"],
        vec!["--bogus"],
    ] {
        let output = sandbox
            .cmd("ollm-discover")
            .args(&args)
            .output()
            .expect("run");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_one_line_error(&output, "ollm-discover");
    }
}

#[test]
fn an_invalid_configuration_names_the_key() {
    let sandbox = Sandbox::new();
    std::fs::write(
        sandbox.ollm_home.join("config.yaml"),
        "services:\n  fileDiscovery:\n    maxDepth: deep\n",
    )
    .expect("config");
    let output = sandbox.cmd("ollm-discover").output().expect("run");
    assert_eq!(output.status.code(), Some(5));
    assert_one_line_error(&output, "ollm-discover");
    assert!(stderr(&output).contains("maxDepth"), "{}", stderr(&output));
}

#[test]
fn an_invalid_builtin_pattern_is_skipped_with_a_warning() {
    let sandbox = Sandbox::new();
    sandbox.write("a/x.rs", "x");
    sandbox.write("dist/y.rs", "x");
    std::fs::write(
        sandbox.ollm_home.join("config.yaml"),
        "services:\n  fileDiscovery:\n    builtinIgnores: ['a{b', dist]\n",
    )
    .expect("config");
    let output = sandbox
        .cmd("ollm-discover")
        .arg("--paths")
        .output()
        .expect("run");
    assert!(output.status.success());
    assert_eq!(stdout(&output), "a/x.rs\n");
    assert_one_line_error(&output, "ollm-discover");
}

#[test]
fn unreadable_directories_are_skipped_with_a_warning() {
    let sandbox = Sandbox::new();
    sandbox.write("open/a.rs", "x");
    sandbox.write("locked/b.rs", "x");
    sandbox.write("z.rs", "x");
    let locked = sandbox.work.join("locked");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    let output = run_unprivileged(&sandbox, &["--paths", "--sort"]);
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).expect("chmod back");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "open/a.rs\nz.rs\n");
    assert_one_line_error(&output, "ollm-discover");
    let err = stderr(&output);
    assert!(
        err.contains("locked") && err.contains("permission denied"),
        "{err}"
    );
}

/// Runs ollm-discover in the sandbox; as root (who reads everything) it
/// drops to nobody through setpriv, so permissions bite.
fn run_unprivileged(sandbox: &Sandbox, args: &[&str]) -> std::process::Output {
    if !is_root() {
        return sandbox
            .cmd("ollm-discover")
            .args(args)
            .output()
            .expect("run");
    }
    make_traversable(sandbox);
    std::process::Command::new("setpriv")
        .current_dir(&sandbox.work)
        .env_clear()
        .env("HOME", &sandbox.home)
        .env("OLLM_HOME", &sandbox.ollm_home)
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(crate::support::bin_path("ollm-discover"))
        .args(args)
        .output()
        .expect("run via setpriv")
}

#[test]
fn an_unreadable_ignore_file_is_a_warning_and_the_listing_goes_on() {
    let sandbox = Sandbox::new();
    let ignore_file = sandbox.write("open/.gitignore", "*.secret\n");
    sandbox.write("open/x.secret", "x");
    sandbox.write("open/y.rs", "x");
    std::fs::set_permissions(&ignore_file, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    let output = run_unprivileged(&sandbox, &["--paths", "--sort", "--no-cache"]);
    std::fs::set_permissions(&ignore_file, std::fs::Permissions::from_mode(0o644))
        .expect("chmod back");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "open/.gitignore\nopen/x.secret\nopen/y.rs\n"
    );
    assert_one_line_error(&output, "ollm-discover");
    let err = stderr(&output);
    assert!(
        err.contains(".gitignore") && err.contains("permission denied"),
        "{err}"
    );
}

/// Lets an unprivileged user reach and read the sandbox (but not `locked/`).
fn make_traversable(sandbox: &Sandbox) {
    let mut dir = sandbox.work.clone();
    loop {
        let mode = std::fs::metadata(&dir).expect("meta").permissions().mode();
        let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(mode | 0o555));
        if !dir.pop() || dir == Path::new("/") {
            break;
        }
    }
    for sub in ["open", "."] {
        let _ = std::fs::set_permissions(
            sandbox.work.join(sub),
            std::fs::Permissions::from_mode(0o755),
        );
    }
    let home = &sandbox.home;
    let _ = std::fs::set_permissions(home, std::fs::Permissions::from_mode(0o755));
    let _ = std::fs::set_permissions(&sandbox.ollm_home, std::fs::Permissions::from_mode(0o755));
}

#[test]
fn a_symlink_loop_is_reported_and_not_followed() {
    let sandbox = Sandbox::new();
    sandbox.write("a/b/file.rs", "x");
    std::os::unix::fs::symlink("..", sandbox.work.join("a/b/up")).expect("symlink");
    std::os::unix::fs::symlink("../../a", sandbox.work.join("a/b/again")).expect("symlink");
    let output = sandbox
        .cmd("ollm-discover")
        .args(["--paths", "--sort", "--follow", "--max-depth", "unlimited"])
        .output()
        .expect("run");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "a/b/file.rs\n");
    let err = stderr(&output);
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(
        err.lines().all(|l| l.contains("symbolic link loop")),
        "{err}"
    );
    // Without --follow the links are listed as links, as git lists them.
    let plain = sandbox
        .cmd("ollm-discover")
        .args(["--paths", "--sort"])
        .output()
        .expect("run");
    assert_eq!(stdout(&plain), "a/b/again\na/b/file.rs\na/b/up\n");
    assert!(plain.stderr.is_empty());
}

#[test]
fn followed_links_list_their_targets_contents() {
    let sandbox = Sandbox::new();
    sandbox.write("real/x.rs", "x");
    std::fs::create_dir_all(sandbox.work.join("proj")).expect("dir");
    std::os::unix::fs::symlink("../real", sandbox.work.join("proj/linked")).expect("symlink");
    let output = sandbox
        .cmd("ollm-discover")
        .args(["proj", "--paths", "--follow"])
        .output()
        .expect("run");
    assert_eq!(stdout(&output), "linked/x.rs\n");
}

#[test]
fn a_thousand_levels_deep_tree_is_listed() {
    let sandbox = Sandbox::new();
    let levels = 1200;
    let mut dir = sandbox.work.clone();
    for _ in 0..levels {
        dir.push("d");
    }
    std::fs::create_dir_all(&dir).expect("deep dirs");
    std::fs::write(dir.join("leaf.rs"), "x").expect("leaf");
    std::fs::write(sandbox.work.join("d/d/.gitignore"), "ignored.rs\n").expect("ignore");
    std::fs::write(dir.join("ignored.rs"), "x").expect("ignored");
    let output = sandbox
        .cmd("ollm-discover")
        .args(["--paths", "--max-depth", "unlimited"])
        .output()
        .expect("run");
    assert!(output.status.success(), "{}", stderr(&output));
    let listed = stdout(&output);
    let expected = format!("{}leaf.rs", "d/".repeat(levels));
    let lines: Vec<&str> = listed.lines().collect();
    assert!(lines.contains(&expected.as_str()), "leaf missing");
    assert!(lines.contains(&"d/d/.gitignore"));
    assert_eq!(lines.len(), 2, "the ignored file must not appear");
    let limited = sandbox
        .cmd("ollm-discover")
        .args(["--paths", "--max-depth", "999"])
        .output()
        .expect("run");
    assert_eq!(stdout(&limited), "d/d/.gitignore\n");
}

#[test]
fn a_closed_stdout_ends_the_listing_quietly() {
    let sandbox = Sandbox::new();
    for i in 0..3000 {
        sandbox.write(&format!("d{}/f{i}.rs", i % 30), "x");
    }
    let mut child = std::process::Command::new(crate::support::bin_path("ollm-discover"))
        .current_dir(&sandbox.work)
        .env_clear()
        .env("HOME", &sandbox.home)
        .env("OLLM_HOME", &sandbox.ollm_home)
        .arg("--paths")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("wait");
    assert_eq!(output.status.code(), Some(0));
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
