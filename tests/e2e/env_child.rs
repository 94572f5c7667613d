//! One function decides a tool's environment: `ollm-env run` with and
//! without a supervisor, `report` and `explain` agree on every variable.

use std::collections::BTreeMap;

use crate::support::{Sandbox, child_env, json};

/// Variables that reach different rules: the spec's lists, value checks,
/// path values, secret words and connection strings.
const MIXED: &[(&str, &str)] = &[
    ("NODE_ENV", "production"),
    ("LC_ALL", "C"),
    ("API_KEY", "abc123456789"),
    ("INNOCENT", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
    ("SSH_AUTH_SOCK", "/run/user/1000/ssh-agent"),
    ("PASSWORD_STORE_DIR", "/home/dev/.password-store"),
    ("KEYNOTE_SPEAKER", "ada"),
    ("MY_CERT", "-----"),
    ("DATABASE_URL", "postgres://app:pw@db/app"),
];

/// What `ollm-env run [flags] -- env -0` gives the tool, name to value.
fn child_of(sandbox: &Sandbox, flags: &[&str]) -> BTreeMap<String, String> {
    let output = sandbox
        .cmd("ollm-env")
        .arg("run")
        .args(flags)
        .args(["--", "env", "-0"])
        .envs(MIXED.iter().copied())
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    child_env(&output)
}

#[test]
fn run_with_and_without_a_supervisor_report_and_explain_agree() {
    let sandbox = Sandbox::new();
    let exec = child_of(&sandbox, &[]);
    let supervised = child_of(&sandbox, &["--redact-output"]);
    assert_eq!(exec, supervised);
    for name in ["NODE_ENV", "LC_ALL", "SSH_AUTH_SOCK", "KEYNOTE_SPEAKER"] {
        assert!(exec.contains_key(name), "{name} removed: {exec:?}");
    }
    for name in ["API_KEY", "INNOCENT", "MY_CERT", "DATABASE_URL"] {
        assert!(!exec.contains_key(name), "{name} passed: {exec:?}");
    }

    let output = sandbox
        .cmd("ollm-env")
        .arg("report")
        .envs(MIXED.iter().copied())
        .output()
        .unwrap();
    let report = json(&output);
    let kept: Vec<&str> = report["kept"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| entry["name"].as_str().unwrap())
        .collect();
    assert_eq!(kept, exec.keys().map(String::as_str).collect::<Vec<_>>());

    for (name, _) in MIXED {
        let output = sandbox
            .cmd("ollm-env")
            .args(["explain", name])
            .envs(MIXED.iter().copied())
            .output()
            .unwrap();
        let explained = json(&output);
        assert_eq!(explained["kept"], exec.contains_key(*name), "{name}");
    }
}

#[test]
fn set_variables_replace_inherited_ones_the_same_way_with_and_without_a_supervisor() {
    let sandbox = Sandbox::new();
    let flags = [
        "--set",
        "NODE_ENV=first",
        "--set",
        "EXTRA=1",
        "--set",
        "NODE_ENV=test",
    ];
    let exec = child_of(&sandbox, &flags);
    assert_eq!(
        exec,
        child_of(&sandbox, &[&flags[..], &["--redact-output"]].concat())
    );
    assert_eq!(exec["NODE_ENV"], "test");
    assert_eq!(exec["EXTRA"], "1");
}
