//! `ollm-session snapshot create`.

use clap::Args;

use super::super::{Context, SessionRef};
use crate::cli::footer;
use crate::error::Result;
use crate::input;
use crate::session::Snapshots;
use crate::session::model::Message;

/// Snapshot a session (or the message list on stdin with --stdin);
/// deletes the oldest beyond snapshots.maxCount.
#[derive(Debug, Args)]
#[command(after_help = footer("  ollm-session snapshot create ID --summary 'before refactor'
  ollm-session snapshot create --last
  jq .messages active.json | ollm-session snapshot create ID --stdin"))]
pub(crate) struct CreateArgs {
    #[command(flatten)]
    session: SessionRef,
    /// What the snapshot holds, in a few words.
    #[arg(long)]
    summary: Option<String>,
    /// Read the context to snapshot (a JSON array of messages) from stdin.
    #[arg(long)]
    stdin: bool,
    /// Snapshots kept per session (snapshots.maxCount; 0: no limit).
    #[arg(long, value_name = "N")]
    max_count: Option<u64>,
}

pub(crate) fn run(ctx: &Context, args: CreateArgs) -> Result<()> {
    let (store, config) = ctx.store()?;
    let id = args.session.resolve(&store)?;
    let context = if args.stdin {
        let text = input::read_text("-")?;
        Some(input::parse_json::<Vec<Message>>(&text, "standard input")?)
    } else {
        None
    };
    let created = Snapshots::from_config(config).create(&store, &id, context, args.summary)?;
    ctx.printer().changed(&created)
}
