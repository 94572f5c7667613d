//! `ollm-context list`.

use clap::Args;

use super::StoreArgs;
use crate::cli::Ctx;
use crate::context::entry::Source;
use crate::context::file;
use crate::error::{ExitCode, Result};
use crate::output::Format;

#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    /// List only the entries of this source.
    #[arg(long, value_enum)]
    pub source: Option<Source>,
    /// The output format [default: table at a terminal, json when piped].
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<Format>,
}

pub(crate) fn run(ctx: &Ctx, store: &StoreArgs, args: &ListArgs) -> Result<ExitCode> {
    let store = file::read(&store.locate()?.path)?;
    let entries: Vec<_> = store
        .live(args.source, jiff::Timestamp::now())
        .into_iter()
        .cloned()
        .collect();
    ctx.printer.list_as(args.format, &entries)?;
    Ok(ExitCode::Success)
}
