//! Watch mode: events for add, change and unlink, ignored paths staying
//! silent, new directories, ignore-file edits, and clean stops. Every wait
//! polls with a generous timeout, so a loaded machine slows the tests down
//! but does not fail them.

use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{Sandbox, bin_path};

const PATIENCE: Duration = Duration::from_secs(30);

pub struct Watch {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Value>,
    pub seen: Vec<Value>,
    claimed: Vec<bool>,
}

impl Watch {
    pub fn start(sandbox: &Sandbox, args: &[&str]) -> Watch {
        let mut child = std::process::Command::new(bin_path("ollm-discover"))
            .current_dir(&sandbox.work)
            .env_clear()
            .env("HOME", &sandbox.home)
            .env("OLLM_HOME", &sandbox.ollm_home)
            .args(["watch", "--ready", "--debounce-ms", "50"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn watch");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let value: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("event is not JSON ({e}): {line}"));
                if tx.send(value).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        let mut watch = Watch {
            child,
            stdin,
            lines,
            seen: Vec::new(),
            claimed: Vec::new(),
        };
        watch.expect("ready", "");
        watch
    }

    /// Waits for the event `kind` on `relative` (or takes one already seen
    /// and not yet expected: events of one batch come in no promised order).
    pub fn expect(&mut self, kind: &str, relative: &str) -> Value {
        let matches = |e: &Value| e["event"] == kind && e["relativePath"] == relative;
        for (i, event) in self.seen.iter().enumerate() {
            if !self.claimed[i] && matches(event) {
                self.claimed[i] = true;
                return event.clone();
            }
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(event) => {
                    let wanted = matches(&event);
                    self.seen.push(event.clone());
                    self.claimed.push(wanted);
                    if wanted {
                        return event;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no {kind} event for {relative:?}; saw {:?}", self.seen)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!(
                        "watch ended before {kind} {relative:?}; saw {:?}",
                        self.seen
                    )
                }
            }
        }
    }

    /// Writes a marker file and waits for its `add`: every earlier change
    /// has been reported by then.
    pub fn sync(&mut self, sandbox: &Sandbox, marker: &str) {
        sandbox.write(marker, "marker");
        self.expect("add", marker);
    }

    /// Events seen so far for `relative`.
    pub fn events_for(&self, relative: &str) -> Vec<String> {
        self.seen
            .iter()
            .filter(|e| e["relativePath"] == relative)
            .map(|e| e["event"].as_str().unwrap_or("?").to_string())
            .collect()
    }

    pub fn close_stdin(&mut self) {
        self.stdin.take();
    }

    pub fn signal(&self, signal: i32) {
        // SAFETY: kill with our own child's pid.
        unsafe {
            libc::kill(self.child.id() as i32, signal);
        }
    }

    /// Waits for the process to end and returns its exit code.
    pub fn wait_exit(&mut self) -> Option<i32> {
        let deadline = Instant::now() + PATIENCE;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("watch did not end");
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn add_change_and_unlink_are_reported() {
    let sandbox = Sandbox::new();
    let mut watch = Watch::start(&sandbox, &[]);
    let path = sandbox.write("a.rs", "one");
    let added = watch.expect("add", "a.rs");
    assert_eq!(added["type"], "file");
    assert_eq!(added["path"], path.to_str().expect("utf-8"));
    std::fs::write(&path, "two, longer").expect("write");
    watch.expect("change", "a.rs");
    std::fs::remove_file(&path).expect("remove");
    watch.expect("unlink", "a.rs");
    assert_eq!(watch.events_for("a.rs"), vec!["add", "change", "unlink"]);
}

#[test]
fn ignored_paths_stay_silent() {
    let sandbox = Sandbox::new();
    sandbox.write(".gitignore", "*.log\n");
    sandbox.write(".ollmignore", "private/\n");
    std::fs::create_dir_all(sandbox.work.join("node_modules")).expect("dir");
    std::fs::create_dir_all(sandbox.work.join("private")).expect("dir");
    let mut watch = Watch::start(&sandbox, &[]);
    sandbox.write("x.log", "ignored by .gitignore");
    sandbox.write("node_modules/pkg.js", "ignored by the built-ins");
    sandbox.write("private/key", "ignored by .ollmignore");
    sandbox.write("dist/out/app.js", "a new built-in directory");
    watch.sync(&sandbox, "marker1.rs");
    watch.sync(&sandbox, "marker2.rs");
    for path in [
        "x.log",
        "node_modules/pkg.js",
        "private/key",
        "dist/out/app.js",
        "dist",
    ] {
        assert!(
            watch.events_for(path).is_empty(),
            "{path}: {:?}",
            watch.seen
        );
    }
    assert_eq!(watch.seen.len(), 3, "{:?}", watch.seen);
}

#[test]
fn files_in_new_directories_are_reported() {
    let sandbox = Sandbox::new();
    let mut watch = Watch::start(&sandbox, &["--type", "file", "--type", "directory"]);
    sandbox.write("new/deeper/first.rs", "x");
    watch.expect("add", "new/deeper/first.rs");
    assert!(watch.events_for("new").contains(&"add".to_string()));
    // The new directory is watched too: a later file in it is reported.
    sandbox.write("new/deeper/second.rs", "x");
    watch.expect("add", "new/deeper/second.rs");
    std::fs::remove_dir_all(sandbox.work.join("new")).expect("rm");
    watch.expect("unlink", "new");
    assert!(
        watch
            .events_for("new/deeper/second.rs")
            .contains(&"unlink".to_string())
    );
}

#[test]
fn an_editors_save_is_one_change() {
    let sandbox = Sandbox::new();
    let target = sandbox.write("doc.md", "v1");
    let mut watch = Watch::start(&sandbox, &[]);
    // Write a temporary file, rename it over the original, touch it again.
    let tmp = sandbox.write(".doc.md.swp", "v2 with more text");
    std::fs::rename(&tmp, &target).expect("rename");
    std::fs::write(&target, "v2 with more text!").expect("write");
    watch.expect("change", "doc.md");
    watch.sync(&sandbox, "marker.rs");
    assert_eq!(watch.events_for("doc.md"), vec!["change"]);
    assert!(
        watch.events_for(".doc.md.swp").is_empty(),
        "{:?}",
        watch.seen
    );
}

#[test]
fn an_ignore_file_edited_during_the_watch_takes_effect() {
    let sandbox = Sandbox::new();
    sandbox.write("old.tmp", "x");
    sandbox.write("sub/deep.tmp", "x");
    let mut watch = Watch::start(&sandbox, &[]);
    sandbox.write(".gitignore", "*.tmp\n");
    watch.expect("add", ".gitignore");
    // What the rules now hide leaves the listing...
    watch.expect("unlink", "old.tmp");
    watch.expect("unlink", "sub/deep.tmp");
    // ...and new matching files are silent.
    sandbox.write("new.tmp", "x");
    sandbox.write("sub/new.tmp", "x");
    watch.sync(&sandbox, "marker1.rs");
    watch.sync(&sandbox, "sub/marker2.rs");
    assert!(watch.events_for("new.tmp").is_empty(), "{:?}", watch.seen);
    assert!(
        watch.events_for("sub/new.tmp").is_empty(),
        "{:?}",
        watch.seen
    );
    // An .ollmignore negation re-includes them.
    sandbox.write("sub/.ollmignore", "!*.tmp\n");
    watch.expect("add", "sub/new.tmp");
    watch.expect("add", "sub/deep.tmp");
}

#[test]
fn renames_are_an_unlink_and_an_add() {
    let sandbox = Sandbox::new();
    sandbox.write("a/one.rs", "x");
    let mut watch = Watch::start(&sandbox, &[]);
    std::fs::rename(sandbox.work.join("a"), sandbox.work.join("b")).expect("rename");
    watch.expect("unlink", "a/one.rs");
    watch.expect("add", "b/one.rs");
}

#[test]
fn sigterm_sigint_and_a_closed_stdin_end_the_watch_cleanly() {
    let sandbox = Sandbox::new();
    for signal in [libc::SIGTERM, libc::SIGINT] {
        let mut watch = Watch::start(&sandbox, &[]);
        watch.signal(signal);
        assert_eq!(watch.wait_exit(), Some(0), "signal {signal}");
    }
    let mut watch = Watch::start(&sandbox, &[]);
    watch.close_stdin();
    assert_eq!(watch.wait_exit(), Some(0));
}

#[test]
fn watching_a_missing_root_is_not_found() {
    let sandbox = Sandbox::new();
    let output = sandbox
        .cmd("ollm-discover")
        .args(["watch", "missing"])
        .output()
        .expect("run");
    assert_eq!(output.status.code(), Some(3));
    crate::support::assert_one_line_error(&output, "ollm-discover");
}

#[test]
fn events_obey_depth_type_and_include_filters() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.work.join("one/two")).expect("dirs");
    let mut watch = Watch::start(&sandbox, &["--max-depth", "1", "--include", "*.rs"]);
    sandbox.write("one/two/too-deep.rs", "x");
    sandbox.write("one/not-included.md", "x");
    sandbox.write("one/two/three/new-and-too-deep.rs", "x");
    watch.sync(&sandbox, "one/marker1.rs");
    watch.sync(&sandbox, "marker2.rs");
    assert_eq!(watch.seen.len(), 3, "{:?}", watch.seen);
}

#[test]
fn non_utf8_names_are_reported_losslessly() {
    let sandbox = Sandbox::new();
    let mut watch = Watch::start(&sandbox, &[]);
    super::touch(&sandbox.work, b"bad\xffname.rs", "x");
    let event = watch.expect("add", "bad\u{fffd}name.rs");
    let bytes: Vec<u8> = event["relativePathBytes"]
        .as_array()
        .expect("bytes")
        .iter()
        .map(|b| b.as_u64().expect("number") as u8)
        .collect();
    assert_eq!(bytes, b"bad\xffname.rs");
}
