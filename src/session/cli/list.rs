//! `ollm-session list`.

use clap::Args;

use super::{Context, ListFormat, report_problems, table};
use crate::cli::footer;
use crate::error::Result;
use crate::session::model::SessionSummary;
use crate::session::select::{self, ListFilter};
use crate::{io_util, timestamp};

/// List sessions newest first: sessionId, startTime, lastActivity, model,
/// messageCount, tokenCount, title, workspace (JSON when piped, a table on
/// a terminal).
#[derive(Debug, Args)]
#[command(
    visible_alias = "ls",
    after_help = footer("  ollm-session list --limit 20
  ollm-session list --here --since 2d
  ollm-session list | jq -r '.[].sessionId'")
)]
pub struct ListArgs {
    /// Show at most N sessions.
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Skip the N newest sessions first (with --limit: pages).
    #[arg(long, value_name = "N", default_value_t = 0)]
    offset: usize,
    /// json (default when piped) or table (default on a terminal).
    #[arg(long, value_enum)]
    format: Option<ListFormat>,
    /// List the sessions set aside as corrupt instead: sessionId, path
    /// and format (`journal` or `plain`). `delete ID` removes them.
    #[arg(long, conflicts_with_all = ["limit", "offset", "model", "since", "here"])]
    corrupt: bool,
    /// Only sessions with this model.
    #[arg(long)]
    model: Option<String>,
    /// Only sessions active since WHEN: a duration back from now (2h, 3d,
    /// 1week) or a date (2026-01-15).
    #[arg(long, value_name = "WHEN")]
    since: Option<String>,
    /// Only sessions made in this workspace (the git top level, else the
    /// current directory).
    #[arg(long)]
    here: bool,
}

pub fn run(ctx: &Context, args: ListArgs) -> Result<()> {
    let (store, _) = ctx.store(Vec::new())?;
    if args.corrupt {
        let rows = store.corrupt()?;
        if !table(args.format) {
            return io_util::print_json(&rows);
        }
        let mut text = String::new();
        for row in &rows {
            text.push_str(&format!(
                "{}  {:<7}  {}\n",
                row.session_id,
                row.format,
                row.path.display()
            ));
        }
        if rows.is_empty() {
            text.push_str("(no sessions set aside)\n");
        }
        return io_util::print_text(&text);
    }
    let filter = ListFilter {
        model: args.model,
        since: args
            .since
            .as_deref()
            .map(|since| select::parse_since(since, timestamp::now_millis()))
            .transpose()?,
        workspace: args.here.then(select::current_workspace).transpose()?,
    };
    let listing = store.list()?;
    report_problems(&listing.problems);
    let rows: Vec<SessionSummary> = listing
        .sessions
        .into_iter()
        .filter(|s| filter.keeps(s))
        .skip(args.offset)
        .take(args.limit.unwrap_or(usize::MAX))
        .collect();
    print_summaries(&rows, args.format)
}

/// Sessions as JSON or a table.
pub(super) fn print_summaries(rows: &[SessionSummary], format: Option<ListFormat>) -> Result<()> {
    if !table(format) {
        return io_util::print_json(rows);
    }
    let mut text = format!(
        "{:<36}  {:<24}  {:<20}  {:>5}  {:>7}  {}\n",
        "SESSION", "LAST ACTIVITY", "MODEL", "MSGS", "TOKENS", "TITLE"
    );
    if rows.is_empty() {
        text.push_str("(no sessions)\n");
    }
    for s in rows {
        text.push_str(&format!(
            "{:<36}  {:<24}  {:<20}  {:>5}  {:>7}  {}\n",
            s.session_id,
            s.last_activity,
            s.model,
            s.message_count,
            s.token_count,
            s.title.as_deref().unwrap_or("")
        ));
    }
    io_util::print_text(&text)
}
