//! `ollm-context get`.

use clap::Args;

use super::StoreArgs;
use crate::cli::Ctx;
use crate::context::file;
use crate::error::{Error, ExitCode, Result};

#[derive(Debug, Args)]
pub(crate) struct GetArgs {
    /// The key of the entry.
    pub key: String,
    /// Print only the content, ending in a newline (one is added when the
    /// content has none).
    #[arg(long)]
    pub content: bool,
}

pub(crate) fn run(ctx: &Ctx, store: &StoreArgs, args: &GetArgs) -> Result<ExitCode> {
    let store = file::read(&store.locate()?.path)?;
    let entry = store
        .get(&args.key, jiff::Timestamp::now())
        .ok_or_else(|| Error::NotFound(format!("no context entry {:?}", args.key)))?;
    if args.content {
        ctx.printer.text(&with_newline(&entry.content))?;
    } else {
        ctx.printer.object(entry)?;
    }
    Ok(ExitCode::Success)
}

/// Text as a shell command prints it: ending in a newline.
fn with_newline(text: &str) -> std::borrow::Cow<'_, str> {
    if text.is_empty() || text.ends_with('\n') {
        text.into()
    } else {
        format!("{text}\n").into()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn content_ends_with_exactly_one_added_newline() {
        assert_eq!(super::with_newline("a"), "a\n");
        assert_eq!(super::with_newline("a\n"), "a\n");
        assert_eq!(super::with_newline(""), "");
    }
}
