//! `ollm-compress` / `ollm-compress compress`: compress a history (a file,
//! stdin or a stored session) and print the result.

use clap::Args;
use serde::Serialize;

use super::input::{self, ApiArg, BudgetArgs, InputArgs, StrategyArg};
use crate::cli::Ctx;
use crate::compress::configured::{settings_of, summarizer_of};
use crate::compress::engine::{self, Report};
use crate::compress::session::{SnapshotPolicy, compress_session};
use crate::compress::summarizer::{Prompt, SummarizeError, Summarizer};
use crate::error::{Error, ExitCode, Result};
use crate::output::Format;
use crate::output::progress::Progress;
use crate::session::{Snapshots, Store};

#[derive(Debug, Clone, Default, Args)]
pub(crate) struct CompressArgs {
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
    /// json (the default when piped), text (the default at a terminal: a
    /// few lines saying what was done, not the whole history) or messages
    /// (the compressed messages alone, a JSON array: what a model is given).
    #[arg(long, value_enum)]
    pub format: Option<ReportFormat>,
}

/// How the result is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ReportFormat {
    Json,
    Text,
    /// `compressedMessages` alone, so a script needs no JSON tool to take it.
    Messages,
}

/// A summarizer that shows a progress line while the model writes, where
/// stderr is a terminal: a summary can take half a minute.
struct ShownWaiting(Box<dyn Summarizer>);

impl Summarizer for ShownWaiting {
    fn describe(&self) -> String {
        self.0.describe()
    }

    fn summarize(&self, prompt: &Prompt) -> std::result::Result<String, SummarizeError> {
        let _shown = Progress::start(&format!("summarizing with {}", self.0.describe()));
        self.0.summarize(prompt)
    }
}

/// The result: JSON, or at a terminal (unless JSON is asked for) a few
/// lines saying what was done.
fn print<T: Serialize>(
    ctx: &Ctx,
    format: Option<ReportFormat>,
    value: &T,
    report: &Report,
) -> Result<()> {
    let wanted = match format {
        Some(ReportFormat::Messages) => return ctx.printer.object(&report.compressed_messages),
        Some(ReportFormat::Json) => Some(Format::Json),
        Some(ReportFormat::Text) => Some(Format::Text),
        None => None,
    };
    if ctx.printer.choose(wanted, Format::Text) == Format::Text {
        return ctx.printer.text(&described(report));
    }
    ctx.printer.object(value)
}

/// What a compression did, for a person.
fn described(report: &Report) -> String {
    let status = serde_json::to_value(report.status)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    let strategy = report.applied_strategy.unwrap_or(report.strategy);
    let mut out = format!(
        "{status} ({strategy}): {} → {} tokens (target {}, limit {})\n",
        report.original_token_count,
        report.compressed_token_count,
        report.target_tokens,
        report.check.limit
    );
    if report.removed_count > 0 {
        out += &format!(
            "{} messages and tool calls summarized or dropped\n",
            report.removed_count
        );
    }
    if let (true, Some(summarizer)) = (report.summary_tokens > 0, report.summarizer) {
        out += &format!(
            "summary of {} tokens by {summarizer}\n",
            report.summary_tokens
        );
    }
    if let Some(error) = report.summarizer_error {
        out += &format!("the summarizer failed: {error}\n");
    }
    if let Some(reason) = report.reason {
        out += &format!("{reason}\n");
    }
    out += "The result, compressed history and all, is JSON: redirect the output to a file, or add --format json.\n";
    out
}

/// A stored session's compression: the report, and what happened to the session.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SessionReport<'a> {
    #[serde(flatten)]
    pub report: Report<'a>,
    pub session_id: &'a str,
    pub compression_count: u64,
    pub snapshot_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_warning: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note_warning: Option<&'a str>,
}

pub(crate) fn run(ctx: &Ctx, args: &CompressArgs) -> Result<ExitCode> {
    args.budget.warn_deprecated();
    let tokenizer = input::tokenizer(ctx)?;
    let all = &ctx.config()?.config;
    let config = &all.services.compression;
    let summarizer = ShownWaiting(summarizer_of(config, args.summarizer_cmd.as_deref()));
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
            &summarizer,
        )?;
        for warning in &done.outcome.warnings {
            crate::diag::warn(warning);
        }
        let report = SessionReport {
            report: done.outcome.report(done.has_tool_calls),
            session_id: id,
            compression_count: done.compression_count,
            snapshot_id: done.snapshot_id.as_deref(),
            snapshot_warning: done.snapshot_warning.as_deref(),
            note_warning: done.note_warning.as_deref(),
        };
        print(ctx, args.format, &report, &report.report)?;
        return Ok(ExitCode::Success);
    }
    let history = input::read_history(ctx, &args.input, "compress")?;
    let outcome = engine::compress(&history, &tokenizer, &settings, &summarizer)?;
    for warning in &outcome.warnings {
        crate::diag::warn(warning);
    }
    let report = outcome.report(history.has_tool_calls);
    print(ctx, args.format, &report, &report)?;
    Ok(ExitCode::Success)
}
