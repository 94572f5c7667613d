//! Each trap of the format, in a file the test writes as Claude Code does.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::*;
use crate::session::import::{Body, Outcome, Tool};

const SID: &str = "6f1c0a52-0d3c-4b7e-9d57-1b2c3d4e5f60";

/// A uuid from a short name, so fixtures read like the tree they are.
fn id(name: &str) -> String {
    let hash = tree::hash64(name);
    uuid::Uuid::from_u64_pair(hash, hash.rotate_left(17)).to_string()
}

fn at(second: u32) -> String {
    format!("2026-03-01T10:{:02}:{:02}.000Z", second / 60, second % 60)
}

fn base(kind: &str, uuid: &str, parent: Option<&str>, second: u32) -> Value {
    json!({
        "parentUuid": parent.map(id),
        "isSidechain": false,
        "userType": "external",
        "cwd": "/work/project",
        "sessionId": SID,
        "version": "2.1.3",
        "gitBranch": "main",
        "type": kind,
        "uuid": id(uuid),
        "timestamp": at(second),
    })
}

fn with(mut line: Value, extra: Value) -> Value {
    if let (Some(line), Value::Object(extra)) = (line.as_object_mut(), extra) {
        line.extend(extra);
    }
    line
}

fn user(uuid: &str, parent: Option<&str>, second: u32, content: Value) -> Value {
    with(
        base("user", uuid, parent, second),
        json!({"message": {"role": "user", "content": content}}),
    )
}

fn prompt(uuid: &str, parent: Option<&str>, second: u32, text: &str) -> Value {
    user(uuid, parent, second, json!(text))
}

fn assistant(uuid: &str, parent: Option<&str>, second: u32, msg: &str, blocks: Value) -> Value {
    with(
        base("assistant", uuid, parent, second),
        json!({"message": {
            "id": msg, "type": "message", "role": "assistant",
            "model": "claude-opus-4-5-20251101", "content": blocks,
            "stop_reason": null, "usage": {"input_tokens": 3, "output_tokens": 9}
        }, "requestId": "req_1"}),
    )
}

fn say(uuid: &str, parent: Option<&str>, second: u32, msg: &str, text: &str) -> Value {
    assistant(
        uuid,
        parent,
        second,
        msg,
        json!([{"type": "text", "text": text}]),
    )
}

fn tool_use(uuid: &str, parent: Option<&str>, second: u32, msg: &str, call: &str) -> Value {
    assistant(
        uuid,
        parent,
        second,
        msg,
        json!([{"type": "tool_use", "id": call, "name": "Bash", "input": {"command": format!("run {call}")}}]),
    )
}

fn result(uuid: &str, parent: Option<&str>, second: u32, call: &str, content: Value) -> Value {
    with(
        user(
            uuid,
            parent,
            second,
            json!([{"type": "tool_result", "tool_use_id": call, "content": content}]),
        ),
        json!({"toolUseResult": {"stdout": "ignored", "stderr": ""}}),
    )
}

fn progress(uuid: &str, parent: Option<&str>, second: u32) -> Value {
    with(
        base("progress", uuid, parent, second),
        json!({"data": {"type": "bash_progress", "output": "…", "elapsedTimeSeconds": 1},
               "toolUseID": "toolu_x", "parentToolUseID": "toolu_x"}),
    )
}

fn write_lines(path: &Path, lines: &[Value]) {
    let mut text = String::new();
    for line in lines {
        text.push_str(&line.to_string());
        text.push('\n');
    }
    std::fs::write(path, text).unwrap();
}

fn append_lines(path: &Path, lines: &[Value]) {
    let mut file = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    for line in lines {
        writeln!(file, "{line}").unwrap();
    }
}

fn session_file(dir: &Path) -> PathBuf {
    let project = dir.join("projects/-work-project");
    std::fs::create_dir_all(&project).unwrap();
    project.join(format!("{SID}.jsonl"))
}

fn read_all(path: &Path) -> Vec<Transcript> {
    let source = Source {
        tool: Tool::new(&crate::session::import::claude::Claude),
        path: path.to_path_buf(),
        kind: "session",
        bytes: 0,
    };
    let mut out = Vec::new();
    Claude
        .read(&source, &mut |t| {
            out.push(t);
            Ok(())
        })
        .unwrap();
    // Every fixture is read three ways, which must agree: whole, as the
    // reader did before it handed sessions over in parts (the reference),
    // and in parts of every size from one item up.
    let mut before = Vec::new();
    super::whole::read(&source, &mut |t| {
        before.push(t);
        Ok(())
    })
    .unwrap();
    assert_eq!(out, before, "the parts reader differs from the whole one");
    let items: usize = out.iter().map(|t| t.items.len()).sum();
    for size in [1, 2, 3, 5, items.max(1)] {
        let mut parts = Vec::new();
        Claude
            .read_parts(&source, size, &mut |part| {
                assert!(part.transcript.items.len() <= size);
                parts.push(part);
                Ok(())
            })
            .unwrap();
        let firsts = parts.iter().filter(|p| p.first).count();
        let lasts = parts.iter().filter(|p| p.last).count();
        assert_eq!((firsts, lasts), (out.len(), out.len()), "size {size}");
        assert_eq!(
            crate::session::import::parts::whole(parts),
            out,
            "parts of {size} items differ"
        );
    }
    out
}

fn read_one(lines: &[Value]) -> Transcript {
    let dir = tempfile::tempdir().unwrap();
    let path = session_file(dir.path());
    write_lines(&path, lines);
    let mut all = read_all(&path);
    assert_eq!(all.len(), 1, "{all:#?}");
    all.remove(0)
}

/// The transcript as short strings: `user: text`, `assistant: text`,
/// `call name id -> outcome`.
fn shape(t: &Transcript) -> Vec<String> {
    t.items
        .iter()
        .map(|item| match &item.body {
            Body::Message { role, text, .. } => format!("{}: {text}", role.as_str()),
            Body::ToolCall(call) => {
                let outcome = match &call.outcome {
                    Outcome::Done(text) => format!("done {text}"),
                    Outcome::Failed(text) => format!("failed {text}"),
                    Outcome::NoResult(why) => format!("none {why}"),
                };
                format!("call {} {} -> {outcome}", call.name, call.call_id)
            }
        })
        .collect()
}

#[test]
fn the_conversation_is_the_path_to_the_newest_message_not_the_line_order() {
    let t = read_one(&[
        prompt("u1", None, 1, "first question"),
        say("a1", Some("u1"), 2, "msg_1", "first answer"),
        // Rewound: this prompt and its answer were abandoned by an edit.
        prompt("u2", Some("a1"), 3, "abandoned question"),
        say("a2", Some("u2"), 4, "msg_2", "abandoned answer"),
        // The live branch, written later; a line out of file order.
        say("a3", Some("u3"), 6, "msg_3", "second answer"),
        prompt("u3", Some("a1"), 5, "edited question"),
    ]);
    assert_eq!(
        shape(&t),
        [
            "user: first question",
            "assistant: first answer",
            "user: edited question",
            "assistant: second answer"
        ]
    );
    assert_eq!(t.started.as_deref(), Some(at(1).as_str()));
    assert_eq!(t.updated.as_deref(), Some(at(6).as_str()));
    assert_eq!(
        t.skipped.other_branches, 2,
        "the abandoned prompt and answer"
    );
}

#[test]
fn a_chain_broken_by_a_line_never_written_goes_on_before_the_break_but_a_root_does_not() {
    let t = read_one(&[
        prompt("u1", None, 1, "first"),
        say("a1", Some("u1"), 2, "msg_1", "one"),
        // A hook's progress line naming a line that is not in the file.
        progress("p", Some("never written"), 3),
        prompt("u2", Some("p"), 4, "second"),
        say("a2", Some("u2"), 5, "msg_2", "two"),
    ]);
    let whole = [
        "user: first",
        "assistant: one",
        "user: second",
        "assistant: two",
    ];
    assert_eq!(shape(&t), whole);
    assert_eq!(t.skipped.other_branches, 0);
    // A progress line with no parent starts a conversation of its own.
    let t = read_one(&[
        prompt("u1", None, 1, "first"),
        say("a1", Some("u1"), 2, "msg_1", "one"),
        progress("p", None, 3),
        prompt("u2", Some("p"), 4, "second"),
        say("a2", Some("u2"), 5, "msg_2", "two"),
    ]);
    assert_eq!(shape(&t), ["user: second", "assistant: two"]);
    assert_eq!(t.skipped.other_branches, 2);
}

fn local_command(uuid: &str, parent: &str, second: u32, content: &str) -> Value {
    with(
        base("system", uuid, Some(parent), second),
        json!({"subtype": "local_command", "content": content, "level": "info"}),
    )
}

#[test]
fn a_command_and_its_system_copy_are_one_message_and_commands_typed_last_are_kept() {
    let mcp = "<command-name>/mcp</command-name>\n<command-message>mcp</command-message>\n<command-args></command-args>";
    let model = "<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>";
    let t = read_one(&[
        prompt("u1", None, 1, "hello"),
        say("a1", Some("u1"), 2, "msg_1", "hi"),
        prompt("c1", Some("a1"), 3, mcp),
        local_command("s1", "c1", 4, mcp),
        local_command(
            "s2",
            "s1",
            5,
            "<local-command-stdout>MCP dialog dismissed</local-command-stdout>",
        ),
        // Written after the last message, and only as `system` lines: two
        // commands, not a command and its copy.
        local_command("s3", "s2", 6, model),
        local_command("s4", "s3", 7, model),
    ]);
    assert_eq!(
        shape(&t),
        [
            "user: hello",
            "assistant: hi",
            "user: /mcp",
            "system: MCP dialog dismissed",
            "user: /model",
            "user: /model"
        ]
    );
    assert_eq!(t.skipped.copies, 1);
}

#[test]
fn parallel_calls_and_their_results_on_side_branches_are_all_kept() {
    // Claude Code 2.x: one response streamed as three lines sharing
    // `message.id`; each result hangs off the line holding its call
    // (`sourceToolAssistantUUID`), the next response off the last result.
    let t = read_one(&[
        prompt("u1", None, 1, "list both dirs"),
        say("a1", Some("u1"), 2, "msg_1", "Listing both."),
        tool_use("a2", Some("a1"), 3, "msg_1", "toolu_1"),
        tool_use("a3", Some("a2"), 4, "msg_1", "toolu_2"),
        result("r1", Some("a2"), 5, "toolu_1", json!("dir one")),
        result("r2", Some("a3"), 6, "toolu_2", json!("dir two")),
        say("a4", Some("r2"), 7, "msg_2", "Both listed."),
    ]);
    assert_eq!(
        shape(&t),
        [
            "user: list both dirs",
            "assistant: Listing both.",
            "call Bash toolu_1 -> done dir one",
            "call Bash toolu_2 -> done dir two",
            "assistant: Both listed."
        ]
    );
    let keys: Vec<&str> = t.items.iter().map(|i| i.key.as_str()).collect();
    assert_eq!(keys[1], id("a1"));
    assert_eq!(&keys[2..4], ["toolu_1", "toolu_2"]);
    match &t.items[2].body {
        Body::ToolCall(call) => assert_eq!(call.args, json!({"command": "run toolu_1"})),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_sibling_line_of_a_response_off_the_path_is_recovered() {
    // The walk from the newest message reaches a2 only; a3 (same
    // message.id) and its result hang off a2 on a branch of their own.
    let t = read_one(&[
        prompt("u1", None, 1, "go"),
        tool_use("a2", Some("u1"), 2, "msg_1", "toolu_1"),
        tool_use("a3", Some("a2"), 3, "msg_1", "toolu_2"),
        result("r2", Some("a3"), 4, "toolu_2", json!("two")),
        result("r1", Some("a2"), 5, "toolu_1", json!("one")),
        say("a4", Some("r1"), 6, "msg_2", "done"),
    ]);
    assert_eq!(
        shape(&t),
        [
            "user: go",
            "call Bash toolu_1 -> done one",
            "call Bash toolu_2 -> done two",
            "assistant: done"
        ]
    );
    // The message of a response without text is dropped, not empty.
    assert_eq!(t.items.len(), 4);
}

#[test]
fn progress_lines_are_links_not_messages() {
    // Older files: progress lines sit in the tree; the next message's
    // parent is a progress line, and the result forks off the call.
    let t = read_one(&[
        prompt("u1", None, 1, "build it"),
        tool_use("a1", Some("u1"), 2, "msg_1", "toolu_1"),
        progress("p1", Some("a1"), 3),
        progress("p2", Some("p1"), 4),
        result("r1", Some("a1"), 5, "toolu_1", json!("built")),
        say("a2", Some("p2"), 6, "msg_2", "It builds."),
        progress("p3", Some("a2"), 7),
    ]);
    assert_eq!(
        shape(&t),
        [
            "user: build it",
            "call Bash toolu_1 -> done built",
            "assistant: It builds."
        ]
    );
    assert_eq!(t.skipped, Skipped::default());
}

#[test]
fn one_response_over_several_lines_is_one_message_with_its_calls() {
    let t = read_one(&[
        prompt("u1", None, 1, "explain"),
        assistant(
            "a1",
            Some("u1"),
            2,
            "msg_1",
            json!([{"type": "thinking", "thinking": "secret", "signature": "x"}]),
        ),
        say("a2", Some("a1"), 3, "msg_1", "Part one."),
        say("a3", Some("a2"), 4, "msg_1", "Part two."),
        tool_use("a4", Some("a3"), 5, "msg_1", "toolu_1"),
        result("r1", Some("a4"), 6, "toolu_1", json!("ok")),
    ]);
    assert_eq!(
        shape(&t),
        [
            "user: explain",
            "assistant: Part one.\n\nPart two.",
            "call Bash toolu_1 -> done ok"
        ]
    );
    // Keyed by the response's first line, which holds only thinking.
    assert_eq!(t.items[1].key, id("a1"));
}

#[test]
fn results_as_text_as_blocks_with_images_as_errors_and_missing() {
    let t = read_one(&[
        prompt("u1", None, 1, "try things"),
        assistant(
            "a1",
            Some("u1"),
            2,
            "msg_1",
            json!([
                {"type": "tool_use", "id": "toolu_a", "name": "Read", "input": {"file_path": "/x.png"}},
                {"type": "tool_use", "id": "toolu_b", "name": "Bash", "input": {"command": "false"}},
                {"type": "tool_use", "id": "toolu_c", "name": "Bash", "input": {"command": "sleep 99"}},
                {"type": "tool_use", "id": "toolu_d", "name": "Write", "input": {"file_path": "/y"}}
            ]),
        ),
        user(
            "r1",
            Some("a1"),
            3,
            json!([
                {"type": "tool_result", "tool_use_id": "toolu_a", "content": [
                    {"type": "text", "text": "an image:"},
                    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
                    {"type": "text", "text": "done"}
                ]},
                {"type": "tool_result", "tool_use_id": "toolu_b", "content": "Exit code 1", "is_error": true}
            ]),
        ),
        with(
            user(
                "r2",
                Some("r1"),
                4,
                json!([{"type": "tool_result", "tool_use_id": "toolu_d"}]),
            ),
            json!({"toolUseResult": "File written"}),
        ),
        prompt(
            "u2",
            Some("r2"),
            5,
            "[Request interrupted by user for tool use]",
        ),
    ]);
    assert_eq!(
        shape(&t),
        [
            "user: try things",
            "call Read toolu_a -> done an image:\n\ndone",
            "call Bash toolu_b -> failed Exit code 1",
            "call Bash toolu_c -> none interrupted",
            "call Write toolu_d -> done File written"
        ]
    );
}

#[test]
fn user_lines_that_are_not_prompts() {
    let t = read_one(&[
        with(
            prompt(
                "m1",
                None,
                1,
                "<local-command-caveat>Caveat: The messages below were generated by the user while running local commands.</local-command-caveat>",
            ),
            json!({"isMeta": true}),
        ),
        prompt(
            "c1",
            Some("m1"),
            2,
            "<command-name>/model</command-name>\n            <command-message>model</command-message>\n            <command-args>opus</command-args>",
        ),
        prompt(
            "o1",
            Some("c1"),
            3,
            "<local-command-stdout>Set model to \u{1b}[1mopus\u{1b}[22m</local-command-stdout>",
        ),
        with(
            prompt(
                "s1",
                Some("o1"),
                4,
                "Base directory for this skill: /x\n\n# Skill body",
            ),
            json!({"isMeta": true}),
        ),
        user(
            "u1",
            Some("s1"),
            5,
            json!([{"type": "text", "text": "real prompt"}, {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AA=="}}]),
        ),
        say("a1", Some("u1"), 6, "msg_1", "answer"),
        prompt("i1", Some("a1"), 7, "[Request interrupted by user]"),
        prompt("b1", Some("i1"), 8, "<bash-input>git status</bash-input>"),
        prompt(
            "b2",
            Some("b1"),
            9,
            "<bash-stdout>\u{1b}[32mclean\u{1b}[0m</bash-stdout><bash-stderr></bash-stderr>",
        ),
        prompt(
            "c2",
            Some("b2"),
            10,
            "<command-message>compact</command-message>\n<command-name>/compact</command-name>\n<command-args></command-args>",
        ),
    ]);
    assert_eq!(
        shape(&t),
        [
            "user: /model opus",
            "system: Set model to opus",
            "user: real prompt",
            "assistant: answer",
            "user: ! git status",
            "system: clean",
            "user: /compact"
        ]
    );
}

#[test]
fn a_compaction_continues_the_conversation_and_keeps_what_came_before() {
    let t = read_one(&[
        prompt("u1", None, 1, "before compaction"),
        say("a1", Some("u1"), 2, "msg_1", "old answer"),
        with(
            base("system", "cb", None, 3),
            json!({"subtype": "compact_boundary", "content": "Conversation compacted",
                   "logicalParentUuid": id("a1"), "level": "info",
                   "compactMetadata": {"trigger": "manual", "preTokens": 1000}}),
        ),
        with(
            prompt(
                "cs",
                Some("cb"),
                4,
                "This session is being continued from a previous conversation. Summary: old stuff",
            ),
            json!({"isCompactSummary": true, "isVisibleInTranscriptOnly": true}),
        ),
        prompt("u2", Some("cs"), 5, "after compaction"),
        say("a2", Some("u2"), 6, "msg_2", "new answer"),
    ]);
    assert_eq!(
        shape(&t),
        [
            "user: before compaction",
            "assistant: old answer",
            "system: This session is being continued from a previous conversation. Summary: old stuff",
            "user: after compaction",
            "assistant: new answer"
        ]
    );
}

#[test]
fn a_compaction_whose_logical_parent_is_gone_still_keeps_what_came_before() {
    let t = read_one(&[
        prompt("u1", None, 1, "before"),
        say("a1", Some("u1"), 2, "msg_1", "old"),
        with(
            base("system", "cb", None, 3),
            json!({"subtype": "compact_boundary", "logicalParentUuid": id("not-in-file")}),
        ),
        prompt("u2", Some("cb"), 4, "after"),
    ]);
    assert_eq!(shape(&t), ["user: before", "assistant: old", "user: after"]);
}

#[test]
fn the_custom_title_wins_then_the_summary_of_a_leaf_in_this_session() {
    let lines = [
        json!({"type": "summary", "summary": "Someone else's session", "leafUuid": id("elsewhere")}),
        prompt("u1", None, 1, "hello"),
        say("a1", Some("u1"), 2, "msg_1", "hi"),
        json!({"type": "summary", "summary": "Greeting exchange", "leafUuid": id("a1")}),
    ];
    assert_eq!(read_one(&lines).title.as_deref(), Some("Greeting exchange"));

    let mut titled = lines.to_vec();
    titled.push(json!({"type": "custom-title", "customTitle": "old name", "sessionId": SID}));
    titled.push(json!({"type": "custom-title", "customTitle": "My name", "sessionId": SID}));
    assert_eq!(read_one(&titled).title.as_deref(), Some("My name"));

    let untitled = [
        json!({"type": "summary", "summary": "Someone else's", "leafUuid": id("elsewhere")}),
        prompt("u1", None, 1, "hello"),
    ];
    assert_eq!(read_one(&untitled).title, None);
}

#[test]
fn model_provider_cwd_and_source_id() {
    let t = read_one(&[
        prompt("u1", None, 1, "hi"),
        say("a1", Some("u1"), 2, "msg_1", "hello"),
        prompt("u2", Some("a1"), 3, "again"),
        with(
            say("a2", Some("u2"), 4, "msg_2", "No response requested."),
            json!({"message": {"id": "msg_2", "role": "assistant", "model": "<synthetic>",
                   "content": [{"type": "text", "text": "No response requested."}]}}),
        ),
    ]);
    assert_eq!(t.model.as_deref(), Some("claude-opus-4-5-20251101"));
    assert_eq!(t.provider.as_deref(), Some("anthropic"));
    assert_eq!(t.cwd, Some(PathBuf::from("/work/project")));
    assert_eq!(t.source_id, SID);
    assert_eq!(t.parent_source_id, None);
    assert_eq!(t.items.len(), 4);
}

#[test]
fn sidechain_lines_in_the_session_file_are_a_session_of_their_own() {
    let side = |line: Value| with(line, json!({"isSidechain": true}));
    let all = {
        let dir = tempfile::tempdir().unwrap();
        let path = session_file(dir.path());
        write_lines(
            &path,
            &[
                prompt("u1", None, 1, "research this"),
                tool_use("a1", Some("u1"), 2, "msg_1", "toolu_task"),
                side(prompt("s1", None, 3, "subagent prompt")),
                side(say("s2", Some("s1"), 4, "msg_s", "subagent answer")),
                result("r1", Some("a1"), 5, "toolu_task", json!("task result")),
                say("a2", Some("r1"), 6, "msg_2", "done"),
            ],
        );
        read_all(&path)
    };
    assert_eq!(all.len(), 2);
    assert_eq!(
        shape(&all[0]),
        [
            "user: research this",
            "call Bash toolu_task -> done task result",
            "assistant: done"
        ]
    );
    assert_eq!(
        shape(&all[1]),
        ["user: subagent prompt", "assistant: subagent answer"]
    );
    assert_eq!(all[1].parent_source_id.as_deref(), Some(SID));
    assert_eq!(all[1].source_id, format!("{SID}:sidechain:{}", id("s1")));
}

#[test]
fn a_subagent_file_is_a_session_whose_parent_is_the_session() {
    let dir = tempfile::tempdir().unwrap();
    let main = session_file(dir.path());
    write_lines(&main, &[prompt("u1", None, 1, "hi")]);
    let agents = main.with_extension("").join("subagents");
    std::fs::create_dir_all(&agents).unwrap();
    let agent = agents.join("agent-a1b2c3d.jsonl");
    let line = |l: Value| with(l, json!({"isSidechain": true, "agentId": "a1b2c3d"}));
    write_lines(
        &agent,
        &[
            line(prompt("s1", None, 1, "look around")),
            line(say("s2", Some("s1"), 2, "msg_s", "found it")),
        ],
    );
    let all = read_all(&agent);
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].source_id, "agent-a1b2c3d");
    assert_eq!(all[0].parent_source_id.as_deref(), Some(SID));
    assert_eq!(shape(&all[0]), ["user: look around", "assistant: found it"]);

    // Older versions: the agent's file beside the sessions.
    let beside = main.with_file_name("agent-e5f6a7b.jsonl");
    let line = |l: Value| with(l, json!({"isSidechain": true, "agentId": "e5f6a7b"}));
    write_lines(&beside, &[line(prompt("s1", None, 1, "old style"))]);
    let all = read_all(&beside);
    assert_eq!(all[0].source_id, "agent-e5f6a7b");
    assert_eq!(all[0].parent_source_id.as_deref(), Some(SID));
    std::fs::remove_file(&beside).unwrap();

    let found = Claude.sources(dir.path()).unwrap();
    let kinds: Vec<(&str, bool)> = found
        .iter()
        .map(|s| (s.kind, s.path == agent || s.path == main))
        .collect();
    assert_eq!(kinds, [("session", true), ("subagent", true)]);
}

#[test]
fn keys_stay_the_same_when_the_file_grows() {
    let dir = tempfile::tempdir().unwrap();
    let path = session_file(dir.path());
    write_lines(
        &path,
        &[
            prompt("u1", None, 1, "go"),
            tool_use("a1", Some("u1"), 2, "msg_1", "toolu_1"),
            tool_use("a2", Some("a1"), 3, "msg_1", "toolu_2"),
            result("r1", Some("a1"), 4, "toolu_1", json!("one")),
        ],
    );
    let before = read_all(&path).remove(0);
    append_lines(
        &path,
        &[
            result("r2", Some("a2"), 5, "toolu_2", json!("two")),
            say("a3", Some("r2"), 6, "msg_2", "both done"),
        ],
    );
    let after = read_all(&path).remove(0);
    let keys = |t: &Transcript| t.items.iter().map(|i| i.key.clone()).collect::<Vec<_>>();
    assert_eq!(keys(&after)[..keys(&before).len()], keys(&before)[..]);
    assert_eq!(after.items.len(), before.items.len() + 1);
    assert_eq!(
        shape(&after),
        [
            "user: go",
            "call Bash toolu_1 -> done one",
            "call Bash toolu_2 -> done two",
            "assistant: both done"
        ]
    );
}

#[test]
fn a_torn_line_an_unknown_kind_and_a_rewritten_line_are_tolerated() {
    let dir = tempfile::tempdir().unwrap();
    let path = session_file(dir.path());
    write_lines(
        &path,
        &[
            json!({"type": "file-history-snapshot", "messageId": id("u1"), "snapshot": {}}),
            prompt("u1", None, 1, "hi"),
            say("a1", Some("u1"), 2, "msg_1", "draft"),
            json!({"type": "some-future-kind", "sessionId": SID}),
            // Claude Code re-appends a message it settles later.
            say("a1", Some("u1"), 2, "msg_1", "final"),
        ],
    );
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    file.write_all(b"{\"parentUuid\":\"x\",\"type\":\"us")
        .unwrap();
    let t = read_all(&path).remove(0);
    assert_eq!(shape(&t), ["user: hi", "assistant: final"]);
    assert_eq!(t.skipped.torn_lines, 1);
    assert_eq!(t.skipped.unknown_kinds, 1);
}

#[test]
fn sources_claim_claude_files_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = session_file(dir.path());
    write_lines(&path, &[prompt("u1", None, 1, "hi")]);
    let other = dir.path().join("projects/-work-project");
    write_lines(
        &other.join("rollout-2026-01-01T00-00-00-abc.jsonl"),
        &[
            json!({"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta", "payload": {"id": "x"}}),
        ],
    );
    write_lines(
        &other.join("session-gemini.jsonl"),
        &[
            json!({"sessionId": "s", "projectHash": "h", "startTime": "t"}),
            json!({"id": "m1", "type": "user", "content": "hi"}),
        ],
    );
    std::fs::write(other.join("empty.jsonl"), "").unwrap();
    std::fs::write(
        dir.path().join("history.jsonl"),
        "{\"display\":\"hi\",\"timestamp\":1}\n",
    )
    .unwrap();
    let found: Vec<PathBuf> = Claude
        .sources(dir.path())
        .unwrap()
        .into_iter()
        .map(|s| s.path)
        .collect();
    assert_eq!(found, std::slice::from_ref(&path));
    assert_eq!(Claude.sources(&path).unwrap().len(), 1);
    assert!(
        Claude
            .sources(&other.join("session-gemini.jsonl"))
            .unwrap()
            .is_empty()
    );
    assert!(Claude.sources(&dir.path().join("missing")).is_err());
    // A transcript that starts with a summary or a snapshot is claimed too.
    let summary_first = other.join(format!("{}.jsonl", id("s2")));
    write_lines(
        &summary_first,
        &[json!({"type": "summary", "summary": "x", "leafUuid": id("l")})],
    );
    assert_eq!(Claude.sources(&summary_first).unwrap().len(), 1);
}

#[test]
fn default_roots_follow_claude_config_dir_and_the_home() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    std::fs::create_dir_all(a.join("projects")).unwrap();
    std::fs::create_dir_all(b.join("projects")).unwrap();
    let homes = Homes::at(Some(dir.path().join("home"))).with_var(
        "CLAUDE_CONFIG_DIR",
        format!(
            "{}, {}/projects,{}/none",
            a.display(),
            b.display(),
            dir.path().display()
        ),
    );
    assert_eq!(
        Claude.default_roots(&homes),
        [a.join("projects"), b.join("projects")]
    );

    let home = dir.path().join("home");
    std::fs::create_dir_all(home.join(".claude/projects")).unwrap();
    std::fs::create_dir_all(home.join(".config/claude/projects")).unwrap();
    let homes = Homes::at(Some(home.clone()));
    assert_eq!(
        Claude.default_roots(&homes),
        [
            home.join(".claude/projects"),
            home.join(".config/claude/projects")
        ]
    );
}

#[test]
fn ansi_escapes_are_stripped() {
    assert_eq!(
        text::strip_ansi(
            "\u{1b}[1;31mred\u{1b}[0m \u{1b}]8;;http://x\u{7}link\u{1b}]8;;\u{7} \u{1b}(Bok"
        ),
        "red link ok"
    );
    assert_eq!(text::strip_ansi("plain"), "plain");
}

#[test]
fn time_keys_order_like_the_time() {
    assert!(
        tree::time_key("2026-03-01T10:00:01.000Z") > tree::time_key("2026-03-01T10:00:00.999Z")
    );
    assert_eq!(
        tree::time_key("2026-03-01T10:00:01Z"),
        tree::time_key("2026-03-01T10:00:01.000Z")
    );
}

#[test]
fn a_progress_line_is_linked_without_parsing_it_when_shaped_as_claude_writes_it() {
    let line = progress("p1", Some("a1"), 3).to_string();
    assert_eq!(
        progress_link(line.as_bytes()),
        Some((id("p1").as_str(), Some(id("a1").as_str())))
    );
    let root = progress("p0", None, 3).to_string();
    assert_eq!(
        progress_link(root.as_bytes()),
        Some((id("p0").as_str(), None))
    );
    // As Claude Code orders it: `uuid` after `data`.
    let ordered = format!(
        "{{\"parentUuid\":\"{}\",\"isSidechain\":false,\"type\":\"progress\",\"data\":{{\"type\":\"agent_progress\",\"message\":{{\"uuid\":\"{}\"}}}},\"toolUseID\":\"t\",\"uuid\":\"{}\",\"timestamp\":\"{}\"}}",
        id("a1"),
        id("inner"),
        id("p5"),
        at(5)
    );
    assert_eq!(
        progress_link(ordered.as_bytes()),
        Some((id("p5").as_str(), Some(id("a1").as_str())))
    );
    // A subagent's progress nests whole messages, uuids and all.
    let nested = with(
        progress("p2", Some("a1"), 4),
        json!({"data": {"type": "agent_progress", "message": {"type": "user", "uuid": id("inner")}}}),
    );
    let text = nested.to_string();
    assert_eq!(
        progress_link(text.as_bytes()).map(|l| l.0),
        Some(id("p2").as_str())
    );
    // Shaped otherwise: parsed in full instead.
    for other in [
        prompt("u1", None, 1, "hi").to_string(),
        json!({"type": "progress", "uuid": id("p3"), "parentUuid": null}).to_string(),
        json!({"parentUuid": null, "data": {"type": "progress"}, "type": "user", "uuid": id("u")}).to_string(),
        json!({"parentUuid": null, "type": "progress", "data": {"n": 1}, "more": {"uuid": id("x")}}).to_string(),
    ] {
        assert_eq!(progress_link(other.as_bytes()), None, "{other}");
    }
    // Both ways, the tree is the same.
    let lines = [
        prompt("u1", None, 1, "go"),
        tool_use("a1", Some("u1"), 2, "msg_1", "toolu_1"),
        json!({"type": "progress", "uuid": id("p1"), "parentUuid": id("a1")}),
        progress("p2", Some("p1"), 3),
        say("a2", Some("p2"), 4, "msg_2", "done"),
    ];
    assert_eq!(
        shape(&read_one(&lines)),
        [
            "user: go",
            "call Bash toolu_1 -> none interrupted",
            "assistant: done"
        ]
    );
}

#[test]
fn a_prompts_image_blocks_are_kept_on_its_message() {
    const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    let png = json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}});
    let t = read_one(&[
        user(
            "u1",
            None,
            1,
            json!([{"type": "text", "text": "look"}, png]),
        ),
        say("a1", Some("u1"), 2, "msg_1", "a dot"),
        // Only an image, and one said to be a JPEG that is not base64.
        user("u2", Some("a1"), 3, json!([png])),
        user(
            "u3",
            Some("u2"),
            4,
            json!([{"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "not base64"}}]),
        ),
    ]);
    assert_eq!(
        shape(&t),
        ["user: look", "assistant: a dot", "user: ", "user: "]
    );
    let images: Vec<Vec<Value>> = t
        .items
        .iter()
        .map(|item| match &item.body {
            Body::Message { images, .. } => images.clone(),
            Body::ToolCall(_) => Vec::new(),
        })
        .collect();
    let kept = json!({"type": "image", "mimeType": "image/png", "data": PNG});
    assert_eq!(
        images,
        [
            vec![kept.clone()],
            vec![],
            vec![kept],
            vec![json!({"type": "text", "text": "[image: image/jpeg, 10 bytes, not kept]"})],
        ]
    );
}
