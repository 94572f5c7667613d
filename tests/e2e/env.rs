//! `ollm-env`: sanitized runs, exit codes, signals, redaction, report.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::support::{Sandbox, assert_one_line_error, bin_path, json, stdout, test_path};

/// The names `ollm-env run -- env` passes to the child.
fn child_names(output: &std::process::Output) -> BTreeSet<String> {
    stdout(output)
        .lines()
        .filter_map(|line| line.split_once('=').map(|(name, _)| name.to_string()))
        .collect()
}

fn names(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(std::string::ToString::to_string).collect()
}

#[test]
fn spec_default_case_keeps_exactly_the_first_eight() {
    let sandbox = Sandbox::new();
    let output = sandbox
        .cmd("ollm-env")
        .args(["run", "--", "env"])
        .env("USER", "dev")
        .env("SHELL", "/bin/bash")
        .env("TERM", "xterm")
        .env("NODE_ENV", "production")
        .env("DEBUG", "1")
        .env("API_KEY", "abc123456789")
        .env("DATABASE_SECRET", "s3cr3t-value")
        .env("AUTH_TOKEN", "tok-123456789")
        .env("AWS_ACCESS_KEY_ID", "AKIAIOSFODNN7EXAMPLE")
        .env("GITHUB_TOKEN", "ghp_abcdefghijklmnopqrstuvwxyz0123456789")
        .output()
        .unwrap();
    assert!(output.status.success());
    // The sandbox itself sets PATH, HOME, LANG and OLLM_HOME.
    assert_eq!(
        child_names(&output),
        names(&[
            "PATH",
            "HOME",
            "USER",
            "SHELL",
            "TERM",
            "LANG",
            "NODE_ENV",
            "DEBUG",
            "OLLM_HOME"
        ])
    );
}

#[test]
fn innocent_variables_are_kept() {
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd("ollm-env");
    cmd.args(["run", "--", "env"]);
    for (name, value) in [
        ("NODE_ENV", "test"),
        ("DEBUG", "app:*"),
        ("PORT", "3000"),
        ("HOSTNAME", "box"),
        ("TZ", "UTC"),
        ("EDITOR", "vim"),
        ("PAGER", "less"),
    ] {
        cmd.env(name, value);
    }
    let kept = child_names(&cmd.output().unwrap());
    for name in [
        "NODE_ENV", "DEBUG", "PORT", "HOSTNAME", "TZ", "EDITOR", "PAGER",
    ] {
        assert!(kept.contains(name), "{name} was removed");
    }
}

#[test]
fn secret_values_under_innocent_names_never_reach_the_child() {
    let sandbox = Sandbox::new();
    let secrets = [
        ("CONFIG_BLOB", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
        ("DATABASE_URL", "postgres://admin:hunter22@db.internal/app"),
        ("OPENAI", "sk-proj-abcdefghijklmnopqrstuvwxyz012345"),
        ("SLACK", "xoxb-123456789012-abcdefghijklmnopqrstuvwx"),
        (
            "SESSION",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N",
        ),
        (
            "DEPLOY",
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----",
        ),
        ("PAYMENTS", "sk_live_abcdefghijklmnopqrstuvwx"),
        ("ID", "AKIAIOSFODNN7EXAMPLE"),
    ];
    let mut cmd = sandbox.cmd("ollm-env");
    cmd.args(["run", "--", "env"]);
    for (name, value) in secrets {
        cmd.env(name, value);
    }
    let output = cmd.output().unwrap();
    let text = stdout(&output);
    for (name, value) in secrets {
        assert!(!text.contains(value), "{name}'s value leaked");
        assert!(!child_names(&output).contains(name), "{name} kept");
    }
}

#[test]
fn flags_allow_deny_and_set() {
    let sandbox = Sandbox::new();
    let output = sandbox
        .cmd("ollm-env")
        .args([
            "run",
            "--allow",
            "DATABASE_URL",
            "--deny",
            "internal_*",
            "--set",
            "MODE=ci",
            "--",
            "env",
        ])
        .env("DATABASE_URL", "postgres://u:pw123456@h/db")
        .env("INTERNAL_HOST", "10.0.0.1")
        .output()
        .unwrap();
    let kept = child_names(&output);
    assert!(kept.contains("DATABASE_URL"));
    assert!(
        !kept.contains("INTERNAL_HOST"),
        "deny globs are case-insensitive"
    );
    assert!(stdout(&output).contains("MODE=ci"));
}

#[test]
fn configured_rules_extend_the_defaults_and_an_invalid_pattern_warns() {
    let sandbox = Sandbox::new();
    std::fs::write(
        sandbox.ollm_home.join("config.yaml"),
        "services:\n  environment:\n    denyPatterns: ['[unclosed', 'CORP_*']\n",
    )
    .unwrap();
    let output = sandbox
        .cmd("ollm-env")
        .args(["run", "--", "env"])
        .env("CORP_ID", "x")
        .env("API_KEY", "abcdefgh")
        .output()
        .unwrap();
    assert!(output.status.success());
    let kept = child_names(&output);
    assert!(!kept.contains("CORP_ID"));
    assert!(!kept.contains("API_KEY"), "defaults still apply");
    let err = crate::support::stderr(&output);
    assert!(
        err.starts_with("ollm-env: warning: invalid deny pattern"),
        "{err}"
    );
}

#[test]
fn exit_codes_pass_through() {
    use std::os::unix::process::ExitStatusExt;
    let sandbox = Sandbox::new();
    for redact in [false, true] {
        let mut args = vec!["run"];
        if redact {
            args.push("--redact-output");
        }
        sandbox
            .cmd("ollm-env")
            .args(&args)
            .args(["--", "sh", "-c", "exit 7"])
            .assert()
            .code(7);
    }
    // Without a supervisor the tool's death by a signal is its own...
    let status = sandbox
        .cmd("ollm-env")
        .args(["run", "--", "sh", "-c", "kill -KILL $$"])
        .output()
        .unwrap()
        .status;
    assert_eq!(status.signal(), Some(9));
    // ...and the supervisor of --redact-output reports it as 128+N.
    sandbox
        .cmd("ollm-env")
        .args(["run", "--redact-output", "--", "sh", "-c", "kill -KILL $$"])
        .assert()
        .code(128 + 9);
}

#[test]
fn a_missing_command_is_127_and_one_line() {
    let sandbox = Sandbox::new();
    let output = sandbox
        .cmd("ollm-env")
        .args(["run", "--", "no-such-command-xyz"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(127));
    assert_one_line_error(&output, "ollm-env");
}

#[test]
fn a_non_executable_command_is_126() {
    let sandbox = Sandbox::new();
    let script = sandbox.write("script.sh", "#!/bin/sh\necho hi\n");
    let output = sandbox
        .cmd("ollm-env")
        .args(["run", "--"])
        .arg(&script)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(126));
    assert_one_line_error(&output, "ollm-env");
}

#[test]
fn stdin_passes_through() {
    let sandbox = Sandbox::new();
    sandbox
        .cmd("ollm-env")
        .args(["run", "--", "cat"])
        .write_stdin("hello\n")
        .assert()
        .success()
        .stdout("hello\n");
}

/// `ollm-env run` in a process group of its own, killed whole when dropped,
/// so a failing test never leaves a child holding the test runner's pipes.
pub(crate) struct Supervised {
    pub(crate) child: std::process::Child,
}

impl Supervised {
    /// With `flags` after `run` (`--redact-output` keeps a supervisor).
    pub(crate) fn start_with(sandbox: &Sandbox, flags: &[&str], script: &str) -> Supervised {
        use std::os::unix::process::CommandExt;
        let child = std::process::Command::new(bin_path("ollm-env"))
            .arg("run")
            .args(flags)
            .args(["--", "sh", "-c", script])
            .env_clear()
            .env("PATH", test_path())
            .env("OLLM_HOME", &sandbox.ollm_home)
            .env("HOME", &sandbox.home)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .process_group(0)
            .spawn()
            .unwrap();
        Supervised { child }
    }

    pub(crate) fn signal(&self, signal: i32) {
        // SAFETY: kill(2) on our own child's pid.
        unsafe {
            libc::kill(self.child.id() as i32, signal);
        }
    }

    pub(crate) fn wait(&mut self) -> std::process::ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "ollm-env did not end");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Supervised {
    fn drop(&mut self) {
        // SAFETY: kill(2) on the process group we created for this test.
        unsafe {
            libc::kill(-(self.child.id() as i32), libc::SIGKILL);
        }
        let _ = self.child.wait();
    }
}

#[test]
fn sigterm_is_forwarded_to_the_child() {
    use std::os::unix::process::ExitStatusExt;
    let sandbox = Sandbox::new();
    for flags in [&[][..], &["--redact-output"][..]] {
        let mut run = Supervised::start_with(
            &sandbox,
            flags,
            "trap 'exit 42' TERM; echo ready; while :; do sleep 0.05; done",
        );
        let mut line = String::new();
        BufReader::new(run.child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line, "ready\n");
        run.signal(libc::SIGTERM);
        let status = run.wait();
        assert_eq!(
            status.signal(),
            None,
            "ollm-env itself was killed ({flags:?})"
        );
        assert_eq!(
            status.code(),
            Some(42),
            "the child's TERM trap ran ({flags:?})"
        );
    }
}

/// Regression: handlers were installed only after the child started, so a
/// SIGTERM in that window killed ollm-env and orphaned the child.
#[test]
fn a_signal_during_start_up_is_forwarded_not_fatal() {
    use std::os::unix::process::ExitStatusExt;
    let sandbox = Sandbox::new();
    // Signal at delays that sweep ollm-env's start-up, spawn included.
    for delay_ms in [0, 1, 2, 3, 5, 8, 12, 20, 30, 50] {
        let mut run = Supervised::start_with(&sandbox, &["--redact-output"], "exec sleep 100");
        std::thread::sleep(Duration::from_millis(delay_ms));
        run.signal(libc::SIGTERM);
        let status = run.wait();
        // Either ollm-env was not running Rust code yet (the kernel's
        // default action ends it before it has a child) or it forwarded the
        // signal: the child then dies of it and we report 128+15.
        if status.signal() != Some(libc::SIGTERM) {
            assert_eq!(status.code(), Some(128 + libc::SIGTERM));
        }
        // Whichever it was, nothing may outlive ollm-env in its group
        // (allowing the kernel a moment to reap).
        let group = -(run.child.id() as i32);
        let deadline = Instant::now() + Duration::from_secs(2);
        // SAFETY: kill(2) with signal 0 only checks whether the group exists.
        while unsafe { libc::kill(group, 0) } == 0 {
            assert!(
                Instant::now() < deadline,
                "a child outlived ollm-env (orphaned) at {delay_ms} ms"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

#[test]
fn redact_output_hides_a_secret_split_across_writes() {
    let sandbox = Sandbox::new();
    let secret = "hunter2-correct-horse-battery";
    sandbox.write("secret.txt", secret);
    let output = sandbox
        .cmd("ollm-env")
        .args([
            "run",
            "--redact-output",
            "--",
            "sh",
            "-c",
            "head -c 9 secret.txt; sleep 0.3; tail -c +10 secret.txt; echo; \
             echo token ghp_abcdefghijklmnopqrstuvwxyz0123456789 >&2",
        ])
        .env("DB_PASSWORD", secret)
        .output()
        .unwrap();
    assert!(output.status.success());
    let out = stdout(&output);
    let err = crate::support::stderr(&output);
    assert_eq!(out, "[REDACTED]\n");
    assert_eq!(err, "token [REDACTED]\n");
}

#[test]
fn report_lists_names_and_rules_but_never_values() {
    let sandbox = Sandbox::new();
    let secret = "sk-abcdefghijklmnopqrstuvwxyz123456";
    let output = sandbox
        .cmd("ollm-env")
        .arg("report")
        .env("OPENAI_API_KEY", secret)
        .env("INNOCENT", secret)
        .env("NODE_ENV", "production")
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(!stdout(&output).contains(secret));
    assert!(!stdout(&output).contains("production"));
    let report = json(&output);
    let removed: Vec<(&str, &str)> = report["removed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["name"].as_str().unwrap(), e["rule"].as_str().unwrap()))
        .collect();
    assert!(removed.contains(&("OPENAI_API_KEY", "secret-value")));
    assert!(removed.contains(&("INNOCENT", "secret-value")));
    let kept = report["kept"].as_array().unwrap();
    assert!(
        kept.iter()
            .any(|e| e["name"] == "NODE_ENV" && e["rule"] == "no-deny-match")
    );
}

#[test]
fn explain_names_the_deciding_rule() {
    let sandbox = Sandbox::new();
    let output = sandbox
        .cmd("ollm-env")
        .args(["explain", "AWS_REGION"])
        .output()
        .unwrap();
    let explained = json(&output);
    assert_eq!(explained["kept"], false);
    assert_eq!(explained["rule"], "deny-pattern");
    assert_eq!(explained["pattern"], "AWS_*");
    assert_eq!(explained["present"], false);
}

#[test]
fn bad_flags_are_one_line_usage_errors() {
    let sandbox = Sandbox::new();
    for args in [
        vec!["run"],
        vec!["run", "--set", "no_equals", "--", "true"],
        vec!["--bogus"],
        vec!["nonsense"],
    ] {
        let output = sandbox.cmd("ollm-env").args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_one_line_error(&output, "ollm-env");
    }
}

#[test]
fn help_shows_examples_for_every_subcommand() {
    let sandbox = Sandbox::new();
    for sub in [
        None,
        Some("run"),
        Some("report"),
        Some("explain"),
        Some("config"),
    ] {
        let mut cmd = sandbox.cmd("ollm-env");
        if let Some(sub) = sub {
            cmd.arg(sub);
        }
        let output = cmd.arg("--help").output().unwrap();
        assert!(output.status.success());
        let text = stdout(&output);
        assert!(text.contains("Examples:"), "{sub:?}");
        assert!(text.contains("Exit codes:"), "{sub:?}");
    }
}
