//! `ollm`'s command line: its definition (parsed by the dispatcher, shown
//! by `ollm help`, read by the completions and man pages), and running the
//! tool a command names, with the names it knows when there is none.

use std::ffi::OsString;
use std::os::unix::process::CommandExt;

use clap::{Args, Parser, Subcommand};

use super::tools::{ALIASES, TOOLS, find_tool, find_tools, own_dir, resolve_alias, tool_names};
use super::trust;
use crate::cli::{GlobalOpts, footer};
use crate::config::ConfigArgs;
use crate::error::{Error, ExitCode, Result};

const EXAMPLES: &str = "  ollm env run -- env               # runs ollm-env run -- env
  ollm help env                     # ollm-env --help
  ollm --list                       # the tools found: a table, or JSON when piped
  ollm config --show-origin";

fn help_footer() -> String {
    let tools: String = TOOLS
        .iter()
        .map(|(name, summary)| format!("  {name:<11}{summary}\n"))
        .collect();
    format!("Tools:\n{tools}\n{}", footer(EXAMPLES))
}

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
    #[command(after_help = footer(COMPLETIONS_EXAMPLES))]
    Completions(CompletionsArgs),
    /// Print a man page: shown by `man` at a terminal, roff when piped (for
    /// installing).
    #[command(after_help = footer(MAN_EXAMPLES))]
    Man(ManArgs),
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

pub const COMPLETIONS_EXAMPLES: &str =
    "  ollm completions bash > ~/.local/share/bash-completion/completions/ollm
  ollm completions zsh > ~/.zfunc/_ollm        # a directory on your $fpath
  ollm completions fish > ~/.config/fish/completions/ollm.fish
  ollm completions bash ollm-session > ~/.local/share/bash-completion/completions/ollm-session";

pub const MAN_EXAMPLES: &str = "  ollm man session-list             # at a terminal, shown by man
  ollm man --list
  mkdir -p ~/.cargo/share/man/man1 && for p in $(ollm man --list); do ollm man \"$p\" > ~/.cargo/share/man/man1/\"$p\".1; done";

/// `ollm completions SHELL [PROGRAM]`.
#[derive(Debug, Clone, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
    /// The program whose completions to print (`ollm` completes every tool
    /// as `ollm NAME` too).
    #[arg(value_name = "PROGRAM", default_value = "ollm")]
    pub program: String,
}

/// `ollm man [PAGE]`.
#[derive(Debug, Clone, Args)]
pub struct ManArgs {
    /// The page: a program (`ollm-session`), a subcommand's page
    /// (`ollm-session-list`), or either without its `ollm-` prefix.
    #[arg(value_name = "PAGE", default_value = "ollm", conflicts_with = "list")]
    pub page: String,
    /// Print the name of every page, one a line.
    #[arg(long)]
    pub list: bool,
}

pub use crate::suggest::closest as suggest;

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
