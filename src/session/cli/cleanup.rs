//! `ollm-session cleanup`.

use clap::Args;

use super::Context;
use crate::cli::footer;
use crate::error::Result;

/// Keep the N most recently active sessions, delete the rest (skipping any
/// being written). Prints what was deleted and kept.
#[derive(Debug, Args)]
#[command(after_help = footer("  ollm-session cleanup --keep 10 --dry-run
  ollm sessions cleanup --keep 10"))]
pub(crate) struct CleanupArgs {
    /// How many sessions to keep, the most recently active.
    #[arg(long, value_name = "N")]
    keep: u64,
    /// Show what would be deleted.
    #[arg(long)]
    dry_run: bool,
}

pub(crate) fn run(ctx: &Context, args: CleanupArgs) -> Result<()> {
    let (store, _) = ctx.store()?;
    ctx.printer()
        .changed(&store.cleanup(args.keep, args.dry_run)?)
}
