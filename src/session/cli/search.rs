//! `ollm-session search`.

use clap::Args;

use super::{Context, ListFormat, report_problems, table};
use crate::cli::footer;
use crate::error::Result;
use crate::io_util;
use crate::session::search::Query;

/// Search every session's title, messages and tool calls; each hit gives
/// the session id, message index, role, timestamp and a snippet.
#[derive(Debug, Args)]
#[command(after_help = footer("  ollm-session search 'keyword'
  ollm-session search --regex 'err(or)?s?' --role assistant
  ollm sessions search \"keyword\""))]
pub struct SearchArgs {
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
    /// json (default when piped) or table (default on a terminal).
    #[arg(long, value_enum)]
    format: Option<ListFormat>,
}

pub fn run(ctx: &Context, args: SearchArgs) -> Result<()> {
    let (store, _) = ctx.store(Vec::new())?;
    let mut found = store.search(&Query {
        pattern: args.pattern,
        regex: args.regex,
        ignore_case: args.ignore_case,
        role: args.role,
    })?;
    report_problems(&found.problems);
    if let Some(limit) = args.limit {
        found.hits.truncate(limit);
    }
    if !table(args.format) {
        return io_util::print_json(&found.hits);
    }
    let mut text = String::new();
    for hit in &found.hits {
        let index = match (hit.message_index, hit.tool_call_index) {
            (Some(i), _) => format!("#{i}"),
            (_, Some(i)) => format!("tool#{i}"),
            _ => String::new(),
        };
        text.push_str(&format!(
            "{}  {:<8} {:<9} {}  {}\n",
            hit.session_id, index, hit.role, hit.timestamp, hit.snippet
        ));
    }
    if found.hits.is_empty() {
        text.push_str("no matches\n");
    }
    io_util::print_text(&text)
}
