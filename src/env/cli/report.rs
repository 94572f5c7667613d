//! `ollm-env report`.

use super::PolicyArgs;
use crate::cli::Ctx;
use crate::env::child;
use crate::env::report::Report;
use crate::error::{ExitCode, Result};

pub(crate) fn run(ctx: &Ctx, args: &PolicyArgs) -> Result<ExitCode> {
    let policy = args.policy(ctx)?;
    let parent = child::this_process();
    let child = child::child_environment(parent.iter().map(|(_, var)| *var), &policy, &[]);
    let report = Report::of(&child);
    ctx.printer.object_or_table(&report, || report.table())?;
    Ok(ExitCode::Success)
}
