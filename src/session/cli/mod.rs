//! The `ollm-session` command line: one file per subcommand, each holding
//! its clap arguments and a `run(ctx, args)`.

mod branch;
mod branches;
mod cleanup;
mod clear;
mod complete;
mod copy;
mod create;
pub(crate) mod delete;
mod export;
mod get;
mod import;
mod import_live;
mod import_shared;
mod keep;
mod list;
mod pager;
mod picker;
mod record;
mod reindex;
pub(crate) mod rename;
mod resume;
mod rewind;
mod rows;
mod scan;
mod search;
mod snapshot;
mod when;

use std::path::PathBuf;

use clap::{Args, Parser, ValueEnum};
use clap_complete::engine::ArgValueCandidates;
use serde::Serialize;

use super::model::Problem;
use super::select::{self, Selector};
use super::store::Store;
use crate::cli::{Ctx, GlobalOpts, footer};
use crate::config::{self, ConfigArgs, FlagKey};
use crate::diag;
use crate::error::{Error, ExitCode, Result};
use crate::output::{Printer, Tabular};

const EXAMPLES: &str = "  ollm-session list                                # your sessions, newest first
  ollm-session resume                              # pick one (arrow keys, type to filter)
  ollm-session get 907a                            # read it: an id prefix or a title works
  ollm-session get --last --here                   # the latest session of this project
  id=$(ollm-session create --model llama3.2:3b --provider ollama | jq -r .sessionId)
  ollm-session record \"$id\" --role user --text 'Hello'
  cargo test 2>&1 | ollm-session record \"$id\" --tool run --args '{\"cmd\":\"cargo test\"}' --result -
  ollm-session get --last --messages | ollm-compress
  ollm-session search 'keyword'
  ollm-session import --from claude                # bring in Claude Code's sessions (codex, gemini, opencode, goose)
  ollm-session export \"$id\" --format markdown --output chat.md
  ollm sessions cleanup --keep 10";

/// Durable, searchable, branchable session history (the spec's session
/// format), with snapshots.
///
/// Sessions live in services.session.dataDir ($OLLM_HOME/sessions, shared
/// with the OLLM CLI), each as the CLI's <id>.json (the default for new
/// ones) or as an append-only journal (services.session.format: journal);
/// `get` and `export` print the spec's JSON. Output is JSON when piped and a readable table or
/// transcript on a terminal. Wherever a session id is taken, a unique prefix
/// of it (4+ characters), its title, --last (the latest session) or --here
/// (the latest made in this workspace) work too. The command lines of the
/// sessions document work as written: `ollm sessions
/// list|view|export|search|delete|clear --all|cleanup --keep N`.
#[derive(Debug, Parser)]
#[command(name = "ollm-session", version, after_help = footer(EXAMPLES))]
pub(crate) struct Cli {
    #[command(flatten)]
    pub global: GlobalOpts,
    /// The session data directory (services.session.dataDir).
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// The session store: `file` (the data directory) or a postgres:// URL
    /// (services.session.store).
    #[arg(long, global = true, value_name = "STORE")]
    pub store: Option<String>,
    /// Store credentials as they are instead of `[REDACTED:<kind>]`
    /// (services.session.redact: false).
    #[arg(long, global = true)]
    pub no_redact: bool,
    #[command(subcommand)]
    pub command: Command,
}

/// How a session is printed.
#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum Format {
    /// The spec's JSON.
    Json,
    /// A readable transcript.
    Markdown,
}

/// How a listing is printed (json when piped, table at a terminal).
pub(crate) use crate::output::Format as ListFormat;

crate::subcommands! {
#[derive(Debug)]
pub(crate) enum Command {
    Create(create::CreateArgs),
    Record(Box<record::RecordArgs>),
    Get(get::GetArgs),
    Resume(resume::ResumeArgs),
    List(list::ListArgs),
    Search(search::SearchArgs),
    Export(export::ExportArgs),
    Rename(rename::RenameArgs),
    Delete(delete::DeleteArgs),
    Cleanup(cleanup::CleanupArgs),
    Clear(clear::ClearArgs),
    Branch(branch::BranchArgs),
    Branches(branches::BranchesArgs),
    Rewind(rewind::RewindArgs),
    Scan(scan::ScanArgs),
    Redact(scan::RedactArgs),
    Import(import::ImportArgs),
    Reindex(reindex::ReindexArgs),
    Keep(keep::KeepArgs),
    /// Context snapshots: create, list, show, restore, delete.
    #[command(
        subcommand,
        visible_alias = "snapshots",
        after_help = footer("  ollm-session snapshot create ID
  ollm-session snapshots list ID
  ollm-session snapshot restore SNAPSHOT_ID --as-session")
    )]
    Snapshot(snapshot::SnapshotCommand),
    /// Copy sessions between stores (`file`, a directory, or a postgres://
    /// URL), with their branch links; a session already there is kept.
    #[command(after_help = footer(copy::EXAMPLES))]
    Copy(copy::CopyArgs),
    /// Print the effective configuration (JSON), or every key with its origin.
    #[command(after_help = footer("  ollm-session config --show-origin"))]
    Config(ConfigArgs),
}
}

/// The session a command works on: an id, a unique prefix, a title,
/// `--last` or `--here`.
#[derive(Debug, Clone, Args)]
pub(crate) struct SessionRef {
    /// The session: its id, a unique prefix of it (4+ characters) or its title.
    #[arg(
        value_name = "ID",
        required_unless_present_any = ["last", "here"],
        add = ArgValueCandidates::new(complete::session_ids)
    )]
    pub id: Option<String>,
    /// The most recently active session.
    #[arg(long)]
    pub last: bool,
    /// Only sessions made in this workspace (the git top level, else the
    /// current directory); without ID, the latest of them.
    #[arg(long)]
    pub here: bool,
}

impl SessionRef {
    fn selector(&self) -> Selector {
        Selector {
            reference: self.id.clone(),
            last: self.last,
            here: self.here,
            whole_title: false,
        }
    }

    /// The whole id this names in `store`.
    pub(crate) fn resolve(&self, store: &Store) -> Result<String> {
        select::select(store, &self.selector())
    }

    /// [`SessionRef::resolve`] for a command that cannot be undone: a part
    /// of a title is named back, not taken.
    pub(crate) fn resolve_whole(&self, store: &Store) -> Result<String> {
        let selector = Selector {
            whole_title: true,
            ..self.selector()
        };
        select::select(store, &selector)
    }

    /// Whether this is a whole id, which `resolve` gives back without
    /// asking the store (a prefix, a title and `--last` were found there).
    pub(crate) fn is_whole_id(&self) -> bool {
        self.id.as_deref().is_some_and(super::model::is_uuid)
    }
}

/// Every flag of `ollm-session` that sets a configuration key.
pub const FLAGS: &[FlagKey] = &[
    FlagKey::value("data_dir", "--data-dir", "services.session.dataDir"),
    FlagKey::value("store", "--store", "services.session.store"),
    FlagKey::switch("no_redact", "--no-redact", "services.session.redact", false),
    FlagKey::value(
        "max_sessions",
        "--max-sessions",
        "services.session.maxSessions",
    ),
    FlagKey::value("max_count", "--max-count", "snapshots.maxCount"),
];

/// What every subcommand gets: the program context (printer, configuration
/// loaded once with the command line's flags).
pub(crate) struct Context {
    ctx: Ctx,
}

impl Context {
    fn load(&self) -> Result<&config::Loaded> {
        self.ctx.config()
    }

    fn printer(&self) -> &Printer {
        &self.ctx.printer
    }

    /// The store, for a command that reads it: a data directory named by a
    /// flag, a variable or a configuration file must exist (a typo is not an
    /// empty store), while the default one not existing yet is empty.
    fn store(&self) -> Result<(Store, &config::Config)> {
        let loaded = self.load()?;
        let key = "services.session.dataDir";
        let named = loaded.origin_of(key);
        let store = Store::from_config(&loaded.config)?;
        if let Some(dir) = store.local_dir()
            && named != config::Origin::Default
            && !dir.exists()
        {
            return Err(Error::NotFound(format!(
                "{}: no such session data directory (from {named}; `ollm-session create` makes it)",
                dir.display()
            )));
        }
        Ok((store, &loaded.config))
    }

    /// The store for `create`, which makes its directory when missing.
    /// The store to create sessions in, and the `maxSessions` it keeps.
    fn store_to_create(&self) -> Result<(Store, u64)> {
        let config = &self.load()?.config;
        Ok((
            Store::from_config(config)?,
            config.services.session.max_sessions,
        ))
    }

    /// Whether a listing in `format` is a table (asked for, or the default
    /// at a terminal).
    fn wants_table(&self, format: Option<ListFormat>) -> bool {
        self.printer().choose(format, ListFormat::Table) == ListFormat::Table
    }

    /// A listing: a table at a terminal (`empty` when there are no rows),
    /// JSON when piped, or the format asked for.
    fn list<T: Serialize + Tabular + Sync>(
        &self,
        format: Option<ListFormat>,
        rows: &[T],
        empty: &str,
    ) -> Result<()> {
        if rows.is_empty() && self.wants_table(format) {
            return self.printer().text(&format!("{empty}\n"));
        }
        self.printer().list_as(format, rows)
    }
}

/// The `ollm-session` program.
pub fn main() -> Result<ExitCode> {
    // `COMPLETE=bash ollm-session` prints the shell's registration; the
    // shell then asks the same way for each completion (docs/ollm.md).
    crate::cli::complete_if_asked(<Cli as clap::CommandFactory>::command);
    let (cli, matches): (Cli, _) = crate::cli::parse_matches()?;
    let ctx = Context {
        ctx: Ctx::new(cli.global).with_flags(config::overrides(FLAGS, &matches)?),
    };
    match cli.command {
        Command::Create(args) => create::run(&ctx, args)?,
        Command::Record(args) => record::run(&ctx, *args)?,
        Command::Get(args) => get::run(&ctx, args)?,
        Command::Resume(args) => resume::run(&ctx, args)?,
        Command::List(args) => list::run(&ctx, args)?,
        Command::Search(args) => search::run(&ctx, args)?,
        Command::Export(args) => export::run(&ctx, args)?,
        Command::Rename(args) => rename::run(&ctx, args)?,
        Command::Delete(args) => delete::run(&ctx, args)?,
        Command::Cleanup(args) => cleanup::run(&ctx, args)?,
        Command::Clear(args) => clear::run(&ctx, args)?,
        Command::Branch(args) => branch::run(&ctx, args)?,
        Command::Branches(args) => branches::run(&ctx, args)?,
        Command::Rewind(args) => return rewind::run(&ctx, args),
        Command::Snapshot(command) => snapshot::run(&ctx, command)?,
        Command::Scan(args) => return scan::scan(&ctx, args),
        Command::Redact(args) => return scan::redact(&ctx, args),
        Command::Import(args) => return import::run(&ctx, args),
        Command::Reindex(args) => reindex::run(&ctx, args)?,
        Command::Keep(args) => keep::run(&ctx, args)?,
        Command::Copy(args) => copy::run(&ctx, args)?,
        Command::Config(args) => {
            config::print_config_with(ctx.load()?, &args, ctx.printer())?;
        }
    }
    Ok(ExitCode::Success)
}

fn report_problems(problems: &[Problem]) {
    for problem in problems {
        diag::warn(&problem.message);
    }
}

/// Says on stderr that other sessions already carry the title `id` was just
/// given: a title names a session only while it is the only one so titled.
/// The change is made either way, so a store that cannot say is not asked
/// again.
fn warn_title_taken(store: &Store, id: &str, title: Option<&str>) {
    let Some(title) = title else {
        return;
    };
    let Ok(named) = store.named(&super::store::Naming {
        title,
        prefix: None,
        workspace: None,
    }) else {
        return;
    };
    let others: Vec<String> = named
        .into_iter()
        .filter(|s| s.session_id != id && s.title.as_deref() == Some(title))
        .map(|s| rows::short(&s.session_id).to_string())
        .collect();
    if !others.is_empty() {
        crate::diag::warn(format!(
            "{} already titled {:?} ({}): commands will ask for the id instead of the title",
            crate::text::plural(others.len() as u64, "session is", "sessions are"),
            crate::text::one_line(title),
            others.join(", ")
        ));
    }
}

/// Says on stderr which sessions `maxSessions` just deleted to make room:
/// the JSON's `removed` is easy to miss, and a deletion is for good.
fn warn_removed(removed: &[String], max: u64) {
    let shown: Vec<&str> = removed.iter().map(|id| rows::short(id)).collect();
    let what = match shown.len() {
        0 => return,
        1 => "the oldest session".to_string(),
        n => format!("the {n} oldest sessions"),
    };
    crate::diag::warn(format!(
        "deleted {what} ({}) to keep the newest {max}, as services.session.maxSessions says (0 keeps every session)",
        shown.join(", ")
    ));
}
