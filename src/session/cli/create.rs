//! `ollm-session create`.

use clap::Args;

use super::Context;
use crate::cli::footer;
use crate::error::Result;
use crate::session::select::current_workspace;
use crate::session::store::NewSession;

/// Create a session; prints {"sessionId": …}. Records the workspace it was
/// made in (the git top level, else the current directory) for --here.
/// Deletes the oldest sessions beyond maxSessions (never a locked one).
#[derive(Debug, Args)]
#[command(after_help = footer("  ollm-session create --model llama3.1:8b --provider ollama
  ollm-session create --model gpt-4o --provider openai --title 'refactor'
  id=$(ollm-session create -q --model llama3.1:8b --provider ollama)"))]
pub(crate) struct CreateArgs {
    /// The model the session talks to (the spec's `model`).
    #[arg(long)]
    model: String,
    /// The model's provider, e.g. ollama or openai (the spec's `provider`).
    #[arg(long)]
    provider: String,
    /// A name for the session (additive field `title`); commands then take
    /// it in place of the id.
    #[arg(long)]
    title: Option<String>,
    /// Sessions to keep (services.session.maxSessions; 0: no limit).
    #[arg(long, value_name = "N")]
    max_sessions: Option<u64>,
    /// Print only the new session's id (a line of text, as `docker create`
    /// does), for `id=$(…)` without a JSON tool.
    #[arg(short, long)]
    quiet: bool,
}

pub(crate) fn run(ctx: &Context, args: CreateArgs) -> Result<()> {
    let (store, max_sessions) = ctx.store_to_create()?;
    let title = args.title;
    let created = store.create(&NewSession {
        model: args.model,
        provider: args.provider,
        title: title.clone(),
        workspace: Some(current_workspace()?),
    })?;
    super::warn_removed(&created.removed, max_sessions);
    super::warn_title_taken(&store, &created.session_id, title.as_deref());
    if args.quiet {
        return ctx.printer().text(&format!("{}\n", created.session_id));
    }
    ctx.printer().changed(&created)
}
