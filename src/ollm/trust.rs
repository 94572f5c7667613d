//! `ollm trust`: trust a workspace's `.ollm/`, list the trusted ones, or
//! revoke trust (git's `safe.directory`, direnv's `allow`/`revoke`).

use std::path::PathBuf;

use crate::cli::Ctx;
use crate::config::trust::{self, Listed};
use crate::error::{Error, ExitCode, Result};
use crate::output::Tabular;

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
    /// List the trusted workspaces: a table at a terminal, JSON when piped;
    /// `current` says whether the configuration is still the one trusted.
    #[arg(long)]
    pub list: bool,
    /// Revoke trust in this workspace (exit 3 when it was not trusted).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["list", "dir"])]
    pub revoke: Option<PathBuf>,
}

impl Tabular for Listed {
    fn headers() -> &'static [&'static str] {
        &["WORKSPACE", "CURRENT", "TRUSTED AT", "CONFIG"]
    }

    fn cells(&self) -> Vec<String> {
        let current = if self.current { "yes" } else { "no (changed)" };
        vec![
            self.record.path.display().to_string(),
            current.into(),
            self.record.trusted_at.clone(),
            self.record.config.clone(),
        ]
    }
}

pub fn run(ctx: &Ctx, args: &TrustArgs) -> Result<ExitCode> {
    if args.list {
        ctx.printer.list(&trust::list()?)?;
        return Ok(ExitCode::Success);
    }
    if let Some(dir) = &args.revoke {
        ctx.printer.changed(&trust::revoke(dir)?)?;
        return Ok(ExitCode::Success);
    }
    let dir = match &args.dir {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().map_err(|e| Error::io(".", &e))?,
    };
    let workspace = trust::inspect(&dir)?;
    ctx.printer.changed(&trust::trust_workspace(&workspace)?)?;
    Ok(ExitCode::Success)
}
