//! Diagnostics on stderr: one line each, prefixed with the program's name,
//! scrubbed of anything that looks like a secret (Property 28).

use std::io::Write;
use std::sync::OnceLock;

static PROGRAM: OnceLock<&'static str> = OnceLock::new();

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
    let line = crate::output::escape_line(&line);
    let _ = writeln!(std::io::stderr().lock(), "{}: {line}", program());
}
