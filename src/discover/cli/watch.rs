//! `ollm-discover watch`.

use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use super::FilterArgs;
use crate::cli::Ctx;
use crate::discover::watch::{WatchOptions, watch};
use crate::error::{ExitCode, Result};

#[derive(Debug, Clone, Args)]
pub(crate) struct WatchArgs {
    #[command(flatten)]
    pub filter: FilterArgs,
    /// Quiet time before a burst of changes is reported
    /// [config: services.fileDiscovery.debounceMs, default 100].
    #[arg(long, value_name = "MS")]
    pub debounce_ms: Option<u64>,
    /// Print `{"event":"ready",…}` once the watch is in place.
    #[arg(long)]
    pub ready: bool,
}

pub(crate) fn run(ctx: &Ctx, args: &WatchArgs) -> Result<ExitCode> {
    let loaded = ctx.config()?;
    let opts = Arc::new(args.filter.options(loaded)?);
    let wopts = WatchOptions {
        debounce: Duration::from_millis(loaded.config.services.file_discovery.debounce_ms),
        ready: args.ready,
    };
    watch(opts, &wopts)?;
    Ok(ExitCode::Success)
}
