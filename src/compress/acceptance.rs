//! A summary is checked before it replaces anything: one that loops (the
//! repeated-content rule of loopcheck, [`crate::repetition`]) or that is not
//! shorter, in tokens, than what it replaces is refused. A refused summary
//! is asked for once more, with a stricter prompt at temperature 0; when
//! that one is refused too (or fails), the caller falls back to truncation
//! and reports both reasons in `summarizerError`.

use super::summarizer::{Prompt, SummarizeError, Summarizer};
use super::tokens::Tokenizer;
use crate::repetition::{self, ContentSettings};

/// What a summary is checked against.
#[derive(Debug, Clone, Copy)]
pub struct Check {
    /// Tokens of the messages and tool calls the summary replaces.
    pub replaced_tokens: u64,
    /// The repeated-content rule's settings.
    pub repetition: ContentSettings,
}

/// An accepted summary, and why an earlier one was refused when it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accepted {
    pub text: String,
    pub first_refused: Option<String>,
}

/// Why `text` is not acceptable as a summary, or `None` when it is.
pub fn refusal(
    text: &str,
    tokenizer: &Tokenizer,
    check: &Check,
) -> Result<Option<String>, SummarizeError> {
    if let Some(found) = repetition::find(text, check.repetition) {
        return Ok(Some(format!(
            "the summary repeats itself (a passage of about {} characters {} times in a row)",
            found.period, found.count
        )));
    }
    let tokens = tokenizer
        .count(text)
        .map_err(|e| SummarizeError(e.to_string()))?;
    Ok((tokens >= check.replaced_tokens).then(|| {
        format!(
            "the summary ({tokens} tokens) is not shorter than what it replaces ({} tokens)",
            check.replaced_tokens
        )
    }))
}

/// The stricter prompt of the one retry.
pub fn stricter(prompt: &Prompt, why: &str) -> Prompt {
    Prompt {
        system: format!(
            "{} Write each fact once: never repeat a sentence, a list item or a passage. Be brief.",
            prompt.system
        ),
        user: format!(
            "A first summary was refused because {why}. Write a new one: short, each fact once, \
at most {} tokens.\n\n{}",
            prompt.max_tokens, prompt.user
        ),
        max_tokens: prompt.max_tokens,
        temperature: 0.0,
    }
}

/// Asks `summarizer` for a summary, checks it, and retries once when it is refused.
pub fn summarize_checked(
    summarizer: &dyn Summarizer,
    prompt: &Prompt,
    tokenizer: &Tokenizer,
    check: &Check,
) -> Result<Accepted, SummarizeError> {
    let text = summarizer.summarize(prompt)?;
    let Some(why) = refusal(&text, tokenizer, check)? else {
        return Ok(Accepted {
            text,
            first_refused: None,
        });
    };
    let retry = stricter(prompt, &why);
    let second = summarizer.summarize(&retry).map_err(|err| {
        SummarizeError(format!(
            "summary refused: {why}; the retry with a stricter prompt failed: {err}"
        ))
    })?;
    match refusal(&second, tokenizer, check)? {
        None => Ok(Accepted {
            text: second,
            first_refused: Some(why),
        }),
        Some(again) => Err(SummarizeError(format!(
            "summary refused: {why}; refused again after a retry with a stricter prompt at temperature 0: {again}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use super::*;

    /// Replies with the next scripted answer and keeps the prompts it was given.
    struct Scripted {
        replies: RefCell<Vec<Result<String, SummarizeError>>>,
        prompts: RefCell<Vec<Prompt>>,
    }

    impl Scripted {
        fn new(replies: &[Result<&str, &str>]) -> Scripted {
            Scripted {
                replies: RefCell::new(
                    replies
                        .iter()
                        .rev()
                        .map(|r| r.map(String::from).map_err(|e| SummarizeError(e.into())))
                        .collect(),
                ),
                prompts: RefCell::new(Vec::new()),
            }
        }
    }

    impl Summarizer for Scripted {
        fn describe(&self) -> String {
            "scripted".into()
        }
        fn summarize(&self, prompt: &Prompt) -> Result<String, SummarizeError> {
            self.prompts.borrow_mut().push(prompt.clone());
            self.replies
                .borrow_mut()
                .pop()
                .unwrap_or_else(|| Err(SummarizeError("no more replies".into())))
        }
    }

    const CHECK: Check = Check {
        replaced_tokens: 400,
        repetition: ContentSettings {
            min_span: 50,
            threshold: 4,
        },
    };

    fn prompt() -> Prompt {
        Prompt {
            system: "sys".into(),
            user: "summarize".into(),
            max_tokens: 100,
            temperature: 0.2,
        }
    }

    fn degenerate() -> String {
        "Goal: fix the build. The assistant ran cargo build and it failed again. ".repeat(8)
    }

    const GOOD: &str = "Goal: fix the build.\nDecisions: none yet.\nFiles and artifacts: Cargo.toml.\nOpen tasks: find why cargo build fails.";

    #[test]
    fn a_good_summary_is_accepted_at_once() {
        let s = Scripted::new(&[Ok(GOOD)]);
        let got = summarize_checked(&s, &prompt(), &Tokenizer::Cl100k, &CHECK).unwrap();
        assert_eq!(got.text, GOOD);
        assert_eq!(got.first_refused, None);
        assert_eq!(s.prompts.borrow().len(), 1);
    }

    #[test]
    fn a_looping_summary_is_refused_and_the_stricter_retry_accepted() {
        let looping = degenerate();
        let s = Scripted::new(&[Ok(&looping), Ok(GOOD)]);
        let got = summarize_checked(&s, &prompt(), &Tokenizer::Cl100k, &CHECK).unwrap();
        assert_eq!(got.text, GOOD);
        assert!(got.first_refused.unwrap().contains("repeats itself"));
        let prompts = s.prompts.borrow();
        assert_eq!(prompts.len(), 2);
        assert_eq!(prompts[1].temperature, 0.0);
        assert!(prompts[0].temperature > 0.0);
        assert!(prompts[1].system.contains("never repeat"));
        assert!(prompts[1].user.contains("repeats itself"));
    }

    #[test]
    fn a_summary_not_shorter_than_what_it_replaces_is_refused() {
        let check = Check {
            replaced_tokens: 20,
            ..CHECK
        };
        let why = refusal(GOOD, &Tokenizer::Cl100k, &check).unwrap().unwrap();
        assert!(
            why.contains("not shorter than what it replaces (20 tokens)"),
            "{why}"
        );
        let roomy = Check {
            replaced_tokens: 1000,
            ..CHECK
        };
        assert_eq!(refusal(GOOD, &Tokenizer::Cl100k, &roomy).unwrap(), None);
    }

    #[test]
    fn refused_twice_or_a_failed_retry_is_an_error_giving_both_reasons() {
        let looping = degenerate();
        let s = Scripted::new(&[Ok(&looping), Ok(&looping)]);
        let err = summarize_checked(&s, &prompt(), &Tokenizer::Cl100k, &CHECK).unwrap_err();
        assert!(
            err.0
                .starts_with("summary refused: the summary repeats itself"),
            "{err}"
        );
        assert!(err.0.contains("refused again after a retry"), "{err}");
        let s = Scripted::new(&[Ok(&looping), Err("timed out")]);
        let err = summarize_checked(&s, &prompt(), &Tokenizer::Cl100k, &CHECK).unwrap_err();
        assert!(
            err.0
                .contains("retry with a stricter prompt failed: timed out"),
            "{err}"
        );
        // A summarizer that fails outright is not retried.
        let s = Scripted::new(&[Err("connection refused"), Ok(GOOD)]);
        let err = summarize_checked(&s, &prompt(), &Tokenizer::Cl100k, &CHECK).unwrap_err();
        assert_eq!(err.0, "connection refused");
        assert_eq!(s.prompts.borrow().len(), 1);
    }

    #[test]
    fn a_disabled_repetition_rule_checks_length_only() {
        let looping = degenerate();
        let off = Check {
            replaced_tokens: 10_000,
            repetition: ContentSettings {
                min_span: 50,
                threshold: 0,
            },
        };
        assert_eq!(refusal(&looping, &Tokenizer::Cl100k, &off).unwrap(), None);
    }
}
