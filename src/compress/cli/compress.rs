//! `ollm-compress` / `ollm-compress compress`: compress a history (a file,
//! stdin or a stored session) and print the result.

use clap::Args;
use serde::Serialize;

use super::input::{self, ApiArg, BudgetArgs, InputArgs, StrategyArg};
use crate::cli::Ctx;
use crate::compress::configured::{settings_of, summarizer_of};
use crate::compress::engine::{self, Report};
use crate::compress::session::{SnapshotPolicy, compress_session};
use crate::error::{Error, ExitCode, Result};
use crate::session::{Snapshots, Store};

#[derive(Debug, Clone, Default, Args)]
pub struct CompressArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// hybrid (default): summarize the old part, keep the recent
    /// `preserveRecent` tokens. summarize: summarize all but the system
    /// prompt and user messages. truncate: drop the oldest until within target.
    #[arg(long, value_enum, value_name = "STRATEGY")]
    pub strategy: Option<StrategyArg>,
    /// Size to compress to (default: threshold × limit).
    #[arg(long, value_name = "TOKENS")]
    pub target: Option<u64>,
    /// Tokens of the most recent history kept verbatim (default 4096).
    #[arg(long, value_name = "TOKENS")]
    pub preserve_recent: Option<u64>,
    /// The summary's token budget (default 1024).
    #[arg(long, value_name = "TOKENS")]
    pub summary_max_tokens: Option<u64>,
    /// Let user messages be summarized or dropped like the others.
    #[arg(long)]
    pub no_keep_user_messages: bool,
    /// Compress even when the history is below the trigger (or compression is disabled).
    #[arg(long)]
    pub force: bool,
    /// Summarize with this shell command instead of a model server: the
    /// prompt on its stdin, the summary on its stdout.
    #[arg(long, value_name = "COMMAND")]
    pub summarizer_cmd: Option<String>,
    /// openai (/v1/chat/completions, the default; Ollama serves it too) or
    /// ollama (/api/chat).
    #[arg(long, value_enum, value_name = "API")]
    pub summarizer_api: Option<ApiArg>,
    /// The model server's base URL (default http://127.0.0.1:11434, Ollama's).
    #[arg(long, value_name = "URL")]
    pub summarizer_url: Option<String>,
    /// The model to ask for the summary (default llama3.2:3b).
    #[arg(long, value_name = "NAME")]
    pub summarizer_model: Option<String>,
    /// Seconds to wait for the summarizer before truncating instead.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
}

/// A stored session's compression: the report, and what happened to the session.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionReport<'a> {
    #[serde(flatten)]
    pub report: Report<'a>,
    pub session_id: &'a str,
    pub compression_count: u64,
    pub snapshot_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_warning: Option<&'a str>,
}

pub fn run(ctx: &Ctx, args: &CompressArgs) -> Result<ExitCode> {
    args.budget.warn_deprecated();
    let tokenizer = input::tokenizer(ctx)?;
    let all = &ctx.config()?.config;
    let config = &all.services.compression;
    let summarizer = summarizer_of(config, args.summarizer_cmd.as_deref());
    let settings = settings_of(config, &all.services.loop_detection, args.force);
    let stored = if args.input.session.is_given() {
        let store = Store::from_config(all)?;
        let id = args.input.session.resolve(&store)?;
        id.map(|id| (store, id))
    } else {
        None
    };
    if let Some((store, id)) = &stored {
        if args.input.input != "-" {
            return Err(Error::usage(
                "give INPUT or --session, not both (try --help)",
            ));
        }
        let policy = SnapshotPolicy {
            enabled: all.snapshots.enabled && all.snapshots.auto_create,
            threshold: all.snapshots.auto_threshold,
        };
        let done = compress_session(
            store,
            &Snapshots::from_config(all),
            policy,
            id,
            &tokenizer,
            &settings,
            summarizer.as_ref(),
        )?;
        for warning in &done.outcome.warnings {
            crate::diag::warn(warning);
        }
        ctx.printer.object(&SessionReport {
            report: done.outcome.report(done.has_tool_calls),
            session_id: id,
            compression_count: done.compression_count,
            snapshot_id: done.snapshot_id.as_deref(),
            snapshot_warning: done.snapshot_warning.as_deref(),
        })?;
        return Ok(ExitCode::Success);
    }
    let history = input::read_history(ctx, &args.input, "compress")?;
    let outcome = engine::compress(&history, &tokenizer, &settings, summarizer.as_ref())?;
    for warning in &outcome.warnings {
        crate::diag::warn(warning);
    }
    ctx.printer
        .object(&outcome.report(history.has_tool_calls))?;
    Ok(ExitCode::Success)
}
