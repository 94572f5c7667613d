//! `ollm-checkpoint snapshot`.

use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use clap::Args;

use super::SessionArg;
use crate::checkpoint::manifest::Origin;
use crate::checkpoint::snapshot::{self, Limits, Request};
use crate::checkpoint::store::Store;
use crate::checkpoint::{Sessions, gc, restore};
use crate::cli::Ctx;
use crate::error::{Error, ExitCode, Result};

#[derive(Debug, Args)]
pub(crate) struct SnapshotArgs {
    #[command(flatten)]
    session: SessionArg,
    /// The turn number (default: one after the session's last checkpoint).
    #[arg(long, value_name = "N")]
    turn: Option<u64>,
    /// The work tree (default: the current directory).
    #[arg(long, value_name = "PATH")]
    dir: Option<PathBuf>,
    /// Also cover this path (relative to the work tree), even if ignored
    /// (those the session's recorded tool calls named are covered without
    /// it). Repeatable.
    #[arg(long, value_name = "PATH")]
    path: Vec<PathBuf>,
    /// Take $HOME, / or a tree over services.checkpoint.maxTreeBytes anyway.
    #[arg(long)]
    allow_large: bool,
}

pub(crate) fn run(ctx: &Ctx, sessions: &dyn Sessions, args: &SnapshotArgs) -> Result<ExitCode> {
    let id = args.session.resolve(ctx, sessions)?;
    let session = id.as_str();
    let config = &ctx.config()?.config;
    let dir = match &args.dir {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().map_err(|e| Error::io(".", &e))?,
    };
    let root = snapshot::work_tree(&dir)?;
    let limits = Limits::from_config(config, args.allow_large);
    snapshot::check_root(&root, limits)?;
    let mut extra = crate::checkpoint::named_by_tool_calls(sessions, config, session, &root)?;
    extra.extend(args.path.iter().map(|p| {
        let relative = p.strip_prefix(&root).unwrap_or(p);
        relative.as_os_str().as_bytes().to_vec()
    }));
    let store = Store::configured(config);
    let _held = store.lock()?;
    restore::finish_unfinished(&store, config, &root, limits)?;
    let request = Request {
        session,
        root: &root,
        turn: args.turn,
        origin: Origin::Turn,
        limits,
        extra,
    };
    let (taken, _) = snapshot::take(&store, config, request)?;
    gc::after_snapshot(&store, config, session, taken.bytes_stored)?;
    ctx.printer.changed(&taken)?;
    Ok(ExitCode::Success)
}
