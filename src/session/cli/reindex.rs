//! `ollm-session reindex`.

use clap::Args;
use serde::Serialize;

use super::Context;
use crate::cli::footer;
use crate::error::Result;

/// Rebuild the file store's index from the sessions' files. The index is
/// what `list`, `--last`, `--here`, prefixes and titles read; it is kept up
/// to date by every command and rebuilt on its own when it is missing or
/// damaged, so this is only needed after sessions were changed by an older
/// ollm or restored by hand into a session directory that already
/// existed. Prints how many sessions it holds. On PostgreSQL, which keeps
/// its indexes itself, it only counts them.
#[derive(Debug, Args)]
#[command(after_help = footer("  ollm-session reindex"))]
pub(crate) struct ReindexArgs {}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Reindexed {
    /// Sessions the index holds.
    sessions: usize,
    /// Sessions that could not be read (listed by `list` as problems).
    unreadable: usize,
    /// Whether an index was rebuilt (false: the store keeps its own).
    rebuilt: bool,
}

pub(crate) fn run(ctx: &Context, _args: ReindexArgs) -> Result<()> {
    let (store, _) = ctx.store()?;
    let (sessions, unreadable, rebuilt) = match store.rebuild_derived() {
        Some(counts) => {
            let (sessions, unreadable) = counts?;
            (sessions, unreadable, true)
        }
        None => {
            let listing = store.list()?;
            (listing.sessions.len(), listing.problems.len(), false)
        }
    };
    ctx.printer().changed(&Reindexed {
        sessions,
        unreadable,
        rebuilt,
    })
}
