//! Signal forwarding for the supervisor of `ollm-env run --redact-output`.
//!
//! Every catchable signal that is not about the supervisor's own faults is
//! forwarded to the child. The handler itself forwards (`kill(2)` is
//! async-signal-safe), so nothing is lost while a thread is busy. A signal
//! the terminal sent to the whole foreground process group (a typed ^C,
//! ^\, ^Z or a window resize: `si_code` is `SI_KERNEL`) already reached the
//! child, so it is not sent twice. A signal sent by another process
//! (`kill -INT`), in a pty or not, is forwarded. Signals that arrive before
//! the child exists are held and forwarded once it does.

use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};

use crate::error::{Error, Result};

/// The signals forwarded to the child.
pub const FORWARDED: &[libc::c_int] = &[
    libc::SIGHUP,
    libc::SIGINT,
    libc::SIGQUIT,
    libc::SIGTERM,
    libc::SIGUSR1,
    libc::SIGUSR2,
    libc::SIGALRM,
    libc::SIGWINCH,
    libc::SIGCONT,
    libc::SIGTSTP,
    libc::SIGTTIN,
    libc::SIGTTOU,
    libc::SIGURG,
    libc::SIGVTALRM,
    libc::SIGPROF,
    libc::SIGIO,
    libc::SIGPWR,
];

/// The child's pid once it runs; 0 before it starts and after it is reaped.
static CHILD: AtomicI32 = AtomicI32::new(0);
/// Signals (bit N for signal N) that arrived while there was no child yet.
static HELD: AtomicU64 = AtomicU64::new(0);

/// Installs the forwarding handler for every signal of [`FORWARDED`].
pub fn install() -> Result<()> {
    for &signal in FORWARDED {
        // SAFETY: a zeroed sigaction is a valid starting value; the handler
        // only calls async-signal-safe functions (kill, getpid) and atomics.
        let result = unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut())
        };
        if result != 0 {
            return Err(Error::io(
                "signal handlers",
                &std::io::Error::last_os_error(),
            ));
        }
    }
    Ok(())
}

/// The child now runs: signals go to it, starting with those held.
pub fn attach(child: i32) {
    CHILD.store(child, Ordering::SeqCst);
    let held = HELD.swap(0, Ordering::SeqCst);
    for signal in 1..64 {
        if held & (1u64 << signal) != 0 {
            // SAFETY: kill(2) with our own child's pid and a valid signal.
            unsafe {
                libc::kill(child, signal);
            }
        }
    }
}

/// The child has exited (and is not reaped yet, so its pid cannot be
/// reused): stop forwarding.
pub fn detach() {
    CHILD.store(0, Ordering::SeqCst);
}

extern "C" fn on_signal(signal: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo_t to an SA_SIGINFO handler.
    let code = if info.is_null() {
        0
    } else {
        unsafe { (*info).si_code }
    };
    let from_terminal = code == libc::SI_KERNEL
        && matches!(
            signal,
            libc::SIGINT | libc::SIGQUIT | libc::SIGTSTP | libc::SIGWINCH
        );
    let child = CHILD.load(Ordering::SeqCst);
    if !from_terminal {
        if child > 0 {
            // SAFETY: kill(2) is async-signal-safe; the pid is our unreaped child.
            unsafe {
                libc::kill(child, signal);
            }
        } else if (0..64).contains(&signal) {
            HELD.fetch_or(1u64 << signal, Ordering::SeqCst);
        }
    }
    if matches!(signal, libc::SIGTSTP | libc::SIGTTIN | libc::SIGTTOU) {
        // Job control: the supervisor stops with its child, as it would
        // without a handler, so the shell sees the job stop.
        // SAFETY: kill(2) and getpid(2) are async-signal-safe.
        unsafe {
            libc::kill(libc::getpid(), libc::SIGSTOP);
        }
    }
}
