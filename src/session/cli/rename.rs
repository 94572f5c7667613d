//! `ollm-session rename`.

use clap::Args;
use serde::Serialize;

use super::{Context, SessionRef};
use crate::cli::footer;
use crate::error::{Error, Result};

/// Give a session a title (or remove it with --clear); commands then take
/// the title in place of the id. Prints what changed.
#[derive(Debug, Args)]
#[command(after_help = footer("  ollm-session rename 907a 'fix the parser'
  ollm-session rename --last 'release notes'
  ollm-session rename 'fix the parser' --clear"))]
pub(crate) struct RenameArgs {
    #[command(flatten)]
    session: SessionRef,
    /// The new title.
    #[arg(value_name = "TITLE")]
    title: Option<String>,
    /// Remove the title instead.
    #[arg(long, conflicts_with = "title")]
    clear: bool,
}

#[derive(Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Renamed {
    session_id: String,
    previous_title: Option<String>,
    title: Option<String>,
}

pub(crate) fn run(ctx: &Context, mut args: RenameArgs) -> Result<()> {
    // `rename --last TITLE`: the one positional given is the title.
    if (args.session.last || args.session.here) && args.title.is_none() && !args.clear {
        args.title = args.session.id.take();
    }
    let (store, _) = ctx.store()?;
    let id = args.session.resolve(&store)?;
    let title = args.title.filter(|_| !args.clear);
    if title.as_deref().is_some_and(|t| t.trim().is_empty()) {
        return Err(Error::usage(
            "the title is empty (use --clear to remove it)",
        ));
    }
    let previous_title = store.summary(&id)?.title;
    let summary = store.rename(&id, title.as_deref())?;
    super::warn_title_taken(&store, &id, summary.title.as_deref());
    ctx.printer().changed(&Renamed {
        session_id: id,
        previous_title,
        title: summary.title,
    })
}
