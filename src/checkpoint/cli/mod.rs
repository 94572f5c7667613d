//! The `ollm-checkpoint` command line: one file per subcommand with its
//! arguments and `run`.

mod diff;
mod gc;
mod list;
mod restore;
mod snapshot;
mod watch;

use clap::{Args, Parser};

use crate::checkpoint::Sessions;
use crate::cli::{Ctx, GlobalOpts, footer};
use crate::config::ConfigArgs;
use crate::error::{ExitCode, Result};

const EXAMPLES: &str =
    "  ollm-checkpoint snapshot --session \"$ID\"              # at each turn boundary
  ollm-checkpoint list --session \"$ID\"
  ollm-checkpoint diff --session \"$ID\" --turn 3
  ollm-checkpoint restore --session \"$ID\" --turn 2 --dry-run
  ollm-checkpoint restore --session \"$ID\" --turn 2";

/// Snapshot the files an agent may change at each turn, and rewind them to
/// any turn without git and without deleting the user's work.
///
/// A snapshot covers discover's file set (what `git ls-files -co
/// --exclude-standard` lists, without git) plus every path the session's
/// earlier snapshots held and every path a tool call it recorded named
/// (even if ignored), and is kept under $OLLM_HOME/checkpoints
/// (services.checkpoint.dir): each content once, compressed, and one
/// manifest per turn. Nothing under any .git is ever written; git is never
/// run; it works the same outside a repository.
///
/// A restore compares the disk with the session's latest snapshot: a file
/// changed since (by the user, another session) is a conflict, listed, and
/// nothing changes unless --force. It deletes only files this session made
/// after the turn and that are unchanged since; files it never saw are left
/// alone. It takes a snapshot first, so it can itself be undone, and a
/// killed restore is finished by the next run.
#[derive(Debug, Parser)]
#[command(name = "ollm-checkpoint", version, after_help = footer(EXAMPLES))]
pub(crate) struct Cli {
    #[command(flatten)]
    pub global: GlobalOpts,
    #[command(subcommand)]
    pub command: Command,
}

/// The session whose checkpoints a command works on, named as every
/// session command names one.
#[derive(Debug, Clone, Args)]
pub(crate) struct SessionArg {
    /// The session: its id, a unique prefix of it (4+ characters) or its
    /// title. A whole id need not be in the session store (a runtime may
    /// checkpoint before it records).
    #[arg(long, value_name = "ID", required_unless_present = "last")]
    pub session: Option<String>,
    /// The most recently active session.
    #[arg(long, conflicts_with = "session")]
    pub last: bool,
}

impl SessionArg {
    /// The whole id this names.
    fn resolve(&self, ctx: &Ctx, sessions: &dyn Sessions) -> Result<String> {
        let config = &ctx.config()?.config;
        let id = sessions.resolve(config, self.session.as_deref(), self.last)?;
        crate::paths::check_id(&id, "session")?;
        Ok(id)
    }
}

crate::subcommands! {
#[derive(Debug)]
pub(crate) enum Command {
    /// Snapshot the work tree as the session's next turn (or --turn N).
    /// Prints {"sessionId","turn","root","files","changed","bytesStored",
    /// "notRestorable","watched","elapsedMs"}.
    #[command(after_help = footer("  ollm-checkpoint snapshot --session \"$ID\"
  ollm-checkpoint snapshot --session \"$ID\" --turn 4 --dir ~/src/app"))]
    Snapshot(snapshot::SnapshotArgs),
    /// Restore the session's files to turn N (three-way: conflicts are
    /// listed and nothing changes without --force). Exit 1 at a conflict.
    #[command(after_help = footer("  ollm-checkpoint restore --session \"$ID\" --turn 2 --dry-run
  ollm-checkpoint restore --session \"$ID\" --turn 2
  ollm-checkpoint restore --session \"$ID\" --turn 2 --force"))]
    Restore(restore::RestoreArgs),
    /// Show what changed in turn N (against the snapshot before it) as
    /// unified diffs: JSON, or --patch for the diff text.
    #[command(after_help = footer("  ollm-checkpoint diff --session \"$ID\" --turn 3
  ollm-checkpoint diff --session \"$ID\" --turn 3 --patch"))]
    Diff(diff::DiffArgs),
    /// List the session's checkpoints: a table at a terminal, JSON piped.
    #[command(after_help = footer("  ollm-checkpoint list --session \"$ID\""))]
    List(list::ListArgs),
    /// Apply the disk budget now: drop the oldest turns while the store is
    /// over services.checkpoint.budgetBytes, and remove unnamed objects.
    #[command(after_help = footer("  ollm-checkpoint gc"))]
    Gc(gc::GcArgs),
    /// Print the effective configuration (JSON), or every key with its origin.
    #[command(after_help = footer("  ollm-checkpoint config
  ollm-checkpoint config --show-origin"))]
    Config(ConfigArgs),
    /// Run the watcher of a work tree (Linux) that snapshots ask what
    /// changed when services.checkpoint.watch is on. A snapshot starts it
    /// in the background; it exits after 15 minutes without a question.
    #[command(after_help = footer("  ollm-checkpoint watch --dir ~/src/app"))]
    Watch(watch::WatchArgs),
}
}

/// The `ollm-checkpoint` program, reaching the session store through
/// `sessions`.
pub fn main(sessions: &dyn Sessions) -> Result<ExitCode> {
    let cli: Cli = crate::cli::parse()?;
    let ctx = Ctx::new(cli.global);
    match cli.command {
        Command::Snapshot(args) => snapshot::run(&ctx, sessions, &args),
        Command::Restore(args) => restore::run(&ctx, sessions, &args),
        Command::Diff(args) => diff::run(&ctx, sessions, &args),
        Command::List(args) => list::run(&ctx, sessions, &args),
        Command::Gc(args) => gc::run(&ctx, &args),
        Command::Config(args) => crate::cli::show_config(&ctx, &args),
        Command::Watch(args) => watch::run(&ctx, &args),
    }
}
