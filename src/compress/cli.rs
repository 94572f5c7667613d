//! The `ollm-compress` command line.

use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use serde_json::{Value, json};

use super::engine::{self, Settings};
use super::history::{History, ItemKind};
use super::session::{SnapshotPolicy, compress_session};
use super::summarizer::{CommandSummarizer, HttpSummarizer, Summarizer};
use super::tokens::{Tokenizer, count_items};
use crate::cli::{GlobalOpts, footer};
use crate::config::{self, CompressionConfig, ConfigArgs, FlagOverride, LoadOptions, Loaded};
use crate::error::{ExitCode, Result};
use crate::io_util;
use crate::session::{Snapshots, Store};

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
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalOpts,
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub compress: CompressArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
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

#[derive(Debug, Clone, Default, Args)]
pub struct InputArgs {
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

#[derive(Debug, Clone, Default, Args)]
pub struct CountArgs {
    #[command(flatten)]
    pub input: InputArgs,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum TriggerArg {
    Static,
    Dynamic,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum StrategyArg {
    Summarize,
    Truncate,
    Hybrid,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ApiArg {
    Openai,
    Ollama,
}

#[derive(Debug, Clone, Default, Args)]
pub struct BudgetArgs {
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

#[derive(Debug, Clone, Default, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

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

fn flag(key: &'static str, flag: &'static str, value: Value) -> FlagOverride {
    FlagOverride { key, value, flag }
}

impl InputArgs {
    fn overrides(&self, flags: &mut Vec<FlagOverride>) {
        if let Some(name) = &self.tokenizer {
            flags.push(flag(
                "services.compression.tokenizer",
                "--tokenizer",
                json!(name),
            ));
        }
        if let Some(url) = &self.tokenizer_url {
            flags.push(flag(
                "services.compression.tokenizerUrl",
                "--tokenizer-url",
                json!(url),
            ));
        }
    }
}

impl BudgetArgs {
    fn overrides(&self, flags: &mut Vec<FlagOverride>) {
        if let Some(limit) = self.deprecated_limit {
            crate::diag::warn("--limit is deprecated here: use --token-limit");
            flags.push(flag(
                "services.compression.tokenLimit",
                "--limit",
                json!(limit),
            ));
        }
        if let Some(limit) = self.token_limit {
            flags.push(flag(
                "services.compression.tokenLimit",
                "--token-limit",
                json!(limit),
            ));
        }
        if let Some(threshold) = self.threshold {
            flags.push(flag(
                "services.compression.threshold",
                "--threshold",
                json!(threshold),
            ));
        }
        if let Some(trigger) = self.trigger {
            let name = match trigger {
                TriggerArg::Static => "static",
                TriggerArg::Dynamic => "dynamic",
            };
            flags.push(flag(
                "services.compression.trigger",
                "--trigger",
                json!(name),
            ));
        }
    }
}

impl CompressArgs {
    fn overrides(&self) -> Vec<FlagOverride> {
        let mut flags = Vec::new();
        self.input.overrides(&mut flags);
        self.budget.overrides(&mut flags);
        if let Some(strategy) = self.strategy {
            let name = match strategy {
                StrategyArg::Summarize => "summarize",
                StrategyArg::Truncate => "truncate",
                StrategyArg::Hybrid => "hybrid",
            };
            flags.push(flag(
                "services.compression.strategy",
                "--strategy",
                json!(name),
            ));
        }
        if let Some(target) = self.target {
            flags.push(flag(
                "services.compression.targetTokens",
                "--target",
                json!(target),
            ));
        }
        if let Some(tokens) = self.preserve_recent {
            flags.push(flag(
                "services.compression.preserveRecent",
                "--preserve-recent",
                json!(tokens),
            ));
        }
        if let Some(tokens) = self.summary_max_tokens {
            flags.push(flag(
                "services.compression.summaryMaxTokens",
                "--summary-max-tokens",
                json!(tokens),
            ));
        }
        if self.no_keep_user_messages {
            flags.push(flag(
                "services.compression.keepUserMessages",
                "--no-keep-user-messages",
                json!(false),
            ));
        }
        if let Some(api) = self.summarizer_api {
            let name = match api {
                ApiArg::Openai => "openai",
                ApiArg::Ollama => "ollama",
            };
            flags.push(flag(
                "services.compression.summarizer.api",
                "--summarizer-api",
                json!(name),
            ));
        }
        if let Some(url) = &self.summarizer_url {
            flags.push(flag(
                "services.compression.summarizer.url",
                "--summarizer-url",
                json!(url),
            ));
        }
        if let Some(model) = &self.summarizer_model {
            flags.push(flag(
                "services.compression.summarizer.model",
                "--summarizer-model",
                json!(model),
            ));
        }
        if let Some(timeout) = self.timeout {
            flags.push(flag(
                "services.compression.summarizer.timeout",
                "--timeout",
                json!(timeout),
            ));
        }
        flags
    }
}

fn load(global: &GlobalOpts, flags: Vec<FlagOverride>) -> Result<Loaded> {
    config::load(&LoadOptions {
        config_file: global.config.clone(),
        flags,
        ..LoadOptions::default()
    })
}

/// The summarizer timeout as a Duration (at most a day; config checks it is positive).
pub fn timeout_of(config: &CompressionConfig) -> Duration {
    Duration::try_from_secs_f64(config.summarizer.timeout)
        .unwrap_or(Duration::MAX)
        .min(Duration::from_secs(86_400))
}

/// The tokenizer in force; an unknown name is blamed on where it came from.
fn tokenizer_in(loaded: &Loaded) -> Result<Tokenizer> {
    tokenizer_of(&loaded.config.services.compression)
        .map_err(|err| loaded.blame("services.compression.tokenizer", err))
}

/// The tokenizer configured in `config`.
pub fn tokenizer_of(config: &CompressionConfig) -> Result<Tokenizer> {
    let url = if config.tokenizer_url.trim().is_empty() {
        &config.summarizer.url
    } else {
        &config.tokenizer_url
    };
    Tokenizer::from_name(&config.tokenizer, url, timeout_of(config))
}

/// The history to work on; `what` names the work for the terminal hint.
fn read_history(input: &InputArgs, config: &config::Config, what: &str) -> Result<History> {
    if let Some(id) = &input.session.resolve(&Store::from_config(config)?)? {
        if input.input != "-" {
            return Err(crate::Error::usage(
                "give INPUT or --session, not both (try --help)",
            ));
        }
        return super::session::stored_history(&Store::from_config(config)?, id);
    }
    let source = input.input.as_str();
    crate::cli::require_piped_stdin(
        source,
        what,
        "pipe a JSON history in, or name a file or --session ID",
    )?;
    let text = io_util::read_text(source).map_err(|err| {
        crate::cli::hint_subcommand(err, source, &<Cli as clap::CommandFactory>::command())
    })?;
    let name = if source == "-" {
        "standard input"
    } else {
        source
    };
    let value: Value = io_util::parse_json(&text, name)?;
    History::from_json(value)
}

/// Settings of one compression from the effective configuration.
pub fn settings_of(config: &CompressionConfig, force: bool) -> Settings {
    Settings {
        enabled: config.enabled,
        strategy: config.strategy,
        limit: config.token_limit,
        threshold: config.threshold,
        trigger: config.trigger,
        target: (config.target_tokens > 0).then_some(config.target_tokens),
        preserve_recent: config.preserve_recent,
        summary_max_tokens: config.summary_max_tokens,
        keep_user_messages: config.keep_user_messages,
        max_input_tokens: config.summarizer.max_input_tokens,
        force,
    }
}

/// The summarizer: `--summarizer-cmd`, or the configured model server.
pub fn summarizer_of(config: &CompressionConfig, command: Option<&str>) -> Box<dyn Summarizer> {
    let timeout = timeout_of(config);
    match command {
        Some(command) => Box::new(CommandSummarizer {
            command: command.to_string(),
            timeout,
        }),
        None => Box::new(HttpSummarizer {
            api: config.summarizer.api,
            url: config.summarizer.url.clone(),
            model: config.summarizer.model.clone(),
            timeout,
        }),
    }
}

fn run_compress(global: &GlobalOpts, args: &CompressArgs) -> Result<ExitCode> {
    let loaded = load(global, args.overrides())?;
    let config = &loaded.config.services.compression;
    let tokenizer = tokenizer_in(&loaded)?;
    let summarizer = summarizer_of(config, args.summarizer_cmd.as_deref());
    let settings = settings_of(config, args.force);
    if let Some(id) = &args
        .input
        .session
        .resolve(&Store::from_config(&loaded.config)?)?
    {
        if args.input.input != "-" {
            return Err(crate::Error::usage(
                "give INPUT or --session, not both (try --help)",
            ));
        }
        let all = &loaded.config;
        let policy = SnapshotPolicy {
            enabled: all.snapshots.enabled && all.snapshots.auto_create,
            threshold: all.snapshots.auto_threshold,
        };
        let done = compress_session(
            &Store::from_config(all)?,
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
        let mut out = done.outcome.to_json(done.has_tool_calls);
        out["sessionId"] = json!(id);
        out["compressionCount"] = json!(done.compression_count);
        out["snapshotId"] = json!(done.snapshot_id);
        if let Some(warning) = &done.snapshot_warning {
            out["snapshotWarning"] = json!(warning);
        }
        io_util::print_json(&out)?;
        return Ok(ExitCode::Success);
    }
    let history = read_history(&args.input, &loaded.config, "compress")?;
    let outcome = engine::compress(&history, &tokenizer, &settings, summarizer.as_ref())?;
    for warning in &outcome.warnings {
        crate::diag::warn(warning);
    }
    io_util::print_json(&outcome.to_json(history.has_tool_calls))?;
    Ok(ExitCode::Success)
}

fn run_count(global: &GlobalOpts, args: &CountArgs) -> Result<ExitCode> {
    let mut flags = Vec::new();
    args.input.overrides(&mut flags);
    let loaded = load(global, flags)?;
    let tokenizer = tokenizer_in(&loaded)?;
    let history = read_history(&args.input, &loaded.config, "count")?;
    let counts = count_items(&tokenizer, &history.items)?;
    let mut messages = Vec::new();
    let mut calls = Vec::new();
    for (item, tokens) in history.items.iter().zip(&counts.per_item) {
        match &item.kind {
            ItemKind::Message { index, role } => {
                messages.push(json!({"index": index, "role": role, "tokens": tokens}))
            }
            ItemKind::ToolCall { index } => calls.push(json!({
                "index": index,
                "id": item.value.get("id"),
                "name": item.value.get("name"),
                "tokens": tokens,
            })),
        }
    }
    let mut out = json!({
        "tokenizer": counts.tokenizer,
        "tokenizerError": counts.tokenizer_error,
        "total": counts.total,
        "messageOverhead": super::tokens::MESSAGE_OVERHEAD,
        "messages": messages,
    });
    if history.has_tool_calls {
        out["toolCalls"] = Value::Array(calls);
    }
    io_util::print_json(&out)?;
    Ok(ExitCode::Success)
}

fn run_check(global: &GlobalOpts, args: &CheckArgs) -> Result<ExitCode> {
    let mut flags = Vec::new();
    args.input.overrides(&mut flags);
    args.budget.overrides(&mut flags);
    let loaded = load(global, flags)?;
    let config = &loaded.config.services.compression;
    let tokenizer = tokenizer_in(&loaded)?;
    let history = read_history(&args.input, &loaded.config, "check")?;
    let counts = count_items(&tokenizer, &history.items)?;
    let verdict = engine::check(
        &history,
        &counts,
        config.token_limit,
        config.threshold,
        config.trigger,
    );
    let mut out = serde_json::to_value(&verdict).unwrap_or(Value::Null);
    out["tokenizer"] = json!(counts.tokenizer);
    out["tokenizerError"] = json!(counts.tokenizer_error);
    io_util::print_json(&out)?;
    Ok(if verdict.needed {
        ExitCode::Verdict
    } else {
        ExitCode::Success
    })
}

/// The `ollm-compress` program.
pub fn main() -> Result<ExitCode> {
    let cli: Cli = crate::cli::parse()?;
    match &cli.command {
        None => run_compress(&cli.global, &cli.compress),
        Some(Command::Compress(args)) => run_compress(&cli.global, args),
        Some(Command::Count(args)) => run_count(&cli.global, args),
        Some(Command::Check(args)) => run_check(&cli.global, args),
        Some(Command::Config(args)) => {
            let loaded = load(&cli.global, Vec::new())?;
            config::print_config(&loaded, args)?;
            Ok(ExitCode::Success)
        }
    }
}
