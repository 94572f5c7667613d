//! `ollm-context clear`.

use clap::Args;

use super::StoreArgs;
use crate::cli::Ctx;
use crate::context::entry::Source;
use crate::context::ops;
use crate::error::{ExitCode, Result};

#[derive(Debug, Args)]
pub(crate) struct ClearArgs {
    /// Remove only the entries of this source.
    #[arg(long, value_enum)]
    pub source: Option<Source>,
}

pub(crate) fn run(ctx: &Ctx, store: &StoreArgs, args: &ClearArgs) -> Result<ExitCode> {
    let path = store.locate()?.path;
    ctx.printer
        .changed(&ops::clear(&path, args.source, jiff::Timestamp::now())?)?;
    Ok(ExitCode::Success)
}
