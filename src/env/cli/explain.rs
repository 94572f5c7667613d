//! `ollm-env explain`.

use clap::Args;

use super::PolicyArgs;
use crate::cli::Ctx;
use crate::env::report;
use crate::error::{ExitCode, Result};

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The variable name.
    pub name: String,
    #[command(flatten)]
    pub policy: PolicyArgs,
}

pub fn run(ctx: &Ctx, args: &ExplainArgs) -> Result<ExitCode> {
    let policy = args.policy.policy(ctx)?;
    ctx.printer.object(&report::explain(&policy, &args.name))?;
    Ok(ExitCode::Success)
}
