//! The git-style dispatcher: `ollm NAME ARGS…` runs `ollm-NAME ARGS…`,
//! found beside this executable first, then on `PATH` ([`super::tools`]).
//! Its own commands ([`super::command`]): `help`, `completions` and `man`
//! ([`super::help`]), `config` (shared with every program) and `trust`
//! ([`super::trust`]).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::os::unix::process::CommandExt;

use super::command::{Cli, Command, exec_tool};
use super::tools::{TOOLS, find_tool, find_tools, own_dir, resolve_alias, tool_names};
use super::{help, trust};
use crate::cli::Ctx;
use crate::error::{Error, ExitCode, Result};

/// `ollm TOOL …<TAB>`: the tool completes its own words (session ids, its
/// flags), so the request is handed to `ollm-TOOL` as if it had been typed
/// as `ollm-TOOL …`. Returns when the request is not about a tool's words.
fn hand_completion_to_tool() {
    let words: Vec<OsString> = std::env::args_os().skip(1).collect();
    // The shell calls `ollm -- WORD…`: WORD 0 is `ollm` as typed, 1 the tool.
    let [dashes, _, tool, rest @ ..] = words.as_slice() else {
        return;
    };
    let index = std::env::var("_CLAP_COMPLETE_INDEX")
        .ok()
        .and_then(|i| i.parse::<usize>().ok());
    let Some(tool) = tool.to_str() else { return };
    let own = <Cli as clap::CommandFactory>::command();
    let completing_the_tool_name = index.map_or(rest.is_empty(), |i| i < 2);
    if dashes != "--"
        || completing_the_tool_name
        || tool.starts_with('-')
        || own.get_subcommands().any(|c| c.get_name() == tool)
    {
        return;
    }
    let name = resolve_alias(tool);
    let Some(path) = find_tool(name, own_dir().as_deref(), std::env::var_os("PATH")) else {
        return;
    };
    let mut command = std::process::Command::new(&path);
    command.arg("--").arg(format!("ollm-{name}")).args(rest);
    if let Some(index) = index {
        command.env("_CLAP_COMPLETE_INDEX", (index - 1).to_string());
    }
    // Only returns if the tool could not be run: ollm then answers itself.
    let _ = command.exec();
}

/// `ollm`'s command with a subcommand per tool found, so that `ollm
/// se<TAB>` offers `session` beside `ollm`'s own commands.
fn command_with_tools() -> clap::Command {
    let summaries: BTreeMap<&str, &str> = TOOLS.iter().copied().collect();
    tool_names()
        .into_iter()
        .fold(<Cli as clap::CommandFactory>::command(), |command, name| {
            let about = summaries.get(name.as_str()).copied().unwrap_or("");
            command.subcommand(clap::Command::new(name).about(about.to_string()))
        })
}

/// The `ollm` program.
pub fn main() -> Result<ExitCode> {
    // `COMPLETE=bash ollm` prints the shell's registration for dynamic
    // completion (tool names after `ollm help`, each tool's own words
    // after `ollm TOOL`); see docs/ollm.md, "Completion".
    if std::env::var_os("COMPLETE").is_some() {
        hand_completion_to_tool();
    }
    crate::cli::complete_if_asked(command_with_tools);
    let cli: Cli = crate::cli::parse()?;
    // Made only for the dispatcher's own commands: running a tool costs nothing more.
    let ctx = || Ctx::new(cli.global.clone());
    if cli.list {
        let tools = find_tools(own_dir().as_deref(), std::env::var_os("PATH"));
        ctx().printer.list(&tools)?;
        return Ok(ExitCode::Success);
    }
    match cli.command {
        None => help::help(&[], &tool_names()),
        Some(Command::Help { names }) => help::help(&names, &tool_names()),
        Some(Command::Completions(args)) => help::completions(&args),
        Some(Command::Man(args)) => help::man(&args),
        Some(Command::Config(args)) => crate::cli::show_config(&ctx(), &args),
        Some(Command::Trust(args)) => trust::run(&ctx(), &args),
        Some(Command::External(argv)) => {
            let (name, rest) = argv
                .split_first()
                .ok_or_else(|| Error::usage("no tool named (try --help)"))?;
            let name = name
                .to_str()
                .ok_or_else(|| Error::usage("tool name is not valid UTF-8"))?;
            let mut args: Vec<OsString> = Vec::new();
            if let Some(file) = &cli.global.config {
                args.push("--config".into());
                args.push(file.clone().into_os_string());
            }
            args.extend(rest.iter().cloned());
            exec_tool(name, &args)
        }
    }
}
