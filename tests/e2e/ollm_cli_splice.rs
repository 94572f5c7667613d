//! Recording into a long session in the OLLM CLI's format adds the record
//! to the bytes read instead of parsing and writing every record again
//! (issue 48): the file still comes out as `JSON.stringify(…, null, 2)`
//! would write it, whatever the records hold; a file in another layout is
//! rewritten whole; a damaged one is refused and left as it was.

use serde_json::{Value, json};

use crate::support::{Sandbox, assert_one_line_error, json};

const ID: &str = "5b1ce000-0000-4000-8000-000000000048";

/// A CLI session of `n` messages whose texts look like the layout's own
/// lines (a newline, then `  ]`, or `  "toolCalls": [`), quotes,
/// backslashes and characters JSON escapes.
fn session(n: usize) -> Value {
    let messages: Vec<Value> = (0..n)
        .map(|i| {
            json!({
                "role": if i % 2 == 0 { "user" } else { "assistant" },
                "parts": [{"type": "text", "text": format!("line {i}\n  ],\n  \"toolCalls\": [\n    {{ \"q\\\\\" \t é 😀")}],
                "timestamp": "2026-01-27T10:00:00.000Z",
            })
        })
        .collect();
    json!({
        "sessionId": ID,
        "startTime": "2026-01-27T10:00:00.000Z",
        "lastActivity": "2026-01-27T10:00:07.000Z",
        "model": "llama3.2:3b",
        "provider": "ollama",
        "messages": messages,
        "toolCalls": [],
        "metadata": {"tokenCount": 42, "compressionCount": 0, "modeHistory": []},
        "uiState": {"pinned": true},
    })
}

/// What `JSON.stringify(value, null, 2)` writes (serde_json's two-space
/// layout is the same for this text, which has no lone surrogates).
fn stringify(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap()
}

fn write(sb: &Sandbox, text: &str) -> std::path::PathBuf {
    let dir = sb.sessions_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{ID}.json"));
    std::fs::write(&path, text).unwrap();
    path
}

fn record_both(sb: &Sandbox) {
    sb.session_ok(&["record", ID, "--role", "assistant", "--text", "new\n  ]"]);
    sb.session_ok(&[
        "record",
        ID,
        "--tool",
        "read_file",
        "--args",
        r#"{"path":"a"}"#,
        "--result",
        "ok",
    ]);
}

#[test]
fn records_added_to_a_long_cli_session_leave_the_file_as_the_cli_writes_it() {
    let sb = Sandbox::new();
    let path = write(&sb, &stringify(&session(300)));
    record_both(&sb);
    let text = std::fs::read_to_string(&path).unwrap();
    let file: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(text, stringify(&file), "not in the CLI's layout");
    let messages = file["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 301);
    assert_eq!(
        messages[..300],
        session(300)["messages"].as_array().unwrap()[..]
    );
    assert_eq!(messages[300]["parts"][0]["text"], "new\n  ]");
    assert_eq!(file["toolCalls"].as_array().unwrap().len(), 1);
    assert_eq!(file["uiState"], json!({"pinned": true}));
    assert!(file["metadata"]["tokenCount"].as_u64().unwrap() > 42);
    let listed = json(&sb.session_ok(&["list"]));
    assert_eq!(listed[0]["messageCount"], 301);
    assert_eq!(listed[0]["toolCallCount"], 1);
    let got = json(&sb.session_ok(&["get", ID]));
    assert_eq!(got["messages"].as_array().unwrap().len(), 301);
}

#[test]
fn a_cli_session_in_another_layout_is_rewritten_whole_in_the_clis() {
    let sb = Sandbox::new();
    let compact = serde_json::to_string(&session(3)).unwrap();
    let path = write(&sb, &compact);
    record_both(&sb);
    let text = std::fs::read_to_string(&path).unwrap();
    let file: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(text, stringify(&file));
    assert_eq!(file["messages"].as_array().unwrap().len(), 4);
}

#[test]
fn a_damaged_record_in_a_cli_session_is_refused_and_the_file_left_as_it_was() {
    let sb = Sandbox::new();
    let whole = stringify(&session(20));
    // A record cut short in the middle, the rest of the file intact.
    let cut = whole.replacen("\"role\": \"assistant\",\n", "\"role\": \"assistant\"\n", 1);
    let path = write(&sb, &cut);
    let out = sb.session(&["record", ID, "--role", "user", "--text", "x"]);
    assert!(!out.status.success());
    assert_one_line_error(&out, "ollm-session");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), cut);
}
