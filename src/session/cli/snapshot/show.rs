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
pub struct ShowArgs {
    #[command(flatten)]
    snapshot: SnapshotRef,
}

pub fn run(ctx: &Context, args: ShowArgs) -> Result<()> {
    let (store, config) = ctx.store(Vec::new())?;
    let session = args.snapshot.session(&store)?;
    let shown =
        Snapshots::from_config(config).show(&store, &args.snapshot.snapshot, session.as_deref())?;
    ctx.printer().object(&shown)
}
