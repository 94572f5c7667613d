//! `ollm-session export`.

use std::path::PathBuf;

use clap::Args;

use super::{Context, Format, SessionRef};
use crate::cli::footer;
use crate::error::{Error, Result};
use crate::fs::{self as sfs, Target};
use crate::session::export;

/// Export a session as the spec's JSON or a Markdown transcript.
#[derive(Debug, Args)]
#[command(after_help = footer("  ollm-session export ID --output chat-history.json
  ollm-session export ID --output chat.md          # Markdown, from the extension
  ollm-session export --last --format markdown > chat.md"))]
pub(crate) struct ExportArgs {
    #[command(flatten)]
    session: SessionRef,
    /// json, or markdown (default: markdown when --output ends in .md
    /// or .markdown, else json).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Write here (atomically, owner-only 0600) instead of stdout. An
    /// existing file is replaced only with --force; anything that is
    /// not a regular file is refused (`-` and /dev/stdout are stdout).
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Replace an existing output file.
    #[arg(long, short = 'f', requires = "output")]
    force: bool,
}

pub(crate) fn run(ctx: &Context, args: ExportArgs) -> Result<()> {
    let (store, _) = ctx.store()?;
    let target = match &args.output {
        Some(path) => sfs::export_target(path, args.force)?,
        None => Target::Stdout,
    };
    let format = args.format.unwrap_or(match &args.output {
        Some(path) if export::is_markdown_path(path) => Format::Markdown,
        _ => Format::Json,
    });
    let id = args.session.resolve(&store)?;
    let loaded = store.load(&id)?;
    let text = match format {
        Format::Json => {
            // Lone surrogates go out as the escapes they came in as.
            let bytes = crate::lossless::to_vec_pretty(&loaded.session)
                .map_err(|e| Error::input(format!("cannot encode the session: {e}")))?;
            let mut text = String::from_utf8_lossy(&bytes).into_owned();
            text.push('\n');
            text
        }
        Format::Markdown => export::markdown(&loaded),
    };
    match target {
        Target::File(path) => {
            sfs::write_atomic(&path, text.as_bytes(), sfs::Durability::Synced)?;
            ctx.printer().changed(&serde_json::json!({
                "exported": id,
                "output": path,
                "bytes": text.len(),
            }))
        }
        Target::Stdout => ctx.printer().text(&text),
    }
}
