//! `ollm-session snapshot delete`.

use clap::Args;

use super::super::Context;
use super::SnapshotRef;
use crate::cli::footer;
use crate::error::Result;
use crate::session::Snapshots;

/// Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}.
#[derive(Debug, Args)]
#[command(
    visible_aliases = ["rm", "remove"],
    after_help = footer("  ollm-session snapshot delete SNAPSHOT_ID")
)]
pub(crate) struct DeleteArgs {
    #[command(flatten)]
    snapshot: SnapshotRef,
}

pub(crate) fn run(ctx: &Context, args: DeleteArgs) -> Result<()> {
    let (store, config) = ctx.store()?;
    let snapshots = Snapshots::from_config(config);
    let (id, session) = args.snapshot.resolve(&store, &snapshots)?;
    snapshots.delete(&store, &id, session.as_deref())?;
    ctx.printer()
        .changed(&serde_json::json!({ "deleted": [id] }))
}
