//! `ollm-session delete`.

use clap::Args;
use serde::Serialize;

use super::{Context, SessionRef};
use crate::cli::footer;
use crate::error::Result;

/// Delete a session with its snapshots, its file checkpoints and any copies of it set aside as
/// corrupt, as one operation. Prints {"deleted": [ID]}.
#[derive(Debug, Args)]
#[command(
    visible_aliases = ["rm", "remove"],
    after_help = footer("  ollm-session delete 907a1a54-0b4e-4a5e-9a51-8d3c0c2a1f7e
  ollm-session rm 907a                # a unique prefix
  ollm-session delete --last")
)]
pub(crate) struct DeleteArgs {
    #[command(flatten)]
    session: SessionRef,
}

/// What `delete` removed: the session's id.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct Deleted {
    deleted: Vec<String>,
}

pub(crate) fn run(ctx: &Context, args: DeleteArgs) -> Result<()> {
    let (store, config) = ctx.store()?;
    let id = args.session.resolve_whole(&store)?;
    store.delete(&id)?;
    crate::checkpoint::remove_session(config, &id)?;
    ctx.printer().changed(&Deleted { deleted: vec![id] })
}
