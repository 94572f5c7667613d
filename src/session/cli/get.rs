//! `ollm-session get` (also `view`).

use clap::Args;

use super::{Context, Format, SessionRef};
use crate::cli::footer;
use crate::error::Result;
use crate::io_util;
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
pub struct GetArgs {
    #[command(flatten)]
    session: SessionRef,
    /// Only the messages (as a JSON array, or without the header and
    /// tool calls in markdown).
    #[arg(long)]
    messages: bool,
    /// json (default when piped) or markdown (default on a terminal).
    #[arg(long, value_enum)]
    format: Option<Format>,
}

pub fn run(ctx: &Context, args: GetArgs) -> Result<()> {
    let (store, _) = ctx.store(Vec::new())?;
    let id = args.session.resolve(&store)?;
    let loaded = store.load(&id)?;
    let format = args.format.unwrap_or(if io_util::stdout_is_terminal() {
        Format::Markdown
    } else {
        Format::Json
    });
    match (format, args.messages) {
        (Format::Json, true) => io_util::print_json(&loaded.session.messages),
        (Format::Json, false) => io_util::print_json(&loaded.session),
        (Format::Markdown, true) => {
            io_util::print_text(&export::messages_markdown(&loaded.session.messages))
        }
        (Format::Markdown, false) => io_util::print_text(&export::markdown(&loaded)),
    }
}
