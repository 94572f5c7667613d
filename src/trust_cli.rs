//! `ollm trust`: trust a workspace's `.ollm/`, list the trusted ones, or
//! revoke trust (git's `safe.directory`, direnv's `allow`/`revoke`).

use std::path::PathBuf;

use serde::Serialize;

use crate::config::trust::{self, Record, Store};
use crate::error::{Error, ExitCode, Result};
use crate::io_util;

pub const EXAMPLES: &str =
    "  ollm trust                      # the workspace above the current directory
  ollm trust ~/src/project
  ollm trust --list
  ollm trust --revoke ~/src/project";

#[derive(Debug, Clone, clap::Args)]
pub struct TrustArgs {
    /// The workspace (the directory holding .ollm/, or one below it);
    /// the current directory when omitted.
    #[arg(value_name = "DIR", conflicts_with = "list")]
    pub dir: Option<PathBuf>,
    /// List the trusted workspaces, as JSON; `current` says whether the
    /// configuration is still the one trusted.
    #[arg(long)]
    pub list: bool,
    /// Revoke trust in this workspace (exit 3 when it was not trusted).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["list", "dir"])]
    pub revoke: Option<PathBuf>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Listed {
    #[serde(flatten)]
    record: Record,
    /// Whether the workspace's configuration is still the one trusted.
    current: bool,
}

pub fn run(args: &TrustArgs) -> Result<ExitCode> {
    if args.list {
        let store = Store::load()?;
        let listed: Vec<Listed> = store
            .workspaces
            .into_iter()
            .map(|record| {
                let current = trust::inspect(&record.path)
                    .is_ok_and(|ws| ws.root == record.path && ws.fingerprint == record.config);
                Listed { record, current }
            })
            .collect();
        io_util::print_json(&listed)?;
        return Ok(ExitCode::Success);
    }
    if let Some(dir) = &args.revoke {
        let root = dir.canonicalize().unwrap_or_else(|_| dir.clone());
        let _lock = trust::lock()?;
        let mut store = Store::load()?;
        if !store.revoke(&root) {
            return Err(Error::NotFound(format!(
                "{} is not a trusted workspace (see ollm trust --list)",
                root.display()
            )));
        }
        store.save()?;
        io_util::print_json_line(&serde_json::json!({ "revoked": root }))?;
        return Ok(ExitCode::Success);
    }
    let dir = match &args.dir {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().map_err(|e| Error::io(".", &e))?,
    };
    let workspace = trust::inspect(&dir)?;
    let record = trust::trust_workspace(&workspace)?;
    io_util::print_json_line(&record)?;
    Ok(ExitCode::Success)
}
