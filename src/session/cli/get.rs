//! `ollm-session get` (also `view`).

use clap::Args;

use super::{Context, Format, SessionRef, pager};
use crate::cli::footer;
use crate::error::Result;
use crate::session::export;

/// Print a whole session as the spec's JSON (a transcript on a terminal).
#[derive(Debug, Args)]
#[command(
    visible_alias = "view",
    after_help = footer("  ollm-session get ID
  ollm-session get 907a                 # a unique id prefix, or the title
  ollm-session get --last --messages | ollm-compress
  ollm sessions view ID")
)]
pub(crate) struct GetArgs {
    #[command(flatten)]
    session: SessionRef,
    /// Only the messages (as a JSON array, or without the header and
    /// tool calls in markdown).
    #[arg(long)]
    messages: bool,
    /// json (default when piped) or markdown (default on a terminal).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Show long tool results whole (at a terminal they are folded to their
    /// first 10 lines).
    #[arg(long)]
    full: bool,
}

/// Lines of a tool result shown at a terminal without --full.
const FOLD: usize = 10;

pub(crate) fn run(ctx: &Context, args: GetArgs) -> Result<()> {
    let (store, _) = ctx.store()?;
    let id = args.session.resolve(&store)?;
    let loaded = store.load(&id)?;
    let terminal = ctx.printer().is_terminal();
    let format = args.format.unwrap_or(if terminal {
        Format::Markdown
    } else {
        Format::Json
    });
    let fold = (terminal && !args.full).then_some(FOLD);
    match (format, args.messages) {
        (Format::Json, true) => ctx.printer().object(&loaded.session.messages),
        (Format::Json, false) => ctx.printer().object(&loaded.session),
        (Format::Markdown, messages) => {
            let text = if messages {
                export::messages_markdown(&loaded.session.messages)
            } else {
                export::markdown_folded(&loaded, fold)
            };
            if terminal {
                pager::page_markdown(&text, ctx.printer().color())
            } else {
                ctx.printer().text(&text)
            }
        }
    }
}
