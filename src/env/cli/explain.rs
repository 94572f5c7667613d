//! `ollm-env explain`.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

use clap::Args;

use super::PolicyArgs;
use crate::cli::Ctx;
use crate::env::report;
use crate::error::{ExitCode, Result};

#[derive(Debug, Args)]
pub(crate) struct ExplainArgs {
    /// The variable name.
    pub name: String,
    #[command(flatten)]
    pub policy: PolicyArgs,
}

pub(crate) fn run(ctx: &Ctx, args: &ExplainArgs) -> Result<ExitCode> {
    let policy = args.policy.policy(ctx)?;
    let value = std::env::var_os(&args.name);
    let explanation = report::explain(&policy, &args.name, value.as_deref().map(OsStr::as_bytes));
    ctx.printer.object(&explanation)?;
    Ok(ExitCode::Success)
}
