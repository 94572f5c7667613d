use super::*;
use crate::compress::summarizer::{Prompt, SummarizeError};

struct Fixed(&'static str);

impl Summarizer for Fixed {
    fn describe(&self) -> String {
        "fixed".into()
    }
    fn summarize(&self, _: &Prompt) -> std::result::Result<String, SummarizeError> {
        match self.0 {
            "" => Err(SummarizeError("down".into())),
            text => Ok(text.into()),
        }
    }
}

fn history(roles: &[&str]) -> History {
    let list: Vec<Value> = roles
            .iter()
            .enumerate()
            .map(|(i, role)| {
                json!({"role": role, "parts": [{"type": "text", "text": format!("{role} {i} {}", "word ".repeat(40))}],
                       "timestamp": format!("2026-01-27T10:00:{i:02}Z")})
            })
            .collect();
    History::from_json(Value::Array(list)).unwrap()
}

fn settings(strategy: CompressionStrategy) -> Settings {
    Settings {
        enabled: true,
        strategy,
        limit: 400,
        threshold: 0.8,
        trigger: TriggerMode::Static,
        target: None,
        preserve_recent: 100,
        summary_max_tokens: 60,
        keep_user_messages: true,
        max_input_tokens: 2000,
        summary_check: crate::repetition::ContentSettings {
            min_span: 50,
            threshold: 4,
        },
        force: false,
    }
}

fn roles(outcome: &Outcome) -> Vec<String> {
    outcome
        .items
        .iter()
        .map(|i| {
            if i.is_summary() {
                "summary".to_string()
            } else {
                i.role().to_string()
            }
        })
        .collect()
}

#[test]
fn hybrid_puts_the_summary_between_old_user_messages_and_the_recent_turns() {
    let h = history(&[
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
        "assistant",
    ]);
    let out = compress(
        &h,
        &Tokenizer::Cl100k,
        &settings(CompressionStrategy::Hybrid),
        &Fixed("Goal: g"),
    )
    .unwrap();
    assert_eq!(out.status, Status::Compressed);
    assert_eq!(
        roles(&out),
        ["system", "user", "user", "summary", "user", "assistant"]
    );
    assert_eq!(out.removed_items, 2);
    assert!(out.within_target(), "{out:?}");
    let summary = out.items.iter().find(|i| i.is_summary()).unwrap();
    assert_eq!(summary.value[SUMMARY_FIELD]["replacedCount"], 2);
    assert!(summary.text().ends_with("Goal: g"));
}

#[test]
fn a_failing_summarizer_truncates_and_says_why() {
    let h = history(&[
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
        "assistant",
    ]);
    let out = compress(
        &h,
        &Tokenizer::Cl100k,
        &settings(CompressionStrategy::Summarize),
        &Fixed(""),
    )
    .unwrap();
    assert_eq!(out.status, Status::FallbackTruncate);
    assert_eq!(out.applied, Some(CompressionStrategy::Truncate));
    assert!(out.reason.as_deref().unwrap().contains("down"));
    assert_eq!(out.warnings.len(), 1);
    assert!(out.compressed_tokens < out.original_tokens);
}

#[test]
fn a_summary_longer_than_its_budget_is_cut_to_it() {
    let h = history(&[
        "system",
        "user",
        "assistant",
        "assistant",
        "assistant",
        "user",
        "assistant",
    ]);
    let words = [
        "parser", "store", "index", "branch", "token", "model", "prompt",
    ];
    let long: String = (0..45)
        .map(|i| format!("{} {} ", words[i % 7], words[(i / 7) % 7]))
        .collect();
    let long: &'static str = Box::leak(long.into_boxed_str());
    let out = compress(
        &h,
        &Tokenizer::Cl100k,
        &settings(CompressionStrategy::Hybrid),
        &Fixed(long),
    )
    .unwrap();
    assert_eq!(out.status, Status::Compressed);
    assert!(
        out.summary_tokens <= 60 + MESSAGE_OVERHEAD,
        "{}",
        out.summary_tokens
    );
}

#[test]
fn disabled_and_below_the_trigger_change_nothing() {
    let h = history(&["system", "user", "assistant"]);
    let out = compress(
        &h,
        &Tokenizer::Cl100k,
        &settings(CompressionStrategy::Hybrid),
        &Fixed("x"),
    )
    .unwrap();
    assert_eq!(out.status, Status::NotNeeded);
    let mut off = settings(CompressionStrategy::Hybrid);
    off.enabled = false;
    off.limit = 10;
    let out = compress(&h, &Tokenizer::Cl100k, &off, &Fixed("x")).unwrap();
    assert_eq!(out.status, Status::Disabled);
    assert_eq!(out.items.len(), 3);
}
