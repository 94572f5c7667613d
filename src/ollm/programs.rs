//! Every program of the toolkit with its command-line definition, for the
//! generated completions and man pages. Add a line when adding a program.

use clap::CommandFactory;

/// (binary name, its clap command).
pub fn all() -> Vec<(&'static str, clap::Command)> {
    vec![
        ("ollm", super::command::Cli::command()),
        ("ollm-env", crate::env::cli::Cli::command()),
        ("ollm-loopcheck", crate::loopcheck::cli::Cli::command()),
        ("ollm-context", crate::context::cli::Cli::command()),
        ("ollm-compress", crate::compress::cli::Cli::command()),
        ("ollm-session", crate::session::cli::Cli::command()),
        ("ollm-discover", crate::discover::cli::Cli::command()),
        ("ollm-mcp", crate::mcp::cli::Cli::command()),
        ("ollm-checkpoint", crate::checkpoint::cli::Cli::command()),
    ]
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::ffi::OsString;

    use super::*;

    fn every_command(visit: &mut dyn FnMut(&str, &clap::Command)) {
        for (_, mut command) in all() {
            command.build();
            crate::command_tree::walk(&command, "", visit);
        }
    }

    /// Every program's table of flags that set configuration keys.
    fn flag_tables() -> [(&'static str, &'static [crate::config::FlagKey]); 5] {
        [
            ("ollm-env", crate::env::cli::FLAGS),
            ("ollm-loopcheck", crate::loopcheck::cli::FLAGS),
            ("ollm-compress", crate::compress::cli::FLAGS),
            ("ollm-session", crate::session::cli::FLAGS),
            ("ollm-discover", crate::discover::cli::FLAGS),
        ]
    }

    #[test]
    fn every_programs_flags_set_keys_of_the_schema() {
        let commands: BTreeMap<&str, clap::Command> = all().into_iter().collect();
        for (program, table) in flag_tables() {
            let wrong = crate::config::check_table(table, &commands[program]);
            assert!(wrong.is_empty(), "{program}: {wrong:#?}");
        }
    }

    /// A program that declares a `FLAGS` table has it checked above.
    #[test]
    fn every_flags_table_is_checked() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let checked: Vec<&str> = flag_tables().iter().map(|(name, _)| *name).collect();
        for (program, _) in all() {
            let Some(folder) = program.strip_prefix("ollm-") else {
                continue;
            };
            let cli = src.join(folder).join("cli");
            let text = std::fs::read_to_string(cli.join("mod.rs"))
                .or_else(|_| std::fs::read_to_string(cli.with_extension("rs")))
                .unwrap();
            assert_eq!(
                text.contains("const FLAGS: &[FlagKey]"),
                checked.contains(&program),
                "{program}"
            );
        }
    }

    #[test]
    fn ollm_help_names_every_tool_and_only_those() {
        let programs: Vec<&str> = all()
            .iter()
            .filter_map(|(name, _)| name.strip_prefix("ollm-"))
            .collect();
        let mut listed: Vec<&str> = crate::ollm::tools::TOOLS
            .iter()
            .map(|(name, _)| *name)
            .collect();
        let mut expected = programs.clone();
        listed.sort_unstable();
        expected.sort_unstable();
        assert_eq!(listed, expected);
        let help = crate::ollm::command::Cli::command()
            .render_long_help()
            .to_string();
        for name in programs {
            assert!(
                help.contains(&format!("\n  {name} ")),
                "{name} missing from:\n{help}"
            );
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

    /// What clap makes of `args` with `command`: the parsed value, or the
    /// error's kind and text as the program prints it.
    fn outcome<C: clap::Parser + std::fmt::Debug>(
        mut command: clap::Command,
        args: &[OsString],
    ) -> String {
        let result = command.try_get_matches_from_mut(args);
        let outcome = match result.and_then(|matches| C::from_arg_matches(&matches)) {
            Ok(parsed) => format!("parsed {parsed:?}"),
            Err(err) => format!(
                "{:?}\n{}",
                err.kind(),
                crate::cli::with_verbatim_examples(&err.render().to_string(), &command)
            ),
        };
        std::mem::forget(command);
        outcome
    }

    /// For every subcommand (nested ones too) of `C`: the tree
    /// [`crate::cli::command_for`] builds for its command line holds that
    /// subcommand alone, and its help (`--help`, `-h`), its usage errors and
    /// what it parses are those of the whole tree. Returns how many command
    /// lines were compared.
    fn pruned_tree_behaves_as_the_whole<C: clap::Parser + std::fmt::Debug>() -> usize {
        let mut whole = C::command();
        whole.build();
        let mut paths = Vec::new();
        crate::command_tree::walk(&whole, "", &mut |path, _| paths.push(path.to_string()));
        let tails: &[&[&str]] = &[
            &["--help"],
            &["-h"],
            &[],
            &["--no-such-flag"],
            &["--hepl"],
            &["extra", "words", "--"],
            &["--config"],
        ];
        let mut compared = 0;
        for path in &paths[1..] {
            for tail in tails {
                let args: Vec<OsString> = path
                    .split(' ')
                    .chain(tail.iter().copied())
                    .map(OsString::from)
                    .collect();
                let (pruned, is_pruned) = crate::cli::command_for::<C>(&args);
                assert!(is_pruned, "{args:?}: the whole tree was built");
                let subcommands: Vec<&str> = pruned
                    .get_subcommands()
                    .map(clap::Command::get_name)
                    .collect();
                assert_eq!(subcommands, [args[1].to_str().unwrap()], "{args:?}");
                assert_eq!(
                    outcome::<C>(pruned, &args),
                    outcome::<C>(C::command(), &args),
                    "{args:?}"
                );
                compared += 1;
            }
        }
        compared
    }

    #[test]
    fn each_subcommand_built_alone_helps_parses_and_fails_as_in_the_whole_tree() {
        let compared = [
            pruned_tree_behaves_as_the_whole::<crate::env::cli::Cli>(),
            pruned_tree_behaves_as_the_whole::<crate::loopcheck::cli::Cli>(),
            pruned_tree_behaves_as_the_whole::<crate::context::cli::Cli>(),
            pruned_tree_behaves_as_the_whole::<crate::compress::cli::Cli>(),
            pruned_tree_behaves_as_the_whole::<crate::session::cli::Cli>(),
            pruned_tree_behaves_as_the_whole::<crate::discover::cli::Cli>(),
            pruned_tree_behaves_as_the_whole::<crate::mcp::cli::Cli>(),
            pruned_tree_behaves_as_the_whole::<crate::checkpoint::cli::Cli>(),
        ];
        // Every program but the dispatcher (whose subcommands are few and
        // whose tree is never pruned) is covered: 7 command lines each.
        assert_eq!(compared.len(), all().len() - 1);
        assert!(
            compared.iter().all(|&n| n > 0 && n % 7 == 0),
            "{compared:?}"
        );
    }

    /// `C --version` and `C -V` are answered by the root alone (no
    /// subcommand built) exactly as by the whole tree.
    fn version_from_the_root_alone<C: clap::Parser + std::fmt::Debug>() {
        let name = C::command().get_name().to_string();
        for flag in ["--version", "-V"] {
            let args = [OsString::from(&name), OsString::from(flag)];
            let (pruned, is_pruned) = crate::cli::command_for::<C>(&args);
            assert!(is_pruned, "{args:?}: the whole tree was built");
            assert_eq!(pruned.get_subcommands().count(), 0, "{args:?}");
            let answer = outcome::<C>(pruned, &args);
            assert!(answer.starts_with("DisplayVersion\n"), "{answer}");
            assert_eq!(answer, outcome::<C>(C::command(), &args), "{args:?}");
        }
    }

    #[test]
    fn version_is_answered_without_building_any_subcommand() {
        version_from_the_root_alone::<crate::env::cli::Cli>();
        version_from_the_root_alone::<crate::loopcheck::cli::Cli>();
        version_from_the_root_alone::<crate::context::cli::Cli>();
        version_from_the_root_alone::<crate::compress::cli::Cli>();
        version_from_the_root_alone::<crate::session::cli::Cli>();
        version_from_the_root_alone::<crate::discover::cli::Cli>();
        version_from_the_root_alone::<crate::mcp::cli::Cli>();
        version_from_the_root_alone::<crate::checkpoint::cli::Cli>();
    }

    #[test]
    fn aliases_misspellings_and_leading_options_get_the_whole_tree() {
        use crate::session::cli::Cli;
        let whole = Cli::command().get_subcommands().count();
        for args in [
            &["ollm-session", "snapshots", "list"][..],
            &["ollm-session", "recrod"],
            &["ollm-session", "help", "record"],
            &["ollm-session", "--data-dir", "d", "record"],
            &["ollm-session", "--version", "--config", "c"],
            &["ollm-session"],
        ] {
            let args: Vec<OsString> = args.iter().map(OsString::from).collect();
            let (command, is_pruned) = crate::cli::command_for::<Cli>(&args);
            assert!(!is_pruned, "{args:?}");
            assert_eq!(command.get_subcommands().count(), whole, "{args:?}");
        }
        let args: Vec<OsString> = ["ollm-session", "--config=c.yaml", "record"]
            .iter()
            .map(OsString::from)
            .collect();
        assert!(crate::cli::command_for::<Cli>(&args).1);
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
