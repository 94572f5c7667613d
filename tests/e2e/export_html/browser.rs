//! Debian's `chromium`, headless, driven over the DevTools protocol on a
//! loopback port: a minimal WebSocket client (RFC 6455: masked text frames
//! out, whole messages in) on std's TcpStream, enough to call methods,
//! evaluate script and collect the events the page sends.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

/// The browser, or `None` (saying SKIPPED) where it is not installed;
/// under `CI=true` a missing one fails.
pub fn chromium() -> Option<PathBuf> {
    let found = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
        .map(|dir| dir.join("chromium"))
        .find(|path| path.is_file());
    if found.is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true and chromium not found (.ci/run installs Debian's)"
        );
        eprintln!("SKIPPED: chromium not found");
    }
    found
}

/// The arguments every run of the browser here takes: headless, no
/// sandbox (tests may run as root), a profile of its own, nothing fetched
/// in the background.
pub fn base_args(profile: &Path) -> Vec<String> {
    [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-extensions",
        "--hide-scrollbars",
    ]
    .iter()
    .map(|s| (*s).to_string())
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect()
}

/// A headless browser and one page of it, under DevTools control.
pub struct Page {
    child: Child,
    _profile: tempfile::TempDir,
    socket: TcpStream,
    next_id: u64,
    /// Every event the page sent so far.
    pub events: Vec<Value>,
}

impl Page {
    /// A blank page at `width`×`height` with the network domain watched.
    pub fn open(chromium: &Path, width: u32, height: u32) -> Page {
        let profile = tempfile::tempdir().unwrap();
        let mut child = Command::new(chromium)
            .args(base_args(profile.path()))
            .args(["--remote-debugging-port=0", "about:blank"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start chromium");
        let stderr = child.stderr.take().unwrap();
        let mut lines = BufReader::new(stderr).lines();
        let port = loop {
            let line = lines
                .next()
                .expect("chromium said where DevTools listen")
                .unwrap();
            if let Some(rest) = line.split("DevTools listening on ws://127.0.0.1:").nth(1) {
                break rest.split('/').next().unwrap().to_string();
            }
        };
        // Keep draining stderr so the browser never blocks on it.
        std::thread::spawn(move || lines.for_each(drop));
        let list = http_get(&port, "/json/list");
        let targets: Value = serde_json::from_str(&list).unwrap();
        let url = targets
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["type"] == "page")
            .and_then(|t| t["webSocketDebuggerUrl"].as_str())
            .expect("a page target")
            .to_string();
        let socket = websocket(&port, url.split(&port).nth(1).unwrap());
        let mut page = Page {
            child,
            _profile: profile,
            socket,
            next_id: 0,
            events: Vec::new(),
        };
        page.call("Network.enable", json!({}));
        page.call("Page.enable", json!({}));
        page.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
        );
        page
    }

    /// Calls a DevTools method and returns its result.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let message = json!({"id": id, "method": method, "params": params}).to_string();
        send(&mut self.socket, message.as_bytes());
        loop {
            let reply: Value = serde_json::from_slice(&receive(&mut self.socket)).unwrap();
            if reply["id"] == id {
                assert!(reply.get("error").is_none(), "{method}: {reply}");
                return reply["result"].clone();
            }
            self.events.push(reply);
        }
    }

    /// Loads `url` and waits for its load event.
    pub fn navigate(&mut self, url: &str) {
        let seen = self.events.len();
        self.call("Page.navigate", json!({"url": url}));
        self.wait_for(seen, "Page.loadEventFired");
    }

    /// Runs `script` (a click on a link to another page) and waits for
    /// the page it leads to to load.
    pub fn follow(&mut self, script: &str) {
        let seen = self.events.len();
        self.eval(script);
        self.wait_for(seen, "Page.loadEventFired");
    }

    /// Waits for event `method` after the first `seen` events.
    pub fn wait_for(&mut self, seen: usize, method: &str) {
        while !self.events[seen..].iter().any(|e| e["method"] == method) {
            let event: Value = serde_json::from_slice(&receive(&mut self.socket)).unwrap();
            self.events.push(event);
        }
    }

    /// The value of a script expression (a promise is awaited).
    pub fn eval(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        assert!(
            result.get("exceptionDetails").is_none(),
            "{expression}: {result}"
        );
        result["result"]["value"].clone()
    }

    /// The URLs of every request the page made.
    pub fn requests(&self) -> Vec<String> {
        self.events
            .iter()
            .filter(|e| e["method"] == "Network.requestWillBeSent")
            .map(|e| {
                e["params"]["request"]["url"]
                    .as_str()
                    .unwrap_or("")
                    .to_string()
            })
            .collect()
    }
}

impl Drop for Page {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn http_get(port: &str, path: &str) -> String {
    let mut stream = TcpStream::connect(format!("127.0.0.1:{port}")).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    // The DevTools server may keep the connection open: read the head,
    // then as many bytes as it says the body has.
    let mut reader = BufReader::new(stream);
    let mut length = 0;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        if line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap();
        }
    }
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body).unwrap();
    String::from_utf8(body).unwrap()
}

fn websocket(port: &str, path: &str) -> TcpStream {
    let mut stream = TcpStream::connect(format!("127.0.0.1:{port}")).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n\
         Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
         Sec-WebSocket-Version: 13\r\n\r\n"
    )
    .unwrap();
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8];
        stream.read_exact(&mut byte).unwrap();
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head);
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    stream
}

/// One masked text frame.
fn send(stream: &mut TcpStream, payload: &[u8]) {
    let mask = [0x37u8, 0xfa, 0x21, 0x3d];
    let mut frame = vec![0x81u8];
    match payload.len() {
        n if n < 126 => frame.push(0x80 | n as u8),
        n if n < 65536 => {
            frame.push(0x80 | 126);
            frame.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            frame.push(0x80 | 127);
            frame.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    frame.extend_from_slice(&mask);
    frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    stream.write_all(&frame).unwrap();
}

/// One whole message (its fragments joined; control frames skipped).
fn receive(stream: &mut TcpStream) -> Vec<u8> {
    let mut message = Vec::new();
    loop {
        let mut head = [0u8; 2];
        stream.read_exact(&mut head).expect("a frame from chromium");
        let mut length = u64::from(head[1] & 0x7f);
        if length == 126 {
            let mut n = [0u8; 2];
            stream.read_exact(&mut n).unwrap();
            length = u64::from(u16::from_be_bytes(n));
        } else if length == 127 {
            let mut n = [0u8; 8];
            stream.read_exact(&mut n).unwrap();
            length = u64::from_be_bytes(n);
        }
        let mut payload = vec![0u8; usize::try_from(length).unwrap()];
        stream.read_exact(&mut payload).unwrap();
        let opcode = head[0] & 0x0f;
        assert_ne!(opcode, 0x8, "chromium closed the DevTools connection");
        if opcode >= 0x8 {
            continue;
        }
        message.extend_from_slice(&payload);
        if head[0] & 0x80 != 0 {
            return message;
        }
    }
}
