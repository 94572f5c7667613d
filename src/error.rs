//! The error type every program returns, and the exit-code table they share.

use std::fmt;
use std::path::PathBuf;

/// The exit codes every ollm program uses. The table is documented in the
/// docs/conventions.md and in each program's man page; keep the three in
/// step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitCode {
    /// The command did what was asked.
    Success,
    /// A negative verdict: a loop was detected, compression is needed.
    Verdict,
    /// Bad command line or bad input data (malformed JSON, wrong types, invalid ids).
    Usage,
    /// The thing named (a session, a snapshot, a context key) does not exist.
    NotFound,
    /// Reading or writing storage failed.
    Io,
    /// The configuration is invalid (bad YAML, wrong type, unreadable file).
    Config,
    /// Stored data could not be parsed: reported, never overwritten (a
    /// writer sets a file of ours aside, a read leaves it where it is).
    Corrupt,
    /// A bug: the program panicked (reported as one line, never a backtrace).
    Internal,
    /// A program to run was found but could not be executed.
    CannotExecute,
    /// A program to run (a tool, `ollm-NAME`) was not found.
    CommandNotFound,
    /// A child process passed through its own exit code (or 128+N for signal N).
    Child(i32),
}

impl ExitCode {
    pub fn code(self) -> i32 {
        match self {
            ExitCode::Success => 0,
            ExitCode::Verdict => 1,
            ExitCode::Usage => 2,
            ExitCode::NotFound => 3,
            ExitCode::Io => 4,
            ExitCode::Config => 5,
            ExitCode::Corrupt => 6,
            ExitCode::Internal => 70,
            ExitCode::CannotExecute => 126,
            ExitCode::CommandNotFound => 127,
            ExitCode::Child(code) => code,
        }
    }
}

/// The exit-code table as (code, meaning) rows, for help texts and man pages.
pub(crate) const EXIT_CODE_TABLE: &[(&str, &str)] = &[
    ("0", "success"),
    ("1", "negative verdict (loop detected, compression needed)"),
    (
        "2",
        "usage error or invalid input (a flag value out of range too)",
    ),
    ("3", "not found (session, snapshot, key, input file)"),
    ("4", "storage or I/O failure"),
    ("5", "invalid configuration"),
    ("6", "stored data is corrupt (reported, never overwritten)"),
    ("70", "internal error (a bug: please report it)"),
    ("126", "command found but not executable"),
    ("127", "command not found"),
    (
        "128+N",
        "the child process died of signal N (ollm-env run --redact-output)",
    ),
];

/// The exit-code table as help text, written out rather than rendered from
/// [`EXIT_CODE_TABLE`]: clap builds a command's help at every start, even
/// for `--version`, and rendering it took 20,000 instructions of each run.
/// A test checks that the two agree.
pub(crate) const EXIT_CODE_HELP: &str = "Exit codes:
  0      success
  1      negative verdict (loop detected, compression needed)
  2      usage error or invalid input (a flag value out of range too)
  3      not found (session, snapshot, key, input file)
  4      storage or I/O failure
  5      invalid configuration
  6      stored data is corrupt (reported, never overwritten)
  70     internal error (a bug: please report it)
  126    command found but not executable
  127    command not found
  128+N  the child process died of signal N (ollm-env run --redact-output)
";

/// Every failure an ollm program reports. Each variant maps to one exit code,
/// and its message is a single line that never contains a secret value.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Usage(String),
    #[error("invalid input: {0}")]
    Input(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{path}: {message}")]
    Io { path: PathBuf, message: String },
    #[error("{0}")]
    Config(String),
    #[error("{0}")]
    Corrupt(String),
    #[error("{0}")]
    CannotExecute(String),
    #[error("{0}")]
    CommandNotFound(String),
    /// Not an error to report: a child's status to pass through.
    #[error("child exited with status {0}")]
    ChildExit(i32),
    /// Standard output was closed by the reader; end quietly.
    #[error("broken pipe")]
    BrokenPipe,
}

impl Error {
    pub fn exit_code(&self) -> ExitCode {
        match self {
            Error::Usage(_) | Error::Input(_) => ExitCode::Usage,
            Error::NotFound(_) => ExitCode::NotFound,
            Error::Io { .. } => ExitCode::Io,
            Error::Config(_) => ExitCode::Config,
            Error::Corrupt(_) => ExitCode::Corrupt,
            Error::CannotExecute(_) => ExitCode::CannotExecute,
            Error::CommandNotFound(_) => ExitCode::CommandNotFound,
            Error::ChildExit(code) => ExitCode::Child(*code),
            Error::BrokenPipe => ExitCode::Success,
        }
    }

    /// An I/O failure on `path`, described without the OS's debug formatting.
    pub fn io(path: impl Into<PathBuf>, err: &std::io::Error) -> Error {
        if err.kind() == std::io::ErrorKind::BrokenPipe {
            return Error::BrokenPipe;
        }
        Error::Io {
            path: path.into(),
            message: describe_io(err),
        }
    }

    pub fn usage(message: impl fmt::Display) -> Error {
        Error::Usage(message.to_string())
    }

    pub fn input(message: impl fmt::Display) -> Error {
        Error::Input(message.to_string())
    }
}

/// The OS message of an I/O error without the "(os error N)" suffix.
pub(crate) fn describe_io(err: &std::io::Error) -> String {
    let text = err.to_string();
    match text.find(" (os error") {
        Some(cut) => text[..cut].to_lowercase(),
        None => text.to_lowercase(),
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_kind_has_a_distinct_documented_code() {
        let documented: Vec<String> = EXIT_CODE_TABLE
            .iter()
            .map(|(code, _)| code.to_string())
            .collect();
        for error in [
            Error::usage("x"),
            Error::input("x"),
            Error::NotFound("x".into()),
            Error::Io {
                path: "p".into(),
                message: "m".into(),
            },
            Error::Config("x".into()),
            Error::Corrupt("x".into()),
            Error::CannotExecute("x".into()),
            Error::CommandNotFound("x".into()),
        ] {
            let code = error.exit_code().code().to_string();
            assert!(documented.contains(&code), "{error:?}");
        }
    }

    #[test]
    fn the_help_text_is_the_table_rendered_in_two_columns() {
        let mut rendered = String::from("Exit codes:\n");
        for (code, meaning) in EXIT_CODE_TABLE {
            rendered.push_str(&format!("  {code:<6} {meaning}\n"));
        }
        assert_eq!(EXIT_CODE_HELP, rendered);
    }

    #[test]
    fn the_help_table_shows_each_code_once_in_its_own_column() {
        let help = EXIT_CODE_HELP;
        assert!(
            help.contains("\n  128+N  the child process died of signal N"),
            "{help}"
        );
        assert!(!help.contains("+N:"), "{help}");
    }

    #[test]
    fn io_errors_drop_the_os_error_number() {
        let err = std::io::Error::from_raw_os_error(libc::ENOENT);
        assert_eq!(describe_io(&err), "no such file or directory");
    }

    #[test]
    fn broken_pipe_is_a_quiet_success() {
        let err = std::io::Error::from(std::io::ErrorKind::BrokenPipe);
        assert_eq!(Error::io("stdout", &err).exit_code(), ExitCode::Success);
    }
}
