//! `ollm-context remove` (alias `delete`).

use clap::Args;

use super::StoreArgs;
use crate::cli::Ctx;
use crate::context::ops;
use crate::error::{Error, ExitCode, Result};

#[derive(Debug, Args)]
pub(crate) struct RemoveArgs {
    /// The key of the entry to remove.
    pub key: String,
    /// Exit 0 even when the key is not in the store.
    #[arg(long)]
    pub missing_ok: bool,
}

pub(crate) fn run(ctx: &Ctx, store: &StoreArgs, args: &RemoveArgs) -> Result<ExitCode> {
    let path = store.locate()?.path;
    let removed = ops::remove(&path, &args.key, jiff::Timestamp::now())?;
    if removed.removed == 0 && !args.missing_ok {
        return Err(Error::NotFound(format!("no context entry {:?}", args.key)));
    }
    ctx.printer.changed(&removed)?;
    Ok(ExitCode::Success)
}
