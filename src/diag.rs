//! Diagnostics on stderr: one line each, prefixed with the program's name,
//! scrubbed of anything that looks like a secret (Property 28).

use std::io::Write;
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

static PROGRAM: OnceLock<&'static str> = OnceLock::new();

/// Diagnostics held back while a full-screen view owns the terminal (the
/// session picker): drawn over it they would be garbled, then lost with
/// its screen.
static HELD: Mutex<Option<Vec<String>>> = Mutex::new(None);

fn held() -> MutexGuard<'static, Option<Vec<String>>> {
    HELD.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Holds every diagnostic, from any thread, until the guard is dropped,
/// then prints them in order.
pub(crate) fn hold() -> Held {
    held().get_or_insert_with(Vec::new);
    Held
}

pub(crate) struct Held;

impl Drop for Held {
    fn drop(&mut self) {
        let lines = held().take().unwrap_or_default();
        let mut stderr = std::io::stderr().lock();
        for line in lines {
            let _ = writeln!(stderr, "{line}");
        }
    }
}

/// Names the running program for diagnostic prefixes. Called once by each main.
pub(crate) fn set_program(name: &'static str) {
    let _ = PROGRAM.set(name);
}

pub fn program() -> &'static str {
    PROGRAM.get().copied().unwrap_or("ollm")
}

/// Prints `program: warning: message` on stderr.
pub fn warn(message: impl std::fmt::Display) {
    emit(&format!("warning: {message}"));
}

/// Prints `program: message` on stderr.
pub fn error(message: impl std::fmt::Display) {
    emit(&message.to_string());
}

/// Asks `question` on stderr with no newline, the answer being typed
/// after it (`Delete all 3 sessions? [y/N] `): scrubbed and escaped as
/// every diagnostic is, without the program's prefix.
pub fn ask(question: &str) {
    let question = crate::redact::scrub_message(question);
    let question = crate::output::escape_line(&question);
    let mut stderr = std::io::stderr().lock();
    let _ = write!(stderr, "{question}");
    let _ = stderr.flush();
}

fn emit(message: &str) {
    let line = crate::text::one_line(&crate::redact::scrub_message(message));
    // A diagnostic may quote user text (an id, a title, a path): never live controls.
    let line = format!("{}: {}", program(), crate::output::escape_line(&line));
    if let Some(lines) = held().as_mut() {
        lines.push(line);
        return;
    }
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_diagnostics_wait_for_the_guard_and_are_let_go_with_it() {
        let guard = hold();
        warn("drawn over a picker it would be lost");
        let waiting = held().clone().unwrap_or_default();
        assert!(
            waiting
                .iter()
                .any(|line| line.ends_with("warning: drawn over a picker it would be lost")),
            "{waiting:?}"
        );
        drop(guard);
        assert!(held().is_none(), "diagnostics still held after the guard");
    }
}
