//! `ollm-session import --watch` and `--hook`: sources written while a
//! watcher runs (or hooks are called), seeded from the real transcripts of
//! `../shared/importer-fixtures` (copied into the sandbox, never
//! committed). In each case the store ends equal to a one-shot `import`
//! of the final sources into a second store, nothing is duplicated, and
//! the sources are byte for byte what the test wrote.

mod claude;
mod databases;
mod hook;
mod large;
mod others;
mod postgres;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{self, Sandbox};

/// The shared fixtures of the importers (real transcripts).
pub fn fixture(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/importer-fixtures")
        .join(relative)
}

/// Whether the fixtures are there; a test without them says so and
/// stops (and fails under `CI=true`).
pub fn have_fixtures() -> bool {
    if fixture("README.md").is_file() {
        return true;
    }
    assert!(
        std::env::var("CI").is_err(),
        "the importer fixtures are missing (../shared/importer-fixtures)"
    );
    eprintln!("SKIPPED: no ../shared/importer-fixtures");
    false
}

/// A running `ollm-session import --watch`, killed when dropped so no test
/// leaves one behind.
pub struct Watcher {
    child: Option<Child>,
    lines: Arc<Mutex<Vec<String>>>,
    stderr: Arc<Mutex<String>>,
}

impl Watcher {
    pub fn start(sb: &Sandbox, args: &[&str]) -> Watcher {
        let mut child = sb
            .std_cmd("ollm-session")
            .args(["import", "--watch"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let stdout = child.stdout.take().unwrap();
        let out = Arc::clone(&lines);
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                out.lock().unwrap().push(line);
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let err = child.stderr.take().unwrap();
        let into = Arc::clone(&stderr);
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                into.lock().unwrap().push_str(&(line + "\n"));
            }
        });
        Watcher {
            child: Some(child),
            lines,
            stderr,
        }
    }

    /// Its NDJSON lines so far.
    pub fn lines(&self) -> Vec<Value> {
        self.lines
            .lock()
            .unwrap()
            .iter()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect()
    }

    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Closes its standard input (which stops it) and waits for it: how
    /// it exited, and every line it printed.
    pub fn stop(mut self) -> (ExitStatus, Vec<Value>) {
        let mut child = self.child.take().unwrap();
        drop(child.stdin.take());
        let status = wait_child(&mut child);
        // Its last lines are read by then.
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline
            && !self
                .lines
                .lock()
                .unwrap()
                .last()
                .is_some_and(|l| l.contains("\"summary\""))
        {
            std::thread::sleep(Duration::from_millis(20));
        }
        (status, self.lines())
    }

    /// SIGKILL, as a crash.
    pub fn kill(mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.as_ref().unwrap().id()
    }
}

fn wait_child(child: &mut Child) -> ExitStatus {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(Instant::now() < deadline, "the watcher did not stop");
        std::thread::sleep(Duration::from_millis(20));
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Polls `done` until it holds, failing after a generous deadline (never a
/// fixed sleep that could be too short on a loaded machine).
pub fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Every session of `sb`'s store: its id → its messages and tool calls.
pub fn store_of(sb: &Sandbox) -> BTreeMap<String, Value> {
    let listed = support::json(
        &sb.cmd("ollm-session")
            .args(["list", "--format", "json", "--limit", "1000"])
            .output()
            .unwrap(),
    );
    listed
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let id = s["sessionId"].as_str().unwrap().to_string();
            let got = support::json(&sb.cmd("ollm-session").args(["get", &id]).output().unwrap());
            let body = serde_json::json!({
                "messages": got["messages"],
                "toolCalls": got["toolCalls"],
            });
            (id, body)
        })
        .collect()
}

/// The store a one-shot `import --from TOOL PATH…` of the sources makes in
/// a sandbox of its own.
pub fn one_shot(tool: &str, paths: &[&Path]) -> BTreeMap<String, Value> {
    let sb = Sandbox::new();
    let out = sb
        .cmd("ollm-session")
        .args(["import", "--from", tool])
        .args(paths)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", support::stderr(&out));
    store_of(&sb)
}

/// The number of records (messages and tool calls) of a store.
pub fn records(store: &BTreeMap<String, Value>) -> usize {
    store
        .values()
        .map(|s| {
            s["messages"].as_array().map_or(0, Vec::len)
                + s["toolCalls"].as_array().map_or(0, Vec::len)
        })
        .sum()
}

/// No record of a session twice (by its source key).
pub fn assert_no_duplicates(store: &BTreeMap<String, Value>) {
    for (id, session) in store {
        let mut keys: Vec<&str> = ["messages", "toolCalls"]
            .iter()
            .flat_map(|kind| session[kind].as_array().into_iter().flatten())
            .map(|r| r["sourceKey"].as_str().unwrap_or_default())
            .collect();
        let all = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), all, "a record of {id} stored twice");
    }
}

/// Waits until `sb`'s store equals `expected` (and then checks it holds
/// nothing twice).
pub fn wait_for_store(sb: &Sandbox, expected: &BTreeMap<String, Value>) {
    let mut last;
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        last = store_of(sb);
        if &last == expected {
            break;
        }
        if Instant::now() > deadline {
            assert_eq!(
                serde_json::to_string_pretty(&last).unwrap(),
                serde_json::to_string_pretty(expected).unwrap(),
                "the watched store never equalled a one-shot import"
            );
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_no_duplicates(&last);
}

/// The lines of `path` (each with its newline).
pub fn lines_of(path: &Path) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(path).unwrap();
    bytes
        .split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect()
}

/// Appends `bytes` to `path`, as an agent writes (one write, flushed).
pub fn append(path: &Path, bytes: &[u8]) {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    file.write_all(bytes).unwrap();
}
