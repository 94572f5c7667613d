//! Summarizers: a model over HTTP (OpenAI-compatible `/v1/chat/completions`
//! or Ollama's `/api/chat`) or any command (prompt on stdin, summary on
//! stdout), and the prompt they are given.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::history::Item;
use super::http::{self, HttpError};
use super::tokens::Tokenizer;
use crate::config::SummarizerApi;
use crate::error::Result;

/// What a summarizer is asked.
#[derive(Debug, Clone)]
pub struct Prompt {
    pub system: String,
    pub user: String,
    /// The summary's token budget.
    pub max_tokens: u64,
    /// Sampling temperature for a model (a command summarizer ignores it).
    pub temperature: f64,
}

impl Prompt {
    /// The prompt as one text, for a command's stdin.
    pub(crate) fn as_text(&self) -> String {
        format!("{}\n\n{}", self.system, self.user)
    }
}

/// Why a summary could not be had; the caller falls back to truncation.
#[derive(Debug, Clone)]
pub struct SummarizeError(pub String);

impl std::fmt::Display for SummarizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub trait Summarizer {
    /// Names the summarizer in output (`openai:MODEL@URL`, `command:CMD`).
    fn describe(&self) -> String;
    fn summarize(&self, prompt: &Prompt) -> std::result::Result<String, SummarizeError>;
}

const SYSTEM: &str = "You compress the history of a conversation between a user and an AI \
assistant, so the assistant can continue the work without the full history. Be factual; keep \
names, paths, numbers and decisions exactly; never invent anything.";

/// Each item's text is cut to this many characters (head and tail kept) in
/// the transcript, so one huge tool result cannot crowd out the rest.
const MAX_ITEM_CHARS: usize = 2000;

/// Builds the prompt for a summary of `items` within `budget` tokens; the
/// transcript is kept within `max_input_tokens` by omitting the oldest
/// items (the first is always kept: it usually states the goal).
pub(crate) fn build_prompt(
    items: &[&Item],
    budget: u64,
    max_input_tokens: u64,
    tokenizer: &Tokenizer,
) -> Result<Prompt> {
    let lines: Vec<String> = items.iter().map(|item| transcript_line(item)).collect();
    let mut kept_tokens = 0;
    let mut keep_from = lines.len();
    let first_tokens = match lines.first() {
        Some(line) => tokenizer.count(line)?,
        None => 0,
    };
    while keep_from > 1 {
        let tokens = tokenizer.count(&lines[keep_from - 1])?;
        if first_tokens + kept_tokens + tokens > max_input_tokens {
            break;
        }
        kept_tokens += tokens;
        keep_from -= 1;
    }
    let mut transcript = String::new();
    if let Some(first) = lines.first() {
        transcript.push_str(first);
        transcript.push('\n');
    }
    if keep_from > 1 {
        transcript.push_str(&format!("[… {} messages omitted …]\n", keep_from - 1));
    }
    for line in &lines[keep_from.max(1)..] {
        transcript.push_str(line);
        transcript.push('\n');
    }
    let user = format!(
        "Summarize the conversation below as a state snapshot of at most {budget} tokens, \
with exactly these headings:\n\
Goal: what the user is trying to achieve.\n\
Decisions: what was decided or agreed, and why.\n\
Files and artifacts: files, commands, URLs and other artifacts touched or produced.\n\
Open tasks: what is still to be done.\n\
Write only the snapshot.\n\n<conversation>\n{transcript}</conversation>"
    );
    Ok(Prompt {
        system: SYSTEM.into(),
        user,
        max_tokens: budget,
        temperature: 0.2,
    })
}

fn transcript_line(item: &Item) -> String {
    let text = item.text();
    let text = if text.chars().count() > MAX_ITEM_CHARS {
        let head: String = text.chars().take(MAX_ITEM_CHARS / 2).collect();
        let tail: Vec<char> = text.chars().rev().take(MAX_ITEM_CHARS / 2).collect();
        let tail: String = tail.into_iter().rev().collect();
        format!("{head} […] {tail}")
    } else {
        text
    };
    let label = match &item.kind {
        super::history::ItemKind::ToolCall { .. } => "tool call".to_string(),
        super::history::ItemKind::Message { role, .. } => role.clone(),
    };
    format!("[{label}] {text}")
}

/// A model over HTTP.
pub(crate) struct HttpSummarizer {
    pub api: SummarizerApi,
    pub url: String,
    pub model: String,
    pub timeout: Duration,
}

impl HttpSummarizer {
    fn endpoint(&self) -> String {
        let base = self.url.trim_end_matches('/');
        match self.api {
            SummarizerApi::Openai if base.ends_with("/chat/completions") => base.to_string(),
            SummarizerApi::Openai if base.ends_with("/v1") => format!("{base}/chat/completions"),
            SummarizerApi::Openai => format!("{base}/v1/chat/completions"),
            SummarizerApi::Ollama if base.ends_with("/api/chat") => base.to_string(),
            SummarizerApi::Ollama => format!("{base}/api/chat"),
        }
    }

    fn body(&self, prompt: &Prompt) -> Value {
        let messages = json!([
            {"role": "system", "content": prompt.system},
            {"role": "user", "content": prompt.user},
        ]);
        match self.api {
            SummarizerApi::Openai => json!({
                "model": self.model,
                "messages": messages,
                "max_tokens": prompt.max_tokens,
                "temperature": prompt.temperature,
                "stream": false,
            }),
            SummarizerApi::Ollama => json!({
                "model": self.model,
                "messages": messages,
                "stream": false,
                "options": {"num_predict": prompt.max_tokens, "temperature": prompt.temperature},
            }),
        }
    }
}

impl Summarizer for HttpSummarizer {
    fn describe(&self) -> String {
        let api = match self.api {
            SummarizerApi::Openai => "openai",
            SummarizerApi::Ollama => "ollama",
        };
        format!("{api}:{}@{}", self.model, self.endpoint())
    }

    fn summarize(&self, prompt: &Prompt) -> std::result::Result<String, SummarizeError> {
        let endpoint = self.endpoint();
        let agent = http::agent(self.timeout);
        let reply = http::post_json(&agent, &endpoint, &self.body(prompt).to_string()).map_err(
            |HttpError { message, timed_out }| {
                if timed_out {
                    SummarizeError(format!(
                        "summarizer {endpoint} timed out after {}s",
                        self.timeout.as_secs_f64()
                    ))
                } else {
                    SummarizeError(format!("summarizer {endpoint}: {message}"))
                }
            },
        )?;
        let content = match self.api {
            SummarizerApi::Openai => reply.pointer("/choices/0/message/content"),
            SummarizerApi::Ollama => reply.pointer("/message/content"),
        };
        match content.and_then(Value::as_str) {
            Some(text) => non_empty(text, &endpoint),
            None => Err(SummarizeError(format!(
                "summarizer {endpoint}: reply has no message content"
            ))),
        }
    }
}

fn non_empty(text: &str, source: &str) -> std::result::Result<String, SummarizeError> {
    let text = text.trim();
    if text.is_empty() {
        Err(SummarizeError(format!(
            "summarizer {source} returned an empty summary"
        )))
    } else {
        Ok(text.to_string())
    }
}

/// Any command, run with `sh -c`: the prompt on its stdin, the summary on
/// its stdout. A non-zero exit, a timeout (the child is killed) or an empty
/// stdout is a failure.
pub(crate) struct CommandSummarizer {
    pub command: String,
    pub timeout: Duration,
}

const MAX_SUMMARY_BYTES: u64 = 4 * 1024 * 1024;

impl Summarizer for CommandSummarizer {
    fn describe(&self) -> String {
        format!("command:{}", self.command)
    }

    fn summarize(&self, prompt: &Prompt) -> std::result::Result<String, SummarizeError> {
        let fail = |what: String| SummarizeError(format!("summarizer command: {what}"));
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| fail(format!("cannot start: {}", crate::error::describe_io(&e))))?;
        let input = prompt.as_text();
        let mut stdin = child.stdin.take();
        let writer = std::thread::spawn(move || {
            // A command that does not read its stdin is fine: ignore EPIPE.
            if let Some(stdin) = stdin.as_mut() {
                let _ = stdin.write_all(input.as_bytes());
            }
        });
        let mut stdout = child.stdout.take();
        let reader = std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(out) = stdout.as_mut() {
                let _ = out.take(MAX_SUMMARY_BYTES).read_to_end(&mut bytes);
            }
            bytes
        });
        let started = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if started.elapsed() >= self.timeout => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(fail(format!(
                        "timed out after {}s (killed)",
                        self.timeout.as_secs_f64()
                    )));
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(10)),
                Err(e) => return Err(fail(crate::error::describe_io(&e))),
            }
        };
        let _ = writer.join();
        let bytes = reader.join().unwrap_or_default();
        if !status.success() {
            return Err(fail(format!("exited with {status}")));
        }
        let text = String::from_utf8(bytes).map_err(|_| fail("output is not UTF-8".into()))?;
        non_empty(&text, "command")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compress::history::ItemKind;

    fn item(role: &str, text: &str) -> Item {
        Item {
            kind: ItemKind::Message {
                index: 0,
                role: role.into(),
            },
            value: json!({"role": role, "parts": [{"type": "text", "text": text}]}),
        }
    }

    #[test]
    fn the_prompt_asks_for_a_structured_snapshot_within_budget() {
        let items = [
            item("user", "Port the parser to Rust"),
            item("assistant", "Done: src/parse.rs"),
        ];
        let refs: Vec<&Item> = items.iter().collect();
        let prompt = build_prompt(&refs, 300, 1000, &Tokenizer::Cl100k).unwrap();
        for heading in [
            "Goal:",
            "Decisions:",
            "Files and artifacts:",
            "Open tasks:",
            "300 tokens",
        ] {
            assert!(prompt.user.contains(heading), "{heading}");
        }
        assert!(prompt.user.contains("[user] Port the parser to Rust"));
        assert!(prompt.user.contains("[assistant] Done: src/parse.rs"));
    }

    #[test]
    fn the_transcript_keeps_the_first_and_newest_items_within_its_budget() {
        let mut items = vec![item("user", "GOAL: ship it")];
        for i in 0..200 {
            items.push(item(
                "assistant",
                &format!("step {i} {}", "word ".repeat(30)),
            ));
        }
        let refs: Vec<&Item> = items.iter().collect();
        let prompt = build_prompt(&refs, 100, 500, &Tokenizer::Cl100k).unwrap();
        assert!(prompt.user.contains("GOAL: ship it"));
        assert!(prompt.user.contains("step 199 "));
        assert!(!prompt.user.contains("step 0 "));
        assert!(prompt.user.contains("messages omitted"));
    }

    #[test]
    fn endpoints_follow_the_api() {
        let mut s = HttpSummarizer {
            api: SummarizerApi::Openai,
            url: "http://h:1/".into(),
            model: "m".into(),
            timeout: Duration::from_secs(1),
        };
        assert_eq!(s.endpoint(), "http://h:1/v1/chat/completions");
        s.url = "http://h:1/v1".into();
        assert_eq!(s.endpoint(), "http://h:1/v1/chat/completions");
        s.api = SummarizerApi::Ollama;
        s.url = "http://h:1".into();
        assert_eq!(s.endpoint(), "http://h:1/api/chat");
    }

    #[test]
    fn a_command_summarizer_reads_the_prompt_and_fails_on_empty_or_error() {
        let prompt = Prompt {
            system: "sys".into(),
            user: "hello there".into(),
            max_tokens: 10,
            temperature: 0.2,
        };
        let wc = CommandSummarizer {
            command: "tr a-z A-Z".into(),
            timeout: Duration::from_secs(10),
        };
        assert_eq!(wc.summarize(&prompt).unwrap(), "SYS\n\nHELLO THERE");
        for command in ["true", "exit 3", "sleep 5"] {
            let s = CommandSummarizer {
                command: command.into(),
                timeout: Duration::from_millis(300),
            };
            assert!(s.summarize(&prompt).is_err(), "{command}");
        }
    }
}
