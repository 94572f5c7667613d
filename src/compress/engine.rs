//! One compression: check the trigger, split the history, summarize or
//! truncate, fall back to truncation when the summarizer fails or its
//! summary is refused twice ([`super::acceptance`]), and refuse a result
//! that is not smaller than the input.

use serde::Serialize;
use serde_json::{Value, json};

use super::acceptance;
use super::history::{History, Item, ItemKind, SUMMARY_FIELD};
use super::plan::{self, Split, Verdict};
use super::summarizer::{self, Summarizer};
use super::tokens::{Counts, MESSAGE_OVERHEAD, Tokenizer, count_items};
use crate::config::{CompressionStrategy, TriggerMode};
use crate::error::Result;

/// A summary smaller than this is not worth asking a model for.
const MIN_SUMMARY_TOKENS: u64 = 32;

#[derive(Debug, Clone)]
pub struct Settings {
    pub enabled: bool,
    pub strategy: CompressionStrategy,
    pub limit: u64,
    pub threshold: f64,
    pub trigger: TriggerMode,
    /// Explicit target; `None` means threshold × limit.
    pub target: Option<u64>,
    pub preserve_recent: u64,
    pub summary_max_tokens: u64,
    pub keep_user_messages: bool,
    pub max_input_tokens: u64,
    /// The repeated-content rule a summary is checked with.
    pub summary_check: crate::repetition::ContentSettings,
    /// Compress even when the trigger says it is not needed.
    pub force: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(rename = "CompressionStatus")]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Compressed with the strategy asked for.
    Compressed,
    /// Below the trigger; nothing was changed.
    NotNeeded,
    /// `services.compression.enabled` is false; nothing was changed.
    Disabled,
    /// The summarizer failed (unreachable, timeout, empty); truncated instead.
    FallbackTruncate,
    /// The result would not have been smaller; the input is returned unchanged.
    RejectedNotSmaller,
}

/// What one compression did.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub status: Status,
    pub strategy: CompressionStrategy,
    /// The strategy that produced the output, when anything was changed.
    pub applied: Option<CompressionStrategy>,
    pub reason: Option<String>,
    pub items: Vec<Item>,
    pub per_item_tokens: Vec<u64>,
    pub original_tokens: u64,
    pub compressed_tokens: u64,
    pub target: u64,
    /// Tokens of the recent region kept verbatim.
    pub preserved_recent_tokens: u64,
    pub removed_items: usize,
    pub summary_tokens: u64,
    pub summarizer: Option<String>,
    /// Why the summarizer failed, when it did (the result then says so
    /// whatever its status).
    pub summarizer_error: Option<String>,
    pub tokenizer: String,
    /// Why the configured tokenizer was not used, when its server failed.
    pub tokenizer_error: Option<String>,
    pub verdict: Verdict,
    /// Warnings for the caller to print (the summarizer failed, …).
    pub warnings: Vec<String>,
}

impl Outcome {
    pub(crate) fn within_target(&self) -> bool {
        self.compressed_tokens <= self.target
    }

    /// Whether the output differs from the input.
    pub fn changed(&self) -> bool {
        matches!(self.status, Status::Compressed | Status::FallbackTruncate)
    }

    /// The result `ollm-compress` prints; `compressedToolCalls` only when
    /// the input had tool calls.
    pub(crate) fn report(&self, has_tool_calls: bool) -> Report<'_> {
        let (messages, calls) = History::split(&self.items);
        Report {
            status: self.status,
            strategy: strategy_name(self.strategy),
            applied_strategy: self.applied.map(strategy_name),
            reason: self.reason.as_deref(),
            original_token_count: self.original_tokens,
            compressed_token_count: self.compressed_tokens,
            target_tokens: self.target,
            within_target: self.within_target(),
            preserved_recent_tokens: self.preserved_recent_tokens,
            removed_count: self.removed_items,
            summary_tokens: self.summary_tokens,
            summarizer: self.summarizer.as_deref(),
            summarizer_error: self.summarizer_error.as_deref(),
            tokenizer: &self.tokenizer,
            tokenizer_error: self.tokenizer_error.as_deref(),
            check: &self.verdict,
            compressed_messages: messages,
            compressed_tool_calls: has_tool_calls.then_some(calls),
        }
    }
}

fn strategy_name(strategy: CompressionStrategy) -> &'static str {
    match strategy {
        CompressionStrategy::Summarize => "summarize",
        CompressionStrategy::Truncate => "truncate",
        CompressionStrategy::Hybrid => "hybrid",
    }
}

/// What one compression did, as `ollm-compress` prints it.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[schemars(transform = crate::schema::skipped_when_none)]
#[schemars(rename = "CompressionResult")]
#[serde(rename_all = "camelCase")]
pub(crate) struct Report<'a> {
    pub status: Status,
    #[schemars(with = "CompressionStrategy")]
    pub strategy: &'static str,
    #[schemars(with = "Option<CompressionStrategy>")]
    pub applied_strategy: Option<&'static str>,
    pub reason: Option<&'a str>,
    pub original_token_count: u64,
    pub compressed_token_count: u64,
    pub target_tokens: u64,
    pub within_target: bool,
    pub preserved_recent_tokens: u64,
    pub removed_count: usize,
    pub summary_tokens: u64,
    pub summarizer: Option<&'a str>,
    pub summarizer_error: Option<&'a str>,
    pub tokenizer: &'a str,
    pub tokenizer_error: Option<&'a str>,
    pub check: &'a Verdict,
    #[schemars(with = "Vec<crate::session::model::Message>")]
    pub compressed_messages: Vec<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Vec<crate::session::model::ToolCall>>")]
    pub compressed_tool_calls: Option<Vec<Value>>,
}

/// The check verdict for a counted history.
pub fn check(
    history: &History,
    counts: &Counts,
    limit: u64,
    threshold: f64,
    trigger: TriggerMode,
) -> Verdict {
    let system: u64 = counts.per_item[..history.system_len()].iter().sum();
    let summaries: u64 = history
        .items
        .iter()
        .zip(&counts.per_item)
        .skip(history.system_len())
        .filter(|(item, _)| item.is_summary())
        .map(|(_, tokens)| tokens)
        .sum();
    plan::verdict(counts.total, system, summaries, limit, threshold, trigger)
}

/// Compresses `history` per `settings`; `summarizer` serves the summarize
/// and hybrid strategies. Only a failure to count tokens is an error: a
/// failing summarizer becomes a truncation with a warning.
pub fn compress(
    history: &History,
    tokenizer: &Tokenizer,
    settings: &Settings,
    summarizer: &dyn Summarizer,
) -> Result<Outcome> {
    compress_with(history, tokenizer, settings, summarizer, &mut |_| Ok(()))
}

/// [`compress`], calling `before` with the verdict once it is decided that
/// a compression will be attempted (the session flow snapshots there).
pub(crate) fn compress_with(
    history: &History,
    tokenizer: &Tokenizer,
    settings: &Settings,
    summarizer: &dyn Summarizer,
    before: &mut dyn FnMut(&Verdict) -> Result<()>,
) -> Result<Outcome> {
    let counts = count_items(tokenizer, &history.items)?;
    let verdict = check(
        history,
        &counts,
        settings.limit,
        settings.threshold,
        settings.trigger,
    );
    let target = settings
        .target
        .unwrap_or((settings.threshold * settings.limit as f64).floor() as u64);
    let unchanged = |status: Status, reason: Option<String>| Outcome {
        status,
        strategy: settings.strategy,
        applied: None,
        reason,
        items: history.items.clone(),
        per_item_tokens: counts.per_item.clone(),
        original_tokens: counts.total,
        compressed_tokens: counts.total,
        target,
        preserved_recent_tokens: 0,
        removed_items: 0,
        summary_tokens: 0,
        summarizer: None,
        summarizer_error: None,
        tokenizer: counts.tokenizer.clone(),
        tokenizer_error: counts.tokenizer_error.clone(),
        verdict: verdict.clone(),
        warnings: Vec::new(),
    };
    if !settings.enabled && !settings.force {
        return Ok(unchanged(Status::Disabled, None));
    }
    if !verdict.needed && !settings.force {
        return Ok(unchanged(Status::NotNeeded, None));
    }
    before(&verdict)?;

    let units = history.units();
    let unit_tokens: Vec<u64> = units.iter().map(|r| counts.of(r.clone())).collect();
    let unit_is_user: Vec<bool> = units
        .iter()
        .map(|r| history.items[r.clone()].iter().all(Item::is_user))
        .collect();
    let first: u64 = counts.per_item[..history.system_len()].iter().sum();
    let wants_summary = settings.strategy != CompressionStrategy::Truncate;
    let recent_budget = match settings.strategy {
        CompressionStrategy::Summarize => 0,
        CompressionStrategy::Truncate => settings.preserve_recent.min(target.saturating_sub(first)),
        CompressionStrategy::Hybrid => settings
            .preserve_recent
            .min(target.saturating_sub(first + settings.summary_max_tokens.min(target / 4))),
    };
    let split = plan::split(
        &unit_tokens,
        &unit_is_user,
        recent_budget,
        settings.keep_user_messages,
    );
    let recent_tokens: u64 = unit_tokens[split.recent_start..].iter().sum();

    let build = Build {
        history,
        counts: &counts,
        units: &units,
        split: &split,
    };
    let mut outcome = if split.old_compressible.is_empty() {
        let mut out = unchanged(
            Status::RejectedNotSmaller,
            Some(nothing_to_compress(
                &split,
                recent_tokens,
                settings.keep_user_messages,
            )),
        );
        out.preserved_recent_tokens = recent_tokens;
        return Ok(out);
    } else if wants_summary {
        let kept_old: u64 = split.old_kept.iter().map(|&u| unit_tokens[u]).sum();
        let room = target.saturating_sub(first + kept_old + recent_tokens + MESSAGE_OVERHEAD + 8);
        let budget = settings
            .summary_max_tokens
            .min(room)
            .max(MIN_SUMMARY_TOKENS);
        match summarize(&build, tokenizer, settings, summarizer, budget) {
            Ok(outcome) => outcome,
            Err(err) => {
                let mut out = truncated(&build, &unit_tokens, target);
                out.status = Status::FallbackTruncate;
                out.reason = Some(format!("summarizer failed: {err}"));
                out.summarizer = Some(summarizer.describe());
                out.summarizer_error = Some(err.to_string());
                out.warnings
                    .push(format!("{err}; falling back to truncate"));
                out
            }
        }
    } else {
        truncated(&build, &unit_tokens, target)
    };
    outcome.strategy = settings.strategy;
    outcome.original_tokens = counts.total;
    outcome.target = target;
    outcome.preserved_recent_tokens = recent_tokens;
    outcome.tokenizer.clone_from(&counts.tokenizer);
    outcome.tokenizer_error.clone_from(&counts.tokenizer_error);
    outcome.verdict = verdict.clone();
    if outcome.compressed_tokens >= counts.total {
        let mut reason = format!(
            "the result ({} tokens) would not be smaller than the input ({} tokens)",
            outcome.compressed_tokens, counts.total
        );
        if let Some(err) = &outcome.summarizer_error {
            reason = format!("summarizer failed: {err}; truncating instead: {reason}");
        }
        let mut out = unchanged(Status::RejectedNotSmaller, Some(reason));
        out.preserved_recent_tokens = recent_tokens;
        out.summarizer = outcome.summarizer;
        out.summarizer_error = outcome.summarizer_error;
        out.warnings = outcome.warnings;
        return Ok(out);
    }
    if !outcome.within_target() && outcome.reason.is_none() {
        outcome.reason = Some(over_target(
            &outcome,
            first,
            recent_tokens,
            settings.keep_user_messages,
        ));
    }
    Ok(outcome)
}

struct Build<'a> {
    history: &'a History,
    counts: &'a Counts,
    units: &'a [std::ops::Range<usize>],
    split: &'a Split,
}

impl Build<'_> {
    /// The output: the system prompt, then every unit in its place except
    /// the `dropped` ones, with `summary` where the newest dropped unit
    /// stood (so it follows what it summarizes and precedes everything
    /// newer, and the newest message stays last).
    fn assemble(&self, dropped: &[usize], summary: Option<(Item, u64)>) -> (Vec<Item>, Vec<u64>) {
        let mut is_dropped = vec![false; self.units.len()];
        for &u in dropped {
            is_dropped[u] = true;
        }
        let summary_unit = dropped.iter().max().copied();
        let mut summary = summary;
        let mut items = Vec::new();
        let mut tokens = Vec::new();
        let mut extend = |items: &mut Vec<Item>, range: std::ops::Range<usize>| {
            for i in range {
                items.push(self.history.items[i].clone());
                tokens.push(self.counts.per_item[i]);
            }
        };
        extend(&mut items, 0..self.history.system_len());
        let mut summary_at = None;
        for (u, range) in self.units.iter().enumerate() {
            if !is_dropped[u] {
                extend(&mut items, range.clone());
            } else if Some(u) == summary_unit {
                summary_at = Some(items.len());
            }
        }
        if let (Some(at), Some((item, count))) = (summary_at, summary.take()) {
            items.insert(at, item);
            tokens.insert(at, count);
        }
        (items, tokens)
    }

    fn removed_items(&self, dropped: &[usize]) -> usize {
        dropped.iter().map(|&u| self.units[u].len()).sum()
    }
}

fn truncated(build: &Build, unit_tokens: &[u64], target: u64) -> Outcome {
    let dropped = plan::truncate(build.split, unit_tokens, build.counts.total, target);
    let (items, per_item_tokens) = build.assemble(&dropped, None);
    let compressed_tokens = per_item_tokens.iter().sum();
    Outcome {
        status: Status::Compressed,
        strategy: CompressionStrategy::Truncate,
        applied: Some(CompressionStrategy::Truncate),
        reason: None,
        removed_items: build.removed_items(&dropped),
        items,
        per_item_tokens,
        original_tokens: build.counts.total,
        compressed_tokens,
        target,
        preserved_recent_tokens: 0,
        summary_tokens: 0,
        summarizer: None,
        summarizer_error: None,
        tokenizer: String::new(),
        tokenizer_error: None,
        verdict: plan::verdict(0, 0, 0, 1, 1.0, TriggerMode::Static),
        warnings: Vec::new(),
    }
}

fn summarize(
    build: &Build,
    tokenizer: &Tokenizer,
    settings: &Settings,
    summarizer: &dyn Summarizer,
    budget: u64,
) -> std::result::Result<Outcome, summarizer::SummarizeError> {
    let old_items: Vec<&Item> = build.units[..build.split.recent_start]
        .iter()
        .flat_map(|r| build.history.items[r.clone()].iter())
        .collect();
    let fail = |e: crate::Error| summarizer::SummarizeError(e.to_string());
    let prompt = summarizer::build_prompt(&old_items, budget, settings.max_input_tokens, tokenizer)
        .map_err(fail)?;
    let dropped = build.split.old_compressible.clone();
    let original_tokens: u64 = dropped
        .iter()
        .map(|&u| build.counts.of(build.units[u].clone()))
        .sum();
    let check = acceptance::Check {
        replaced_tokens: original_tokens,
        repetition: settings.summary_check,
    };
    let accepted = acceptance::summarize_checked(summarizer, &prompt, tokenizer, &check)?;
    let text = accepted.text;
    let replaced = build.removed_items(&dropped);
    let header = format!("[Summary of {replaced} earlier messages and tool calls]\n");
    let header_tokens = tokenizer.count(&header).map_err(fail)?;
    let body = tokenizer
        .truncate(&text, budget.saturating_sub(header_tokens))
        .map_err(fail)?;
    let summary_text = format!("{header}{body}");
    let summary_tokens = tokenizer.count(&summary_text).map_err(fail)? + MESSAGE_OVERHEAD;
    let mut value = json!({
        "role": "system",
        "parts": [{"type": "text", "text": summary_text}],
    });
    let newest_replaced = dropped
        .iter()
        .max()
        .and_then(|&u| build.units[u].clone().last())
        .map(|i| &build.history.items[i]);
    if let Some(stamp) = newest_replaced.and_then(|item| item.timestamp()) {
        value["timestamp"] = Value::String(stamp.to_string());
    }
    value[SUMMARY_FIELD] = json!({
        "replacedCount": replaced,
        "replacedTokens": original_tokens,
        "summarizer": summarizer.describe(),
    });
    let item = Item {
        kind: ItemKind::Message {
            index: usize::MAX,
            role: "system".into(),
        },
        value,
    };
    let (items, per_item_tokens) = build.assemble(&dropped, Some((item, summary_tokens)));
    let compressed_tokens = per_item_tokens.iter().sum();
    Ok(Outcome {
        status: Status::Compressed,
        strategy: settings.strategy,
        applied: Some(settings.strategy),
        reason: None,
        removed_items: replaced,
        items,
        per_item_tokens,
        original_tokens: build.counts.total,
        compressed_tokens,
        target: 0,
        preserved_recent_tokens: 0,
        summary_tokens,
        summarizer: Some(summarizer.describe()),
        summarizer_error: None,
        tokenizer: String::new(),
        tokenizer_error: None,
        verdict: plan::verdict(0, 0, 0, 1, 1.0, TriggerMode::Static),
        warnings: accepted
            .first_refused
            .map(|why| format!("first summary refused ({why}); the stricter retry was accepted"))
            .into_iter()
            .collect(),
    })
}

fn nothing_to_compress(split: &Split, recent_tokens: u64, keep_user: bool) -> String {
    if split.recent_start == 0 && recent_tokens == 0 {
        "there is nothing after the system prompt to compress".into()
    } else if split.recent_start == 0 {
        format!(
            "every message after the system prompt is in the preserved recent {recent_tokens} tokens"
        )
    } else if keep_user {
        "the only older messages are user messages, which are kept (keepUserMessages)".into()
    } else {
        "nothing older than the preserved recent messages can be compressed".into()
    }
}

fn over_target(outcome: &Outcome, first: u64, recent_tokens: u64, keep_user: bool) -> String {
    let users = if keep_user {
        ", user messages (kept: keepUserMessages)"
    } else {
        ""
    };
    format!(
        "still above the target of {} tokens: the system prompt ({first}){users}, the recent \
{recent_tokens} tokens and the summary ({}) are kept",
        outcome.target, outcome.summary_tokens
    )
}

#[cfg(test)]
mod tests;
