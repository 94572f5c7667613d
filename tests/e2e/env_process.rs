//! `ollm-env run`'s process model: exec without `--redact-output`; with it,
//! a supervisor the tool cannot read through /proc, that dies with nothing
//! left running, forwards signals (also inside a pty), and redacts without
//! seams at any line length.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::env::Supervised;
use crate::support::{Sandbox, bin_path, is_root, stderr, stdout, test_path};

const SECRET: &str = "sk-proj-abcdefghijklmnopqrstuvwx1234";
const LITERAL: &str = "hunter2-correct-horse-battery";

/// Waits (bounded) for a file a child writes, and returns its trimmed text.
fn wait_for_file(path: &Path) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(text) = std::fs::read_to_string(path)
            && text.ends_with('\n')
        {
            return text.trim().to_string();
        }
        assert!(
            Instant::now() < deadline,
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether a process is gone (or a zombie nobody reaps, which runs no code).
fn is_gone(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z')),
    }
}

fn wait_gone(pid: i32, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !is_gone(pid) {
        assert!(
            Instant::now() < deadline,
            "{what}: process {pid} still runs"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn without_redaction_ollm_env_becomes_the_tool() {
    let sandbox = Sandbox::new();
    let leak = sandbox.work.join("environ.txt");
    let child = Command::new(bin_path("ollm-env"))
        .args(["run", "--", "sh", "-c"])
        .arg(format!(
            "echo $$; tr '\\0' '\\n' </proc/$$/environ >{}",
            leak.display()
        ))
        .env_clear()
        .env("PATH", test_path())
        .env("HOME", &sandbox.home)
        .env("OLLM_HOME", &sandbox.ollm_home)
        .env("OPENAI_API_KEY", SECRET)
        .current_dir(&sandbox.work)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    assert_eq!(
        stdout(&output).trim(),
        pid.to_string(),
        "no process stands between"
    );
    let environ = std::fs::read_to_string(&leak).unwrap();
    assert!(environ.contains("PATH="), "{environ}");
    assert!(!environ.contains(SECRET) && !environ.contains("OPENAI_API_KEY"));
}

/// What the exec'ed tool starts with: `--set` values over ours (the last of
/// several), its command found on its own PATH, no signal blocked and
/// SIGPIPE not ignored (ollm-env itself ignores it).
#[test]
fn without_redaction_the_tool_gets_set_values_its_own_path_and_default_signals() {
    let sandbox = Sandbox::new();
    let bin = sandbox.work.join("only-here");
    std::fs::create_dir(&bin).unwrap();
    let tool = bin.join("show-start");
    std::fs::write(
        &tool,
        // The shell reads its own status with builtins before it forks
        // anything: while it waits for a child, sh blocks every signal, and
        // a child reading /proc/$$/status then sees that mask, not ours.
        "#!/bin/sh\nwhile read -r key rest; do case $key in SigBlk:|SigIgn:) status=\"$status$key $rest\n\";; esac; done </proc/$$/status\nenv | grep '^MODE='\nprintf \"$status\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), test_path());
    let output = sandbox
        .cmd("ollm-env")
        .args(["run", "--set", "MODE=first", "--set", "MODE=last"])
        .arg("--set")
        .arg(format!("PATH={path}"))
        .args(["--", "show-start"])
        .env("MODE", "inherited")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "MODE=last", "{lines:?}");
    let mask = |name: &str| {
        let line = lines.iter().find(|l| l.starts_with(name)).unwrap();
        u64::from_str_radix(line.split_whitespace().nth(1).unwrap(), 16).unwrap()
    };
    assert_eq!(mask("SigBlk:"), 0, "{lines:?}");
    let sigpipe = 1 << (libc::SIGPIPE - 1);
    assert_eq!(mask("SigIgn:") & sigpipe, 0, "{lines:?}");
    assert_eq!(lines.len(), 3, "{lines:?}");
}

#[test]
fn the_supervisor_holds_no_stripped_secret_in_its_proc_environ() {
    let sandbox = Sandbox::new();
    let leak = sandbox.work.join("environ.txt");
    let output = sandbox
        .cmd("ollm-env")
        .args(["run", "--redact-output", "--", "sh", "-c"])
        .arg(format!(
            "tr '\\0' '\\n' </proc/$PPID/environ >{} 2>&1; echo done",
            leak.display()
        ))
        .env("OPENAI_API_KEY", SECRET)
        .env("DB_PASSWORD", LITERAL)
        .output()
        .unwrap();
    assert_eq!(stdout(&output), "done\n");
    // Even where /proc/PID/environ can be read (root may trace anything),
    // the values were wiped from the supervisor's environment block.
    let environ = std::fs::read_to_string(&leak).unwrap();
    assert!(!environ.contains(SECRET), "{environ}");
    assert!(!environ.contains(LITERAL), "{environ}");
}

/// A directory every user may use, for the tests run as `nobody`.
fn shared_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_path_buf();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o777)).unwrap();
    (dir, path)
}

fn as_nobody(dir: &Path) -> Command {
    let mut cmd = Command::new("setpriv");
    cmd.args(["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"])
        .arg(bin_path("ollm-env"))
        .env_clear()
        .env("PATH", test_path())
        .env("HOME", dir)
        .env("OLLM_HOME", dir.join("ollm-home"))
        .current_dir(dir);
    cmd
}

#[test]
fn as_another_user_the_child_can_read_nothing_of_the_supervisor() {
    if !is_root() {
        println!("SKIPPED: needs root to run ollm-env as nobody");
        return;
    }
    let (_keep, dir) = shared_dir();
    let script = "tr '\\0' '\\n' >environ.txt 2>&1 </proc/$PPID/environ; \
                  ls /proc/$PPID/fd/ >fds.txt 2>&1; \
                  echo $OPENAI_API_KEY-$DB_PASSWORD 2>fd-write.txt >/proc/$PPID/fd/1; \
                  echo done";
    let output = as_nobody(&dir)
        .args(["run", "--redact-output", "--", "sh", "-c", script])
        .env("OPENAI_API_KEY", SECRET)
        .env("DB_PASSWORD", LITERAL)
        .output()
        .unwrap();
    assert_eq!(stdout(&output), "done\n", "{}", stderr(&output));
    let environ = std::fs::read_to_string(dir.join("environ.txt")).unwrap();
    assert!(environ.contains("Permission denied"), "{environ}");
    let fds = std::fs::read_to_string(dir.join("fds.txt")).unwrap();
    assert!(fds.contains("Permission denied"), "{fds}");
    let write = std::fs::read_to_string(dir.join("fd-write.txt")).unwrap();
    assert!(write.contains("Permission denied"), "{write}");
}

#[test]
fn sigkill_of_the_supervisor_kills_the_child() {
    let sandbox = Sandbox::new();
    let pid_file = sandbox.work.join("child.pid");
    let script = format!("echo $$ >{}; exec sleep 60", pid_file.display());
    let mut run = Supervised::start_with(&sandbox, &["--redact-output"], &script);
    let child: i32 = wait_for_file(&pid_file).parse().unwrap();
    run.signal(libc::SIGKILL);
    run.wait();
    wait_gone(child, "the parent-death signal");
}

#[test]
fn usr1_usr2_and_alrm_are_forwarded_not_fatal() {
    use std::os::unix::process::ExitStatusExt;
    let sandbox = Sandbox::new();
    for signal in [libc::SIGUSR1, libc::SIGUSR2, libc::SIGALRM] {
        let pid_file = sandbox.work.join(format!("child-{signal}.pid"));
        let script = format!("echo $$ >{}; exec sleep 60", pid_file.display());
        let mut run = Supervised::start_with(&sandbox, &["--redact-output"], &script);
        let child: i32 = wait_for_file(&pid_file).parse().unwrap();
        run.signal(signal);
        let status = run.wait();
        assert_eq!(status.signal(), None, "ollm-env died of {signal}");
        assert_eq!(status.code(), Some(128 + signal));
        wait_gone(child, "the forwarded signal");
    }
}

#[test]
fn a_sigint_sent_by_another_process_in_a_pty_is_forwarded() {
    use std::os::unix::process::ExitStatusExt;
    let sandbox = Sandbox::new();
    let supervisor_file = sandbox.work.join("supervisor.pid");
    let child_file = sandbox.work.join("child.pid");
    let inner = format!(
        "{} run --redact-output -- sh -c 'echo $PPID >{}; echo $$ >{}; exec sleep 60'; echo status=$?",
        bin_path("ollm-env").display(),
        supervisor_file.display(),
        child_file.display()
    );
    // `script` gives ollm-env a pty as its controlling terminal, and makes
    // it the terminal's foreground process group.
    let mut pty = Command::new("script")
        .args(["-qfec", &inner, "/dev/null"])
        .env_clear()
        .env("PATH", test_path())
        .env("HOME", &sandbox.home)
        .env("OLLM_HOME", &sandbox.ollm_home)
        .env("SHELL", "/bin/sh")
        .current_dir(&sandbox.work)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let supervisor: i32 = wait_for_file(&supervisor_file).parse().unwrap();
    let child: i32 = wait_for_file(&child_file).parse().unwrap();
    // SAFETY: kill(2) with a pid of a process this test started.
    unsafe {
        libc::kill(supervisor, libc::SIGINT);
    }
    wait_gone(child, "the SIGINT from another process");
    drop(pty.stdin.take());
    let output = pty.wait_with_output().unwrap();
    assert_eq!(output.status.signal(), None);
    let text = stdout(&output);
    assert!(text.contains("status=130"), "{text}");
}

/// Runs a child that writes `offset` bytes, then half a secret, then the
/// rest, with no newline: the secret never shows.
fn straddle(offset: usize) {
    let sandbox = Sandbox::new();
    let (first, second) = LITERAL.split_at(LITERAL.len() / 2);
    let script = format!(
        "head -c {offset} /dev/zero | tr '\\0' x; printf %s '{first}'; sleep 0.2; printf %s '{second}'; printf ' tail'"
    );
    let output = sandbox
        .cmd("ollm-env")
        .args(["run", "--redact-output", "--", "sh", "-c", &script])
        .env("DB_PASSWORD", LITERAL)
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(!text.contains(second), "half the secret shown at {offset}");
    assert!(text.ends_with("[REDACTED] tail"), "at {offset}");
    assert_eq!(text.len(), offset + "[REDACTED] tail".len());
}

#[test]
fn a_secret_straddling_64_kib_is_redacted() {
    straddle(65_534);
    straddle(65_536 - LITERAL.len() / 2);
}

#[test]
fn a_secret_straddling_1_mib_is_redacted() {
    straddle((1 << 20) - LITERAL.len() / 2);
}

#[test]
fn an_allowed_database_url_is_shown_without_its_password() {
    let sandbox = Sandbox::new();
    let output = sandbox
        .cmd("ollm-env")
        .args(["run", "--allow", "DATABASE_URL", "--redact-output", "--"])
        .args(["sh", "-c", "echo $DATABASE_URL"])
        .env("DATABASE_URL", "postgres://app:hunter22@db/x")
        .output()
        .unwrap();
    assert_eq!(stdout(&output), "postgres://[REDACTED]@db/x\n");
    // Not allowed, it does not reach the tool at all.
    let output = sandbox
        .cmd("ollm-env")
        .args(["run", "--", "sh", "-c", "echo \"[$DATABASE_URL]\""])
        .env("DATABASE_URL", "postgres://app:hunter22@db/x")
        .output()
        .unwrap();
    assert_eq!(stdout(&output), "[]\n");
}

#[test]
fn env_file_values_reach_the_tool_and_secret_ones_are_redacted() {
    let sandbox = Sandbox::new();
    let file = sandbox.write(
        "test.env",
        &format!("# for tests\nNODE_ENV=test\nexport API_TOKEN=\"{LITERAL}\"\n"),
    );
    let output = sandbox
        .cmd("ollm-env")
        .args(["run", "--redact-output", "--env-file"])
        .arg(&file)
        .args(["--", "sh", "-c", "echo $NODE_ENV ${#API_TOKEN} $API_TOKEN"])
        .output()
        .unwrap();
    assert_eq!(
        stdout(&output),
        format!("test {} [REDACTED]\n", LITERAL.len())
    );
    let bad = sandbox.write("bad.env", "NODE_ENV=test\n9X=1\n");
    let output = sandbox
        .cmd("ollm-env")
        .args(["run", "--env-file"])
        .arg(&bad)
        .args(["--", "true"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("bad.env:2:"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn replace_defaults_replaces_every_builtin_list() {
    let sandbox = Sandbox::new();
    let output = sandbox
        .cmd("ollm-env")
        .args([
            "run",
            "--replace-defaults",
            "--deny",
            "BLOCKED_*",
            "--",
            "env",
        ])
        .env("MY_API_TOKEN", "plain-value")
        .env("DATABASE_URL", "sqlite:///tmp/x.db")
        .env("BLOCKED_X", "1")
        .output()
        .unwrap();
    let out = stdout(&output);
    assert!(out.contains("MY_API_TOKEN=plain-value"), "{out}");
    assert!(out.contains("DATABASE_URL=sqlite:///tmp/x.db"), "{out}");
    assert!(!out.contains("BLOCKED_X"), "{out}");
}

#[test]
fn explain_says_how_to_allow_a_connection_string() {
    let sandbox = Sandbox::new();
    let output = sandbox
        .cmd("ollm-env")
        .args(["explain", "DATABASE_URL"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["kept"], false);
    let how = json["howToAllow"].as_str().unwrap();
    assert!(how.contains("--allow DATABASE_URL"), "{how}");
    let mut check = sandbox.cmd("ollm-env");
    check.args(["explain", "--allow", "DATABASE_URL", "DATABASE_URL"]);
    let json: serde_json::Value = serde_json::from_slice(&check.output().unwrap().stdout).unwrap();
    assert_eq!(json["kept"], true);
}
