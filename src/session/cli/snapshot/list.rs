//! `ollm-session snapshot list`.

use clap::Args;

use super::super::rows::SnapshotRow;
use super::super::{Context, ListFormat, SessionRef};
use crate::cli::footer;
use crate::error::Result;
use crate::session::Snapshots;
use crate::timestamp;

/// A session's snapshots, newest first.
#[derive(Debug, Args)]
#[command(after_help = footer("  ollm-session snapshot list ID
  ollm-session snapshots list --last"))]
pub(crate) struct ListArgs {
    #[command(flatten)]
    session: SessionRef,
    /// json (default when piped), table (default on a terminal), ndjson or text.
    #[arg(long, value_enum)]
    format: Option<ListFormat>,
}

pub(crate) fn run(ctx: &Context, args: ListArgs) -> Result<()> {
    let (store, config) = ctx.store()?;
    let id = args.session.resolve(&store)?;
    let mut rows = Snapshots::from_config(config).list(&store, &id)?;
    if !store.has_any(&id) {
        // Snapshots of a session whose delete is being finished are gone
        // already.
        rows.clear();
    }
    if rows.is_empty() {
        // No snapshots is an empty list for a session that exists, and
        // "not found" for an id that names nothing.
        store.exists(&id)?;
    }
    let now = timestamp::now_millis();
    let rows: Vec<SnapshotRow> = rows
        .into_iter()
        .map(|info| SnapshotRow { info, now })
        .collect();
    ctx.list(args.format, &rows, "no snapshots")
}
