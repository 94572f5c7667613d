//! `ollm-session branch`.

use clap::Args;

use super::{Context, SessionRef};
use crate::cli::footer;
use crate::error::Result;

/// Start a new session that keeps the first N messages (with the tool
/// calls made among them); records parentSessionId and branchPoint.
#[derive(Debug, Args)]
#[command(after_help = footer("  ollm-session branch ID --at 4 --title 'try another fix'
  ollm-session branch --last --at 2"))]
pub(crate) struct BranchArgs {
    #[command(flatten)]
    session: SessionRef,
    /// How many messages the branch keeps: the first N (0 to the
    /// message count; `--at 1` keeps only message 0).
    #[arg(long, value_name = "N")]
    at: u64,
    /// A title for the branch (default: the parent's with "(branch)" added,
    /// numbered when that is taken, so the title names one session).
    #[arg(long)]
    title: Option<String>,
}

pub(crate) fn run(ctx: &Context, args: BranchArgs) -> Result<()> {
    let (store, config) = ctx.store()?;
    let id = args.session.resolve(&store)?;
    let created = store.branch(&id, args.at, args.title)?;
    super::warn_removed(&created.removed, config.services.session.max_sessions);
    ctx.printer().changed(&created)
}
