//! The protocol: both generations' openings, the tools' schemas, what
//! malformed input, a closed stdin and SIGTERM do.

use serde_json::json;

use super::{Mcp, meta_2026, recorded};
use crate::support::Sandbox;

const READ_TOOLS: [&str; 5] = [
    "list_sessions",
    "search_sessions",
    "get_session",
    "get_context",
    "discover_files",
];

#[test]
fn the_2025_11_25_handshake_names_the_server_and_its_tools_have_schemas() {
    let sb = Sandbox::new();
    let mut mcp = Mcp::start(&sb, &[]);
    let info = mcp.initialize();
    assert_eq!(info["protocolVersion"], "2025-11-25", "{info}");
    assert_eq!(info["serverInfo"]["name"], "ollm-mcp");
    assert!(info["capabilities"]["tools"].is_object(), "{info}");
    assert!(info["capabilities"]["resources"].is_object(), "{info}");
    let tools = mcp.request("tools/list", json!({}))["result"]["tools"].clone();
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, READ_TOOLS);
    for tool in tools.as_array().unwrap() {
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
        assert_eq!(tool["outputSchema"]["type"], "object", "{tool}");
        assert_eq!(tool["annotations"]["readOnlyHint"], true, "{tool}");
    }
    let get = &tools[2]["inputSchema"]["properties"];
    for field in ["session", "latest", "from", "to", "maxTokens", "cursor"] {
        assert!(get.get(field).is_some(), "get_session lacks {field}: {get}");
    }
    let (code, err, rest) = mcp.close();
    assert_eq!(code, Some(0), "{err}");
    assert!(rest.is_empty(), "{rest:?}");
}

#[test]
fn server_discover_and_per_request_meta_of_2026_07_28_need_no_handshake() {
    let sb = Sandbox::new();
    let id = recorded(&sb, "retry plan", &[("user", "how should we retry?")]);
    let mut mcp = Mcp::start(&sb, &[]);
    let found = mcp.request("server/discover", json!({"_meta": meta_2026()}));
    let result = &found["result"];
    let versions = result["supportedVersions"].as_array().expect("versions");
    assert!(versions.contains(&json!("2026-07-28")), "{result}");
    assert!(versions.contains(&json!("2025-11-25")), "{result}");
    assert!(result["capabilities"]["tools"].is_object(), "{result}");
    let listed = mcp.request(
        "tools/call",
        json!({"name": "list_sessions", "arguments": {}, "_meta": meta_2026()}),
    );
    let sessions = &listed["result"]["structuredContent"]["sessions"];
    assert_eq!(sessions[0]["sessionId"], id.as_str(), "{listed}");
    // Without the handshake, a request must say which protocol it speaks.
    let bare = mcp.request("tools/list", json!({}));
    assert!(bare.get("error").is_some(), "{bare}");
    let tools = mcp.request("tools/list", json!({"_meta": meta_2026()}));
    assert_eq!(
        tools["result"]["tools"].as_array().unwrap().len(),
        5,
        "{tools}"
    );
}

#[test]
fn a_malformed_line_is_skipped_and_the_server_keeps_answering() {
    let sb = Sandbox::new();
    let mut mcp = Mcp::start(&sb, &[]);
    mcp.initialize();
    mcp.write_line("{not json");
    mcp.write_line("\u{1b}[2J garbage");
    // The next line on stdout is the answer to the next request: nothing
    // was written for the lines that are not JSON (no id to answer).
    let listed = mcp.call_ok("list_sessions", json!({}));
    assert_eq!(listed["count"], 0);
    // Well-formed JSON that is no JSON-RPC message gets an error reply.
    mcp.write_line(r#"{"jsonrpc":"2.0","id":99,"method":7}"#);
    let reply = mcp.read();
    assert!(reply.get("error").is_some(), "{reply}");
    assert_eq!(mcp.call_ok("list_sessions", json!({}))["count"], 0);
    let (code, err, rest) = mcp.close();
    assert_eq!(code, Some(0), "{err}");
    assert!(rest.is_empty(), "{rest:?}");
}

#[test]
fn closing_stdin_before_or_after_the_handshake_exits_0_quietly() {
    let sb = Sandbox::new();
    let (code, err, rest) = Mcp::start(&sb, &[]).close();
    assert_eq!((code, err.as_str()), (Some(0), ""));
    assert!(rest.is_empty());
    let mut mcp = Mcp::start(&sb, &[]);
    mcp.initialize();
    let (code, err, _) = mcp.close();
    assert_eq!((code, err.as_str()), (Some(0), ""));
}

#[test]
fn sigterm_ends_the_server_cleanly() {
    let sb = Sandbox::new();
    let mut mcp = Mcp::start(&sb, &[]);
    mcp.initialize();
    // SAFETY: signals our own child, which we still hold.
    unsafe {
        libc::kill(mcp.child.id() as i32, libc::SIGTERM);
    }
    let (code, err) = mcp.finish();
    assert_eq!(code, Some(0), "{err}");
    assert!(
        !err.contains("panicked") && !err.contains("internal error"),
        "{err}"
    );
}

#[test]
fn ollm_mcp_runs_through_the_dispatcher() {
    let sb = Sandbox::new();
    let out = sb.cmd("ollm").args(["mcp", "--version"]).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        crate::support::stderr(&out)
    );
    assert!(crate::support::stdout(&out).starts_with("ollm-mcp "));
}
