//! The `ollm-context` command line: the program's options here, one file
//! per subcommand with its arguments and `run`.

mod add;
mod clear;
mod get;
mod list;
mod prompt;
mod remove;

use std::path::PathBuf;

use clap::{Args, Parser};

use super::ops::{self, Located};
use crate::cli::{Ctx, GlobalOpts, footer};
use crate::config::ConfigArgs;
use crate::error::{Error, ExitCode, Result};

const EXAMPLES: &str = r#"  ollm-context add project-rules "Use tabs, never spaces." --priority 80
  git status --short | ollm-context add git-status - --source hook --ttl 10m
  ollm-context add spec --from-file docs/spec.md --priority 60
  ollm-context prompt                      # markdown sections, highest priority first
  ollm-context --session 3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1b list
  ollm-context clear --source hook"#;

/// Keep prioritized context entries and render them as system-prompt additions.
///
/// The store is the workspace's .ollm/context.json (the nearest .ollm/ above
/// the current directory; when there is none, a new .ollm/ at the top of the
/// git work tree, or here outside one), or with --session ID the session's
/// $OLLM_HOME/context/ID.json, or the file named by --file. Writers take an
/// exclusive lock and replace the file atomically, so hooks and the user can
/// change it at the same time. Entries whose TTL has passed drop out of
/// list, get and prompt. A workspace's entries reach `prompt` only once the
/// workspace is trusted (`ollm trust`); a .ollm/ that `add` creates is
/// trusted as it is created.
///
/// At a terminal `list` is a table; piped, every command prints JSON. `add`,
/// `remove` and `clear` print what they changed as one JSON line.
#[derive(Debug, Parser)]
#[command(name = "ollm-context", version, after_help = footer(EXAMPLES))]
pub(crate) struct Cli {
    #[command(flatten)]
    pub global: GlobalOpts,
    #[command(flatten)]
    pub store: StoreArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Args)]
pub(crate) struct StoreArgs {
    /// Use the per-session store of this session (a UUID).
    #[arg(long, global = true, value_name = "ID", conflicts_with = "file")]
    pub session: Option<String>,
    /// Use this store file.
    #[arg(long, global = true, value_name = "PATH")]
    pub file: Option<PathBuf>,
}

impl StoreArgs {
    fn locate(&self) -> Result<Located> {
        let cwd = std::env::current_dir().map_err(|e| Error::io(".", &e))?;
        ops::locate(self.file.as_deref(), self.session.as_deref(), &cwd)
    }
}

crate::subcommands! {
#[derive(Debug)]
pub(crate) enum Command {
    /// Add an entry, or replace the entry with this key (it keeps its place
    /// in insertion order). Content comes from CONTENT, `-` (stdin), or
    /// --from-file. Prints `{"added":KEY,"replaced":BOOL,"store":PATH}`.
    #[command(after_help = footer(r#"  ollm-context add style "Prefer small functions." --priority 70
  echo "Tests run with cargo nextest" | ollm-context add testing - --source hook --ttl 2h
  ollm-context add readme --from-file README.md --source extension"#))]
    Add(add::AddArgs),
    /// Remove an entry (alias: delete); exit 3 when there is none, unless
    /// --missing-ok. Prints `{"removed":N,"keys":[…],"store":PATH}`.
    #[command(
        alias = "delete",
        after_help = footer("  ollm-context remove git-status
  ollm-context delete git-status --missing-ok")
    )]
    Remove(remove::RemoveArgs),
    /// Remove every entry, or only those of one source. Prints
    /// `{"removed":N,"keys":[…],"store":PATH}`.
    #[command(after_help = footer("  ollm-context clear
  ollm-context clear --source hook"))]
    Clear(clear::ClearArgs),
    /// List the live entries in insertion order: a table at a terminal, a
    /// JSON array when piped.
    #[command(after_help = footer("  ollm-context list
  ollm-context list --source hook | jq -r '.[].key'"))]
    List(list::ListArgs),
    /// Print one entry as JSON (exit 3 when missing or expired).
    #[command(after_help = footer("  ollm-context get project-rules
  ollm-context get project-rules --content"))]
    Get(get::GetArgs),
    /// Print the system-prompt additions: one markdown section (`## KEY`,
    /// blank line, content) per live entry, highest priority first, ties in
    /// insertion order. Nothing when the store is empty.
    #[command(after_help = footer("  ollm-context prompt >> system-prompt.md
  ollm-context prompt --json | jq -r '.[].key'"))]
    Prompt(prompt::PromptArgs),
    /// Print the effective configuration (JSON), or every key with its origin.
    #[command(after_help = footer("  ollm-context config
  ollm-context config --show-origin"))]
    Config(ConfigArgs),
}
}

/// The `ollm-context` program.
pub fn main() -> Result<ExitCode> {
    let cli: Cli = crate::cli::parse()?;
    let ctx = Ctx::new(cli.global);
    let store = &cli.store;
    match cli.command {
        Command::Add(args) => add::run(&ctx, store, args),
        Command::Remove(args) => remove::run(&ctx, store, &args),
        Command::Clear(args) => clear::run(&ctx, store, &args),
        Command::List(args) => list::run(&ctx, store, &args),
        Command::Get(args) => get::run(&ctx, store, &args),
        Command::Prompt(args) => prompt::run(&ctx, store, &args),
        Command::Config(args) => crate::cli::show_config(&ctx, &args),
    }
}
