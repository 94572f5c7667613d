use std::path::Path;

use serde_json::{Value, json};

use super::*;
use crate::session::import::{Body, Call, Item, Outcome, Role, Skipped};

pub(super) const ID: &str = "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";

pub(super) fn line(at: &str, kind: &str, payload: Value) -> String {
    json!({"timestamp": at, "type": kind, "payload": payload}).to_string()
}

pub(super) fn meta(cwd: &str, originator: &str, source: Value) -> String {
    line(
        "2025-10-01T10:00:00.000Z",
        "session_meta",
        json!({"id": ID, "timestamp": "2025-10-01T10:00:00.000Z", "cwd": cwd,
               "originator": originator, "cli_version": "0.46.0", "source": source,
               "model_provider": "openai", "instructions": null,
               "git": {"branch": "main"}}),
    )
}

pub(super) fn user(at: &str, text: &str) -> String {
    line(
        at,
        "response_item",
        json!({"type": "message", "role": "user",
               "content": [{"type": "input_text", "text": text}]}),
    )
}

pub(super) fn assistant(at: &str, text: &str) -> String {
    line(
        at,
        "response_item",
        json!({"type": "message", "role": "assistant",
               "content": [{"type": "output_text", "text": text}]}),
    )
}

pub(super) fn event(at: &str, payload: Value) -> String {
    line(at, "event_msg", payload)
}

fn write(dir: &Path, name: &str, lines: &[String]) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

fn read_one(path: &Path) -> Transcript {
    let found = Codex.sources(path).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    let mut out = Vec::new();
    Codex
        .read(&found[0], &mut |t| {
            out.push(t);
            Ok(())
        })
        .unwrap();
    assert_eq!(out.len(), 1);
    // Every fixture is read whole as the reader did before it handed
    // rollouts over in parts (the reference), and in parts of every size
    // from one item up: all must agree.
    let before = read_whole(&found[0]).unwrap();
    assert_eq!(
        out[0], before,
        "the parts reader differs from the whole one"
    );
    for size in [1, 2, 3, 5, before.items.len().max(1)] {
        let mut parts = Vec::new();
        Codex
            .read_parts(&found[0], size, &mut |part| {
                assert!(part.transcript.items.len() <= size);
                parts.push(part);
                Ok(())
            })
            .unwrap();
        assert!(parts[0].first && parts.last().unwrap().last);
        assert_eq!(
            crate::session::import::parts::whole(parts),
            vec![before.clone()],
            "parts of {size} items differ"
        );
    }
    out.remove(0)
}

fn messages(t: &Transcript) -> Vec<(Role, String)> {
    t.items
        .iter()
        .filter_map(|i| match &i.body {
            Body::Message { role, text, .. } => Some((*role, text.clone())),
            Body::ToolCall(_) => None,
        })
        .collect()
}

fn calls(t: &Transcript) -> Vec<&Call> {
    t.items
        .iter()
        .filter_map(|i| match &i.body {
            Body::ToolCall(call) => Some(call),
            Body::Message { .. } => None,
        })
        .collect()
}

/// A session as Codex 0.4x–0.12x writes it: meta, the harness's messages,
/// a turn with a shell call, the UI's repeats of each message.
pub(super) fn session() -> Vec<String> {
    vec![
        meta("/work/project", "codex_cli_rs", json!("cli")),
        line(
            "2025-10-01T10:00:01.000Z",
            "response_item",
            json!({"type": "message", "role": "developer",
                   "content": [{"type": "input_text", "text": "<permissions instructions>sandboxed</permissions instructions>"}]}),
        ),
        user(
            "2025-10-01T10:00:01.100Z",
            "# AGENTS.md instructions for /work/project\n\n<INSTRUCTIONS>be brief</INSTRUCTIONS>",
        ),
        user(
            "2025-10-01T10:00:01.200Z",
            "<environment_context>\n  <cwd>/work/project</cwd>\n</environment_context>",
        ),
        line(
            "2025-10-01T10:00:02.000Z",
            "turn_context",
            json!({"cwd": "/work/project", "model": "gpt-5-codex", "approval_policy": "on-request"}),
        ),
        user("2025-10-01T10:00:02.100Z", "list the files"),
        event(
            "2025-10-01T10:00:02.200Z",
            json!({"type": "user_message", "message": "list the files"}),
        ),
        line(
            "2025-10-01T10:00:03.000Z",
            "response_item",
            json!({"type": "reasoning", "summary": [{"type": "summary_text", "text": "thinking"}],
                   "encrypted_content": "xyz"}),
        ),
        line(
            "2025-10-01T10:00:03.100Z",
            "response_item",
            json!({"type": "function_call", "name": "shell",
                   "arguments": "{\"command\":[\"ls\",\"-a\"],\"workdir\":\"/work/project\"}",
                   "call_id": "call_1"}),
        ),
        line(
            "2025-10-01T10:00:04.000Z",
            "response_item",
            json!({"type": "function_call_output", "call_id": "call_1",
                   "output": "{\"output\":\"a.txt\\nb.txt\\n\",\"metadata\":{\"exit_code\":0}}"}),
        ),
        assistant("2025-10-01T10:00:05.000Z", "There are two files."),
        event(
            "2025-10-01T10:00:05.100Z",
            json!({"type": "agent_message", "message": "There are two files."}),
        ),
        event(
            "2025-10-01T10:00:05.200Z",
            json!({"type": "token_count", "info": null}),
        ),
    ]
}

#[test]
fn response_items_are_the_conversation_and_ui_events_are_not_counted_twice() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "rollout-2025-10-01T10-00-00-x.jsonl",
        &session(),
    );
    let t = read_one(&path);
    assert_eq!(
        messages(&t),
        vec![
            (Role::User, "list the files".to_string()),
            (Role::Assistant, "There are two files.".to_string()),
        ]
    );
    assert_eq!(calls(&t).len(), 1);
    assert_eq!(t.source_id, ID);
    assert_eq!(t.source, path.display().to_string());
    // The prompt's `event_msg` copy; the developer message, `AGENTS.md`
    // and the environment context.
    let left_out = Skipped {
        copies: 1,
        not_typed: 3,
        ..Skipped::default()
    };
    assert_eq!(t.skipped, left_out);
}

#[test]
fn a_call_is_paired_with_its_output_and_its_arguments_are_parsed() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rollout-a.jsonl", &session());
    let t = read_one(&path);
    let call = calls(&t)[0];
    assert_eq!(call.call_id, "call_1");
    assert_eq!(call.name, "shell");
    assert_eq!(
        call.args,
        json!({"command": ["ls", "-a"], "workdir": "/work/project"})
    );
    assert!(matches!(&call.outcome, Outcome::Done(text) if text.contains("a.txt")));
    // In conversation order: prompt, call, answer.
    let keys: Vec<&str> = t.items.iter().map(|i| i.key.as_str()).collect();
    assert_eq!(keys, vec!["6", "9:call_1", "11"]);
}

#[test]
fn developer_messages_and_harness_text_are_not_prompts() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = session();
    lines.push(user(
        "2025-10-01T10:01:00.000Z",
        "<user_instructions>\nuse tabs\n</user_instructions>",
    ));
    lines.push(user(
        "2025-10-01T10:01:01.000Z",
        "<turn_aborted>\nThe user interrupted.\n</turn_aborted>",
    ));
    let path = write(dir.path(), "rollout-a.jsonl", &lines);
    let t = read_one(&path);
    assert!(
        messages(&t)
            .iter()
            .all(|(_, text)| !text.contains("AGENTS.md")
                && !text.contains("environment_context")
                && !text.contains("permissions")
                && !text.contains("use tabs")
                && !text.contains("interrupted"))
    );
    assert_eq!(messages(&t).len(), 2);
}

#[test]
fn model_provider_and_cwd_come_from_meta_and_turn_context() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = session();
    // A later turn in another directory with another model.
    lines.push(line(
        "2025-10-01T10:02:00.000Z",
        "turn_context",
        json!({"cwd": "/work/elsewhere", "model": "gpt-5.1-codex-max"}),
    ));
    lines.push(user("2025-10-01T10:02:01.000Z", "and now?"));
    let path = write(dir.path(), "rollout-a.jsonl", &lines);
    let t = read_one(&path);
    assert_eq!(t.cwd.as_deref(), Some(Path::new("/work/project")));
    assert_eq!(t.model.as_deref(), Some("gpt-5.1-codex-max"));
    assert_eq!(t.provider.as_deref(), Some("openai"));
    assert_eq!(t.started.as_deref(), Some("2025-10-01T10:00:00.000Z"));
    assert_eq!(t.updated.as_deref(), Some("2025-10-01T10:02:01.000Z"));
}

#[test]
fn without_a_cwd_in_the_meta_the_first_turn_context_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = session();
    lines[0] = line(
        "2025-10-01T10:00:00.000Z",
        "session_meta",
        json!({"id": ID, "timestamp": "2025-10-01T10:00:00.000Z", "originator": "codex_exec"}),
    );
    let path = write(dir.path(), "rollout-a.jsonl", &lines);
    let t = read_one(&path);
    assert_eq!(t.cwd.as_deref(), Some(Path::new("/work/project")));
    assert_eq!(t.provider, None);
}

#[test]
fn a_compaction_keeps_its_summary_once_and_not_its_replacement_history() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = session();
    lines.push(line(
        "2025-10-01T11:00:00.000Z",
        "compacted",
        json!({"message": "Summary: the user listed files.",
               "replacement_history": [
                   {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "list the files"}]},
                   {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Summary: the user listed files."}]}
               ]}),
    ));
    lines.push(event(
        "2025-10-01T11:00:00.100Z",
        json!({"type": "context_compacted"}),
    ));
    lines.push(user("2025-10-01T11:00:01.000Z", "go on"));
    let path = write(dir.path(), "rollout-a.jsonl", &lines);
    let t = read_one(&path);
    assert_eq!(
        messages(&t),
        vec![
            (Role::User, "list the files".to_string()),
            (Role::Assistant, "There are two files.".to_string()),
            (Role::System, "Summary: the user listed files.".to_string()),
            (Role::User, "go on".to_string()),
        ]
    );
}

#[test]
fn turns_rolled_back_are_not_part_of_the_conversation() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = session();
    lines.push(user("2025-10-01T10:10:00.000Z", "a prompt taken back"));
    lines.push(line(
        "2025-10-01T10:10:01.000Z",
        "response_item",
        json!({"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "call_back"}),
    ));
    lines.push(assistant(
        "2025-10-01T10:10:02.000Z",
        "an answer taken back",
    ));
    lines.push(event(
        "2025-10-01T10:10:03.000Z",
        json!({"type": "thread_rolled_back", "num_turns": 1}),
    ));
    // The output of the rolled-back call, late: its call is gone.
    lines.push(line(
        "2025-10-01T10:10:04.000Z",
        "response_item",
        json!({"type": "function_call_output", "call_id": "call_back", "output": "x"}),
    ));
    lines.push(user("2025-10-01T10:10:05.000Z", "the prompt instead"));
    let path = write(dir.path(), "rollout-a.jsonl", &lines);
    let t = read_one(&path);
    assert_eq!(
        messages(&t),
        vec![
            (Role::User, "list the files".to_string()),
            (Role::Assistant, "There are two files.".to_string()),
            (Role::User, "the prompt instead".to_string()),
        ]
    );
    assert_eq!(calls(&t).len(), 1);
}

#[test]
fn calls_without_an_output_record_have_no_result() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = session();
    lines.push(line(
        "2025-10-01T10:03:00.000Z",
        "response_item",
        json!({"type": "web_search_call", "status": "completed",
               "action": {"type": "search", "query": "rust zstd"}}),
    ));
    lines.push(line(
        "2025-10-01T10:03:01.000Z",
        "response_item",
        json!({"type": "custom_tool_call", "status": "completed", "call_id": "call_patch",
               "name": "apply_patch", "input": "*** Begin Patch\n*** End Patch"}),
    ));
    lines.push(event(
        "2025-10-01T10:03:02.000Z",
        json!({"type": "turn_aborted", "reason": "interrupted"}),
    ));
    let path = write(dir.path(), "rollout-a.jsonl", &lines);
    let t = read_one(&path);
    let calls = calls(&t);
    assert_eq!(calls.len(), 3);
    assert_eq!(calls[1].name, "web_search");
    assert_eq!(
        calls[1].args,
        json!({"type": "search", "query": "rust zstd"})
    );
    assert_eq!(calls[1].outcome, Outcome::NoResult("noOutputRecorded"));
    assert_eq!(calls[2].name, "apply_patch");
    assert_eq!(calls[2].args, json!("*** Begin Patch\n*** End Patch"));
    assert_eq!(calls[2].outcome, Outcome::NoResult("interrupted"));
}

#[test]
fn failed_and_structured_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = vec![meta("/p", "codex_vscode", json!("vscode"))];
    for (id, output) in [
        (
            "c1",
            json!({"content": "permission denied", "success": false}),
        ),
        (
            "c2",
            json!([{"type": "input_text", "text": "page one"}, {"type": "input_image", "image_url": "data:"}]),
        ),
        ("c3", json!("done")),
    ] {
        lines.push(line(
            "2025-10-01T10:00:01.000Z",
            "response_item",
            json!({"type": "function_call", "name": "mcp__x", "arguments": "{}", "call_id": id}),
        ));
        lines.push(line(
            "2025-10-01T10:00:02.000Z",
            "response_item",
            json!({"type": "function_call_output", "call_id": id, "output": output}),
        ));
    }
    // An output whose call is not in the file.
    lines.push(line(
        "2025-10-01T10:00:03.000Z",
        "response_item",
        json!({"type": "function_call_output", "call_id": "gone", "output": "x"}),
    ));
    let path = write(dir.path(), "rollout-a.jsonl", &lines);
    let t = read_one(&path);
    let outcomes: Vec<&Outcome> = calls(&t).iter().map(|c| &c.outcome).collect();
    assert_eq!(
        outcomes,
        vec![
            &Outcome::Failed("permission denied".into()),
            &Outcome::Done("page one".into()),
            &Outcome::Done("done".into()),
        ]
    );
    assert_eq!(t.skipped.unknown_kinds, 1);
}

#[test]
fn local_shell_and_namespaced_calls_pair_by_call_id() {
    let dir = tempfile::tempdir().unwrap();
    let lines = vec![
        meta("/p", "codex_cli_rs", json!("exec")),
        line(
            "2025-10-01T10:00:01.000Z",
            "response_item",
            json!({"type": "local_shell_call", "call_id": "ls1", "status": "completed",
                   "action": {"type": "exec", "command": ["ls"], "timeout_ms": null,
                              "working_directory": null, "env": null, "user": null}}),
        ),
        line(
            "2025-10-01T10:00:02.000Z",
            "response_item",
            json!({"type": "function_call", "namespace": "github", "name": "search",
                   "arguments": "{\"q\":\"x\"}", "call_id": "ns1"}),
        ),
        line(
            "2025-10-01T10:00:03.000Z",
            "response_item",
            json!({"type": "function_call_output", "call_id": "ns1", "output": "found"}),
        ),
        line(
            "2025-10-01T10:00:04.000Z",
            "response_item",
            json!({"type": "function_call_output", "call_id": "ls1", "output": "a b"}),
        ),
    ];
    let path = write(dir.path(), "rollout-a.jsonl", &lines);
    let t = read_one(&path);
    let calls = calls(&t);
    assert_eq!(calls[0].name, "local_shell");
    assert_eq!(calls[0].args["command"], json!(["ls"]));
    assert_eq!(calls[0].outcome, Outcome::Done("a b".into()));
    assert_eq!(calls[1].name, "github.search");
    assert_eq!(calls[1].args, json!({"q": "x"}));
    assert_eq!(calls[1].outcome, Outcome::Done("found".into()));
}

#[test]
fn a_sub_agent_names_its_parent_and_the_client_does_not_matter() {
    let dir = tempfile::tempdir().unwrap();
    let parent = "0199a1b2-0000-7000-8000-000000000001";
    let mut lines = session();
    lines[0] = meta(
        "/work/project",
        "codex_exec",
        json!({"subagent": {"thread_spawn": {"parent_thread_id": parent, "depth": 1}}}),
    );
    let path = write(dir.path(), "rollout-a.jsonl", &lines);
    let t = read_one(&path);
    assert_eq!(t.parent_source_id.as_deref(), Some(parent));
    assert_eq!(messages(&t).len(), 2);
}

#[test]
fn an_old_rollout_without_the_envelope_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let lines = [
        json!({"id": ID, "timestamp": "2025-08-01T09:00:00.000Z", "instructions": null,
               "git": {"commit_hash": "abc"}}),
        json!({"record_type": "state"}),
        json!({"type": "message", "role": "user", "content": [{"type": "input_text",
               "text": "<environment_context>\n  <cwd>/work/old</cwd>\n  <approval_policy>on-request</approval_policy>\n</environment_context>"}]}),
        json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello"}]}),
        json!({"record_type": "state"}),
        json!({"type": "function_call", "name": "shell", "arguments": "{\"command\":[\"pwd\"]}", "call_id": "c"}),
        json!({"type": "function_call_output", "call_id": "c", "output": {"content": "/work/old", "success": true}}),
        json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "hi"}]}),
    ]
    .map(|v| v.to_string());
    let path = write(dir.path(), "rollout-2025-08-01T09-00-00-x.jsonl", &lines);
    let t = read_one(&path);
    assert_eq!(t.source_id, ID);
    assert_eq!(t.cwd.as_deref(), Some(Path::new("/work/old")));
    assert_eq!(
        messages(&t),
        vec![(Role::User, "hello".into()), (Role::Assistant, "hi".into())]
    );
    assert_eq!(calls(&t)[0].outcome, Outcome::Done("/work/old".into()));
    let harness = Skipped {
        not_typed: 1,
        ..Skipped::default()
    };
    assert_eq!(t.skipped, harness);
}

#[test]
fn keys_stay_put_when_the_rollout_grows_and_a_torn_line_is_counted() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rollout-a.jsonl", &session());
    let before: Vec<Item> = read_one(&path).items;
    let mut grown = std::fs::read_to_string(&path).unwrap();
    grown.push_str(&user("2025-10-01T12:00:00.000Z", "more"));
    grown.push_str("\n{\"timestamp\":\"2025-10-01T12:00:01.000Z\",\"type\":\"resp");
    std::fs::write(&path, grown).unwrap();
    let after = read_one(&path);
    assert_eq!(&after.items[..before.len()], &before[..]);
    assert_eq!(after.items.len(), before.len() + 1);
    assert_eq!(after.skipped.torn_lines, 1);
}

#[test]
fn unknown_record_kinds_are_counted_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = session();
    lines.push(line("2025-10-01T12:00:00.000Z", "world_state", json!({})));
    lines.push(line(
        "2025-10-01T12:00:00.000Z",
        "response_item",
        json!({"type": "hologram", "x": 1}),
    ));
    let path = write(dir.path(), "rollout-a.jsonl", &lines);
    let t = read_one(&path);
    assert_eq!(t.skipped.unknown_kinds, 2);
    assert_eq!(messages(&t).len(), 2);
}

#[test]
fn the_title_is_the_thread_name_in_the_file_else_in_the_session_index() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("codex");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(
        home.join("session_index.jsonl"),
        format!(
            "{}\n{}\n",
            json!({"id": ID, "thread_name": "old name", "updated_at": "2025-10-01T00:00:00Z"}),
            json!({"id": ID, "thread_name": "Listing files", "updated_at": "2025-10-02T00:00:00Z"})
        ),
    )
    .unwrap();
    let path = write(&home, "sessions/2025/10/01/rollout-a.jsonl", &session());
    assert_eq!(read_one(&path).title.as_deref(), Some("Listing files"));

    let mut lines = session();
    lines.push(event(
        "2025-10-01T12:00:00.000Z",
        json!({"type": "thread_name_updated", "thread_id": ID, "thread_name": "Renamed here"}),
    ));
    let path = write(&home, "archived_sessions/rollout-b.jsonl", &lines);
    assert_eq!(read_one(&path).title.as_deref(), Some("Renamed here"));
}

#[test]
fn sources_are_rollouts_plain_or_compressed_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path();
    write(
        home,
        "sessions/2025/10/01/rollout-2025-10-01T10-00-00-a.jsonl",
        &session(),
    );
    let zst = home.join("archived_sessions/rollout-2025-09-01T10-00-00-b.jsonl.zst");
    std::fs::create_dir_all(zst.parent().unwrap()).unwrap();
    let compressed = zstd::encode_all((session().join("\n") + "\n").as_bytes(), 3).unwrap();
    std::fs::write(&zst, compressed).unwrap();
    // Kept both ways: one session.
    write(home, "archived_sessions/rollout-c.jsonl", &session());
    std::fs::copy(&zst, home.join("archived_sessions/rollout-c.jsonl.zst")).unwrap();
    // Not Codex's.
    write(
        home,
        "history.jsonl",
        &["{\"session_id\":\"x\",\"ts\":1,\"text\":\"hi\"}".into()],
    );
    write(home, "sessions/notes.jsonl", &["{}".into()]);
    std::fs::write(home.join("session_index.jsonl"), "").unwrap();

    let found = Codex.sources(home).unwrap();
    let names: Vec<String> = found.iter().map(|s| file_name(&s.path)).collect();
    assert_eq!(
        names,
        vec![
            "rollout-2025-09-01T10-00-00-b.jsonl.zst",
            "rollout-c.jsonl",
            "rollout-2025-10-01T10-00-00-a.jsonl",
        ]
    );
    assert_eq!(found[0].kind, "jsonl.zst");
    let t = read_one(&zst);
    assert_eq!(messages(&t).len(), 2);
    assert_eq!(calls(&t).len(), 1);
    assert!(
        Codex
            .sources(&home.join("history.jsonl"))
            .unwrap()
            .is_empty()
    );
    assert!(Codex.sources(&home.join("missing")).is_err());
}

#[test]
fn a_file_named_otherwise_is_a_rollout_when_it_starts_with_session_meta() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "saved.jsonl", &session());
    assert_eq!(Codex.sources(&path).unwrap().len(), 1);
    let other = write(
        dir.path(),
        "other.jsonl",
        &["{\"type\":\"user\",\"uuid\":\"u\"}".into()],
    );
    assert!(Codex.sources(&other).unwrap().is_empty());
}

#[test]
fn default_roots_follow_codex_home() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("ch/sessions")).unwrap();
    let homes =
        Homes::at(Some(dir.path().join("nohome"))).with_var("CODEX_HOME", dir.path().join("ch"));
    assert_eq!(
        Codex.default_roots(&homes),
        vec![dir.path().join("ch/sessions")]
    );
    let homes = Homes::at(Some(dir.path().to_path_buf()));
    assert!(Codex.default_roots(&homes).is_empty());
}

/// A 1×1 PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

fn images(t: &Transcript) -> Vec<Vec<Value>> {
    t.items
        .iter()
        .filter_map(|i| match &i.body {
            Body::Message { images, .. } => Some(images.clone()),
            Body::ToolCall(_) => None,
        })
        .collect()
}

#[test]
fn a_prompts_images_are_kept_and_remote_ones_named() {
    let dir = tempfile::tempdir().unwrap();
    let prompt = |at: &str, content: Value| {
        line(
            at,
            "response_item",
            json!({"type": "message", "role": "user", "content": content}),
        )
    };
    let lines = vec![
        meta("/p", "codex_cli_rs", json!("cli")),
        prompt(
            "2025-10-01T10:00:01.000Z",
            json!([{"type": "input_text", "text": "what is this"},
                   {"type": "input_image", "image_url": format!("data:image/png;base64,{PNG}")},
                   {"type": "input_image", "image_url": "https://example.com/x.png"}]),
        ),
        assistant("2025-10-01T10:00:02.000Z", "a dot"),
        // An image alone is a prompt of its own; one that is not base64 a note.
        prompt(
            "2025-10-01T10:00:03.000Z",
            json!([{"type": "input_image", "image_url": "data:image/png;base64,@@@"}]),
        ),
    ];
    let path = write(dir.path(), "rollout-a.jsonl", &lines);
    let t = read_one(&path);
    assert_eq!(
        messages(&t),
        vec![
            (Role::User, "what is this".to_string()),
            (Role::Assistant, "a dot".to_string()),
            (Role::User, String::new()),
        ]
    );
    assert_eq!(
        images(&t),
        vec![
            vec![
                json!({"type": "image", "mimeType": "image/png", "data": PNG}),
                json!({"type": "text", "text": "[image: https://example.com/x.png]"}),
            ],
            vec![],
            vec![json!({"type": "text", "text": "[image: image/png, 3 bytes, not kept]"})],
        ]
    );
}
