//! `ollm-checkpoint restore`.

use clap::Args;

use super::SessionArg;
use crate::checkpoint::Sessions;
use crate::checkpoint::restore::{self, Options};
use crate::checkpoint::snapshot::Limits;
use crate::checkpoint::store::Store;
use crate::cli::Ctx;
use crate::error::{ExitCode, Result};

#[derive(Debug, Args)]
pub(crate) struct RestoreArgs {
    #[command(flatten)]
    session: SessionArg,
    /// The turn to go back to.
    #[arg(long, value_name = "N")]
    turn: u64,
    /// Print the plan (what would be written, deleted, left alone, and the
    /// conflicts) and change nothing.
    #[arg(long)]
    dry_run: bool,
    /// Restore the conflicting paths too (the snapshot taken first keeps
    /// what they held: `undoTurn`).
    #[arg(long)]
    force: bool,
}

pub(crate) fn run(ctx: &Ctx, sessions: &dyn Sessions, args: &RestoreArgs) -> Result<ExitCode> {
    let id = args.session.resolve(ctx, sessions)?;
    let session = id.as_str();
    let config = &ctx.config()?.config;
    let store = Store::configured(config);
    let _held = store.lock()?;
    let opts = Options {
        session,
        turn: args.turn,
        force: args.force,
        dry_run: args.dry_run,
        limits: Limits::from_config(config, false),
    };
    let restored = restore::restore(&store, config, &opts)?;
    ctx.printer.changed(&restored)?;
    if restored.conflicts.is_empty() || args.force {
        Ok(ExitCode::Success)
    } else {
        Ok(ExitCode::Verdict)
    }
}
