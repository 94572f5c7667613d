//! What every `ollm-compress` subcommand reads: the history (a file, stdin
//! or a stored session), the tokenizer, and the budget it is measured against.

use clap::{Args, ValueEnum};
use serde_json::Value;

use crate::cli::Ctx;
use crate::compress::configured::tokenizer_of;
use crate::compress::history::History;
use crate::compress::tokens::Tokenizer;
use crate::error::{Error, Result};
use crate::input;
use crate::session::Store;

#[derive(Debug, Clone, Default, Args)]
pub(crate) struct InputArgs {
    /// The history: a file, or `-` for stdin.
    #[arg(value_name = "INPUT", default_value = "-")]
    pub input: String,
    /// How to count tokens: cl100k, o200k (built in), a path to the model's
    /// own tokenizer.json, server (the model server's /tokenize), estimate
    /// (characters / 4).
    #[arg(long, value_name = "NAME|PATH")]
    pub tokenizer: Option<String>,
    /// The server for `--tokenizer server` (default: the summarizer URL).
    #[arg(long, value_name = "URL")]
    pub tokenizer_url: Option<String>,
    // A stored session is never rewritten; `compress` increases its
    // compressionCount and snapshots it first at snapshots.autoThreshold.
    #[command(flatten)]
    pub session: crate::session::SessionOption,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum TriggerArg {
    Static,
    Dynamic,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum StrategyArg {
    Summarize,
    Truncate,
    Hybrid,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum ApiArg {
    Openai,
    Ollama,
}

#[derive(Debug, Clone, Default, Args)]
pub(crate) struct BudgetArgs {
    /// The context size in tokens (default: services.compression.tokenLimit).
    #[arg(long, value_name = "TOKENS")]
    pub token_limit: Option<u64>,
    /// Deprecated spelling of --token-limit (`--limit` counts rows elsewhere).
    #[arg(
        long = "limit",
        value_name = "TOKENS",
        hide = true,
        conflicts_with = "token_limit"
    )]
    pub deprecated_limit: Option<u64>,
    /// Fraction of the limit above which compression is needed (default 0.8).
    #[arg(long, value_name = "FRACTION")]
    pub threshold: Option<f64>,
    /// static: tokens > threshold × limit (default). dynamic: the history
    /// after the system prompt and earlier summaries > threshold × what the
    /// limit leaves for it.
    #[arg(long, value_enum, value_name = "MODE")]
    pub trigger: Option<TriggerArg>,
}

impl BudgetArgs {
    /// Warns about the deprecated spelling `--limit` (the table applies it).
    pub(crate) fn warn_deprecated(&self) {
        if self.deprecated_limit.is_some() {
            crate::diag::warn("--limit is deprecated here: use --token-limit");
        }
    }
}

/// The tokenizer in force; an unknown name is blamed on where it came from
/// (a flag: usage, exit 2; the configuration: exit 5).
pub(crate) fn tokenizer(ctx: &Ctx) -> Result<Tokenizer> {
    let loaded = ctx.config()?;
    tokenizer_of(&loaded.config.services.compression)
        .map_err(|err| loaded.blame("services.compression.tokenizer", err))
}

/// The history to work on; `what` names the work for the terminal hint.
pub(crate) fn read_history(ctx: &Ctx, input: &InputArgs, what: &str) -> Result<History> {
    if input.session.is_given() {
        let store = Store::from_config(&ctx.config()?.config)?;
        if let Some(id) = &input.session.resolve(&store)? {
            if input.input != "-" {
                return Err(Error::usage(
                    "give INPUT or --session, not both (try --help)",
                ));
            }
            return crate::compress::session::stored_history(&store, id);
        }
    }
    let source = input.input.as_str();
    crate::cli::require_piped_stdin(
        source,
        what,
        "pipe a JSON history in, or name a file or --session ID",
    )?;
    let text = input::read_text(source).map_err(|err| {
        crate::cli::hint_subcommand(
            err,
            source,
            &<super::Cli as clap::CommandFactory>::command(),
        )
    })?;
    let name = if source == "-" {
        "standard input"
    } else {
        source
    };
    let value: Value = input::parse_json(&text, name)?;
    History::from_json(value)
}
