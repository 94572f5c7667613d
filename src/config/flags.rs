//! Command-line flags that set configuration keys, declared once per
//! program as a table ([`FlagKey`]) instead of one `if let` per flag: every
//! program's flags that set a key are in its table, and nowhere else. The
//! value a flag was given is read from clap's matches and typed by the
//! schema, as an `OLLM_*` variable's is.

use clap::ArgMatches;
use clap::parser::ValueSource;
use serde_json::Value;

use super::Config;
use super::load::{FlagOverride, parse_env_value};
use crate::error::{Error, Result};

/// What a flag sets its key to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sets {
    /// The flag's value, typed as the key is.
    Value,
    /// A fixed value for a switch (`--no-keep-user-messages` sets false).
    Bool(bool),
    /// The whole number clap's value parser made of the flag's value, for
    /// a flag that takes words too (`--max-depth unlimited`).
    Parsed,
}

/// One flag and the configuration key it overrides.
#[derive(Debug, Clone, Copy)]
pub struct FlagKey {
    /// The clap argument's id (its field name).
    pub id: &'static str,
    /// The flag as typed, shown as the value's origin (`flag:--token-limit`).
    pub flag: &'static str,
    /// The dotted key it sets.
    pub key: &'static str,
    pub sets: Sets,
}

impl FlagKey {
    pub const fn value(id: &'static str, flag: &'static str, key: &'static str) -> FlagKey {
        FlagKey {
            id,
            flag,
            key,
            sets: Sets::Value,
        }
    }

    pub const fn parsed(id: &'static str, flag: &'static str, key: &'static str) -> FlagKey {
        FlagKey {
            id,
            flag,
            key,
            sets: Sets::Parsed,
        }
    }

    pub const fn switch(
        id: &'static str,
        flag: &'static str,
        key: &'static str,
        value: bool,
    ) -> FlagKey {
        FlagKey {
            id,
            flag,
            key,
            sets: Sets::Bool(value),
        }
    }
}

/// The overrides of the flags of `table` given on the command line, read
/// from the matches of the subcommand that runs (the deepest one `matches`
/// holds, where clap puts the global flags too); flags that subcommand
/// lacks are skipped.
pub fn overrides(table: &[FlagKey], matches: &ArgMatches) -> Result<Vec<FlagOverride>> {
    let mut matches = matches;
    while let Some((_, sub)) = matches.subcommand() {
        matches = sub;
    }
    let mut flags = Vec::new();
    for entry in table {
        if !matches.ids().any(|id| id.as_str() == entry.id)
            || matches.value_source(entry.id) != Some(ValueSource::CommandLine)
        {
            continue;
        }
        let value = match entry.sets {
            Sets::Bool(value) => Value::Bool(value),
            Sets::Parsed => matches
                .try_get_one::<u64>(entry.id)
                .ok()
                .flatten()
                .map(|&n| Value::from(n))
                .ok_or_else(|| Error::usage(format!("{}: not a whole number", entry.flag)))?,
            Sets::Value => {
                let raw = matches
                    .get_raw(entry.id)
                    .and_then(|mut values| values.next_back())
                    .and_then(|raw| raw.to_str())
                    .ok_or_else(|| Error::usage(format!("{}: not valid UTF-8", entry.flag)))?;
                // The key's default types the value.
                let default =
                    super::probe::value_at(&Config::default(), entry.key).unwrap_or(Value::Null);
                if default.is_number() && super::load::is_non_finite(raw) {
                    return Err(Error::usage(format!(
                        "{}: {} (try --help)",
                        entry.flag,
                        super::load::non_finite_message(raw)
                    )));
                }
                parse_env_value(raw, &default).ok_or_else(|| {
                    Error::usage(format!(
                        "{}: invalid value '{raw}' (try --help)",
                        entry.flag
                    ))
                })?
            }
        };
        flags.push(FlagOverride {
            key: entry.key,
            value,
            flag: entry.flag,
        });
    }
    Ok(flags)
}

/// Checks a program's table against the schema and its command line: every
/// key is a leaf of the schema, every id an argument whose long flag is the
/// one named, in every subcommand that has it (another subcommand's
/// argument of the same id would set the key too). Returns what is wrong,
/// for the programs' unit tests.
pub fn check_table(table: &[FlagKey], command: &clap::Command) -> Vec<String> {
    let defaults = serde_json::to_value(Config::default()).unwrap_or(Value::Null);
    let mut wrong = Vec::new();
    let mut args = Vec::new();
    crate::command_tree::walk(command, "", &mut |_, sub| {
        args.extend(sub.get_arguments().cloned());
    });
    for entry in table {
        match super::tree::get(&defaults, entry.key) {
            Some(Value::Object(_)) | None => {
                wrong.push(format!(
                    "{}: `{}` is not a key of the schema",
                    entry.flag, entry.key
                ));
            }
            Some(leaf) => match entry.sets {
                Sets::Bool(_) if !leaf.is_boolean() => {
                    wrong.push(format!("{}: `{}` is not a switch", entry.flag, entry.key));
                }
                Sets::Parsed if !leaf.is_u64() => {
                    wrong.push(format!(
                        "{}: `{}` is not a whole number",
                        entry.flag, entry.key
                    ));
                }
                _ => {}
            },
        }
        let long = entry.flag.trim_start_matches("--");
        let same_id: Vec<&clap::Arg> = args
            .iter()
            .filter(|a| a.get_id().as_str() == entry.id)
            .collect();
        if same_id.is_empty() || same_id.iter().any(|a| a.get_long() != Some(long)) {
            wrong.push(format!(
                "{}: no argument `{}` with that flag, or one with another",
                entry.flag, entry.id
            ));
        }
    }
    wrong
}
