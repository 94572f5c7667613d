//! `ollm-session snapshot list`.

use clap::Args;

use super::super::{Context, ListFormat, SessionRef, table};
use crate::cli::footer;
use crate::error::Result;
use crate::io_util;
use crate::session::Snapshots;

/// A session's snapshots, newest first.
#[derive(Debug, Args)]
#[command(after_help = footer("  ollm-session snapshot list ID
  ollm-session snapshots list --last"))]
pub struct ListArgs {
    #[command(flatten)]
    session: SessionRef,
    /// json (default when piped) or table (default on a terminal).
    #[arg(long, value_enum)]
    format: Option<ListFormat>,
}

pub fn run(ctx: &Context, args: ListArgs) -> Result<()> {
    let (store, config) = ctx.store(Vec::new())?;
    let id = args.session.resolve(&store)?;
    let mut rows = Snapshots::from_config(&config).list(&id)?;
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
    if !table(args.format) {
        return io_util::print_json(&rows);
    }
    let mut text = String::new();
    for s in &rows {
        text.push_str(&format!(
            "{}  {}  {:>6} tok  {:>4} msg  {}\n",
            s.id, s.timestamp, s.token_count, s.message_count, s.summary
        ));
    }
    if rows.is_empty() {
        text.push_str("no snapshots\n");
    }
    io_util::print_text(&text)
}
