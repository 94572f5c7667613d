//! Snapshots with the watcher on (`OLLM_CHECKPOINT_WATCH=1`): a snapshot
//! that re-reads only what the watcher says changed must still see every
//! change (a shell edit just before it, a new directory tree, a moved
//! directory), and any doubt (a killed watcher, a lost event, an ignore
//! file edited) must mean a full scan, not a missed change.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{Cp, listed};
use crate::support::json;

/// A session whose snapshots ask a watcher; the watcher is killed when the
/// test ends.
struct Watched {
    cp: Cp,
    env: Vec<(&'static str, &'static str)>,
}

impl Watched {
    fn new() -> Watched {
        Watched::with_env(&[])
    }

    fn with_env(env: &[(&'static str, &'static str)]) -> Watched {
        let mut all = vec![("OLLM_CHECKPOINT_WATCH", "1")];
        all.extend_from_slice(env);
        Watched {
            cp: Cp::new(),
            env: all,
        }
    }

    fn snapshot(&self) -> Value {
        let out = self
            .cp
            .sb
            .cmd("ollm-checkpoint")
            .args(["snapshot", "--session", &self.cp.id])
            .envs(self.env.iter().copied())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        json(&out)
    }

    fn watch_dir(&self) -> PathBuf {
        self.cp.sb.ollm_home.join("checkpoints/watch")
    }

    fn file_with_extension(&self, ext: &str) -> Option<PathBuf> {
        std::fs::read_dir(self.watch_dir())
            .ok()?
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|e| e == ext))
    }

    fn pid(&self) -> Option<i32> {
        let text = std::fs::read_to_string(self.file_with_extension("pid")?).ok()?;
        text.trim().parse().ok()
    }

    /// Snapshots until the watcher answers for this session: the first
    /// starts it, the next (once it listens) gets a token from it. Returns
    /// the last turn.
    fn warm(&self) -> u64 {
        self.snapshot();
        let deadline = Instant::now() + Duration::from_secs(20);
        while self.file_with_extension("sock").is_none() {
            assert!(Instant::now() < deadline, "no watcher started");
            std::thread::sleep(Duration::from_millis(20));
        }
        loop {
            let taken = self.snapshot();
            let next = self.snapshot();
            if next["watched"] == true {
                assert_eq!(next["changed"], 0, "{next} after {taken}");
                return next["turn"].as_u64().unwrap();
            }
            assert!(
                Instant::now() < deadline,
                "the watcher never answered: {next}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn kill_watcher(&self) {
        if let Some(pid) = self.pid() {
            // SAFETY: a plain kill(2) of the watcher this test started.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
            let deadline = Instant::now() + Duration::from_secs(10);
            // SAFETY: signal 0 only asks whether the process is there.
            while unsafe { libc::kill(pid, 0) } == 0 && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        self.kill_watcher();
    }
}

/// A runtime snapshots the moment a tool returns: an edit by a shell
/// command an instant before (no sleep, the same size each time) is in the
/// snapshot, and each turn restores to exactly what it saw.
#[test]
fn an_edit_by_a_shell_command_right_before_the_snapshot_is_caught() {
    let w = Watched::new();
    w.cp.write("counter.txt", "start\n");
    w.cp.write("other.txt", "untouched\n");
    w.warm();
    let mut turns = Vec::new();
    for i in 0..8 {
        w.cp.sh(&format!("echo {i} > counter.txt"));
        let taken = w.snapshot();
        assert_eq!(taken["watched"], true, "{taken}");
        assert_eq!(taken["changed"], 1, "{taken}");
        turns.push(taken["turn"].as_u64().unwrap());
    }
    let (code, report) = w.cp.restore(turns[3], &[]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(w.cp.read("counter.txt").unwrap(), "3\n");
    assert_eq!(w.cp.read("other.txt").unwrap(), "untouched\n");
}

/// A generator that makes a whole new tree, and a `mv` of a directory:
/// every file below is seen (the ignored ones not), and a restore puts
/// the tree back as it was.
#[test]
fn a_new_directory_tree_and_a_moved_directory_are_caught() {
    let w = Watched::new();
    w.cp.write(".gitignore", "*.log\ntarget/\n");
    w.cp.write("target/keep.txt", "ignored\n");
    w.cp.write("old/a.txt", "a\n");
    w.cp.write("old/sub/b.txt", "b\n");
    let turn = w.warm();
    w.cp.sh(
        "mkdir -p gen/deep/er && echo x > gen/deep/er/x.rs && echo y > gen/y.rs \
         && echo noise > gen/deep/run.log && mv old moved && echo top > top.txt \
         && mkdir -p target/debug/deps && echo o > target/debug/deps/o.rlib && echo t > target/t.txt",
    );
    let taken = w.snapshot();
    assert_eq!(taken["watched"], true, "{taken}");
    // Added: gen/deep/er/x.rs, gen/y.rs, moved/a.txt, moved/sub/b.txt,
    // top.txt; removed: old/a.txt, old/sub/b.txt; the log and all under
    // the ignored target/ are not in the set.
    assert_eq!(taken["changed"], 7, "{taken}");
    let (code, report) = w.cp.restore(turn, &[]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(w.cp.read("old/a.txt").unwrap(), "a\n");
    assert_eq!(w.cp.read("old/sub/b.txt").unwrap(), "b\n");
    assert!(!w.cp.path("gen/deep/er/x.rs").exists(), "{report}");
    assert!(!w.cp.path("top.txt").exists(), "{report}");
    assert_eq!(w.cp.read("gen/deep/run.log").unwrap(), "noise\n");
    assert!(!listed(&report, "deleted").contains(&"gen/deep/run.log".to_string()));
}

/// A watcher that died (killed, out of memory) may have missed anything:
/// the next snapshot scans in full and sees the edit made meanwhile, and a
/// new watcher (a new epoch) takes over after it.
#[test]
fn a_killed_watcher_means_a_full_scan() {
    let w = Watched::new();
    w.cp.write("a.txt", "one\n");
    w.cp.write("b.txt", "two\n");
    w.warm();
    let first = w.pid().unwrap();
    w.kill_watcher();
    w.cp.sh("echo changed > a.txt && rm b.txt && echo new > c.txt");
    let taken = w.snapshot();
    assert_eq!(taken["watched"], false, "{taken}");
    assert_eq!(taken["changed"], 3, "{taken}");
    w.warm();
    assert_ne!(w.pid().unwrap(), first);
    w.cp.sh("echo again > a.txt");
    let taken = w.snapshot();
    assert_eq!(taken["watched"], true, "{taken}");
    assert_eq!(taken["changed"], 1, "{taken}");
}

/// The kernel drops events when its queue overflows (IN_Q_OVERFLOW): the
/// watcher then cannot say what changed, and the snapshot scans in full.
/// `OLLM_TEST_CHECKPOINT_WATCH_OVERFLOW=1` (test only) makes the watcher
/// treat every event as an overflow.
#[test]
fn a_lost_event_means_a_full_scan() {
    let w = Watched::with_env(&[("OLLM_TEST_CHECKPOINT_WATCH_OVERFLOW", "1")]);
    w.cp.write("a.txt", "one\n");
    // No event since the token: the watcher can answer.
    w.warm();
    w.cp.sh("echo changed > a.txt");
    let taken = w.snapshot();
    assert_eq!(taken["watched"], false, "{taken}");
    assert_eq!(taken["changed"], 1, "{taken}");
}

/// A `.gitignore` edit changes the file set anywhere below it: a full scan
/// finds the file it brought into view.
#[test]
fn an_edited_gitignore_means_a_full_scan() {
    let w = Watched::new();
    w.cp.write(".gitignore", "build/\n");
    w.cp.write("build/out.txt", "built\n");
    w.cp.write("src.txt", "source\n");
    w.warm();
    w.cp.sh("echo > .gitignore");
    let taken = w.snapshot();
    assert_eq!(taken["watched"], false, "{taken}");
    // build/out.txt now in view (the snapshot holds it and src.txt).
    assert_eq!(taken["changed"], 1, "{taken}");
    assert_eq!(taken["files"], 2, "{taken}");
}

/// The tree a session's snapshot of `turn` names.
fn tree_of(cp: &Cp, session: &str, turn: u64) -> String {
    let path = cp.sb.ollm_home.join(format!(
        "checkpoints/sessions/{session}/turn-{turn:010}.json"
    ));
    let manifest: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    manifest["tree"].as_str().unwrap().to_string()
}

/// The tree a new session's first snapshot (a full scan, no state, every
/// directory encoded from scratch) names for the work tree as it is.
fn from_scratch(cp: &Cp, n: usize) -> String {
    let session = format!("00000000-0000-4000-8000-{n:012}");
    let out = cp
        .sb
        .cmd("ollm-checkpoint")
        .args(["snapshot", "--session", &session])
        .env("OLLM_CHECKPOINT_WATCH", "0")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    tree_of(cp, &session, json(&out)["turn"].as_u64().unwrap())
}

/// A session's last state (its tree, stat cache and directory hashes in
/// one file) is a shortcut: cut, corrupt, of another version or in the
/// text form of the version before, the next snapshot scans in full and
/// names the same tree as a snapshot from scratch; a watched snapshot
/// that re-encodes only the directories on an edited path does too.
#[test]
fn a_damaged_last_state_means_a_full_scan_and_the_same_snapshot() {
    let w = Watched::new();
    for dir in ["a/b/c", "a/x", "d"] {
        for n in 0..3 {
            w.cp.write(&format!("{dir}/f{n}.txt"), &format!("{dir} {n}\n"));
        }
    }
    w.warm();
    let state =
        w.cp.sb
            .ollm_home
            .join(format!("checkpoints/sessions/{}/state", w.cp.id));
    let whole = std::fs::read(&state).unwrap();
    let old_text = format!("{}\nf 644 1 2 3 - 61\n", "a".repeat(64)).into_bytes();
    let mut flipped = whole.clone();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 0x20;
    let mut other_version = whole.clone();
    other_version[8] ^= 0x7f;
    let damages = [
        ("cut", whole[..whole.len() / 2].to_vec()),
        ("flipped", flipped),
        ("other version", other_version),
        ("old text", old_text),
        ("empty", Vec::new()),
    ];
    for (n, (what, bytes)) in damages.into_iter().enumerate() {
        w.cp.sh(&format!("echo {n} > a/b/c/f1.txt"));
        std::fs::write(&state, bytes).unwrap();
        let taken = w.snapshot();
        assert_eq!(taken["watched"], false, "{what}: {taken}");
        assert_eq!(taken["changed"], 1, "{what}: {taken}");
        let turn = taken["turn"].as_u64().unwrap();
        assert_eq!(
            tree_of(&w.cp, &w.cp.id, turn),
            from_scratch(&w.cp, 2 * n),
            "{what}"
        );
        // The full scan wrote a whole state again: the next edit is
        // watched, and encodes only the directories on the edited paths.
        w.cp.sh(&format!("echo {n} > a/x/f2.txt && echo {n} > d/f0.txt"));
        let taken = w.snapshot();
        assert_eq!(taken["watched"], true, "{what}: {taken}");
        assert_eq!(taken["changed"], 2, "{what}: {taken}");
        let turn = taken["turn"].as_u64().unwrap();
        assert_eq!(
            tree_of(&w.cp, &w.cp.id, turn),
            from_scratch(&w.cp, 2 * n + 1),
            "{what}"
        );
    }
}
