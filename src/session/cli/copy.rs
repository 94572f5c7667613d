//! `ollm-session copy`: the command around [`crate::session::copy`].

use clap::Args;

use super::Context;
use crate::error::Result;
use crate::session::copy::{copy, open_location};
use crate::session::snapshot::Snapshots;

/// `copy --help`'s examples.
pub(crate) const EXAMPLES: &str =
    "  ollm-session copy --from file --to postgresql://ollm@db.internal/ollm --all
  ollm-session copy --from 'postgresql:///ollm?host=/var/run/postgresql' --to file ID
  ollm-session copy --from ./exported-json --to file --all";

#[derive(Debug, Args)]
pub(crate) struct CopyArgs {
    /// Where to copy from: `file` (the data directory), a directory of
    /// sessions (journals or plain <id>.json files), or a postgres:// URL.
    #[arg(long, value_name = "STORE")]
    pub from: String,
    /// Where to copy to (as --from).
    #[arg(long, value_name = "STORE")]
    pub to: String,
    /// The sessions to copy.
    #[arg(
        value_name = "ID",
        required_unless_present = "all",
        conflicts_with = "all"
    )]
    pub ids: Vec<String>,
    /// Copy every session of --from.
    #[arg(long)]
    pub all: bool,
}

/// The command: prints the report, then fails with the first session's
/// error (its exit code) when one could not be copied.
pub(crate) fn run(ctx: &Context, args: CopyArgs) -> Result<()> {
    let config = &ctx.load()?.config;
    let from = open_location(&args.from, config, false)?;
    let to = open_location(&args.to, config, true)?;
    let ids = (!args.all).then_some(args.ids.as_slice());
    let snapshots = Snapshots::from_config(config);
    let mut report = copy(&from, &to, &snapshots, ids)?;
    ctx.printer().object(&report)?;
    match report.first_error.take() {
        None => Ok(()),
        Some(err) => Err(err),
    }
}
