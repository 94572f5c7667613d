//! The git-style dispatcher: `ollm NAME ARGS…` runs `ollm-NAME ARGS…`,
//! found beside this executable first, then on `PATH`. Its own commands:
//! `help`, `completions` and `man` ([`super::help`]), `config` (shared with
//! every program) and `trust` ([`super::trust`]).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand};

use super::{help, trust};
use crate::cli::{Ctx, GlobalOpts, footer};
use crate::config::ConfigArgs;
use crate::error::{Error, ExitCode, Result};
use crate::output::Tabular;

const EXAMPLES: &str = "  ollm env run -- env               # runs ollm-env run -- env
  ollm help env                     # ollm-env --help
  ollm --list                       # the tools found: a table, or JSON when piped
  ollm config --show-origin";

/// The toolkit's programs as `ollm --help` names them, each in a line that
/// fits 80 columns (`programs::tests` checks the list is whole).
pub const TOOLS: &[(&str, &str)] = &[
    ("session", "durable, searchable, branchable session history"),
    (
        "compress",
        "count tokens and compress a conversation to fit",
    ),
    (
        "loopcheck",
        "stop an agent's runaway tool loops and repeated output",
    ),
    (
        "context",
        "prioritized context entries for the system prompt",
    ),
    (
        "discover",
        "list and watch a project's files as git sees them",
    ),
    (
        "env",
        "run a tool with secrets stripped from its environment",
    ),
    ("mcp", "serve sessions, context and files over MCP"),
];

fn help_footer() -> String {
    let tools: String = TOOLS
        .iter()
        .map(|(name, summary)| format!("  {name:<11}{summary}\n"))
        .collect();
    format!("Tools:\n{tools}\n{}", footer(EXAMPLES))
}

/// Names that stand for another tool, so the command lines of the sessions
/// document (`ollm sessions list`) work as written.
pub const ALIASES: &[(&str, &str)] = &[("sessions", "session")];

/// The ollm tools dispatcher: `ollm NAME ARGS…` runs `ollm-NAME ARGS…`.
///
/// Tools are looked up beside this executable first, then on PATH, so a
/// third-party `ollm-foo` on PATH runs as `ollm foo`. Standard input, output,
/// error and the exit code pass straight through.
#[derive(Debug, Parser)]
#[command(
    name = "ollm",
    version,
    after_help = help_footer(),
    allow_external_subcommands = true,
    disable_help_subcommand = true
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalOpts,
    /// List the tools found (name and path): a table at a terminal, JSON when piped.
    #[arg(long)]
    pub list: bool,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Show help for ollm, for one of its own commands (`ollm help config`),
    /// or for a tool and its subcommands (`ollm help session list`).
    #[command(after_help = footer("  ollm help\n  ollm help env\n  ollm help session list\n  ollm help config"))]
    Help {
        /// The tool or command, then its subcommands.
        #[arg(
            value_name = "NAME",
            add = clap_complete::engine::ArgValueCandidates::new(help_candidates)
        )]
        names: Vec<String>,
    },
    /// Print a shell completion script (bash, zsh, fish, powershell,
    /// elvish), for installing when ollm came from `cargo install`.
    #[command(after_help = footer(help::COMPLETIONS_EXAMPLES))]
    Completions(help::CompletionsArgs),
    /// Print a man page: shown by `man` at a terminal, roff when piped (for
    /// installing).
    #[command(after_help = footer(help::MAN_EXAMPLES))]
    Man(help::ManArgs),
    /// Print the effective shared configuration, or every key with its origin.
    #[command(after_help = footer("  ollm config\n  ollm config --show-origin"))]
    Config(ConfigArgs),
    /// Trust a workspace's .ollm/ as it is now (its configuration may then
    /// weaken safety, its context entries reach the prompt), list trusted
    /// workspaces, or revoke trust. An edit of .ollm/config.yaml revokes it.
    #[command(after_help = footer(trust::EXAMPLES))]
    Trust(trust::TrustArgs),
    #[command(external_subcommand)]
    External(Vec<OsString>),
}

/// A tool the dispatcher can run.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Tool {
    pub name: String,
    pub path: PathBuf,
}

impl Tabular for Tool {
    fn headers() -> &'static [&'static str] {
        &["TOOL", "PATH"]
    }

    fn cells(&self) -> Vec<String> {
        vec![self.name.clone(), self.path.display().to_string()]
    }
}

/// Every `ollm-*` executable beside `own_dir` and on `path_var`, first found
/// wins, sorted by name.
pub fn find_tools(own_dir: Option<&Path>, path_var: Option<OsString>) -> Vec<Tool> {
    let mut found: BTreeMap<String, PathBuf> = BTreeMap::new();
    let dirs = own_dir
        .map(Path::to_path_buf)
        .into_iter()
        .chain(path_var.iter().flat_map(std::env::split_paths));
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let file_name = entry.file_name();
            let Some(name) = file_name.to_str().and_then(|n| n.strip_prefix("ollm-")) else {
                continue;
            };
            if name.is_empty() || name.contains('.') || found.contains_key(name) {
                continue;
            }
            if is_executable(&entry.path()) {
                found.insert(name.to_string(), entry.path());
            }
        }
    }
    found
        .into_iter()
        .map(|(name, path)| Tool { name, path })
        .collect()
}

/// The path of `ollm-NAME`, beside `own_dir` first, then on `path_var`.
pub fn find_tool(
    name: &str,
    own_dir: Option<&Path>,
    path_var: Option<OsString>,
) -> Option<PathBuf> {
    let file = format!("ollm-{name}");
    own_dir
        .map(Path::to_path_buf)
        .into_iter()
        .chain(path_var.iter().flat_map(std::env::split_paths))
        .map(|dir| dir.join(&file))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

pub use crate::suggest::closest as suggest;

fn own_dir() -> Option<PathBuf> {
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf))
}

fn resolve_alias(name: &str) -> &str {
    ALIASES
        .iter()
        .find(|(alias, _)| *alias == name)
        .map_or(name, |(_, target)| *target)
}

/// What `ollm help <TAB>` offers: the tools found and ollm's own commands.
fn help_candidates() -> Vec<clap_complete::engine::CompletionCandidate> {
    let own = <Cli as clap::CommandFactory>::command();
    let mut names = tool_names();
    names.extend(own.get_subcommands().map(|s| s.get_name().to_string()));
    names.sort();
    names.dedup();
    names
        .into_iter()
        .map(clap_complete::engine::CompletionCandidate::new)
        .collect()
}

fn tool_names() -> Vec<String> {
    let tools = find_tools(own_dir().as_deref(), std::env::var_os("PATH"));
    tools.into_iter().map(|t| t.name).collect()
}

/// Replaces this process with `ollm-NAME ARGS…`; returns only on failure.
pub fn exec_tool(name: &str, args: &[OsString]) -> Result<ExitCode> {
    let name = resolve_alias(name);
    let dir = own_dir();
    let Some(path) = find_tool(name, dir.as_deref(), std::env::var_os("PATH")) else {
        let tools = find_tools(dir.as_deref(), std::env::var_os("PATH"));
        let own = <Cli as clap::CommandFactory>::command();
        let known: Vec<&str> = tools
            .iter()
            .map(|t| t.name.as_str())
            .chain(ALIASES.iter().map(|(alias, _)| *alias))
            .chain(own.get_subcommands().map(clap::Command::get_name))
            .collect();
        let hint = match suggest(name, known) {
            Some(close) => format!("; did you mean '{close}'?"),
            None => " (see 'ollm --list')".into(),
        };
        return Err(Error::CommandNotFound(format!(
            "'{name}' is not an ollm tool{hint}"
        )));
    };
    let err = std::process::Command::new(&path).args(args).exec();
    let shown = path.display();
    Err(match err.kind() {
        std::io::ErrorKind::NotFound => Error::CommandNotFound(format!("{shown}: not found")),
        _ => Error::CannotExecute(format!(
            "{shown}: cannot execute: {}",
            crate::error::describe_io(&err)
        )),
    })
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sessions_alias_names_the_session_tool() {
        assert_eq!(resolve_alias("sessions"), "session");
        assert_eq!(resolve_alias("env"), "env");
    }

    #[test]
    fn tools_are_found_beside_first_then_on_path() {
        let own = tempfile::tempdir().unwrap();
        let on_path = tempfile::tempdir().unwrap();
        for (dir, name) in [
            (own.path(), "ollm-a"),
            (on_path.path(), "ollm-a"),
            (on_path.path(), "ollm-b"),
            (on_path.path(), "ollm-notexec"),
        ] {
            let file = dir.join(name);
            std::fs::write(&file, "#!/bin/sh\n").unwrap();
            let mode = if name.ends_with("notexec") {
                0o644
            } else {
                0o755
            };
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
        }
        let path_var = Some(on_path.path().as_os_str().to_owned());
        let tools = find_tools(Some(own.path()), path_var.clone());
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(tools[0].path, own.path().join("ollm-a"));
        assert_eq!(
            find_tool("b", Some(own.path()), path_var),
            Some(on_path.path().join("ollm-b"))
        );
    }
}
