//! `ollm-checkpoint watch`: the watcher process a snapshot starts when
//! `services.checkpoint.watch` is on (it can be run by hand too).

use std::path::PathBuf;

use clap::Args;

use crate::cli::Ctx;
use crate::error::{ExitCode, Result};

#[derive(Debug, Args)]
pub(crate) struct WatchArgs {
    /// The work tree to watch.
    #[arg(long, value_name = "DIR")]
    pub dir: PathBuf,
}

pub(crate) fn run(ctx: &Ctx, args: &WatchArgs) -> Result<ExitCode> {
    let config = &ctx.config()?.config;
    let root = crate::checkpoint::snapshot_root(&args.dir)?;
    crate::checkpoint::watcher::run(config, &root)?;
    Ok(ExitCode::Success)
}
