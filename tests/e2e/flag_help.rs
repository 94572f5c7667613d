//! Every flag and argument of `ollm`, `ollm-context`, `ollm-env` and
//! `ollm-discover` (and of each subcommand) says what it is for in `--help`.

use clap::CommandFactory;

fn undocumented(command: &clap::Command, path: &str, missing: &mut Vec<String>) {
    for arg in command.get_arguments() {
        let id = arg.get_id().as_str();
        if matches!(id, "help" | "version") || arg.is_hide_set() {
            continue;
        }
        if arg.get_help().is_none() && arg.get_long_help().is_none() {
            missing.push(format!("{path} {id}"));
        }
    }
    for sub in command.get_subcommands() {
        undocumented(sub, &format!("{path} {}", sub.get_name()), missing);
    }
}

#[test]
fn every_flag_and_argument_has_help_text() {
    let mut missing = Vec::new();
    for (name, command) in [
        ("ollm", ollm::dispatch::Cli::command()),
        ("ollm-context", ollm::context::cli::Cli::command()),
        ("ollm-env", ollm::env::cli::Cli::command()),
        ("ollm-discover", ollm::discover::cli::Cli::command()),
    ] {
        let mut command = command;
        command.build();
        undocumented(&command, name, &mut missing);
    }
    assert!(missing.is_empty(), "no help text: {missing:?}");
}
