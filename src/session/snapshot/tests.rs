use super::*;
use crate::session::model::{Entry, ToolCall};

fn call(id: &str) -> ToolCall {
    let value =
        serde_json::json!({"id": id, "name": "t", "args": {}, "result": {"llmContent": "r"}});
    match Entry::from_input(value, "2026-01-01T00:00:00.000Z").unwrap() {
        Entry::ToolCall(call) => call,
        Entry::Message(_) => unreachable!("a tool call"),
    }
}

fn names(entries: &[Entry]) -> Vec<String> {
    entries
        .iter()
        .map(|e| match e {
            Entry::Message(m) => m.text_content(),
            Entry::ToolCall(c) => c.id().to_string(),
        })
        .collect()
}

fn snapshot(positions: Option<Vec<usize>>) -> Snapshot {
    let at = "2026-01-01T00:00:00.000Z";
    Snapshot {
        id: new_id(),
        session_id: new_id(),
        timestamp: at.into(),
        token_count: 0,
        summary: String::new(),
        user_messages: vec![
            Message::text("user", "u0", at),
            Message::text("user", "u2", at),
        ],
        archived_user_messages: Vec::new(),
        messages: vec![Message::text("assistant", "a1", at)],
        user_message_indices: Some(vec![0, 2]),
        tool_calls: vec![call("c0"), call("c1"), call("c2")],
        tool_call_positions: positions,
        metadata: Map::new(),
        extra: Map::new(),
    }
}

#[test]
fn tool_calls_are_restored_where_they_were_recorded() {
    let restored = snapshot(Some(vec![1, 1, 3])).restored_entries();
    assert_eq!(names(&restored), ["u0", "c0", "c1", "a1", "u2", "c2"]);
}

#[test]
fn tool_calls_without_positions_follow_the_messages() {
    let restored = snapshot(None).restored_entries();
    assert_eq!(names(&restored), ["u0", "a1", "u2", "c0", "c1", "c2"]);
}
