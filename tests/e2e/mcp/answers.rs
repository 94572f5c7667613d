//! Each tool's answer fits the output schema `tools/list` gives for it
//! (strictly: a field the schema does not name fails, as one it names
//! and the answer lacks does), and is the wire type the programs print:
//! the same fields, less those naming where this machine keeps things.

use serde_json::{Map, Value, json};

use super::{Mcp, recorded};
use crate::support::{Sandbox, json as json_of};
use crate::wire_schemas::validate;

/// `value` without the fields named.
fn without(value: &Value, fields: &[&str]) -> Value {
    let mut object = value.as_object().cloned().unwrap_or_default();
    for field in fields {
        object.shift_remove(*field);
    }
    Value::Object(object)
}

#[test]
fn every_answer_fits_its_output_schema_and_is_the_programs_wire_type_without_machine_paths() {
    let sb = Sandbox::new();
    let id = recorded(
        &sb,
        "retry design",
        &[("user", "what about retries?"), ("assistant", "back off")],
    );
    sb.write("src/main.rs", "fn main() {}\n");
    let mut mcp = Mcp::start(&sb, &["--allow-write"]);
    mcp.initialize();
    let tools = mcp.request("tools/list", json!({}))["result"]["tools"].clone();
    let calls = [
        (
            "add_context",
            json!({"key": "rules", "content": "Never force-push.", "ttl": "2h"}),
        ),
        (
            "record_message",
            json!({"session": id, "role": "user", "text": "and jitter?"}),
        ),
        ("list_sessions", json!({})),
        ("search_sessions", json!({"query": "retries"})),
        ("get_session", json!({"session": id})),
        ("get_context", json!({})),
        ("discover_files", json!({"include": ["*.rs"]})),
    ];
    let mut answers = Map::new();
    for (name, arguments) in calls {
        let answer = mcp.call_ok(name, arguments);
        let tool = tools
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .unwrap_or_else(|| panic!("no tool {name}: {tools}"));
        let schema = &tool["outputSchema"];
        let defs = schema["$defs"].as_object().cloned().unwrap_or_default();
        let problems = validate::problems(&answer, schema, &defs);
        assert!(problems.is_empty(), "{name}: {problems:#?}\nin {answer}");
        answers.insert(name.to_string(), answer);
    }
    drop(mcp);

    let added = &answers["add_context"];
    assert_eq!(added, &json!({"added": "rules", "replaced": false}));
    assert_eq!(answers["record_message"]["recorded"], "message");
    assert_eq!(answers["record_message"]["index"], 2);

    let listing = json_of(&sb.session(&["list", "--format", "json"]));
    let listed = &answers["list_sessions"]["sessions"][0];
    assert_eq!(without(listed, &["uri"]), listing[0], "{listed}");
    let page = &answers["get_session"];
    let page_fields = ["messages", "tokens", "tokenizer", "maxTokens", "nextCursor"];
    assert_eq!(without(page, &page_fields), listing[0], "{page}");

    let entries = json_of(&sb.cmd("ollm-context").arg("list").output().unwrap());
    assert_eq!(answers["get_context"]["entries"], entries);

    let files = json_of(
        &sb.cmd("ollm-discover")
            .args(["--include", "*.rs", "--format", "json"])
            .output()
            .unwrap(),
    );
    let file = &answers["discover_files"]["files"][0];
    assert_eq!(file, &without(&files[0], &["path", "pathBytes"]));
    assert_eq!(file["relativePath"], "src/main.rs", "{file}");
    assert!(file.get("path").is_none(), "{file}");
}
