//! 2.x's `session_message` rows as items.

use serde_json::Value;

use super::super::{Body, Call, Item, Outcome, Role, Transcript};
use super::parts::{self, Turn, str_of, text_of};
use crate::timestamp::format_millis;

/// One `session_message` row: `user` and `assistant` are the conversation,
/// `shell` a command the user ran; harness text (`synthetic`, `system`,
/// `skill`), compaction summaries and the markers (`idle`, `*-switched`)
/// are not imported.
pub fn message(out: &mut Transcript, id: &str, kind: &str, data: &Value, time: Option<String>) {
    match kind {
        "user" => {
            let mut turn = Turn::new(Role::User, time, &mut out.items);
            turn.text(id, str_of(data, "text").unwrap_or_default());
        }
        "assistant" => {
            if let Some(model) = data.get("model") {
                if let Some(name) = str_of(model, "id") {
                    out.model = Some(name.to_string());
                }
                if let Some(provider) = str_of(model, "providerID") {
                    out.provider = Some(provider.to_string());
                }
            }
            let content = data.get("content").and_then(Value::as_array);
            let mut turn = Turn::new(Role::Assistant, time, &mut out.items);
            for (index, item) in content.into_iter().flatten().enumerate() {
                let key = format!("{id}#{index}");
                match str_of(item, "type") {
                    Some("text") => turn.text(&key, str_of(item, "text").unwrap_or_default()),
                    Some("tool") => {
                        let call = parts::v2_call(item, &key);
                        let at = item
                            .pointer("/time/created")
                            .and_then(Value::as_i64)
                            .map(format_millis);
                        turn.call(key, at, call);
                    }
                    Some("reasoning" | "file") => {}
                    _ => out.skipped.unknown_kinds += 1,
                }
            }
        }
        "shell" => {
            let output = data
                .pointer("/output/output")
                .map(text_of)
                .unwrap_or_default();
            let exit = data.get("exit").and_then(Value::as_i64);
            let outcome = match str_of(data, "status") {
                Some("running" | "pending") => Outcome::NoResult("running"),
                Some("failed" | "error" | "killed" | "timeout") => Outcome::Failed(output),
                _ if exit.is_some_and(|code| code != 0) => Outcome::Failed(output),
                _ => Outcome::Done(output),
            };
            out.items.push(Item {
                key: id.to_string(),
                timestamp: time,
                body: Body::ToolCall(Call {
                    call_id: str_of(data, "shellID").unwrap_or(id).to_string(),
                    name: "shell".to_string(),
                    args: serde_json::json!({ "command": str_of(data, "command").unwrap_or_default() }),
                    outcome,
                }),
            });
        }
        "synthetic" | "system" | "skill" | "compaction" | "idle" | "agent-switched"
        | "model-switched" | "location-switched" => {}
        _ => out.skipped.unknown_kinds += 1,
    }
}
