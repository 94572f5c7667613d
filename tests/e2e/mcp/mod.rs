//! `ollm-mcp` end to end: the built server spawned in a sandbox and
//! driven over its stdio with JSON-RPC lines, as an agent's MCP client
//! does. Every line it writes to stdout must be a JSON-RPC message.

mod answers;
mod bounds;
mod protocol;
mod python;
mod tools;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{Sandbox, bin_path};

/// How long one reply may take (a debug build, a busy machine).
const REPLY: Duration = Duration::from_secs(60);

/// The `_meta` every 2026-07-28 request carries instead of a handshake.
pub fn meta_2026() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "e2e", "version": "1"}
    })
}

/// `ollm-mcp` started in the sandbox with its stdio piped.
pub fn spawn(sb: &Sandbox, args: &[&str]) -> Child {
    let program = bin_path("ollm-mcp");
    assert!(
        program.exists(),
        "{} is not built: `cargo build -p ollm-mcp` (cargo test --workspace builds it)",
        program.display()
    );
    sb.std_cmd("ollm-mcp")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn ollm-mcp")
}

/// A running `ollm-mcp` and the lines it writes.
pub struct Mcp {
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    next_id: u64,
}

impl Mcp {
    pub fn start(sb: &Sandbox, args: &[&str]) -> Mcp {
        let mut child = spawn(sb, args);
        let stdout = child.stdout.take().expect("stdout");
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Mcp {
            stdin: child.stdin.take(),
            child,
            lines,
            next_id: 0,
        }
    }

    /// Writes one line as it is (it need not be JSON).
    pub fn write_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to ollm-mcp");
        stdin.flush().expect("flush");
    }

    /// The next line of stdout, which must be one JSON-RPC 2.0 message.
    pub fn read(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(REPLY)
            .expect("ollm-mcp answered in time");
        let value: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line:?}"));
        assert_eq!(value["jsonrpc"], "2.0", "not JSON-RPC: {line}");
        value
    }

    /// Sends a request and returns its response (whole: result or error).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.write_line(&line.to_string());
        let reply = self.read();
        assert_eq!(reply["id"], id, "a reply to another request: {reply}");
        reply
    }

    pub fn notify(&mut self, method: &str) {
        self.write_line(&json!({"jsonrpc": "2.0", "method": method}).to_string());
    }

    /// The 2025-11-25 handshake; returns the initialize result.
    pub fn initialize(&mut self) -> Value {
        let reply = self.request(
            "initialize",
            json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "e2e", "version": "1"}
            }),
        );
        self.notify("notifications/initialized");
        reply["result"].clone()
    }

    /// Calls a tool (after the handshake); returns the tool result.
    pub fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let reply = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        assert!(
            reply.get("error").is_none(),
            "{tool}: protocol error {reply}"
        );
        reply["result"].clone()
    }

    /// A tool's `structuredContent`, asserting it succeeded and that its
    /// text block says the same.
    pub fn call_ok(&mut self, tool: &str, arguments: Value) -> Value {
        let result = self.call(tool, arguments);
        assert_eq!(result["isError"], false, "{tool}: {result}");
        let text = result["content"][0]["text"].as_str().expect("a text block");
        let from_text: Value = serde_json::from_str(text).expect("the text block is JSON");
        assert_eq!(from_text, result["structuredContent"]);
        result["structuredContent"].clone()
    }

    /// A tool error's one line.
    pub fn call_err(&mut self, tool: &str, arguments: Value) -> String {
        let result = self.call(tool, arguments);
        assert_eq!(result["isError"], true, "{tool}: {result}");
        let text = result["content"][0]["text"].as_str().expect("a text block");
        assert!(!text.contains('\n'), "{text:?}");
        text.to_string()
    }

    pub fn close_stdin(&mut self) {
        drop(self.stdin.take());
    }

    /// Closes stdin and waits: (exit code, stderr, any stdout left).
    pub fn close(mut self) -> (Option<i32>, String, Vec<String>) {
        self.close_stdin();
        let out = self.finish();
        (out.0, out.1, self.lines.try_iter().collect())
    }

    /// Waits for the exit (at most a minute): exit code and stderr.
    pub fn finish(&mut self) -> (Option<i32>, String) {
        let started = std::time::Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                break status;
            }
            assert!(started.elapsed() < REPLY, "ollm-mcp did not exit");
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut err = String::new();
        if let Some(mut stderr) = self.child.stderr.take() {
            std::io::Read::read_to_string(&mut stderr, &mut err).expect("stderr");
        }
        (status.code(), err)
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Creates a session with `messages` (role, text) recorded by
/// `ollm-session`; returns its id.
pub fn recorded(sb: &Sandbox, title: &str, messages: &[(&str, &str)]) -> String {
    let out = sb
        .cmd("ollm-session")
        .args([
            "create",
            "--model",
            "llama3.2:3b",
            "--provider",
            "ollama",
            "--title",
            title,
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", crate::support::stderr(&out));
    let id = crate::support::json(&out)["sessionId"]
        .as_str()
        .unwrap()
        .to_string();
    for (role, text) in messages {
        sb.cmd("ollm-session")
            .args(["record", &id, "--role", role, "--text", text])
            .assert()
            .success();
    }
    id
}
