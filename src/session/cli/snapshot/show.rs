//! `ollm-session snapshot show`.

use clap::Args;

use super::super::Context;
use super::SnapshotRef;
use crate::cli::footer;
use crate::error::Result;
use crate::session::Snapshots;

/// Print a whole snapshot.
#[derive(Debug, Args)]
#[command(after_help = footer("  ollm-session snapshot show SNAPSHOT_ID"))]
pub(crate) struct ShowArgs {
    #[command(flatten)]
    snapshot: SnapshotRef,
}

pub(crate) fn run(ctx: &Context, args: ShowArgs) -> Result<()> {
    let (store, config) = ctx.store()?;
    let snapshots = Snapshots::from_config(config);
    let (id, session) = args.snapshot.resolve(&store, &snapshots)?;
    let shown = snapshots.show(&store, &id, session.as_deref())?;
    ctx.printer().object(&shown)
}
