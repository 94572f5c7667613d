//! Pure decisions: whether compression is needed (the static trigger of
//! Requirement 3 / Property 10, or document 003's dynamic budget), and which
//! units of a history are kept, summarized or dropped.

use serde::Serialize;

use crate::config::TriggerMode;

/// Property 10: needed when `tokens` exceeds `threshold × limit`.
pub fn exceeds(tokens: u64, limit: u64, threshold: f64) -> bool {
    tokens as f64 > threshold * limit as f64
}

/// The verdict of `check`, with the numbers behind it.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[schemars(rename = "CompressionVerdict")]
#[serde(rename_all = "camelCase")]
pub struct Verdict {
    pub needed: bool,
    pub trigger: TriggerMode,
    /// Every message and tool call, counted.
    pub token_count: u64,
    pub limit: u64,
    pub threshold: f64,
    /// The first message (the system prompt).
    pub system_prompt_tokens: u64,
    /// Summary messages left by earlier compressions.
    pub summary_tokens: u64,
    /// `limit`, or under `dynamic`, limit − system prompt − earlier summaries.
    pub available: u64,
    /// The tokens compared with `triggerAt`: all of them (static), or all
    /// but the system prompt and earlier summaries (dynamic).
    pub compared_tokens: u64,
    /// threshold × available.
    pub trigger_at: f64,
}

/// Decides whether compression is needed.
///
/// Static (the default): `token_count > threshold × limit`. Dynamic
/// (document 003): the budget left after the system prompt and earlier
/// summaries is `available = limit − fixed`, and compression is needed when
/// the rest of the history exceeds `threshold × available`, so a history
/// just compressed does not trigger again because of its own summary.
pub fn verdict(
    token_count: u64,
    system_prompt_tokens: u64,
    summary_tokens: u64,
    limit: u64,
    threshold: f64,
    trigger: TriggerMode,
) -> Verdict {
    let (available, compared) = match trigger {
        TriggerMode::Static => (limit, token_count),
        TriggerMode::Dynamic => {
            let fixed = system_prompt_tokens + summary_tokens;
            (
                limit.saturating_sub(fixed),
                token_count.saturating_sub(fixed),
            )
        }
    };
    Verdict {
        needed: exceeds(compared, available, threshold),
        trigger,
        token_count,
        limit,
        threshold,
        system_prompt_tokens,
        summary_tokens,
        available,
        compared_tokens: compared,
        trigger_at: threshold * available as f64,
    }
}

/// How the units after the first message are split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// Units from here on are the recent region, kept verbatim.
    pub recent_start: usize,
    /// Old units kept verbatim (user messages, when they are kept).
    pub old_kept: Vec<usize>,
    /// Old units that may be summarized or dropped, oldest first.
    pub old_compressible: Vec<usize>,
}

/// Splits units into the recent region (the longest run of whole units at
/// the end whose tokens add up to at most `recent_budget`, and always at
/// least the newest unit, so the conversation still ends with what the model
/// has to answer) and the old region, where user units are kept when
/// `keep_user` is set.
pub fn split(
    unit_tokens: &[u64],
    unit_is_user: &[bool],
    recent_budget: u64,
    keep_user: bool,
) -> Split {
    let mut recent_start = unit_tokens.len();
    let mut recent = 0u64;
    while recent_start > 0 {
        let tokens = unit_tokens[recent_start - 1];
        if recent + tokens > recent_budget {
            break;
        }
        recent += tokens;
        recent_start -= 1;
    }
    if recent_start == unit_tokens.len() {
        recent_start = recent_start.saturating_sub(1);
    }
    let (old_kept, old_compressible) =
        (0..recent_start).partition(|&u| keep_user && unit_is_user[u]);
    Split {
        recent_start,
        old_kept,
        old_compressible,
    }
}

/// The truncate strategy: drops compressible old units, oldest first, until
/// `total` is at most `target`. Returns the units dropped.
pub fn truncate(split: &Split, unit_tokens: &[u64], total: u64, target: u64) -> Vec<usize> {
    let mut total = total;
    let mut dropped = Vec::new();
    for &unit in &split.old_compressible {
        if total <= target {
            break;
        }
        total -= unit_tokens[unit];
        dropped.push(unit);
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn static_trigger_is_strictly_above_threshold_times_limit() {
        assert!(!verdict(80, 10, 0, 100, 0.8, TriggerMode::Static).needed);
        assert!(verdict(81, 10, 0, 100, 0.8, TriggerMode::Static).needed);
    }

    #[test]
    fn dynamic_trigger_matches_document_003s_example() {
        // 6963 limit, 500 system prompt, 2000 checkpoint: available 4463, trigger at 3570.4.
        let v = verdict(
            500 + 2000 + 3570,
            500,
            2000,
            6963,
            0.8,
            TriggerMode::Dynamic,
        );
        assert_eq!(v.available, 4463);
        assert!((v.trigger_at - 3570.4).abs() < 1e-9);
        assert!(!v.needed);
        assert!(
            verdict(
                500 + 2000 + 3571,
                500,
                2000,
                6963,
                0.8,
                TriggerMode::Dynamic
            )
            .needed
        );
    }

    #[test]
    fn split_keeps_whole_recent_units_and_old_user_messages() {
        let tokens = [10, 20, 30, 40, 50];
        let users = [true, false, true, false, false];
        let s = split(&tokens, &users, 95, true);
        assert_eq!(s.recent_start, 3);
        assert_eq!(s.old_kept, vec![0, 2]);
        assert_eq!(s.old_compressible, vec![1]);
        let s = split(&tokens, &users, 40, false);
        assert_eq!(
            s.recent_start, 4,
            "the newest unit is recent even over budget"
        );
        assert_eq!(s.old_compressible, vec![0, 1, 2, 3]);
        let s = split(&tokens, &users, 0, true);
        assert_eq!((s.recent_start, s.old_kept), (4, vec![0, 2]));
        assert_eq!(split(&[], &[], 0, true).recent_start, 0);
    }

    #[test]
    fn truncate_drops_oldest_until_within_target() {
        let tokens = [10, 20, 30, 40];
        let s = split(&tokens, &[false; 4], 40, true);
        assert_eq!(truncate(&s, &tokens, 105, 80), vec![0, 1]);
        assert_eq!(truncate(&s, &tokens, 105, 0), vec![0, 1, 2]);
        assert!(truncate(&s, &tokens, 105, 200).is_empty());
    }
}
