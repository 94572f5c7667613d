//! Shared configuration (Requirement 8): the schema, its defaults, and the
//! layered loader with per-key origins.

mod depth;
mod load;
mod schema;
pub mod trust;

pub use load::{
    FlagOverride, Ignored, LoadOptions, Loaded, Origin, OriginRow, env_var_name, load, parse_text,
};
pub use schema::*;

use crate::error::Result;
use crate::io_util;

/// `config` subcommand options, shared by every program.
#[derive(Debug, Clone, clap::Args)]
pub struct ConfigArgs {
    /// Show every key with its value and where it came from (default, a
    /// file, an environment variable or a flag), like `git config --show-origin`.
    #[arg(long)]
    pub show_origin: bool,
}

/// The `config` subcommand of every program: loads the configuration (with
/// `--config FILE` when given) and prints it.
pub fn show(config_file: Option<std::path::PathBuf>, args: &ConfigArgs) -> Result<()> {
    let loaded = load(&LoadOptions {
        config_file,
        ..LoadOptions::default()
    })?;
    print_config(&loaded, args)
}

/// Prints the effective configuration: JSON, or with `--show-origin` one row
/// per key (JSON when piped, aligned text on a terminal).
pub fn print_config(loaded: &Loaded, args: &ConfigArgs) -> Result<()> {
    if !args.show_origin {
        return io_util::print_json(&loaded.config);
    }
    let rows = loaded.rows();
    if !io_util::stdout_is_terminal() {
        return io_util::print_json(&rows);
    }
    let width = rows.iter().map(|r| r.origin.len()).max().unwrap_or(0);
    let mut text = String::new();
    for row in rows {
        text.push_str(&format!(
            "{:<width$}  {} = {}",
            row.origin, row.key, row.value
        ));
        if let Some(why) = &row.ignored {
            text.push_str(&format!("  (ignored: {why})"));
        }
        text.push('\n');
    }
    io_util::print_text(&text)
}
