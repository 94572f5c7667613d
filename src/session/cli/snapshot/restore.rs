//! `ollm-session snapshot restore`.

use clap::Args;

use super::super::Context;
use super::SnapshotRef;
use crate::cli::footer;
use crate::error::Result;
use crate::session::Snapshots;

/// Print the snapshot's context as a message list in its original order,
/// or re-create it as a new session.
#[derive(Debug, Args)]
#[command(after_help = footer("  ollm-session snapshot restore SNAPSHOT_ID > context.json
  ollm-session snapshot restore SNAPSHOT_ID --as-session"))]
pub(crate) struct RestoreArgs {
    #[command(flatten)]
    snapshot: SnapshotRef,
    /// Create a new session holding the context; prints its id.
    #[arg(long)]
    as_session: bool,
}

pub(crate) fn run(ctx: &Context, args: RestoreArgs) -> Result<()> {
    let (store, config) = ctx.store()?;
    let snapshots = Snapshots::from_config(config);
    let (id, session) = args.snapshot.resolve(&store, &snapshots)?;
    if args.as_session {
        let created = snapshots.restore_as_session(&store, &id, session.as_deref())?;
        super::super::warn_removed(&created.removed, config.services.session.max_sessions);
        return ctx.printer().changed(&created);
    }
    let shown = snapshots.show(&store, &id, session.as_deref())?;
    ctx.printer().object(&serde_json::json!({
        "sessionId": shown.session_id,
        "snapshotId": shown.id,
        "timestamp": shown.timestamp,
        "messages": shown.restored_messages(),
    }))
}
