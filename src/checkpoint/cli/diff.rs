//! `ollm-checkpoint diff`.

use clap::Args;

use super::SessionArg;
use crate::checkpoint::Sessions;
use crate::checkpoint::diff;
use crate::checkpoint::store::Store;
use crate::cli::Ctx;
use crate::error::{ExitCode, Result};

#[derive(Debug, Args)]
pub(crate) struct DiffArgs {
    #[command(flatten)]
    session: SessionArg,
    /// The turn whose changes to show.
    #[arg(long, value_name = "N")]
    turn: u64,
    /// Print the unified diff text instead of JSON.
    #[arg(long)]
    patch: bool,
}

pub(crate) fn run(ctx: &Ctx, sessions: &dyn Sessions, args: &DiffArgs) -> Result<ExitCode> {
    let id = args.session.resolve(ctx, sessions)?;
    let session = id.as_str();
    let store = Store::configured(&ctx.config()?.config);
    let changes = diff::of_turn(&store, session, args.turn)?;
    if args.patch {
        let mut text = String::new();
        for file in &changes.files {
            match &file.diff {
                Some(diff) => text.push_str(diff),
                None => text.push_str(&format!("Binary files a/{0} and b/{0} differ\n", file.path)),
            }
        }
        ctx.printer.text(&text)?;
    } else {
        ctx.printer.object(&changes)?;
    }
    Ok(ExitCode::Success)
}
