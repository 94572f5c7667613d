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

    /// Arguments of commands being rewritten on other branches this
    /// session (session and context); whoever merges them empties this
    /// list. An entry that has gained its help text fails the test, so the
    /// list only shrinks.
    const WITHOUT_HELP_YET: &[&str] = &[
        "ollm-context add: source",
        "ollm-context remove: key",
        "ollm-context clear: source",
        "ollm-context list: source",
        "ollm-context get: key",
        "ollm-session create: model",
        "ollm-session create: provider",
        "ollm-session record: id",
        "ollm-session list: limit",
        "ollm-session list: offset",
        "ollm-session list: format",
        "ollm-session search: pattern",
        "ollm-session search: ignore_case",
        "ollm-session search: limit",
        "ollm-session search: format",
        "ollm-session export: id",
        "ollm-session delete: id",
        "ollm-session cleanup: keep",
        "ollm-session clear: dry_run",
        "ollm-session branch: id",
        "ollm-session branch: title",
        "ollm-session branches: id",
        "ollm-session branches: format",
        "ollm-session snapshot create: session",
        "ollm-session snapshot create: summary",
        "ollm-session snapshot list: session",
        "ollm-session snapshot list: format",
        "ollm-session snapshot show: snapshot",
        "ollm-session snapshot show: session",
        "ollm-session snapshot restore: snapshot",
        "ollm-session snapshot restore: session",
        "ollm-session snapshot delete: snapshot",
        "ollm-session snapshot delete: session",
    ];

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
        let fixed: Vec<&&str> = WITHOUT_HELP_YET
            .iter()
            .filter(|known| !missing.iter().any(|m| m == *known))
            .collect();
        missing.retain(|m| !WITHOUT_HELP_YET.contains(&m.as_str()));
        assert!(missing.is_empty(), "arguments without help: {missing:#?}");
        assert!(fixed.is_empty(), "remove from WITHOUT_HELP_YET: {fixed:?}");
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
