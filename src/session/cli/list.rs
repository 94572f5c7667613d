//! `ollm-session list`.

use clap::Args;

use super::rows::{SessionRow, SetAsideRow};
use super::{Context, ListFormat, report_problems};
use crate::cli::footer;
use crate::error::Result;
use crate::session::model::SessionSummary;
use crate::session::select;
use crate::session::store::ListQuery;
use crate::session::store::Store;
use crate::timestamp;

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
pub(crate) struct ListArgs {
    /// Show at most N sessions.
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Skip the N newest sessions first (with --limit: pages).
    #[arg(long, value_name = "N", default_value_t = 0)]
    offset: usize,
    /// json (default when piped), table (default on a terminal), ndjson or text.
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

pub(crate) fn run(ctx: &Context, args: ListArgs) -> Result<()> {
    let (store, _) = ctx.store()?;
    if args.corrupt {
        let rows: Vec<SetAsideRow> = store.corrupt()?.into_iter().map(SetAsideRow).collect();
        return ctx.list(args.format, &rows, "no sessions set aside");
    }
    let query = ListQuery {
        model: args.model,
        since: args
            .since
            .as_deref()
            .map(|since| select::parse_since(since, timestamp::now_millis()))
            .transpose()?,
        workspace: args.here.then(select::current_workspace).transpose()?,
        offset: args.offset,
        limit: args.limit,
    };
    // Page by page, so a reader (a pipe, `head`, a program) has the newest
    // sessions while the rest are read; a table waits for every row. The
    // next page is read on a thread of its own while one is written.
    let mut out = ctx.printer().list_stream::<SessionRow>(args.format);
    if out.takes_lines() {
        // Each row's line as the store keeps it, with no summary built.
        for page in store.json_pages(&query) {
            let page = page?;
            report_problems(&page.problems);
            out.lines(&page.text, page.count)?;
        }
        return out.finish("no sessions");
    }
    let previews = out.is_table();
    let (pages, receiver) = std::sync::mpsc::sync_channel(1);
    let reader = store.pages(&query);
    std::thread::scope(|scope| {
        scope.spawn(move || {
            for page in reader {
                // The writer stopped (a closed pipe, an error): so does this.
                if pages.send(page).is_err() {
                    break;
                }
            }
        });
        for page in receiver {
            let page = page?;
            report_problems(&page.problems);
            out.rows(SessionRow::build(&store, page.sessions, previews))?;
        }
        Ok::<(), crate::error::Error>(())
    })?;
    out.finish("no sessions")
}

/// Sessions as a table (untitled ones previewed by their first user
/// message) or JSON.
pub(super) fn print_summaries(
    ctx: &Context,
    store: &Store,
    rows: Vec<SessionSummary>,
    format: Option<ListFormat>,
) -> Result<()> {
    let rows = SessionRow::build(store, rows, ctx.wants_table(format));
    ctx.list(format, &rows, "no sessions")
}
