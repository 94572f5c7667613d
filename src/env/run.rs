//! `ollm-env run`: start a tool with the sanitized environment, forward
//! termination signals to it, and pass its exit status through.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};

use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
use signal_hook::iterator::Signals;

use super::policy::Policy;
use super::redact::Redactor;
use crate::error::{Error, ExitCode, Result};

pub struct RunRequest {
    pub program: OsString,
    pub args: Vec<OsString>,
    /// Variables set explicitly for the child, after sanitizing.
    pub set: Vec<(String, String)>,
    pub redact_output: bool,
}

/// Runs the child and returns its exit code (128+N if it died of signal N).
pub fn run(policy: &Policy, request: &RunRequest) -> Result<ExitCode> {
    let mut kept: Vec<(OsString, OsString)> = Vec::new();
    let mut removed_values: Vec<String> = Vec::new();
    for (name, value) in std::env::vars_os() {
        let name_text = String::from_utf8_lossy(name.as_bytes()).into_owned();
        let value_text = String::from_utf8_lossy(value.as_bytes()).into_owned();
        if policy.decide(&name_text, &value_text).is_removed() {
            removed_values.push(value_text);
        } else {
            kept.push((name, value));
        }
    }

    let mut command = Command::new(&request.program);
    command.args(&request.args).env_clear().envs(kept);
    for (name, value) in &request.set {
        command.env(name, value);
    }
    if request.redact_output {
        command.stdout(Stdio::piped()).stderr(Stdio::piped());
    }

    let program = request.program.to_string_lossy().into_owned();
    // Handlers go in before the child exists: a signal that arrives while it
    // starts is held and forwarded, instead of killing us and orphaning it.
    let signals = SignalForwarder::install()?;
    let mut child = command.spawn().map_err(|err| spawn_error(&program, &err))?;
    let forwarder = signals.start(child.id() as i32);

    let pumps = if request.redact_output {
        start_redacting(&mut child, &removed_values)
    } else {
        Vec::new()
    };
    let status = child
        .wait()
        .map_err(|e| Error::io(format!("waiting for {program}"), &e))?;
    forwarder.stop();
    for pump in pumps {
        let _ = pump.join();
    }

    let code = match (status.code(), status.signal()) {
        (Some(code), _) => code,
        (None, Some(signal)) => 128 + signal,
        (None, None) => 1,
    };
    Ok(ExitCode::Child(code))
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
    let mut pumps = Vec::new();
    if let Some(stdout) = child.stdout.take() {
        let redactor = Redactor::new(removed);
        pumps.push(std::thread::spawn(move || {
            pump(stdout, std::io::stdout(), redactor)
        }));
    }
    if let Some(stderr) = child.stderr.take() {
        let redactor = Redactor::new(removed);
        pumps.push(std::thread::spawn(move || {
            pump(stderr, std::io::stderr(), redactor)
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

/// Forwards SIGINT, SIGTERM, SIGHUP and SIGQUIT to the child. An interrupt
/// typed at the terminal already reached the child (it shares our
/// foreground process group), so only signals sent to us alone are forwarded.
struct SignalForwarder {
    handle: signal_hook::iterator::Handle,
    thread: std::thread::JoinHandle<()>,
    child: Arc<AtomicI32>,
}

/// Handlers installed, the child not started yet; signals wait in `Signals`.
struct InstalledSignals(Signals);

impl InstalledSignals {
    fn start(self, child_pid: i32) -> SignalForwarder {
        SignalForwarder::forward(self.0, child_pid)
    }
}

impl SignalForwarder {
    fn install() -> Result<InstalledSignals> {
        Signals::new([SIGINT, SIGTERM, SIGHUP, SIGQUIT])
            .map(InstalledSignals)
            .map_err(|e| Error::io("signal handlers", &e))
    }

    fn forward(mut signals: Signals, child_pid: i32) -> SignalForwarder {
        let handle = signals.handle();
        let child = Arc::new(AtomicI32::new(child_pid));
        let target = Arc::clone(&child);
        let thread = std::thread::spawn(move || {
            for signal in signals.forever() {
                let pid = target.load(Ordering::SeqCst);
                if pid <= 0 {
                    break;
                }
                let from_terminal = matches!(signal, SIGINT | SIGQUIT) && in_foreground_group();
                if !from_terminal {
                    // SAFETY: kill(2) with a pid of our own child and a valid signal number.
                    unsafe {
                        libc::kill(pid, signal);
                    }
                }
            }
        });
        SignalForwarder {
            handle,
            thread,
            child,
        }
    }

    fn stop(self) {
        self.child.store(0, Ordering::SeqCst);
        self.handle.close();
        let _ = self.thread.join();
    }
}

/// Whether we are the foreground process group of the terminal on stdin,
/// in which case the terminal delivered the signal to the child as well.
fn in_foreground_group() -> bool {
    // SAFETY: both calls only read process state; tcgetpgrp fails harmlessly
    // (returns -1) when stdin is not a terminal.
    unsafe {
        let foreground = libc::tcgetpgrp(libc::STDIN_FILENO);
        foreground > 0 && foreground == libc::getpgrp()
    }
}
