//! `ollm-session search`.

use clap::Args;

use super::rows::HitRow;
use super::{Context, ListFormat, report_problems};
use crate::cli::footer;
use crate::error::Result;
use crate::lossless;
use crate::session::query::Query;
use crate::timestamp;

/// Search every session's title, messages and tool calls; each hit gives
/// the session id, message index, role, timestamp and a snippet.
#[derive(Debug, Args)]
#[command(after_help = footer("  ollm-session search 'keyword'
  ollm-session search --regex 'err(or)?s?' --role assistant
  ollm sessions search \"keyword\""))]
pub(crate) struct SearchArgs {
    /// What to look for: text, or a regular expression with --regex.
    pattern: String,
    /// PATTERN is a regular expression (Rust regex syntax).
    #[arg(long, short = 'e')]
    regex: bool,
    /// Match regardless of case.
    #[arg(long, short = 'i')]
    ignore_case: bool,
    /// Only messages of this role (`tool` also matches tool calls,
    /// `title` only titles).
    #[arg(long)]
    role: Option<String>,
    /// Show at most N hits, the newest.
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// json (default when piped), table (default on a terminal), ndjson or text.
    #[arg(long, value_enum)]
    format: Option<ListFormat>,
}

pub(crate) fn run(ctx: &Context, args: SearchArgs) -> Result<()> {
    let (store, _) = ctx.store()?;
    let query = Query {
        pattern: args.pattern,
        regex: args.regex,
        ignore_case: args.ignore_case,
        role: args.role,
    };
    let mut out = ctx.printer().list_stream::<HitRow<'static>>(args.format);
    if let Some(renderer) = out.element_renderer() {
        // Each hit is rendered where it is found, on every core: a common
        // word's million hits are never held as strings.
        let rendered = store.search_rendered(&query, &|hit, bytes| {
            renderer.render_compact(bytes, |compact| lossless::to_writer(compact, hit))
        })?;
        report_problems(&rendered.problems);
        let in_order: Vec<&[u8]> = rendered.in_order(args.limit).collect();
        out.elements(&in_order)?;
        // The program ends here: the hits' buffers are left to the exit.
        std::mem::forget(rendered);
        return out.finish("no matches");
    }
    let mut found = store.search(&query)?;
    report_problems(&found.problems);
    if let Some(limit) = args.limit {
        found.hits.truncate(limit);
    }
    let now = timestamp::now_millis();
    let rows: Vec<HitRow> = found.hits.iter().map(|hit| HitRow { hit, now }).collect();
    let written = ctx.list(args.format, &rows, "no matches");
    // The program ends here: a common word's million hits are left to the
    // exit rather than freed one allocation at a time.
    std::mem::forget(rows);
    std::mem::forget(found);
    written
}
