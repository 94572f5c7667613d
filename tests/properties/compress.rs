//! Properties 10–13: compression trigger, what compression preserves, that
//! it shrinks the history, and the session's compression count.
//!
//! The summarizer here is a deterministic test double (or one that always
//! fails, to exercise the truncate fallback); the real model is exercised by
//! the end-to-end tests.

use ollm::compress::engine::{self, Settings, Status};
use ollm::compress::history::{History, Item};
use ollm::compress::summarizer::{Prompt, SummarizeError, Summarizer};
use ollm::compress::tokens::{Tokenizer, count_items};
use ollm::config::{CompressionStrategy, TriggerMode};
use proptest::prelude::*;
use serde_json::{Value, json};

const WORDS: &[&str] = &[
    "the",
    "parser",
    "fails",
    "on",
    "src/main.rs",
    "because",
    "a",
    "BOM",
    "is",
    "left",
    "in",
    "header",
    "we",
    "fixed",
    "it",
    "tests",
    "pass",
    "now",
    "42",
    "ünïcode",
    "→",
    "cargo",
];

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(WORDS), 1..120).prop_map(|w| w.join(" "))
}

fn message(role: &'static str, text: String, n: usize) -> Value {
    json!({"role": role, "parts": [{"type": "text", "text": text}],
           "timestamp": stamp(n)})
}

fn stamp(n: usize) -> String {
    format!(
        "2026-01-27T{:02}:{:02}:{:02}Z",
        10 + n / 3600,
        (n / 60) % 60,
        n % 60
    )
}

/// A turn: a user message, an assistant message, or an assistant tool call
/// followed by its result message(s).
#[derive(Debug, Clone)]
enum Turn {
    User(String),
    Assistant(String),
    ToolCall(String, Vec<String>),
}

fn turn() -> impl Strategy<Value = Turn> {
    prop_oneof![
        text().prop_map(Turn::User),
        text().prop_map(Turn::Assistant),
        (text(), prop::collection::vec(text(), 1..3)).prop_map(|(c, r)| Turn::ToolCall(c, r)),
    ]
}

fn history() -> impl Strategy<Value = Vec<Value>> {
    (text(), prop::collection::vec(turn(), 0..30)).prop_map(|(system, turns)| {
        let mut n = 0;
        let mut out = vec![message("system", system, n)];
        for turn in turns {
            n += 1;
            match turn {
                Turn::User(t) => out.push(message("user", t, n)),
                Turn::Assistant(t) => out.push(message("assistant", t, n)),
                Turn::ToolCall(call, results) => {
                    out.push(json!({"role": "assistant", "parts": [
                        {"type": "text", "text": call},
                        {"type": "functionCall", "name": "run", "args": {"n": n}}],
                        "timestamp": stamp(n)}));
                    for r in results {
                        n += 1;
                        out.push(message("tool", r, n));
                    }
                }
            }
        }
        out
    })
}

/// Summarizes to the first `max_tokens / 2` words of the prompt, or fails.
struct Double {
    fail: bool,
}

impl Summarizer for Double {
    fn describe(&self) -> String {
        "test-double".into()
    }
    fn summarize(&self, prompt: &Prompt) -> Result<String, SummarizeError> {
        if self.fail {
            return Err(SummarizeError("unreachable (test double)".into()));
        }
        let words: Vec<&str> = prompt.user.split_whitespace().collect();
        Ok(format!(
            "Goal: {}",
            words[..words.len().min(prompt.max_tokens as usize / 2)].join(" ")
        ))
    }
}

fn strategy() -> impl Strategy<Value = CompressionStrategy> {
    prop_oneof![
        Just(CompressionStrategy::Truncate),
        Just(CompressionStrategy::Summarize),
        Just(CompressionStrategy::Hybrid),
    ]
}

fn settings(strategy: CompressionStrategy, target: u64, preserve_recent: u64) -> Settings {
    Settings {
        enabled: true,
        strategy,
        limit: 100_000,
        threshold: 0.8,
        trigger: TriggerMode::Static,
        target: Some(target),
        preserve_recent,
        summary_max_tokens: 64,
        keep_user_messages: true,
        max_input_tokens: 4000,
        summary_check: (&ollm::config::LoopDetectionConfig::default()).into(),
        force: true,
    }
}

fn values(items: &[Item]) -> Vec<&Value> {
    items.iter().map(|i| &i.value).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Property 10: whenever the token count exceeds threshold × limit, the
    /// check says compression is needed (and, under the static trigger,
    /// only then).
    #[test]
    fn property_10_compression_trigger_threshold(
        messages in history(),
        limit in 1u64..6000,
        threshold in 0.05f64..=1.0,
    ) {
        let history = History::from_json(Value::Array(messages)).unwrap();
        let counts = count_items(&Tokenizer::Cl100k, &history.items).unwrap();
        let verdict = engine::check(&history, &counts, limit, threshold, TriggerMode::Static);
        let over = counts.total as f64 > threshold * limit as f64;
        prop_assert_eq!(verdict.needed, over);
        prop_assert_eq!(verdict.token_count, counts.total);
    }

    /// Property 11: the system prompt (first message) and the most recent N
    /// tokens of whole messages are unchanged in the result, whatever the
    /// strategy and whether the summarizer works; user messages are kept;
    /// a tool call is never separated from its result.
    #[test]
    fn property_11_compression_preserves_critical_messages(
        messages in history(),
        strategy in strategy(),
        fail in any::<bool>(),
        preserve_recent in 0u64..800,
    ) {
        let history = History::from_json(Value::Array(messages)).unwrap();
        let tokenizer = Tokenizer::Cl100k;
        let counts = count_items(&tokenizer, &history.items).unwrap();
        let first = counts.per_item[0];
        // A target that leaves room for the recent region and the summary.
        let target = first + preserve_recent + 64 * 5;
        let outcome = engine::compress(&history, &tokenizer,
            &settings(strategy, target, preserve_recent), &Double { fail }).unwrap();
        let out = values(&outcome.items);
        prop_assert_eq!(out[0], &history.items[0].value);

        // The recent region, computed independently: whole units from the end.
        let n = if strategy == CompressionStrategy::Summarize { 0 } else { preserve_recent };
        let units = history.units();
        let mut recent_items = 0;
        let mut recent_tokens = 0;
        for unit in units.iter().rev() {
            let t = counts.of(unit.clone());
            if recent_tokens + t > n { break; }
            recent_tokens += t;
            recent_items += unit.len();
        }
        let input = values(&history.items);
        prop_assert!(out.len() >= recent_items);
        prop_assert_eq!(&out[out.len() - recent_items..], &input[input.len() - recent_items..]);

        for item in history.items.iter().filter(|i| i.is_user()) {
            prop_assert!(out.contains(&&item.value), "user message dropped");
        }
        for unit in &units {
            let present = history.items[unit.clone()].iter().filter(|i| out.contains(&&i.value)).count();
            prop_assert!(present == 0 || present == unit.len(), "unit split: {:?}", unit);
        }
    }

    /// Property 12: a compression that changes the history makes it smaller
    /// (keeping the system prompt); one that cannot is rejected and returns
    /// the input unchanged.
    #[test]
    fn property_12_compression_reduces_token_count(
        messages in history(),
        strategy in strategy(),
        fail in any::<bool>(),
        target in 0u64..3000,
        preserve_recent in 0u64..1500,
    ) {
        let history = History::from_json(Value::Array(messages)).unwrap();
        let tokenizer = Tokenizer::Cl100k;
        let outcome = engine::compress(&history, &tokenizer,
            &settings(strategy, target, preserve_recent), &Double { fail }).unwrap();
        let recount = count_items(&tokenizer, &outcome.items).unwrap();
        prop_assert_eq!(recount.total, outcome.compressed_tokens, "reported count is the real count");
        prop_assert_eq!(&outcome.items[0].value, &history.items[0].value);
        match outcome.status {
            Status::Compressed | Status::FallbackTruncate => {
                prop_assert!(outcome.compressed_tokens < outcome.original_tokens);
            }
            Status::RejectedNotSmaller => {
                prop_assert_eq!(values(&outcome.items), values(&history.items));
                prop_assert!(outcome.reason.is_some());
            }
            Status::NotNeeded | Status::Disabled => prop_assert!(false, "forced compression skipped"),
        }
        if fail && strategy != CompressionStrategy::Truncate && outcome.status != Status::RejectedNotSmaller {
            prop_assert_eq!(outcome.status, Status::FallbackTruncate);
        }
    }
}

proptest! {
    // Each case writes a session to disk: fewer cases.
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Property 13: each compression of a stored session that changes the
    /// history increases metadata.compressionCount by exactly 1 (and one
    /// that changes nothing leaves it); the session's messages are never
    /// rewritten.
    #[test]
    fn property_13_compression_count_increments(
        messages in history(),
        runs in prop::collection::vec((strategy(), any::<bool>(), any::<bool>(), 0u64..2000), 1..5),
    ) {
        use ollm::compress::session::{SnapshotPolicy, compress_session};
        use ollm::session::{Entry, NewSession, Snapshots, Store, StoreOptions};

        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path().join("sessions"), StoreOptions::default());
        let snapshots = Snapshots::new(dir.path().join("snapshots"), 5);
        let id = store.create(&NewSession { model: "m".into(), provider: "p".into(), title: None, workspace: None })
            .unwrap().session_id;
        for m in &messages {
            store.record(&id, &Entry::from_input(m.clone(), "2026-01-27T10:00:00Z").unwrap(), None).unwrap();
        }
        let stored = store.get(&id).unwrap().messages;
        let policy = SnapshotPolicy { enabled: true, threshold: 0.85 };
        let mut expected = 0;
        for (strategy, force, fail, target) in runs {
            let mut settings = settings(strategy, target, 200);
            settings.force = force;
            settings.limit = 1500;
            let done = compress_session(&store, &snapshots, policy, &id, &Tokenizer::Cl100k,
                &settings, &Double { fail }).unwrap();
            if done.outcome.changed() {
                expected += 1;
            }
            prop_assert_eq!(done.compression_count, expected);
            let session = store.get(&id).unwrap();
            prop_assert_eq!(session.metadata.compression_count, expected);
            prop_assert_eq!(&session.messages, &stored);
        }
    }
}

/// A history as `history()` makes it, or without its system prompt (gemini's
/// shape: the first message is the user's).
fn any_history() -> impl Strategy<Value = Vec<Value>> {
    (history(), any::<bool>()).prop_map(|(mut messages, system)| {
        if !system {
            messages.remove(0);
        }
        messages
    })
}

fn trigger() -> impl Strategy<Value = TriggerMode> {
    prop_oneof![Just(TriggerMode::Static), Just(TriggerMode::Dynamic)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    /// Whatever the strategy and options (user messages kept or not, the
    /// summarizer working or not, any target, recent budget and trigger,
    /// with or without a system prompt), the last message after compression
    /// is the last message before, and a summary stands where the messages
    /// it replaces stood: after every kept message older than the newest of
    /// them and before every newer one. Kept messages keep their order, and
    /// the first message is kept as the system prompt only when its role is
    /// `system`.
    #[test]
    fn the_newest_message_stays_last_and_the_summary_stands_in_place(
        messages in any_history(),
        strategy in strategy(),
        fail in any::<bool>(),
        keep_user in any::<bool>(),
        target in 0u64..3000,
        preserve_recent in 0u64..1500,
        trigger in trigger(),
    ) {
        prop_assume!(!messages.is_empty());
        let history = History::from_json(Value::Array(messages.clone())).unwrap();
        let mut settings = settings(strategy, target, preserve_recent);
        settings.keep_user_messages = keep_user;
        settings.trigger = trigger;
        let outcome = engine::compress(&history, &Tokenizer::Cl100k, &settings, &Double { fail }).unwrap();
        let out = values(&outcome.items);
        prop_assert_eq!(out.last().copied(), messages.last(), "{:?}", outcome.status);

        // Input positions of the kept items, in output order; the summary as None.
        let position = |v: &Value| messages.iter().position(|m| m == v);
        let places: Vec<Option<usize>> = out.iter().map(|v| position(v)).collect();
        let kept: Vec<usize> = places.iter().flatten().copied().collect();
        prop_assert!(kept.windows(2).all(|w| w[0] < w[1]), "kept messages reordered: {:?}", places);
        if messages[0]["role"] == "system" {
            prop_assert_eq!(places[0], Some(0));
        }
        let summaries: Vec<usize> = outcome.items.iter().enumerate()
            .filter(|(_, i)| i.is_summary()).map(|(k, _)| k).collect();
        prop_assert!(summaries.len() <= 1);
        if let Some(&at) = summaries.first() {
            let newest_replaced = (0..messages.len()).rev().find(|p| !kept.contains(p)).expect("a summary replaces something");
            for (k, place) in places.iter().enumerate() {
                match place {
                    Some(p) if k < at => prop_assert!(*p < newest_replaced, "{:?} before the summary at {}", places, at),
                    Some(p) => prop_assert!(*p > newest_replaced, "{:?} after the summary at {}", places, at),
                    None => {}
                }
            }
        }
    }
}

/// A pinned case from gemini-cli's history shape: with
/// `--no-keep-user-messages` and no system message, truncate and hybrid once
/// kept only `[user old]` as if it were the system prompt, dropping the request.
#[test]
fn without_a_system_message_the_newest_request_is_not_dropped() {
    let messages = vec![
        message("user", "old question ".repeat(60), 1),
        message("assistant", "middle answer ".repeat(60), 2),
        message("user", "the newest request".into(), 3),
    ];
    let history = History::from_json(Value::Array(messages.clone())).unwrap();
    for strategy in [
        CompressionStrategy::Truncate,
        CompressionStrategy::Hybrid,
        CompressionStrategy::Summarize,
    ] {
        let mut settings = settings(strategy, 40, 10);
        settings.keep_user_messages = false;
        let outcome = engine::compress(
            &history,
            &Tokenizer::Cl100k,
            &settings,
            &Double { fail: false },
        )
        .unwrap();
        let out = values(&outcome.items);
        assert_eq!(out.last().copied(), messages.last(), "{strategy:?}");
        assert!(!out.contains(&&messages[0]), "{strategy:?}: {out:?}");
    }
}
