//! Shared configuration (Requirement 8): the schema, its defaults, and the
//! layered loader with per-key origins.

mod depth;
pub mod flags;
mod key_lines;
pub mod keys;
mod load;
pub mod notices;
mod probe;
mod schema;
mod show_origin;
pub mod store_kinds;
pub mod tree;
pub mod trust;

pub use flags::{FlagKey, check_table, overrides};
pub use keys::env_var_name;
pub use load::{FlagOverride, Ignored, LoadOptions, Loaded, Origin, load, parse_text};
pub use schema::*;
pub use show_origin::OriginRow;

use serde_json::Value;

use crate::error::Result;
use crate::output::Printer;
use crate::paths;

/// `config` subcommand options, shared by every program.
#[derive(Debug, Clone, clap::Args)]
pub struct ConfigArgs {
    /// Show every key with its value and where it came from (default, a
    /// file, an environment variable or a flag), like `git config --show-origin`.
    #[arg(long)]
    pub show_origin: bool,
}

/// The `config` subcommand of every program: loads the configuration (with
/// `--config FILE` when given) and prints it. Commands with a program
/// context use `cli::show_config`, which loads it once.
pub fn show(config_file: Option<std::path::PathBuf>, args: &ConfigArgs) -> Result<()> {
    let loaded = load(&LoadOptions {
        config_file,
        ..LoadOptions::default()
    })?;
    print_config(&loaded, args)
}

/// Prints the effective configuration: pretty JSON, or with `--show-origin`
/// one row per key (a JSON array when piped; at a terminal, grouped by
/// where the values came from, see [`show_origin`]).
pub fn print_config(loaded: &Loaded, args: &ConfigArgs) -> Result<()> {
    print_config_with(loaded, args, &Printer::detect())
}

/// [`print_config`] through a program's printer.
pub fn print_config_with(loaded: &Loaded, args: &ConfigArgs, printer: &Printer) -> Result<()> {
    let effective = in_force(&loaded.config);
    if !args.show_origin {
        return printer.object(&effective);
    }
    let mut rows = loaded.rows();
    for row in &mut rows {
        // An ignored row shows what the workspace asked for (a password in
        // a URL hidden, as in force); the others what is in force.
        if row.ignored.is_some() {
            if let Value::String(text) = &row.value {
                row.value = Value::String(crate::redact::redact_values(text));
            }
            continue;
        }
        let pointer = format!("/{}", row.key.replace('.', "/"));
        if let Some(value) = effective.pointer(&pointer) {
            row.value = value.clone();
        }
    }
    if printer.is_terminal() {
        let text = loaded.render_origins(&rows, printer.width().unwrap_or(80));
        return crate::output::stdout::write_stdout(&[text.as_bytes()]);
    }
    crate::output::stdout::print_json_array(&rows)
}

/// The file store's directory: `services.session.dataDir`, except that an
/// unconfigured one stays `$OLLM_HOME/session-data` where that directory
/// exists (the default of earlier versions), so an upgrade hides no
/// session; `ollm session copy --from` it moves them into the OLLM CLI's
/// directory (docs/ollm-cli.md, "Upgrading").
pub fn session_data_dir(config: &Config) -> std::path::PathBuf {
    use schema::{DEFAULT_DATA_DIR, LEGACY_DATA_DIR};
    let configured = &config.services.session.data_dir;
    if configured == DEFAULT_DATA_DIR {
        let legacy = paths::expand(LEGACY_DATA_DIR);
        if crate::fs::is_real_dir(&legacy) {
            return legacy;
        }
    }
    paths::expand(configured)
}

/// The configuration as the programs apply it: `~` and `$OLLM_HOME` in
/// paths expanded, and the environment lists with the built-in entries that
/// extend them (the spec's defaults and the extended deny list, unless
/// `replaceDefaults`), so `config` shows what is in force, not what was written.
pub fn in_force(config: &Config) -> Value {
    let mut value = serde_json::to_value(config).unwrap_or(Value::Null);
    if let Some(slot) = value.pointer_mut("/services/session/dataDir") {
        *slot = Value::String(session_data_dir(config).display().to_string());
    }
    for pointer in ["/snapshots/dir"] {
        if let Some(slot) = value.pointer_mut(pointer)
            && let Some(path) = slot.as_str()
        {
            *slot = Value::String(paths::expand(path).display().to_string());
        }
    }
    // A store URL's password is never shown.
    if let Some(slot) = value.pointer_mut("/services/session/store")
        && let Some(url) = slot.as_str()
    {
        *slot = Value::String(crate::redact::redact_values(url));
    }
    let env = &config.services.environment;
    let builtin = |lists: &[&[&str]]| -> Vec<String> {
        if env.replace_defaults {
            return Vec::new();
        }
        lists
            .iter()
            .flat_map(|l| l.iter().map(std::string::ToString::to_string))
            .collect()
    };
    let allow = with_builtin(builtin(&[DEFAULT_ALLOW]), &env.allow_list);
    let deny = with_builtin(
        builtin(&[DEFAULT_DENY, EXTENDED_DENY, CONNECTION_DENY]),
        &env.deny_patterns,
    );
    if let Some(slot) = value.pointer_mut("/services/environment/allowList") {
        *slot = allow.into();
    }
    if let Some(slot) = value.pointer_mut("/services/environment/denyPatterns") {
        *slot = deny.into();
    }
    value
}

/// `builtin` then `configured`, each name once (compared case-insensitively,
/// as the policy matches names).
fn with_builtin(mut builtin: Vec<String>, configured: &[String]) -> Vec<String> {
    builtin.extend(configured.iter().cloned());
    let mut seen = std::collections::HashSet::new();
    builtin.retain(|item| seen.insert(item.to_ascii_uppercase()));
    builtin
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_in_force_expands_paths_and_shows_the_builtin_lists() {
        let mut config = Config::default();
        config
            .services
            .environment
            .deny_patterns
            .push("MY_*".into());
        let shown = in_force(&config);
        let data_dir = shown["services"]["session"]["dataDir"].as_str().unwrap();
        assert!(!data_dir.contains("$OLLM_HOME"), "{data_dir}");
        assert!(data_dir.ends_with("sessions"), "{data_dir}");
        let deny = &shown["services"]["environment"]["denyPatterns"];
        let deny: Vec<&str> = deny
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|v| v.as_str())
            .collect();
        for pattern in DEFAULT_DENY
            .iter()
            .chain(EXTENDED_DENY)
            .chain(CONNECTION_DENY)
        {
            assert_eq!(
                deny.iter().filter(|d| *d == pattern).count(),
                1,
                "{pattern}"
            );
        }
        assert_eq!(deny.last(), Some(&"MY_*"));
        let allow = &shown["services"]["environment"]["allowList"];
        assert_eq!(allow.as_array().unwrap().len(), DEFAULT_ALLOW.len());
    }

    #[test]
    fn replace_defaults_shows_only_the_configured_lists() {
        let mut config = Config::default();
        config.services.environment.replace_defaults = true;
        config.services.environment.deny_patterns = vec!["ONLY_*".into()];
        let shown = in_force(&config);
        assert_eq!(
            shown["services"]["environment"]["denyPatterns"],
            serde_json::json!(["ONLY_*"])
        );
    }
}
