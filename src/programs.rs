//! Every program of the toolkit with its command-line definition, for the
//! generated completions and man pages. Add a line when adding a program.

use clap::CommandFactory;

/// (binary name, its clap command).
pub fn all() -> Vec<(&'static str, clap::Command)> {
    vec![
        ("ollm", crate::dispatch::Cli::command()),
        ("ollm-env", crate::env::cli::Cli::command()),
        ("ollm-loopcheck", crate::loopcheck::cli::Cli::command()),
        ("ollm-context", crate::context::cli::Cli::command()),
        ("ollm-compress", crate::compress::cli::Cli::command()),
        ("ollm-session", crate::session::cli::Cli::command()),
        ("ollm-discover", crate::discover::cli::Cli::command()),
    ]
}
