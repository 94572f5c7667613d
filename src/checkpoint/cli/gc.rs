//! `ollm-checkpoint gc`.

use clap::Args;

use crate::checkpoint::gc;
use crate::checkpoint::store::Store;
use crate::cli::Ctx;
use crate::error::{ExitCode, Result};

#[derive(Debug, Args)]
pub(crate) struct GcArgs {}

pub(crate) fn run(ctx: &Ctx, _args: &GcArgs) -> Result<ExitCode> {
    let config = &ctx.config()?.config;
    let store = Store::configured(config);
    let _held = store.lock()?;
    let collected = gc::collect(&store, config)?;
    ctx.printer.changed(&collected)?;
    Ok(ExitCode::Success)
}
