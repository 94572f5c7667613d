//! `ollm`: the dispatcher.

use std::os::unix::fs::PermissionsExt;

use crate::support::{Sandbox, assert_one_line_error, json, stdout};

/// A third-party `ollm-NAME` script in a directory of its own.
fn third_party_tool(sandbox: &Sandbox, name: &str, body: &str) -> std::path::PathBuf {
    let dir = sandbox.home.join("bin");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("ollm-{name}"));
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

fn path_with(dir: &std::path::Path) -> String {
    format!("{}:{}", crate::support::test_path(), dir.display())
}

#[test]
fn runs_a_tool_beside_itself_passing_args_stdio_and_exit_code() {
    let sandbox = Sandbox::new();
    sandbox
        .cmd("ollm")
        .args(["env", "run", "--", "sh", "-c", "cat; exit 3"])
        .write_stdin("through\n")
        .assert()
        .code(3)
        .stdout("through\n");
}

#[test]
fn runs_a_third_party_tool_from_path() {
    let sandbox = Sandbox::new();
    let dir = third_party_tool(&sandbox, "hello", "echo \"hello $*\"; exit 5");
    sandbox
        .cmd("ollm")
        .env("PATH", path_with(&dir))
        .args(["hello", "a", "--b"])
        .assert()
        .code(5)
        .stdout("hello a --b\n");
}

#[test]
fn an_unknown_tool_is_127_with_a_suggestion() {
    let sandbox = Sandbox::new();
    let output = sandbox.cmd("ollm").arg("evn").output().unwrap();
    assert_eq!(output.status.code(), Some(127));
    assert_one_line_error(&output, "ollm");
    assert!(crate::support::stderr(&output).contains("did you mean 'env'?"));
}

#[test]
fn list_shows_the_tools_found() {
    let sandbox = Sandbox::new();
    let dir = third_party_tool(&sandbox, "extra", "true");
    let output = sandbox
        .cmd("ollm")
        .env("PATH", path_with(&dir))
        .arg("--list")
        .output()
        .unwrap();
    let tools = json(&output);
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"env") && names.contains(&"extra"),
        "{names:?}"
    );
}

#[test]
fn help_and_version() {
    let sandbox = Sandbox::new();
    let help = sandbox.cmd("ollm").arg("help").output().unwrap();
    assert!(help.status.success());
    assert!(stdout(&help).contains("Examples:"));
    assert!(stdout(&help).contains("Tools found:"));
    let tool_help = sandbox.cmd("ollm").args(["help", "env"]).output().unwrap();
    assert!(tool_help.status.success());
    assert!(stdout(&tool_help).contains("ollm-env"));
    let version = sandbox.cmd("ollm").arg("--version").output().unwrap();
    assert_eq!(
        stdout(&version).trim(),
        format!("ollm {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn config_file_flag_reaches_the_tool() {
    let sandbox = Sandbox::new();
    let file = sandbox.write(
        "extra.yaml",
        "services:\n  loopDetection:\n    maxTurns: 9\n",
    );
    let output = sandbox
        .cmd("ollm")
        .arg("--config")
        .arg(&file)
        .args(["env", "config"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    assert_eq!(json(&output)["services"]["loopDetection"]["maxTurns"], 9);
}

#[test]
fn a_closed_stdout_pipe_ends_quietly() {
    let sandbox = Sandbox::new();
    let output = std::process::Command::new("sh")
        .arg("-c")
        .arg("ollm env report | head -c 1 >/dev/null; echo done")
        .env("PATH", crate::support::test_path())
        .env("OLLM_HOME", &sandbox.ollm_home)
        .env("HOME", &sandbox.home)
        .output()
        .unwrap();
    assert_eq!(stdout(&output), "done\n");
    assert_eq!(crate::support::stderr(&output), "");
}
