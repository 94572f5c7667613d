//! What a client cannot make the server do: hold every answer of a client
//! that does not read them, or keep it running after SIGTERM or a closed
//! stdin while slow requests are queued.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::process::ChildStdin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{Mcp, recorded, spawn};
use crate::support::Sandbox;

/// Requests a client sends without reading.
const UNREAD: usize = 1000;

/// A `tools/call` of `get_session` padded with JSON whitespace to 1 KB.
fn padded_request(id: usize, arguments: &Value) -> String {
    let request = json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": "tools/call",
        "params": {"name": "get_session", "arguments": arguments},
    })
    .to_string();
    let padding = " ".repeat(1024usize.saturating_sub(request.len()));
    format!("{}{padding}}}", &request[..request.len() - 1])
}

fn write_line(stdin: &mut ChildStdin, line: &str) -> std::io::Result<()> {
    writeln!(stdin, "{line}")?;
    stdin.flush()
}

/// The count once it has not moved for a second (or reached `all`).
fn settled(count: &AtomicUsize, all: usize) -> usize {
    let mut last = usize::MAX;
    loop {
        let now = count.load(Ordering::SeqCst);
        if now == last || now == all {
            return now;
        }
        last = now;
        thread::sleep(Duration::from_secs(1));
    }
}

#[test]
fn a_client_that_does_not_read_its_answers_stops_the_server_reading_and_loses_none() {
    let sb = Sandbox::new();
    let text = "one line of a long answer, as a model writes them\n".repeat(200);
    let id = recorded(&sb, "long", &[("user", &text)]);
    let mut child = spawn(&sb, &[]);
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "e2e", "version": "1"}}});
    write_line(&mut stdin, &initialize.to_string()).unwrap();
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert!(line.contains("\"protocolVersion\""), "{line}");
    write_line(
        &mut stdin,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    )
    .unwrap();

    let written = Arc::new(AtomicUsize::new(0));
    let counter = written.clone();
    let arguments = json!({"session": id});
    let writer = thread::spawn(move || {
        for n in 0..UNREAD {
            write_line(&mut stdin, &padded_request(1000 + n, &arguments)).unwrap();
            counter.fetch_add(1, Ordering::SeqCst);
        }
        stdin
    });
    let taken = settled(&written, UNREAD);
    // The server reads 16 requests ahead; the rest wait in the pipes
    // (64 KB each way) and its reader's buffer, not in its memory.
    assert!(
        taken < 250,
        "the server took {taken} of {UNREAD} requests while none of its answers was read"
    );
    let mut answered = HashSet::new();
    for _ in 0..UNREAD {
        line.clear();
        stdout.read_line(&mut line).unwrap();
        let reply: Value = serde_json::from_str(&line).expect("a JSON-RPC line");
        assert_eq!(reply["result"]["isError"], false, "{reply}");
        answered.insert(reply["id"].as_u64().expect("an id"));
    }
    let stdin = writer.join().expect("the writer");
    assert_eq!(answered.len(), UNREAD, "every request answered once");
    drop(stdin);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
}

/// A session with one 4 MB message, and the arguments of a `get_session`
/// over it that cleans and counts megabytes of it (the largest page).
fn slow_request(sb: &Sandbox) -> Value {
    let id = recorded(sb, "huge", &[]);
    sb.cmd("ollm-session")
        .args(["record", &id, "--role", "user", "--text", "-"])
        .write_stdin("words of a very long tool output ".repeat(130_000))
        .assert()
        .success();
    json!({"session": id, "maxTokens": 100_000})
}

/// Queues 40 slow requests, lets the server start on them, ends it with
/// `end`; returns how long it took to exit.
fn exit_time_with_slow_requests_queued(end: impl FnOnce(Mcp) -> Mcp) -> Duration {
    let sb = Sandbox::new();
    let arguments = slow_request(&sb);
    let mut mcp = Mcp::start(&sb, &[]);
    mcp.initialize();
    for n in 0..40 {
        mcp.write_line(&padded_request(1000 + n, &arguments));
    }
    thread::sleep(Duration::from_millis(500));
    let ended = Instant::now();
    let mut mcp = end(mcp);
    let (code, err) = mcp.finish();
    let took = ended.elapsed();
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    took
}

#[test]
fn sigterm_with_slow_requests_queued_exits_without_running_them() {
    let took = exit_time_with_slow_requests_queued(|mcp| {
        // SAFETY: signals our own child, which we still hold.
        unsafe {
            libc::kill(mcp.child.id() as i32, libc::SIGTERM);
        }
        mcp
    });
    // Running the 40 requests takes minutes in a debug build.
    assert!(took < Duration::from_secs(10), "exited after {took:?}");
}

#[test]
fn closing_stdin_with_slow_requests_queued_exits_without_running_them() {
    let took = exit_time_with_slow_requests_queued(|mut mcp| {
        mcp.close_stdin();
        mcp
    });
    assert!(took < Duration::from_secs(10), "exited after {took:?}");
}

#[test]
fn a_small_page_of_a_huge_message_is_cut_to_its_budget() {
    let sb = Sandbox::new();
    let mut arguments = slow_request(&sb);
    arguments["maxTokens"] = json!(100);
    let mut mcp = Mcp::start(&sb, &[]);
    mcp.initialize();
    let page = mcp.call_ok("get_session", arguments);
    assert_eq!(page["messages"][0]["truncated"], true, "{page}");
    assert!(page["tokens"].as_u64().unwrap() <= 100, "{page}");
    assert!(
        page["messages"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("words of a very long tool output"),
        "{page}"
    );
    assert!(page["nextCursor"].is_null(), "{page}");
}
