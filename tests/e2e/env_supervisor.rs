//! The supervisor of `ollm-env run --redact-output` does not run the tool
//! when it cannot protect the removed values: a seccomp filter (installed
//! in the test's child before it executes ollm-env) makes one `prctl`
//! option fail, as a hardened sandbox might.

use std::os::unix::process::CommandExt;

use crate::support::{Sandbox, assert_one_line_error, bin_path, stderr, test_path};

const SECRET: &str = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";

/// A seccomp filter under which `prctl(option, …)` fails with EPERM and
/// every other call is allowed.
fn failing_prctl(option: libc::c_int) -> [libc::sock_filter; 6] {
    let statement = |code: u32, k: u32| libc::sock_filter {
        code: code as u16,
        jt: 0,
        jf: 0,
        k,
    };
    let jump_if = |k: u32, jt: u8, jf: u8| libc::sock_filter {
        code: (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16,
        jt,
        jf,
        k,
    };
    let load_word = |offset: u32| statement(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, offset);
    // struct seccomp_data: nr at 0, the low half of args[0] at 16 (x86_64
    // and aarch64 are little-endian).
    [
        load_word(0),
        jump_if(libc::SYS_prctl as u32, 0, 3),
        load_word(16),
        jump_if(option as u32, 0, 1),
        statement(
            libc::BPF_RET | libc::BPF_K,
            libc::SECCOMP_RET_ERRNO | libc::EPERM as u32,
        ),
        statement(libc::BPF_RET | libc::BPF_K, libc::SECCOMP_RET_ALLOW),
    ]
}

/// Runs `ollm-env run --redact-output -- touch RAN` with a secret in its
/// environment, under a filter that fails `prctl(option)`.
fn run_with_failing_prctl(option: libc::c_int) -> (std::process::Output, bool) {
    let sandbox = Sandbox::new();
    let marker = sandbox.work.join("RAN");
    let filter = failing_prctl(option);
    let mut command = std::process::Command::new(bin_path("ollm-env"));
    command
        .args(["run", "--redact-output", "--", "touch"])
        .arg(&marker)
        .env_clear()
        .env("PATH", test_path())
        .env("HOME", &sandbox.home)
        .env("OLLM_HOME", &sandbox.ollm_home)
        .env("GITHUB_TOKEN", SECRET)
        .current_dir(&sandbox.work);
    // SAFETY: between fork and exec only prctl is called, on a filter
    // that lives in the parent's (copied) memory until the exec.
    unsafe {
        command.pre_exec(move || {
            let program = libc::sock_fprog {
                len: filter.len() as u16,
                filter: filter.as_ptr().cast_mut(),
            };
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
                || libc::prctl(libc::PR_SET_SECCOMP, libc::SECCOMP_MODE_FILTER, &program) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let output = command.output().expect("run ollm-env under the filter");
    (output, marker.exists())
}

#[test]
fn a_supervisor_that_cannot_become_undumpable_does_not_run_the_tool() {
    let (output, ran) = run_with_failing_prctl(libc::PR_SET_DUMPABLE);
    assert!(!ran, "the tool ran: {}", stderr(&output));
    assert_eq!(output.status.code(), Some(126), "{}", stderr(&output));
    assert_one_line_error(&output, "ollm-env");
    let err = stderr(&output);
    assert!(err.contains("PR_SET_DUMPABLE"), "{err}");
    assert!(err.contains("without --redact-output"), "{err}");
    assert!(!err.contains(SECRET), "{err}");
}

#[test]
fn a_tool_that_cannot_get_a_parent_death_signal_is_not_run() {
    let (output, ran) = run_with_failing_prctl(libc::PR_SET_PDEATHSIG);
    assert!(!ran, "the tool ran: {}", stderr(&output));
    assert_eq!(output.status.code(), Some(126), "{}", stderr(&output));
    assert_one_line_error(&output, "ollm-env");
    assert!(
        stderr(&output).contains("PR_SET_PDEATHSIG"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn the_filter_fails_only_the_option_it_names() {
    let (output, ran) = run_with_failing_prctl(libc::PR_SET_NAME);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(ran);
}
