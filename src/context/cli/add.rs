//! `ollm-context add`.

use std::time::Duration;

use clap::Args;

use super::StoreArgs;
use crate::cli::Ctx;
use crate::context::entry::{Source, parse_ttl};
use crate::context::ops;
use crate::context::store::NewEntry;
use crate::error::{Error, ExitCode, Result};
use crate::input;

#[derive(Debug, Args)]
pub(crate) struct AddArgs {
    /// A unique key; also the section heading in the prompt.
    pub key: String,
    /// The content; `-` reads stdin.
    #[arg(required_unless_present = "from_file", conflicts_with = "from_file")]
    pub content: Option<String>,
    /// Read the content from this file.
    #[arg(long, value_name = "PATH")]
    pub from_file: Option<String>,
    /// Higher priorities come first in the prompt.
    #[arg(long, default_value_t = 50, allow_negative_numbers = true, value_parser = parse_priority)]
    pub priority: i64,
    /// Who added the entry (`clear --source` removes one source's entries).
    #[arg(long, value_enum, default_value_t = Source::User)]
    pub source: Source,
    /// Drop the entry after this long: 30s, 10m, 2h, 1d, 1h30m, or seconds.
    #[arg(long, value_name = "DURATION", value_parser = parse_ttl)]
    pub ttl: Option<Duration>,
}

/// `add KEY -` at a terminal reads what is typed or pasted: say so, and how
/// it ends, rather than wait without a word.
fn say_the_terminal_is_read() {
    use std::io::IsTerminal;
    if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() {
        crate::diag::error(
            "reading the content from the terminal: type or paste it, then ^D on a line of its own",
        );
    }
}

/// A priority is a whole number; a word (`high`) is answered with what to
/// give instead, not with the integer parser's "invalid digit".
fn parse_priority(text: &str) -> std::result::Result<i64, String> {
    text.trim().parse().map_err(|_| {
        "a priority is a whole number, higher first in the prompt (e.g. 80; the default is 50)"
            .to_string()
    })
}

pub(crate) fn run(ctx: &Ctx, store: &StoreArgs, args: AddArgs) -> Result<ExitCode> {
    let content = match (&args.content, &args.from_file) {
        (_, Some(source)) => input::read_text(source)?,
        (Some(text), None) if text == "-" => {
            say_the_terminal_is_read();
            input::read_text("-")?
        }
        (Some(text), None) => text.clone(),
        (None, None) => return Err(Error::usage("no content given (try --help)")),
    };
    let now = jiff::Timestamp::now()
        .round(jiff::Unit::Millisecond)
        .map_err(Error::input)?;
    let located = store.locate()?;
    let new = NewEntry {
        key: args.key,
        content,
        priority: args.priority,
        source: args.source,
        ttl: args.ttl,
    };
    ctx.printer.changed(&ops::add(&located, new, now)?)?;
    Ok(ExitCode::Success)
}
