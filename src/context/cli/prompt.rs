//! `ollm-context prompt`.

use clap::Args;

use super::StoreArgs;
use crate::cli::Ctx;
use crate::context::ops;
use crate::context::store::render_prompt;
use crate::error::{ExitCode, Result};

#[derive(Debug, Args)]
pub(crate) struct PromptArgs {
    /// Print the entries in prompt order as a JSON array instead.
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn run(ctx: &Ctx, store: &StoreArgs, args: &PromptArgs) -> Result<ExitCode> {
    let entries = ops::prompt_entries(&store.locate()?, jiff::Timestamp::now())?;
    if args.json {
        ctx.printer.object(&entries)?;
    } else {
        let refs: Vec<_> = entries.iter().collect();
        ctx.printer.text(&render_prompt(&refs))?;
    }
    Ok(ExitCode::Success)
}
