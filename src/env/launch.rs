//! `ollm-env run`: start a tool with the sanitized environment.
//!
//! Without `--redact-output`, `ollm-env` replaces itself with the tool
//! (exec): nothing that holds the original environment stays between the
//! caller and the tool, and its exit status and signals are its own.
//! With `--redact-output` a supervisor must stay, to read the tool's output.
//! It makes itself unreadable to the tool (not dumpable: `/proc/PID/environ`,
//! `/proc/PID/mem` and `/proc/PID/fd` are closed to the same user; if that
//! fails, or the tool cannot get the parent-death signal below, the tool
//! is not run: exit 126), wipes the
//! removed values from its own environment block, has the kernel kill the
//! tool if it dies (parent-death signal), and forwards every catchable
//! signal (see `signals`). What remains in the supervisor: the removed
//! values, in its heap, for the redactor to match; only a process allowed to
//! trace it (root with CAP_SYS_PTRACE) can read them.

use std::ffi::{CStr, CString, OsStr, OsString};
use std::io::{ErrorKind, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, Stdio};

use super::child::{self, ChildEnvironment, Var};
use super::policy::Policy;
use super::signals;
use crate::error::{Error, ExitCode, Result};
use crate::redact::Redactor;

pub struct RunRequest {
    pub program: OsString,
    pub args: Vec<OsString>,
    /// Variables set explicitly for the child (`--env-file`, `--set`),
    /// after sanitizing.
    pub set: Vec<(String, String)>,
    pub redact_output: bool,
}

/// Runs the tool. Without redaction this only returns on failure to start
/// it; otherwise it returns the tool's exit code (128+N if it died of
/// signal N).
pub fn run(policy: &Policy, request: &RunRequest) -> Result<ExitCode> {
    let program = request.program.to_string_lossy().into_owned();
    if request.redact_output {
        // Before the removed values are copied anywhere: a supervisor that
        // the tool could read would hand them over.
        make_undumpable(&program)?;
    }
    let parent = child::this_process();
    let child = child::child_environment(parent.iter().map(|(_, var)| *var), policy, &request.set);
    if !request.redact_output {
        let err = exec_sanitized(&request.program, &request.args, &parent, &child);
        return Err(spawn_error(&program, &err));
    }
    let mut command = Command::new(&request.program);
    command.args(&request.args).env_clear().envs(
        child
            .variables()
            .map(|var| (OsStr::from_bytes(var.name), OsStr::from_bytes(var.value))),
    );
    // Copied out: the supervisor wipes these from the environment block
    // that `parent` and `child` borrow from.
    let removed_names: Vec<OsString> = child
        .removed()
        .map(|removed| OsStr::from_bytes(removed.var.name).to_os_string())
        .collect();
    let secret_values: Vec<String> = child
        .secret_values()
        .map(|value| String::from_utf8_lossy(value).into_owned())
        .collect();
    drop(child);
    drop(parent);
    supervise(command, &program, &removed_names, &secret_values)
}

/// Replaces this process with the tool (execvp, as `Command::exec` does),
/// its environment `child`'s variables: the inherited ones pointed to
/// where they are in our environment block (`parent`, from which `child`
/// was decided), the set ones copied. Returns only if the exec failed.
fn exec_sanitized(
    program: &OsStr,
    rest: &[OsString],
    parent: &[(&'static CStr, Var<'static>)],
    child: &ChildEnvironment<'_>,
) -> std::io::Error {
    let nul = || std::io::Error::new(ErrorKind::InvalidInput, "nul byte found in provided data");
    let Ok(program) = CString::new(program.as_bytes()) else {
        return nul();
    };
    let mut args = vec![program.clone()];
    for arg in rest {
        let Ok(arg) = CString::new(arg.as_bytes()) else {
            return nul();
        };
        args.push(arg);
    }
    let mut assigned = Vec::with_capacity(child.assigned.len());
    for set in &child.assigned {
        let mut entry = set.var.name.to_vec();
        entry.push(b'=');
        entry.extend_from_slice(set.var.value);
        let Ok(entry) = CString::new(entry) else {
            return nul();
        };
        assigned.push(entry);
    }

    // `child.inherited` holds every variable of `parent`, in its order.
    let mut environment: Vec<*const libc::c_char> = Vec::with_capacity(parent.len() + 1);
    for ((entry, _), inherited) in parent.iter().zip(&child.inherited) {
        if inherited.passed() {
            environment.push(entry.as_ptr());
        }
    }
    environment.extend(assigned.iter().map(|entry| entry.as_ptr()));
    environment.push(std::ptr::null());
    let mut argv: Vec<*const libc::c_char> = args.iter().map(|arg| arg.as_ptr()).collect();
    argv.push(std::ptr::null());

    // SAFETY: single-threaded; `environment` and `argv` are null-terminated
    // arrays of NUL-terminated strings (ours, or entries of environ, which
    // nothing changes before the exec) that outlive the call; environ is
    // restored if execvp returns.
    unsafe {
        // As `Command::exec` does: the tool starts with no signal blocked
        // and SIGPIPE at its default (main ignores it for itself).
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::pthread_sigmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        // execvp searches the tool's PATH, not ours.
        let ours = libc::environ;
        libc::environ = environment.as_ptr().cast_mut().cast();
        libc::execvp(program.as_ptr(), argv.as_ptr());
        let err = std::io::Error::last_os_error();
        libc::environ = ours;
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
        err
    }
}

/// Runs `command` as it is (its environment already decided) and waits
/// for it, forwarding the signals we receive; returns its exit code (128+N
/// if it died of signal N). What `run --checkpoint` wraps a tool's run in.
pub fn run_and_wait(mut command: Command, program: &str) -> Result<ExitCode> {
    signals::install()?;
    let mut child = command.spawn().map_err(|err| spawn_error(program, &err))?;
    signals::attach(child.id() as i32);
    wait_exited(child.id() as i32);
    signals::detach();
    let status = child
        .wait()
        .map_err(|e| Error::io(format!("waiting for {program}"), &e))?;
    Ok(ExitCode::Child(exit_code_of(status)))
}

fn exit_code_of(status: std::process::ExitStatus) -> i32 {
    match (status.code(), status.signal()) {
        (Some(code), _) => code,
        (None, Some(signal)) => 128 + signal,
        (None, None) => 1,
    }
}

fn supervise(
    mut command: Command,
    program: &str,
    removed_names: &[OsString],
    removed_values: &[String],
) -> Result<ExitCode> {
    wipe_environment(removed_names);
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    // Handlers go in before the child exists: a signal that arrives while it
    // starts is held and forwarded, instead of killing us and orphaning it.
    signals::install()?;
    // SAFETY: getpid has no preconditions.
    let supervisor = unsafe { libc::getpid() };
    // SAFETY: the closure runs in the child between fork and exec and only
    // calls async-signal-safe functions (prctl, getppid); an io::Error made
    // from an error number allocates nothing.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                return Err(std::io::Error::from_raw_os_error(NO_DEATH_SIGNAL));
            }
            // The supervisor may have died before the line above: then the
            // child was re-parented and no death signal will ever come (and
            // nobody reads this error).
            if libc::getppid() != supervisor {
                return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        });
    }
    let mut child = command.spawn().map_err(|err| {
        if err.raw_os_error() == Some(NO_DEATH_SIGNAL) {
            Error::CannotExecute(format!(
                "{program}: not run: the kernel would not kill it if ollm-env died \
                 (prctl PR_SET_PDEATHSIG failed)"
            ))
        } else {
            spawn_error(program, &err)
        }
    })?;
    signals::attach(child.id() as i32);
    let pumps = start_redacting(&mut child, removed_values);
    wait_exited(child.id() as i32);
    signals::detach();
    let status = child
        .wait()
        .map_err(|e| Error::io(format!("waiting for {program}"), &e))?;
    for pump in pumps {
        let _ = pump.join();
    }
    Ok(ExitCode::Child(exit_code_of(status)))
}

/// The error number the child reports when it cannot have the kernel kill
/// it with the supervisor: only the number crosses from the child (std
/// sends it through a pipe), and execve never fails with this one.
const NO_DEATH_SIGNAL: i32 = libc::ENOTRECOVERABLE;

/// Closes this process to its own user's tools (`/proc/PID/environ`,
/// `mem`, `fd`, ptrace): a supervisor that holds the removed values must
/// not run the tool if that fails.
fn make_undumpable(program: &str) -> Result<()> {
    // SAFETY: prctl with PR_SET_DUMPABLE and 0 only changes our own flag.
    if unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) } == 0 {
        return Ok(());
    }
    let err = std::io::Error::last_os_error();
    Err(Error::CannotExecute(format!(
        "{program}: not run: ollm-env cannot make itself unreadable to the tool \
         (prctl PR_SET_DUMPABLE: {}); run it without --redact-output",
        crate::error::describe_io(&err)
    )))
}

/// Waits until the child has exited, leaving it unreaped (its pid is not
/// reused while signals may still be forwarded to it).
fn wait_exited(pid: i32) {
    loop {
        // SAFETY: waitid writes into the zeroed siginfo_t we own.
        let result = unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if result == 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted
        {
            return;
        }
    }
}

/// Overwrites the values of the removed variables in our own environment
/// block (what `/proc/PID/environ` shows) and unsets them. Called before
/// any thread is started.
fn wipe_environment(names: &[OsString]) {
    // SAFETY: single-threaded here; each entry of environ is a valid
    // NUL-terminated string that we overwrite only within its length.
    unsafe {
        let mut entry = libc::environ;
        while !entry.is_null() && !(*entry).is_null() {
            let text = *entry;
            let bytes = CStr::from_ptr(text).to_bytes();
            if let Some(eq) = bytes.iter().position(|&b| b == b'=')
                && names.iter().any(|n| n.as_bytes() == &bytes[..eq])
            {
                std::ptr::write_bytes(text.add(eq + 1), 0, bytes.len() - eq - 1);
            }
            entry = entry.add(1);
        }
        for name in names {
            std::env::remove_var(name);
        }
    }
}

fn spawn_error(program: &str, err: &std::io::Error) -> Error {
    match err.kind() {
        std::io::ErrorKind::NotFound => {
            Error::CommandNotFound(format!("{program}: command not found"))
        }
        std::io::ErrorKind::PermissionDenied => {
            Error::CannotExecute(format!("{program}: permission denied"))
        }
        _ => Error::CannotExecute(format!(
            "{program}: cannot execute: {}",
            crate::error::describe_io(err)
        )),
    }
}

fn start_redacting(child: &mut Child, removed: &[String]) -> Vec<std::thread::JoinHandle<()>> {
    // One matcher for both streams: building it is most of the start-up cost.
    let redactor = Redactor::new(removed);
    let mut pumps = Vec::new();
    if let Some(stdout) = child.stdout.take() {
        let redactor = redactor.clone();
        pumps.push(std::thread::spawn(move || {
            pump(stdout, crate::output::stdout::relay(), redactor);
        }));
    }
    if let Some(stderr) = child.stderr.take() {
        pumps.push(std::thread::spawn(move || {
            pump(stderr, std::io::stderr(), redactor);
        }));
    }
    pumps
}

/// Copies a child's stream through the redactor until it ends. If our own
/// output is closed, the rest is read and dropped so the child never blocks.
fn pump(mut from: impl Read, to: impl Write, mut redactor: Redactor) {
    let mut to = Some(to);
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let read = match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if let Some(out) = to.as_mut()
            && redactor.feed(&buf[..read], out).is_err()
        {
            to = None;
        }
    }
    if let Some(out) = to.as_mut() {
        let _ = redactor.finish(out);
    }
}
