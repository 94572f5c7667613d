//! The `ollm-context` command line.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use super::entry::{Source, parse_ttl, validate_key};
use super::file;
use super::store::{NewEntry, render_prompt};
use crate::cli::{GlobalOpts, footer};
use crate::config::trust::{self, Workspace};
use crate::config::{self, ConfigArgs};
use crate::error::{Error, ExitCode, Result};
use crate::io_util;

const EXAMPLES: &str = r#"  ollm-context add project-rules "Use tabs, never spaces." --priority 80
  git status --short | ollm-context add git-status - --source hook --ttl 10m
  ollm-context add spec --from-file docs/spec.md --priority 60
  ollm-context prompt                      # markdown sections, highest priority first
  ollm-context --session 3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1b list
  ollm-context clear --source hook"#;

/// Keep prioritized context entries and render them as system-prompt additions.
///
/// The store is the workspace's .ollm/context.json (the nearest .ollm/ above
/// the current directory, or .ollm/ here when there is none), or with
/// --session ID the session's $OLLM_HOME/context/ID.json, or the file named
/// by --file. Writers take an exclusive lock and replace the file
/// atomically, so hooks and the user can change it at the same time.
/// Entries whose TTL has passed drop out of list, get and prompt. A
/// workspace's entries reach `prompt` only once the workspace is trusted
/// (`ollm trust`); a .ollm/ that `add` creates is trusted as it is created.
#[derive(Debug, Parser)]
#[command(name = "ollm-context", version, after_help = footer(EXAMPLES))]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalOpts,
    #[command(flatten)]
    pub store: StoreArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Args)]
pub struct StoreArgs {
    /// Use the per-session store of this session (a UUID).
    #[arg(long, global = true, value_name = "ID", conflicts_with = "file")]
    pub session: Option<String>,
    /// Use this store file.
    #[arg(long, global = true, value_name = "PATH")]
    pub file: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Add an entry, or replace the entry with this key (it keeps its place
    /// in insertion order). Content comes from CONTENT, `-` (stdin), or --from-file.
    #[command(after_help = footer(r#"  ollm-context add style "Prefer small functions." --priority 70
  echo "Tests run with cargo nextest" | ollm-context add testing - --source hook --ttl 2h
  ollm-context add readme --from-file README.md --source extension"#))]
    Add(AddArgs),
    /// Remove an entry (exit 3 when there is none, unless --missing-ok).
    #[command(after_help = footer("  ollm-context remove git-status
  ollm-context remove git-status --missing-ok"))]
    Remove {
        key: String,
        /// Exit 0 even when the key is not in the store.
        #[arg(long)]
        missing_ok: bool,
    },
    /// Remove every entry, or only those of one source. Prints how many went.
    #[command(after_help = footer("  ollm-context clear
  ollm-context clear --source hook"))]
    Clear {
        #[arg(long, value_enum)]
        source: Option<Source>,
    },
    /// Print the live entries as a JSON array, in insertion order.
    #[command(after_help = footer("  ollm-context list
  ollm-context list --source hook | jq -r '.[].key'"))]
    List {
        #[arg(long, value_enum)]
        source: Option<Source>,
    },
    /// Print one entry as JSON (exit 3 when missing or expired).
    #[command(after_help = footer("  ollm-context get project-rules
  ollm-context get project-rules --content"))]
    Get {
        key: String,
        /// Print only the content, as is.
        #[arg(long)]
        content: bool,
    },
    /// Print the system-prompt additions: one markdown section (`## KEY`,
    /// blank line, content) per live entry, highest priority first, ties in
    /// insertion order. Nothing when the store is empty.
    #[command(after_help = footer("  ollm-context prompt >> system-prompt.md
  ollm-context prompt --json | jq -r '.[].key'"))]
    Prompt {
        /// Print the entries in prompt order as a JSON array instead.
        #[arg(long)]
        json: bool,
    },
    /// Print the effective configuration (JSON), or every key with its origin.
    #[command(after_help = footer("  ollm-context config
  ollm-context config --show-origin"))]
    Config(ConfigArgs),
}

#[derive(Debug, Args)]
pub struct AddArgs {
    /// A unique key; also the section heading in the prompt.
    pub key: String,
    /// The content; `-` reads stdin.
    #[arg(required_unless_present = "from_file", conflicts_with = "from_file")]
    pub content: Option<String>,
    /// Read the content from this file.
    #[arg(long, value_name = "PATH")]
    pub from_file: Option<String>,
    /// Higher priorities come first in the prompt.
    #[arg(long, default_value_t = 50, allow_negative_numbers = true)]
    pub priority: i64,
    #[arg(long, value_enum, default_value_t = Source::User)]
    pub source: Source,
    /// Drop the entry after this long: 30s, 10m, 2h, 1d, 1h30m, or seconds.
    #[arg(long, value_name = "DURATION", value_parser = parse_ttl)]
    pub ttl: Option<Duration>,
}

/// The store a command uses, and for the workspace's store, the workspace.
struct Located {
    path: PathBuf,
    /// `Some` for the workspace store: the workspace, if one exists yet.
    workspace: Option<Option<Workspace>>,
}

impl StoreArgs {
    fn path(&self) -> Result<PathBuf> {
        Ok(self.locate()?.path)
    }

    fn locate(&self) -> Result<Located> {
        if let Some(path) = &self.file {
            return Ok(Located {
                path: path.clone(),
                workspace: None,
            });
        }
        if let Some(id) = &self.session {
            return Ok(Located {
                path: file::session_store(id)?,
                workspace: None,
            });
        }
        let cwd = std::env::current_dir().map_err(|e| Error::io(".", &e))?;
        // Refuses a .ollm/ owned by another user.
        let workspace = trust::find(&cwd)?;
        Ok(Located {
            path: file::workspace_store(&cwd),
            workspace: Some(workspace),
        })
    }
}

fn add(path: &std::path::Path, args: AddArgs) -> Result<()> {
    validate_key(&args.key)?;
    let content = match (&args.content, &args.from_file) {
        (_, Some(source)) => io_util::read_text(source)?,
        (Some(text), None) if text == "-" => io_util::read_text("-")?,
        (Some(text), None) => text.clone(),
        (None, None) => return Err(Error::usage("no content given (try --help)")),
    };
    let now = jiff::Timestamp::now()
        .round(jiff::Unit::Millisecond)
        .map_err(Error::input)?;
    file::update(path, |store| {
        store.add(
            NewEntry {
                key: args.key,
                content,
                priority: args.priority,
                source: args.source,
                ttl: args.ttl,
            },
            now,
        );
        Ok(())
    })
}

/// The `ollm-context` program.
pub fn main() -> Result<ExitCode> {
    let cli: Cli = crate::cli::parse()?;
    let now = jiff::Timestamp::now();
    match cli.command {
        Command::Config(args) => {
            config::show(cli.global.config.clone(), &args)?;
        }
        Command::Add(args) => {
            let located = cli.store.locate()?;
            add(&located.path, args)?;
            if let Some(None) = located.workspace {
                // This add created the workspace's .ollm/: it is the user's own.
                let cwd = std::env::current_dir().map_err(|e| Error::io(".", &e))?;
                if let Some(created) = trust::find(&cwd)? {
                    trust::trust_workspace(&created)?;
                }
            }
        }
        Command::Remove { key, missing_ok } => {
            let found = file::update(&cli.store.path()?, |store| Ok(store.remove(&key, now)))?;
            if !found && !missing_ok {
                return Err(Error::NotFound(format!("no context entry {key:?}")));
            }
        }
        Command::Clear { source } => {
            let removed = file::update(&cli.store.path()?, |store| Ok(store.clear(source, now)))?;
            io_util::print_json_line(&serde_json::json!({ "removed": removed }))?;
        }
        Command::List { source } => {
            let store = file::read(&cli.store.path()?)?;
            io_util::print_json(&store.live(source, now))?;
        }
        Command::Get { key, content } => {
            let store = file::read(&cli.store.path()?)?;
            let entry = store
                .get(&key, now)
                .ok_or_else(|| Error::NotFound(format!("no context entry {key:?}")))?;
            if content {
                io_util::print_text(&entry.content)?;
            } else {
                io_util::print_json(entry)?;
            }
        }
        Command::Prompt { json } => {
            let located = cli.store.locate()?;
            let store = file::read(&located.path)?;
            let mut ordered = store.prompt_order(now);
            if let Some(Some(workspace)) = &located.workspace
                && !workspace.trusted
                && !ordered.is_empty()
            {
                crate::diag::warn(format!(
                    "{}: {} context entries left out of the prompt: the workspace is not trusted; if you trust it: {}",
                    located.path.display(),
                    ordered.len(),
                    workspace.trust_hint()
                ));
                ordered.clear();
            }
            if json {
                io_util::print_json(&ordered)?;
            } else {
                io_util::print_text(&render_prompt(&ordered))?;
            }
        }
    }
    Ok(ExitCode::Success)
}
