//! The listing (`ollm-discover` without a subcommand).

use std::sync::Arc;

use clap::Args;

use super::FilterArgs;
use crate::cli::Ctx;
use crate::discover::listing::{self, Format as Stream};
use crate::error::{ExitCode, Result};
use crate::output::Format;

#[derive(Debug, Clone, Args)]
pub(crate) struct ListArgs {
    #[command(flatten)]
    pub filter: FilterArgs,
    /// Print relative paths, one a line (raw bytes when piped, for xargs;
    /// control characters made visible at a terminal); as `--format text`.
    #[arg(long, short = 'p')]
    pub paths: bool,
    /// End each path with NUL instead of a newline (with --paths).
    #[arg(long, short = '0', requires = "paths")]
    pub null: bool,
    /// Sort by relative path, byte by byte (git's order). Tables and JSON
    /// arrays are always sorted.
    #[arg(long, short = 's')]
    pub sort: bool,
    /// ndjson: one entry a line, streamed (the default when piped); table:
    /// type, size, modified time and path, sorted (the default at a
    /// terminal); json: one sorted array; text: relative paths, as --paths.
    #[arg(long, value_enum, value_name = "FORMAT", conflicts_with = "paths")]
    pub format: Option<Format>,
    /// Walk the tree even if a cached listing of it is still valid
    /// [config: services.fileDiscovery.cache, default true].
    #[arg(long)]
    pub no_cache: bool,
}

pub(crate) fn run(ctx: &Ctx, args: &ListArgs) -> Result<ExitCode> {
    let loaded = ctx.config()?;
    let opts = Arc::new(args.filter.options(loaded)?);
    let format = if args.paths {
        Format::Text
    } else {
        args.format.unwrap_or(if ctx.printer.is_terminal() {
            Format::Table
        } else {
            Format::Ndjson
        })
    };
    let stream = match format {
        Format::Table | Format::Json => {
            let entries = listing::collect(&opts)?;
            ctx.printer.list_as(Some(format), &entries)?;
            return Ok(ExitCode::Success);
        }
        Format::Text => Stream::Paths { nul: args.null },
        Format::Ndjson => Stream::Json,
    };
    // Only a listing of paths is cached (entries carry sizes and times).
    let cache = (loaded.config.services.file_discovery.cache
        && stream != Stream::Json
        && !opts.follow_symlinks)
        .then(|| crate::paths::ollm_home().join("cache/discover"));
    listing::list(&opts, stream, args.sort, cache.as_deref())?;
    Ok(ExitCode::Success)
}
