//! The `ollm-compress` command line: one file per subcommand, each with its
//! `Args` and `run(ctx, args)`; the flags that set configuration keys are
//! declared once, in [`FLAGS`].

mod check;
mod compress;
mod count;
mod input;

use clap::Parser;

pub(crate) use self::check::CheckArgs;
pub(crate) use self::compress::CompressArgs;
pub(crate) use self::count::CountArgs;
pub(crate) use self::{check::CheckReport, count::CountReport};
use crate::cli::{Ctx, GlobalOpts, footer};
use crate::config::{ConfigArgs, FlagKey};
use crate::error::{ExitCode, Result};

const EXAMPLES: &str = "  ollm session get ID --messages > history.json     # a history to work on
  ollm-compress < history.json > compressed.json   # hybrid, summary by the configured model
  ollm-compress --strategy truncate --token-limit 8192 history.json
  ollm-compress --summarizer-cmd 'llm -m mini' --force session.json   # ollm session get ID > session.json
  ollm-compress count history.json | jq .total
  ollm-compress check --token-limit 8192 history.json >/dev/null || ollm-compress history.json
  ollm-compress config --show-origin";

/// Count tokens of a conversation and compress it to fit a context window.
///
/// Input is a JSON array of messages (`{role, parts: [{type: \"text\", text}],
/// timestamp}`) or a whole session (`messages` and `toolCalls`), from a file
/// or stdin. Without a subcommand, `compress` runs. The first message (the
/// system prompt), user messages (unless --no-keep-user-messages) and the
/// most recent `preserveRecent` tokens are kept verbatim; a tool call is
/// kept or removed together with its result. When the summarizer fails
/// (unreachable, timeout, empty reply) the history is truncated instead and
/// `status` says so: compression never fails the turn.
///
/// The summarizer is, by default, Ollama on this machine
/// (http://127.0.0.1:11434, model llama3.2:3b: `ollama serve` and `ollama
/// pull llama3.2:3b`), asked through the OpenAI-compatible API that Ollama,
/// llama.cpp's llama-server, vLLM and LM Studio all serve; name another
/// with --summarizer-url and --summarizer-model (`ollm config` shows the
/// values in force).
#[derive(Debug, Parser)]
#[command(
    name = "ollm-compress",
    version,
    after_help = footer(EXAMPLES),
    args_conflicts_with_subcommands = true
)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub global: GlobalOpts,
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub compress: CompressArgs,
}

crate::subcommands! {
#[derive(Debug)]
pub(crate) enum Command {
    /// Compress the history and print the result as JSON (`compressedMessages`,
    /// `originalTokenCount`, `compressedTokenCount`, `strategy`, `status`, …).
    /// Exit code 0 whenever a result is printed; `status` tells what happened:
    /// compressed, not-needed, disabled, fallback-truncate, rejected-not-smaller.
    #[command(after_help = footer("  ollm-compress compress history.json
  ollm-compress compress --strategy summarize --summarizer-url http://127.0.0.1:8080 --force < h.json
  ollm-compress compress --summarizer-api ollama --summarizer-url http://127.0.0.1:11434 h.json"))]
    Compress(CompressArgs),
    /// Count tokens: the total and each message's and tool call's.
    #[command(after_help = footer("  ollm-compress count history.json
  ollm-compress count --tokenizer server --tokenizer-url http://127.0.0.1:8080 < h.json"))]
    Count(CountArgs),
    /// Say whether compression is needed (exit code 1 when it is, 0 when not),
    /// with the numbers behind the verdict as JSON.
    #[command(after_help = footer("  ollm-compress check --token-limit 8192 history.json
  ollm-compress check --token-limit 8192 --threshold 0.7 --trigger dynamic < h.json && echo fits"))]
    Check(CheckArgs),
    /// Print the effective configuration (JSON), or every key with its origin.
    #[command(after_help = footer("  ollm-compress config
  ollm-compress config --show-origin"))]
    Config(ConfigArgs),
}
}

/// Every flag of `ollm-compress` that sets a configuration key.
pub(crate) const FLAGS: &[FlagKey] = &[
    FlagKey::value("tokenizer", "--tokenizer", "services.compression.tokenizer"),
    FlagKey::value(
        "tokenizer_url",
        "--tokenizer-url",
        "services.compression.tokenizerUrl",
    ),
    FlagKey::value(
        "token_limit",
        "--token-limit",
        "services.compression.tokenLimit",
    ),
    FlagKey::value(
        "deprecated_limit",
        "--limit",
        "services.compression.tokenLimit",
    ),
    FlagKey::value("threshold", "--threshold", "services.compression.threshold"),
    FlagKey::value("trigger", "--trigger", "services.compression.trigger"),
    FlagKey::value("strategy", "--strategy", "services.compression.strategy"),
    FlagKey::value("target", "--target", "services.compression.targetTokens"),
    FlagKey::value(
        "preserve_recent",
        "--preserve-recent",
        "services.compression.preserveRecent",
    ),
    FlagKey::value(
        "summary_max_tokens",
        "--summary-max-tokens",
        "services.compression.summaryMaxTokens",
    ),
    FlagKey::switch(
        "no_keep_user_messages",
        "--no-keep-user-messages",
        "services.compression.keepUserMessages",
        false,
    ),
    FlagKey::value(
        "summarizer_api",
        "--summarizer-api",
        "services.compression.summarizer.api",
    ),
    FlagKey::value(
        "summarizer_url",
        "--summarizer-url",
        "services.compression.summarizer.url",
    ),
    FlagKey::value(
        "summarizer_model",
        "--summarizer-model",
        "services.compression.summarizer.model",
    ),
    FlagKey::value(
        "timeout",
        "--timeout",
        "services.compression.summarizer.timeout",
    ),
];

/// The `ollm-compress` program.
pub fn main() -> Result<ExitCode> {
    let (cli, matches): (Cli, _) = crate::cli::parse_matches()?;
    let ctx = Ctx::new(cli.global).with_flags(crate::config::overrides(FLAGS, &matches)?);
    ctx.config()?;
    match &cli.command {
        None => compress::run(&ctx, &cli.compress),
        Some(Command::Compress(args)) => compress::run(&ctx, args),
        Some(Command::Count(args)) => count::run(&ctx, args),
        Some(Command::Check(args)) => check::run(&ctx, args),
        Some(Command::Config(args)) => crate::cli::show_config(&ctx, args),
    }
}
