//! `ollm-session import`: each tool's fixture store, written by the test
//! from the format as the tool's own code defines it, imported through the
//! built binary.

mod claude;
pub(crate) mod cli;
mod codex;
mod contexts;
mod docs;
mod gemini;
mod goose;
mod large;
mod opencode;
pub(crate) mod real;
mod recount;
mod unread;

use serde_json::Value;

use crate::support::{self, Sandbox, stderr, stdout};

/// Runs `command` (an `ollm-session import`, which must succeed): the
/// session lines of its NDJSON, sorted by source id, and its summary.
pub fn import_with(command: &mut assert_cmd::Command) -> (Vec<Value>, Value) {
    let out = command.output().unwrap();
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    let (mut lines, summary) = parse(&stdout(&out));
    lines.sort_by_key(|l| l["sourceId"].as_str().unwrap_or_default().to_string());
    (lines, summary)
}

/// `ollm-session import ARGS` in `sb`; see [`import_with`].
pub fn import(sb: &Sandbox, args: &[&str]) -> (Vec<Value>, Value) {
    import_with(sb.cmd("ollm-session").arg("import").args(args))
}

/// The session lines and the summary of `import`'s NDJSON output.
pub fn parse(text: &str) -> (Vec<Value>, Value) {
    let mut lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let summary = lines.pop().expect("a summary line")["summary"].clone();
    assert!(summary.is_object(), "{text}");
    (lines, summary)
}

/// `ollm-session get ID` as JSON.
pub fn get(sb: &Sandbox, id: &str) -> Value {
    support::json(&sb.cmd("ollm-session").args(["get", id]).output().unwrap())
}

/// The line of `lines` about source session `source_id`.
pub fn by_source<'a>(lines: &'a [Value], source_id: &str) -> &'a Value {
    lines
        .iter()
        .find(|l| l["sourceId"] == source_id)
        .unwrap_or_else(|| panic!("no {source_id} in {lines:#?}"))
}

/// The `sourceKey` of each record of a stored session, in time order.
pub fn source_keys(session: &Value) -> Vec<String> {
    let mut keyed: Vec<(String, String)> = session["messages"]
        .as_array()
        .unwrap()
        .iter()
        .chain(session["toolCalls"].as_array().unwrap())
        .map(|r| {
            (
                r["timestamp"].as_str().unwrap().to_string(),
                r["sourceKey"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    keyed.sort();
    keyed.into_iter().map(|(_, key)| key).collect()
}

/// A hostile id: far past the bound of 256 bytes an id is stored within.
pub fn hostile_id(prefix: &str, tail: &str) -> String {
    format!("{prefix}{}{tail}", "i".repeat(1 << 20))
}

/// The most bytes a bounded id takes (256), and a key of a tool call seen
/// without its result (`#no-result` after it).
const ID_BYTES: usize = 256;

/// Asserts that the session `line` reports was stored with every id
/// bounded (its source id, its parent's, each record's key, each tool
/// call's id), the bounded ones counted in `cutFields` (at least `cut`),
/// and that importing `again` finds every record already stored.
pub fn assert_ids_bounded(sb: &Sandbox, line: &Value, cut: u64, again: impl FnOnce() -> Value) {
    let bounded = |what: &str, id: &Value| {
        let id = id.as_str().unwrap_or_else(|| panic!("{what}: {id}"));
        assert!(
            id.len() <= ID_BYTES + "#no-result".len(),
            "{what}: {} bytes",
            id.len()
        );
    };
    bounded("sourceId", &line["sourceId"]);
    assert!(
        line["skipped"]["cutFields"].as_u64().unwrap() >= cut,
        "{}",
        line["skipped"]
    );
    let session = get(sb, line["sessionId"].as_str().unwrap());
    let from = &session["metadata"]["importedFrom"];
    bounded("sourceSessionId", &from["sourceSessionId"]);
    if !from["parentSourceSessionId"].is_null() {
        bounded("parentSourceSessionId", &from["parentSourceSessionId"]);
    }
    for key in source_keys(&session) {
        bounded("sourceKey", &Value::from(key));
    }
    for call in session["toolCalls"].as_array().unwrap() {
        bounded("a tool call's id", &call["id"]);
    }
    let listed = sb.session_ok(&["list"]);
    assert!(
        listed.stdout.len() < 64 << 10,
        "list printed {} bytes",
        listed.stdout.len()
    );
    let again = again();
    assert_eq!(again["sessionId"], line["sessionId"], "{again}");
    assert_eq!(again["status"], "unchanged", "{again}");
    assert_eq!(again["added"], 0, "{again}");
}
