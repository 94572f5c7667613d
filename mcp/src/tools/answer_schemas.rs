//! Each tool's output schema holds what its wire type holds: the fields
//! of the library's type (less only the documented machine-local ones,
//! plus the few the server adds), so a field added to the wire type is in
//! the tool's answer and schema without a second edit.

use std::collections::BTreeSet;

use ollm::session::model::SessionSummary;
use serde_json::Value;

use super::definitions;
use crate::served::MachineLocal;
use crate::served::tests::properties_of;

/// The field names of the object at `path` in `tool`'s output schema (a
/// step into an array goes to its items; `$ref`s are followed).
fn answer_fields(tool: &str, path: &[&str]) -> BTreeSet<String> {
    let tools = definitions(true);
    let tool = tools
        .iter()
        .find(|t| t.name == tool)
        .unwrap_or_else(|| panic!("no tool {tool}"));
    let root = Value::Object(tool.output_schema.as_deref().unwrap().clone());
    let resolve = |node: &Value| -> Value {
        let node = node.get("items").unwrap_or(node);
        match node.get("$ref").and_then(Value::as_str) {
            Some(target) => {
                let name = target.rsplit('/').next().unwrap();
                root["$defs"][name].clone()
            }
            None => node.clone(),
        }
    };
    let mut node = resolve(&root);
    for step in path {
        node = resolve(&node["properties"][*step]);
    }
    node["properties"]
        .as_object()
        .unwrap_or_else(|| panic!("no properties at {path:?}: {node}"))
        .keys()
        .cloned()
        .collect()
}

fn fields<T: schemars::JsonSchema>() -> BTreeSet<String> {
    properties_of::<T>().into_iter().collect()
}

fn with(mut set: BTreeSet<String>, added: &[&str]) -> BTreeSet<String> {
    set.extend(added.iter().map(ToString::to_string));
    set
}

fn served<T: schemars::JsonSchema + MachineLocal>() -> BTreeSet<String> {
    let mut set = fields::<T>();
    for name in T::FIELDS {
        set.remove(*name);
    }
    set
}

#[test]
fn list_sessions_gives_each_session_summary_with_its_uri() {
    assert_eq!(
        answer_fields("list_sessions", &["sessions"]),
        with(fields::<SessionSummary>(), &["uri"])
    );
}

#[test]
fn get_session_gives_the_session_summary_with_the_page() {
    let page = [
        "messages",
        "toolCalls",
        "tokens",
        "tokenizer",
        "maxTokens",
        "nextCursor",
    ];
    assert_eq!(
        answer_fields("get_session", &[]),
        with(fields::<SessionSummary>(), &page)
    );
}

#[test]
fn search_sessions_gives_the_search_hit_of_ollm_session_search() {
    assert_eq!(
        answer_fields("search_sessions", &["hits"]),
        fields::<ollm::session::query::Hit>()
    );
}

#[test]
fn get_context_gives_the_context_entry_of_ollm_context() {
    assert_eq!(
        answer_fields("get_context", &["entries"]),
        fields::<ollm::context::entry::Entry>()
    );
}

#[test]
fn discover_files_gives_the_file_entry_of_ollm_discover_without_absolute_paths() {
    let files = answer_fields("discover_files", &["files"]);
    assert_eq!(files, served::<ollm::discover::Entry>());
    assert!(
        !files.contains("path") && files.contains("relativePath"),
        "{files:?}"
    );
}

#[test]
fn the_write_tools_give_the_acknowledgements_of_the_programs_without_the_store() {
    assert_eq!(
        answer_fields("record_message", &[]),
        fields::<ollm::session::store::Ack>()
    );
    let added = answer_fields("add_context", &[]);
    assert_eq!(added, served::<ollm::context::ops::Added>());
    assert!(!added.contains("store"), "{added:?}");
}
