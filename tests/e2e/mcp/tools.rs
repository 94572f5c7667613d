//! Each tool and the resources on a store made with `ollm-session`, the
//! token-budget pages, the write tools' gate, tool errors, and hostile text.

use serde_json::{Value, json};

use super::{Mcp, recorded};
use crate::support::{Sandbox, stdout};

fn indices(page: &Value) -> Vec<u64> {
    page["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["index"].as_u64().unwrap())
        .collect()
}

#[test]
fn the_read_tools_answer_as_the_programs_do() {
    let sb = Sandbox::new();
    let older = recorded(
        &sb,
        "retry design",
        &[
            ("user", "what should the retry logic do?"),
            (
                "assistant",
                "We decided on exponential backoff with jitter.",
            ),
        ],
    );
    let newer = recorded(&sb, "lunch", &[("user", "pizza or pasta")]);
    sb.cmd("ollm-context")
        .args(["add", "rules", "Never force-push.", "--priority", "80"])
        .assert()
        .success();
    sb.write("src/main.rs", "fn main() {}\n");
    sb.write("notes.txt", "x\n");
    sb.write(".gitignore", "*.log\n");
    sb.write("debug.log", "ignored\n");
    let mut mcp = Mcp::start(&sb, &[]);
    mcp.initialize();

    let listed = mcp.call_ok("list_sessions", json!({}));
    let ids: Vec<&str> = listed["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["sessionId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [newer.as_str(), older.as_str()]);
    assert_eq!(listed["sessions"][1]["title"], "retry design");
    assert_eq!(listed["sessions"][1]["messageCount"], 2);
    assert_eq!(
        listed["sessions"][1]["uri"],
        format!("ollm://session/{older}")
    );
    let one = mcp.call_ok("list_sessions", json!({"limit": 1, "workspace": "."}));
    assert_eq!(one["count"], 1);
    assert_eq!(one["sessions"][0]["sessionId"], newer.as_str());
    let elsewhere = mcp.call_ok("list_sessions", json!({"workspace": "/"}));
    assert_eq!(elsewhere["count"], 0, "{elsewhere}");
    // An empty answer says which store was read, and what to check.
    let note = elsewhere["note"]
        .as_str()
        .expect("a note on an empty answer");
    assert!(
        note.contains(&sb.sessions_dir().display().to_string()) && note.contains("OLLM_HOME"),
        "{note}"
    );
    assert!(
        listed.get("note").is_none(),
        "no note when something was found"
    );
    let nothing = mcp.call_ok(
        "search_sessions",
        json!({"query": "no such words anywhere"}),
    );
    assert_eq!(nothing["count"], 0);
    assert!(
        nothing["note"]
            .as_str()
            .is_some_and(|n| n.contains("OLLM_HOME")),
        "{nothing}"
    );

    let found = mcp.call_ok(
        "search_sessions",
        json!({"query": "BACKOFF", "ignoreCase": true, "role": "assistant"}),
    );
    assert_eq!(found["count"], 1, "{found}");
    assert_eq!(found["hits"][0]["sessionId"], older.as_str());
    assert_eq!(found["hits"][0]["messageIndex"], 1);
    let regex = mcp.call_ok(
        "search_sessions",
        json!({"query": "pi(zz|ck)a", "regex": true}),
    );
    assert_eq!(regex["hits"][0]["sessionId"], newer.as_str(), "{regex}");

    for reference in [older.as_str(), &older[..8], "retry design"] {
        let page = mcp.call_ok("get_session", json!({"session": reference}));
        assert_eq!(page["sessionId"], older.as_str(), "{reference}");
        assert_eq!(
            page["messages"][1]["text"],
            "We decided on exponential backoff with jitter."
        );
        assert!(page.get("nextCursor").is_none(), "{page}");
    }
    let latest = mcp.call_ok("get_session", json!({"latest": true}));
    assert_eq!(latest["sessionId"], newer.as_str());

    let context = mcp.call_ok("get_context", json!({}));
    let prompt = sb.cmd("ollm-context").arg("prompt").output().unwrap();
    assert_eq!(context["prompt"], stdout(&prompt), "{context}");
    assert_eq!(context["entries"][0]["key"], "rules");
    assert_eq!(context["trusted"], true);

    let files = mcp.call_ok("discover_files", json!({}));
    let listing = sb
        .cmd("ollm-discover")
        .args(["--paths", "--sort"])
        .output()
        .unwrap();
    let expected: Vec<String> = stdout(&listing).lines().map(str::to_string).collect();
    let got: Vec<String> = files["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["relativePath"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(got, expected);
    assert!(!got.contains(&"debug.log".to_string()), "{got:?}");
    let rust = mcp.call_ok("discover_files", json!({"include": ["*.rs"], "limit": 10}));
    assert_eq!(rust["files"][0]["relativePath"], "src/main.rs", "{rust}");
    assert_eq!(rust["count"], 1);
    let shallow = mcp.call_ok("discover_files", json!({"maxDepth": 0}));
    assert!(
        shallow["files"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["relativePath"] != "src/main.rs")
    );

    let resources = mcp.request("resources/list", json!({}))["result"]["resources"].clone();
    assert_eq!(
        resources[1]["uri"],
        format!("ollm://session/{older}"),
        "{resources}"
    );
    assert_eq!(resources[1]["mimeType"], "text/markdown");
    let read = mcp.request(
        "resources/read",
        json!({"uri": format!("ollm://session/{older}")}),
    );
    let text = read["result"]["contents"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    let export = sb
        .cmd("ollm-session")
        .args(["export", &older, "--format", "markdown"])
        .output()
        .unwrap();
    assert_eq!(text, stdout(&export));
}

#[test]
fn a_long_session_comes_in_pages_that_fit_the_token_budget() {
    let sb = Sandbox::new();
    let texts: Vec<String> = (0..30)
        .map(|i| {
            format!(
                "message {i}: {}",
                "the retry loop backs off again ".repeat(8)
            )
        })
        .collect();
    let messages: Vec<(&str, &str)> = texts.iter().map(|t| ("user", t.as_str())).collect();
    let id = recorded(&sb, "long", &messages);
    let mut mcp = Mcp::start(&sb, &[]);
    mcp.initialize();
    let mut page = mcp.call_ok("get_session", json!({"session": id, "maxTokens": 300}));
    let mut seen = Vec::new();
    let mut pages = 0;
    loop {
        pages += 1;
        assert_eq!(page["tokenizer"], "cl100k_base", "{page}");
        assert!(page["tokens"].as_u64().unwrap() <= 300, "{page}");
        for message in page["messages"].as_array().unwrap() {
            let index = message["index"].as_u64().unwrap() as usize;
            assert_eq!(message["text"], texts[index].as_str());
            seen.push(index);
        }
        let Some(cursor) = page["nextCursor"].as_str().map(str::to_string) else {
            break;
        };
        page = mcp.call_ok("get_session", json!({"cursor": cursor, "maxTokens": 300}));
    }
    assert_eq!(seen, (0..30).collect::<Vec<_>>());
    assert!(pages >= 5, "{pages} pages");
    let range = mcp.call_ok("get_session", json!({"session": id, "from": 5, "to": 9}));
    assert_eq!(indices(&range), [5, 6, 7, 8]);
    assert!(range.get("nextCursor").is_none());
    let cut = mcp.call_ok(
        "get_session",
        json!({"session": id, "from": 5, "to": 9, "maxTokens": 150}),
    );
    let cursor = cut["nextCursor"].as_str().expect("a next page").to_string();
    assert!(cursor.ends_with("..9"), "{cursor}");
    let rest = mcp.call_ok("get_session", json!({"cursor": cursor, "maxTokens": 150}));
    assert_eq!(indices(&rest).last(), Some(&8));
}

#[test]
fn write_tools_need_allow_write() {
    let sb = Sandbox::new();
    let id = recorded(&sb, "notes", &[("user", "first")]);
    let mut mcp = Mcp::start(&sb, &[]);
    mcp.initialize();
    let refused = mcp.call_err(
        "record_message",
        json!({"session": id, "role": "assistant", "text": "second"}),
    );
    assert!(refused.contains("--allow-write"), "{refused}");
    assert!(
        mcp.call_err("add_context", json!({"key": "k", "content": "c"}))
            .contains("--allow-write")
    );
    drop(mcp);
    let get = sb
        .cmd("ollm-session")
        .args(["get", &id, "--messages"])
        .output()
        .unwrap();
    assert_eq!(crate::support::json(&get).as_array().unwrap().len(), 1);

    let mut mcp = Mcp::start(&sb, &["--allow-write"]);
    mcp.initialize();
    let tools = mcp.request("tools/list", json!({}))["result"]["tools"].clone();
    assert_eq!(tools.as_array().unwrap().len(), 7, "{tools}");
    let recorded = mcp.call_ok(
        "record_message",
        json!({"latest": true, "role": "assistant", "text": "second"}),
    );
    assert_eq!(recorded["sessionId"], id.as_str());
    assert_eq!(recorded["index"], 1);
    let bad_role = mcp.call_err(
        "record_message",
        json!({"latest": true, "role": "root", "text": "x"}),
    );
    assert!(bad_role.contains("role"), "{bad_role}");
    let added = mcp.call_ok(
        "add_context",
        json!({"key": "decision", "content": "Back off exponentially.", "priority": 90, "ttl": "2h"}),
    );
    assert_eq!(added["added"], "decision");
    drop(mcp);
    let get = sb
        .cmd("ollm-session")
        .args(["get", &id, "--messages"])
        .output()
        .unwrap();
    let messages = crate::support::json(&get);
    assert_eq!(messages[1]["parts"][0]["text"], "second", "{messages}");
    let entry = sb
        .cmd("ollm-context")
        .args(["get", "decision"])
        .output()
        .unwrap();
    let entry = crate::support::json(&entry);
    assert_eq!(entry["priority"], 90);
    assert_eq!(entry["source"], "extension");
}

#[test]
fn bad_ids_and_arguments_are_one_line_tool_errors_and_the_server_goes_on() {
    let sb = Sandbox::new();
    recorded(&sb, "kept", &[("user", "hello")]);
    let mut mcp = Mcp::start(&sb, &[]);
    mcp.initialize();
    let unknown = mcp.call_err(
        "get_session",
        json!({"session": "00000000-0000-4000-8000-000000000000"}),
    );
    assert!(
        unknown.contains("00000000-0000-4000-8000-000000000000"),
        "{unknown}"
    );
    for (tool, arguments) in [
        ("get_session", json!({"session": "../../etc/passwd"})),
        ("get_session", json!({"cursor": "../../etc/passwd@1"})),
        ("get_session", json!({"latest": true, "maxTokens": "many"})),
        ("get_session", json!({"latest": true, "maxTokens": 5})),
        ("get_session", json!({"latest": true, "colour": "red"})),
        ("list_sessions", json!({"limit": -1})),
        ("list_sessions", json!({"since": "the day before"})),
        ("search_sessions", json!({"query": "(", "regex": true})),
        ("search_sessions", json!({})),
        ("discover_files", json!({"root": "/"})),
        ("discover_files", json!({"root": "no-such-dir"})),
        ("no_such_tool", json!({})),
    ] {
        let message = mcp.call_err(tool, arguments.clone());
        assert!(
            !message.is_empty() && !message.contains("panicked"),
            "{tool} {arguments}: {message}"
        );
    }
    let bad_field = mcp.call_err("get_session", json!({"latest": true, "maxTokens": "many"}));
    assert!(bad_field.contains("maxTokens"), "{bad_field}");
    let unread = mcp.request(
        "resources/read",
        json!({"uri": "ollm://session/../../etc/passwd"}),
    );
    assert!(unread.get("error").is_some(), "{unread}");
    let missing = mcp.request(
        "resources/read",
        json!({"uri": "ollm://session/00000000-0000-4000-8000-000000000000"}),
    );
    assert!(missing.get("error").is_some(), "{missing}");
    assert_eq!(mcp.call_ok("list_sessions", json!({}))["count"], 1);
    let (code, err, _) = mcp.close();
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn hostile_stored_text_comes_back_redacted_with_its_controls_visible() {
    let sb = Sandbox::new();
    let token = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
    let hostile = format!("use {token} then \u{1b}]0;pwned\u{7} and \u{202e}reversed");
    let id = recorded(&sb, "plain", &[]);
    // Stored as given (write-time redaction off), so what the server
    // returns is redacted by the server itself.
    sb.cmd("ollm-session")
        .args([
            "--no-redact",
            "record",
            &id,
            "--role",
            "user",
            "--text",
            &hostile,
        ])
        .assert()
        .success();
    let mut mcp = Mcp::start(&sb, &[]);
    mcp.initialize();
    let page = mcp.call_ok("get_session", json!({"session": id}));
    let hits = mcp.call_ok("search_sessions", json!({"query": "pwned"}));
    let read = mcp.request(
        "resources/read",
        json!({"uri": format!("ollm://session/{id}")}),
    );
    // Not the token, nor a piece of it that a snippet's cut left behind.
    let pieces: Vec<&str> = (0..token.len() - 8).map(|i| &token[i..i + 8]).collect();
    for shown in [page.to_string(), hits.to_string(), read.to_string()] {
        assert!(!pieces.iter().any(|p| shown.contains(p)), "{shown}");
        for control in ['\u{1b}', '\u{7}', '\u{202e}'] {
            assert!(!shown.contains(control), "{control:?} in {shown}");
        }
        assert!(shown.contains(r"\\x1b"), "{shown}");
    }
    for whole in [page.to_string(), read.to_string()] {
        assert!(whole.contains("[REDACTED"), "{whole}");
    }
}

/// A message longer than redaction reads (16 MiB) is stored cut, and
/// `record_message` says how many bytes were withheld, as `ollm session
/// record` does; no credential past the limit reaches the store.
#[test]
fn record_message_says_what_was_withheld_past_the_redaction_limit() {
    const TOKEN: &str = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
    let sb = Sandbox::new();
    let id = recorded(&sb, "long", &[("user", "first")]);
    let line = format!("{}\n", "cargo build output ".repeat(6));
    let head = line.repeat((16 << 20) / line.len() - 8);
    let tail = format!("{} {TOKEN} past the limit\n{}", "x".repeat(8192), line);
    let mut mcp = Mcp::start(&sb, &["--allow-write"]);
    mcp.initialize();
    let recorded = mcp.call_ok(
        "record_message",
        json!({"session": id, "role": "user", "text": format!("{head}{tail}")}),
    );
    assert_eq!(recorded["withheld"], tail.len(), "{recorded}");
    assert_eq!(recorded["redacted"], 1, "the withheld rest: {recorded}");
    let short = mcp.call_ok(
        "record_message",
        json!({"session": id, "role": "user", "text": "short"}),
    );
    assert!(short.get("withheld").is_none(), "{short}");
    drop(mcp);
    let on_disk = crate::support::tree(&sb.home)
        .into_values()
        .flatten()
        .any(|bytes| memchr::memmem::find(&bytes, TOKEN.as_bytes()).is_some());
    assert!(!on_disk, "the token is on disk");
}

#[test]
fn a_search_hit_in_a_tools_output_is_read_with_get_session_tool_calls() {
    let sb = Sandbox::new();
    let id = recorded(&sb, "tools", &[("user", "run the tests")]);
    let output = format!(
        "{}error[E0425]: cannot find value `retry_budget` in this scope\n",
        "test ok\n".repeat(400)
    );
    for (tool, result) in [("read_file", "fn main() {}"), ("shell", output.as_str())] {
        sb.session_ok(&[
            "record",
            &id,
            "--tool",
            tool,
            "--args",
            "{\"cmd\":\"cargo test\"}",
            "--result",
            result,
        ]);
    }
    let mut mcp = Mcp::start(&sb, &[]);
    mcp.initialize();
    let found = mcp.call_ok("search_sessions", json!({"query": "retry_budget"}));
    let hit = &found["hits"][0];
    let index = hit["toolCallIndex"].as_u64().expect("a tool call hit");
    assert_eq!(index, 1, "{found}");
    let page = mcp.call_ok(
        "get_session",
        json!({"session": id, "toolCalls": true, "from": index, "to": index + 1}),
    );
    assert_eq!(page["messages"], json!([]), "{page}");
    let call = &page["toolCalls"][0];
    assert_eq!(call["index"], 1, "{page}");
    assert_eq!(call["name"], "shell", "{page}");
    assert!(
        call["text"]
            .as_str()
            .unwrap()
            .contains("`retry_budget` in this scope"),
        "{page}"
    );
    // In pages under a small budget, the cursor keeps to tool calls.
    let first = mcp.call_ok(
        "get_session",
        json!({"session": id, "toolCalls": true, "maxTokens": 100}),
    );
    assert_eq!(first["toolCalls"][0]["name"], "read_file", "{first}");
    let cursor = first["nextCursor"].as_str().expect("a next page");
    let next = mcp.call_ok("get_session", json!({"cursor": cursor, "maxTokens": 100}));
    assert_eq!(next["toolCalls"][0]["index"], 1, "{next}");
    assert_eq!(next["toolCalls"][0]["truncated"], true, "{next}");
    assert_eq!(next["messages"], json!([]), "{next}");
}
