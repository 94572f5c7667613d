//! The compression service as the configuration sets it up: tokenizer,
//! summarizer, timeout and settings from `services.compression`.

use std::time::Duration;

use super::engine::Settings;
use super::summarizer::{CommandSummarizer, HttpSummarizer, Summarizer};
use super::tokens::Tokenizer;
use crate::config::{CompressionConfig, LoopDetectionConfig};
use crate::error::Result;

/// The summarizer timeout as a Duration (at most a day; config checks it is positive).
pub(crate) fn timeout_of(config: &CompressionConfig) -> Duration {
    Duration::try_from_secs_f64(config.summarizer.timeout)
        .unwrap_or(Duration::MAX)
        .min(Duration::from_secs(86_400))
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

/// Settings of one compression from the effective configuration; a summary
/// is checked with loop detection's repeated-content rule (`loops`).
pub(crate) fn settings_of(
    config: &CompressionConfig,
    loops: &LoopDetectionConfig,
    force: bool,
) -> Settings {
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
        summary_check: loops.into(),
        force,
    }
}

/// The summarizer: a shell command when given, else the configured model server.
pub(crate) fn summarizer_of(
    config: &CompressionConfig,
    command: Option<&str>,
) -> Box<dyn Summarizer> {
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
