//! `ollm-compress check`: whether a history needs compressing (exit code
//! 1 when it does), as a verdict line.

use clap::Args;
use serde::Serialize;

use super::input::{self, BudgetArgs, InputArgs};
use crate::cli::Ctx;
use crate::compress::engine;
use crate::compress::plan::Verdict;
use crate::compress::tokens::count_items;
use crate::error::{ExitCode, Result};

#[derive(Debug, Clone, Default, Args)]
pub(crate) struct CheckArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

/// The verdict `check` prints, with the tokenizer that counted.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[schemars(rename = "CompressionCheck")]
#[serde(rename_all = "camelCase")]
pub(crate) struct CheckReport<'a> {
    #[serde(flatten)]
    pub verdict: Verdict,
    pub tokenizer: &'a str,
    pub tokenizer_error: Option<&'a str>,
}

pub(crate) fn run(ctx: &Ctx, args: &CheckArgs) -> Result<ExitCode> {
    args.budget.warn_deprecated();
    let tokenizer = input::tokenizer(ctx)?;
    let config = &ctx.config()?.config.services.compression;
    let history = input::read_history(ctx, &args.input, "check")?;
    let counts = count_items(&tokenizer, &history.items)?;
    let verdict = engine::check(
        &history,
        &counts,
        config.token_limit,
        config.threshold,
        config.trigger,
    );
    let needed = verdict.needed;
    // A verdict is one JSON line, as ollm-loopcheck's is.
    ctx.printer.record(&CheckReport {
        verdict,
        tokenizer: &counts.tokenizer,
        tokenizer_error: counts.tokenizer_error.as_deref(),
    })?;
    Ok(if needed {
        ExitCode::Verdict
    } else {
        ExitCode::Success
    })
}
