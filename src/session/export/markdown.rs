//! A session as a readable Markdown transcript: a header with the
//! session's facts, then every message and tool call (with its arguments and
//! result) in the order they happened.

use serde_json::Value;

use crate::session::model::{Loaded, Place};
use crate::session::model::{Message, ToolCall, image};
use crate::text::plural;

/// The Markdown transcript of a session.
pub fn markdown(loaded: &Loaded) -> String {
    markdown_folded(loaded, None)
}

/// The transcript with each tool result longer than `fold` lines cut to
/// its first `fold` lines and a count of the rest (what `get` shows a
/// person; `None` shows everything).
pub(crate) fn markdown_folded(loaded: &Loaded, fold: Option<usize>) -> String {
    shown(transcript(loaded, fold))
}

/// Text for a person: a lone surrogate's stand-in as U+FFFD.
fn shown(text: String) -> String {
    match crate::lossless::shown(&text) {
        std::borrow::Cow::Borrowed(_) => text,
        std::borrow::Cow::Owned(text) => text,
    }
}

fn transcript(loaded: &Loaded, fold: Option<usize>) -> String {
    let s = &loaded.session;
    let mut out = String::new();
    let title = s.title.as_deref().unwrap_or("Session");
    out.push_str(&format!("# {}\n\n", one_line(title)));
    let mut facts = vec![
        ("Session", format!("`{}`", s.session_id)),
        ("Model", format!("{} ({})", s.model, s.provider)),
        ("Started", s.start_time.clone()),
        ("Last activity", s.last_activity.clone()),
        (
            "Records",
            format!(
                "{}, {}",
                plural(s.messages.len() as u64, "message", "messages"),
                plural(s.tool_calls.len() as u64, "tool call", "tool calls")
            ),
        ),
        (
            "Tokens",
            format!(
                "{} (compressed {})",
                s.metadata.token_count,
                plural(s.metadata.compression_count, "time", "times")
            ),
        ),
    ];
    if let Some(parent) = &s.parent_session_id {
        facts.push((
            "Branched from",
            format!(
                "`{parent}` before message {}",
                s.branch_point.unwrap_or_default()
            ),
        ));
    }
    for (name, value) in facts {
        out.push_str(&format!("- **{name}:** {}\n", one_line(&value)));
    }
    out.push('\n');
    for place in &loaded.order {
        match *place {
            Place::Message(i) => message(&mut out, i, &s.messages[i]),
            Place::ToolCall(i) => tool_call(&mut out, &s.tool_calls[i], fold),
        }
    }
    out
}

/// Only the messages, as the transcript shows them (`get --messages` on a
/// terminal or with `--format markdown`): no header, no tool calls.
pub(crate) fn messages_markdown(messages: &[Message]) -> String {
    let mut out = String::new();
    for (index, m) in messages.iter().enumerate() {
        message(&mut out, index, m);
    }
    shown(out)
}

/// Whether an output path names a Markdown file (`.md`, `.markdown`), so
/// `export --output chat.md` writes Markdown without `--format`.
pub(crate) fn is_markdown_path(path: &std::path::Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("md") || e.eq_ignore_ascii_case("markdown"))
}

fn message(out: &mut String, index: usize, m: &Message) {
    let role = m.role();
    let mut shown = role.chars();
    let role: String = shown
        .next()
        .map(|c| c.to_uppercase().chain(shown).collect())
        .unwrap_or_default();
    out.push_str(&format!("## {role} · {} · #{index}\n\n", m.timestamp()));
    for part in m.parts() {
        match part.get("text").and_then(Value::as_str) {
            Some(text) => {
                out.push_str(text.trim_end());
                out.push_str("\n\n");
            }
            // An image is named, not inlined: a Markdown export is text.
            None if image::is_image(part) => {
                out.push_str(&image_line(part));
                out.push_str("\n\n");
            }
            None => {
                let json = serde_json::to_string_pretty(part).unwrap_or_default();
                fenced(out, "json", &json);
            }
        }
    }
}

/// `[image: image/png, 2048 bytes]`, or why it cannot be shown.
fn image_line(part: &Value) -> String {
    match image::decoded(part) {
        Some((mime, bytes)) => format!("[image: {mime}, {bytes} bytes]"),
        None => "[image: not a valid image]".to_string(),
    }
}

fn tool_call(out: &mut String, call: &ToolCall, fold: Option<usize>) {
    out.push_str(&format!(
        "### Tool call `{}` ({}) · {}\n\n",
        one_line(call.name()),
        one_line(call.id()),
        call.timestamp()
    ));
    out.push_str("Arguments:\n\n");
    fenced(
        out,
        "json",
        &serde_json::to_string_pretty(call.args()).unwrap_or_default(),
    );
    out.push_str("Result:\n\n");
    let result = call.llm_content();
    let lines = result.lines().count();
    match fold {
        Some(keep) if lines > keep => {
            let head: Vec<&str> = result.lines().take(keep).collect();
            fenced(out, "text", &head.join("\n"));
            let more = lines - keep;
            let noun = if more == 1 { "line" } else { "lines" };
            out.push_str(&format!("… {more} more {noun} (`--full` shows all)\n\n"));
        }
        _ => fenced(out, "text", result),
    }
    if let Some(display) = call.return_display() {
        out.push_str(&format!("> {}\n\n", one_line(display)));
    }
}

/// A code block whose fence is longer than any backtick run inside.
fn fenced(out: &mut String, lang: &str, body: &str) {
    let mut longest = 0;
    let mut run = 0;
    for c in body.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest.max(2) + 1);
    out.push_str(&format!("{fence}{lang}\n{}\n{fence}\n\n", body.trim_end()));
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_is_inferred_from_the_extension_only() {
        use std::path::Path;
        assert!(is_markdown_path(Path::new("chat.md")));
        assert!(is_markdown_path(Path::new("out/Chat.MARKDOWN")));
        assert!(!is_markdown_path(Path::new("chat.json")));
        assert!(!is_markdown_path(Path::new("md")));
        assert!(!is_markdown_path(Path::new("chat.md.json")));
    }

    #[test]
    fn long_tool_results_fold_to_their_first_lines_with_a_count() {
        let mut out = String::new();
        let result: Vec<String> = (1..=25).map(|i| format!("line {i}")).collect();
        let call = serde_json::from_value(serde_json::json!({
            "id": "c", "name": "run", "args": {}, "result": {"llmContent": result.join("\n")},
            "timestamp": "2026-01-01T00:00:00Z"
        }))
        .unwrap();
        tool_call(&mut out, &call, Some(10));
        assert!(
            out.contains("line 10\n") && !out.contains("line 11"),
            "{out}"
        );
        assert!(
            out.contains("… 15 more lines (`--full` shows all)"),
            "{out}"
        );
        let mut full = String::new();
        tool_call(&mut full, &call, None);
        assert!(full.contains("line 25"), "{full}");
    }

    #[test]
    fn fences_outgrow_the_backticks_inside() {
        let mut out = String::new();
        fenced(&mut out, "text", "a ``` b");
        assert!(out.starts_with("````text\n"), "{out}");
    }
}
