//! `ollm-session branches`.

use clap::Args;

use super::{Context, ListFormat, SessionRef};
use crate::cli::footer;
use crate::error::Result;

/// List the sessions branched from a session.
#[derive(Debug, Args)]
#[command(after_help = footer("  ollm-session branches ID
  ollm-session branches --last --format json"))]
pub(crate) struct BranchesArgs {
    #[command(flatten)]
    session: SessionRef,
    /// json (default when piped), table (default on a terminal), ndjson or text.
    #[arg(long, value_enum)]
    format: Option<ListFormat>,
}

pub(crate) fn run(ctx: &Context, args: BranchesArgs) -> Result<()> {
    let (store, _) = ctx.store()?;
    let id = args.session.resolve(&store)?;
    store.exists(&id)?;
    let rows = store.branches(&id)?;
    super::list::print_summaries(ctx, &store, rows, args.format)
}
