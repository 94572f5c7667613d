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

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn every_command(visit: &mut dyn FnMut(&str, &clap::Command)) {
        for (_, mut command) in all() {
            command.build();
            crate::cli::walk(&command, "", visit);
        }
    }

    #[test]
    fn every_flag_and_argument_of_every_program_has_help_text() {
        let mut missing = Vec::new();
        every_command(&mut |path, command| {
            for arg in command.get_arguments() {
                let builtin = matches!(arg.get_id().as_str(), "help" | "version");
                if !builtin && !arg.is_hide_set() && arg.get_help().is_none() {
                    missing.push(format!("{path}: {}", arg.get_id()));
                }
            }
        });
        assert!(missing.is_empty(), "arguments without help: {missing:#?}");
    }

    /// One flag contract: a short flag means the same long flag wherever it
    /// appears (`-e` was `--regex` in one program and `--exclude` in another).
    #[test]
    fn no_short_flag_has_two_meanings() {
        let mut meanings: BTreeMap<char, BTreeMap<String, Vec<String>>> = BTreeMap::new();
        every_command(&mut |path, command| {
            for arg in command.get_arguments() {
                if let (Some(short), Some(long)) = (arg.get_short(), arg.get_long()) {
                    meanings
                        .entry(short)
                        .or_default()
                        .entry(long.to_string())
                        .or_default()
                        .push(path.to_string());
                }
            }
        });
        let clashes: Vec<String> = meanings
            .iter()
            .filter(|(_, longs)| longs.len() > 1)
            .map(|(short, longs)| format!("-{short}: {longs:?}"))
            .collect();
        assert!(
            clashes.is_empty(),
            "short flags with two meanings: {clashes:#?}"
        );
    }

    /// `--format` names the output format; `--limit` counts rows. A program
    /// that needs another meaning uses another name (`--input-format`,
    /// `--token-limit`).
    #[test]
    fn format_and_limit_mean_the_same_everywhere() {
        let mut wrong = Vec::new();
        every_command(&mut |path, command| {
            for arg in command.get_arguments().filter(|a| !a.is_hide_set()) {
                let help = arg
                    .get_help()
                    .map(std::string::ToString::to_string)
                    .unwrap_or_default();
                let long = arg.get_long().unwrap_or_default();
                if long == "limit" && help.to_lowercase().contains("token") {
                    wrong.push(format!("{path} --limit: {help}"));
                }
                if long == "format" && help.to_lowercase().contains("input") {
                    wrong.push(format!("{path} --format: {help}"));
                }
            }
        });
        assert!(wrong.is_empty(), "{wrong:#?}");
    }
}
