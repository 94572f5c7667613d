//! `ollm-session clear`.

use std::io::{BufRead, IsTerminal};

use clap::Args;

use super::Context;
use crate::cli::footer;
use crate::error::{Error, Result};

/// Delete every session. Asks for confirmation on a terminal; elsewhere
/// --yes is required.
#[derive(Debug, Args)]
#[command(after_help = footer("  ollm sessions clear --all          # asks: Delete all N sessions? [y/N]
  ollm-session clear --all --yes    # in scripts"))]
pub(crate) struct ClearArgs {
    /// Required: delete all sessions.
    #[arg(long)]
    all: bool,
    /// Do not ask; required when stdin or stderr is not a terminal.
    #[arg(long, short = 'y')]
    yes: bool,
    /// Show what would be deleted.
    #[arg(long)]
    dry_run: bool,
}

pub(crate) fn run(ctx: &Context, args: ClearArgs) -> Result<()> {
    if !args.all {
        return Err(Error::usage(
            "clear deletes every session: say so with --all (try --help)",
        ));
    }
    let (store, _) = ctx.store()?;
    if !args.dry_run && !args.yes {
        let count = store.count()?;
        let sessions = crate::text::plural(count as u64, "session", "sessions");
        if count > 0
            && !confirm(&format!(
                "Delete all {sessions} and their snapshots in {}? [y/N] ",
                store.location()
            ))?
        {
            // A "no" is an answer, not an error: nothing is done, exit 0.
            crate::diag::error(format!("nothing deleted: {sessions} kept"));
            return Ok(());
        }
    }
    ctx.printer().changed(&store.cleanup(0, args.dry_run)?)
}

/// Asks on stderr and reads the answer from stdin; refuses when either is
/// not a terminal.
fn confirm(question: &str) -> Result<bool> {
    if !std::io::stdin().is_terminal() || !std::io::stderr().is_terminal() {
        return Err(Error::usage(
            "refusing to delete every session without confirmation: pass --yes",
        ));
    }
    crate::diag::ask(question);
    let mut answer = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut answer)
        .map_err(|e| Error::io("standard input", &e))?;
    Ok(matches!(answer.trim(), "y" | "Y" | "yes" | "Yes" | "YES"))
}
