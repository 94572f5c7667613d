//! `ollm-env report`.

use super::PolicyArgs;
use crate::cli::Ctx;
use crate::env::report;
use crate::error::{ExitCode, Result};

pub fn run(ctx: &Ctx, args: &PolicyArgs) -> Result<ExitCode> {
    let policy = args.policy(ctx)?;
    let report = report::report(&policy, &[]);
    ctx.printer.object_or_table(&report, || report.table())?;
    Ok(ExitCode::Success)
}
