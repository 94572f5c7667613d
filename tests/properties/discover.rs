//! Properties 22–24: file discovery. Each case runs the built
//! `ollm-discover` in a fresh temporary tree with a temporary HOME, and
//! Property 22 uses git itself as the oracle for gitignore semantics.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use proptest::prelude::*;

/// A temporary tree with its own HOME (so no real git configuration is read).
struct Tree {
    _dir: tempfile::TempDir,
    home: PathBuf,
    root: PathBuf,
}

impl Tree {
    fn new() -> Tree {
        let dir = tempfile::tempdir().expect("temp dir");
        let home = dir.path().join("home");
        let root = dir.path().join("root");
        std::fs::create_dir_all(&home).expect("home");
        std::fs::create_dir_all(&root).expect("root");
        Tree {
            _dir: dir,
            home,
            root,
        }
    }

    fn write(&self, relative: &str, contents: &str) {
        // Generated paths may clash (`a` as a file and as a directory):
        // the first one wins and the clashing one is skipped.
        let path = self.root.join(relative);
        if std::fs::create_dir_all(path.parent().expect("parent")).is_err() || path.is_dir() {
            return;
        }
        std::fs::write(&path, contents).expect("write");
    }

    fn command(&self, program: &Path) -> Command {
        let mut cmd = Command::new(program);
        cmd.current_dir(&self.root)
            .env_clear()
            .env("PATH", "/usr/local/bin:/usr/bin:/bin")
            .env("HOME", &self.home)
            .env("OLLM_HOME", self.home.join(".ollm"))
            .env("GIT_CONFIG_NOSYSTEM", "1");
        cmd
    }

    fn run(&self, program: &Path, args: &[&str]) -> BTreeSet<String> {
        let output = self.command(program).args(args).output().expect("run");
        assert!(
            output.status.success(),
            "{program:?} {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout)
            .expect("UTF-8 names in generated trees")
            .split('\0')
            .filter(|p| !p.is_empty())
            .map(String::from)
            .collect()
    }

    fn discover(&self, args: &[&str]) -> BTreeSet<String> {
        let mut all = vec!["--paths", "--null"];
        all.extend_from_slice(args);
        self.run(&assert_cmd::cargo::cargo_bin("ollm-discover"), &all)
    }

    fn git(&self, args: &[&str]) -> BTreeSet<String> {
        self.run(Path::new("git"), args)
    }
}

const BUILTINS: &[&str] = &[
    "node_modules",
    ".git",
    "dist",
    "build",
    ".next",
    ".cache",
    ".ollm",
];

fn file_path() -> impl Strategy<Value = String> {
    let dir = prop::sample::select(vec![
        "a",
        "b",
        "src",
        "node_modules",
        "build",
        "dist",
        ".cache",
        "deep",
    ]);
    let name = prop::sample::select(vec![
        "x.rs", "y.log", "z.tmp", "keep.log", ".h", "build", "a",
    ]);
    (prop::collection::vec(dir, 0..4), name).prop_map(|(dirs, name)| {
        let mut parts: Vec<&str> = dirs;
        parts.push(name);
        parts.join("/")
    })
}

fn gitignore_line() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "*.log",
        "!keep.log",
        "/x.rs",
        "a/",
        "b",
        "**/z.tmp",
        "src/**",
        "!*.rs",
        "y.*",
        "*/x.rs",
        "deep/*/",
        "!a/",
        "\\!x",
        "?.rs",
        "[xy].rs",
        "a/**/x.rs",
        "!src/",
        "*",
        "!*/",
    ])
    .prop_map(String::from)
}

/// `.ollmignore` lines without negation, so git can serve as the oracle
/// (a file is dropped when either rule set drops it).
fn ollmignore_line() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "*.tmp",
        "b/",
        "x.rs",
        "/a/y.log",
        "deep/**",
        ".h",
        "src/*.log",
    ])
    .prop_map(String::from)
}

fn ignore_files<S: Strategy<Value = String>>(
    line: S,
) -> impl Strategy<Value = Vec<(String, Vec<String>)>> {
    let dir =
        prop::sample::select(vec!["", "a/", "a/b/", "src/", "deep/a/"]).prop_map(String::from);
    prop::collection::vec((dir, prop::collection::vec(line, 0..5)), 0..4)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Property 22: files matched by `.ollmignore`, `.gitignore` or the
    /// built-in patterns are not discovered, and (git parity) every other
    /// file is: the untracked files are git's listing under the `.gitignore`
    /// rules intersected with git's listing under the `.ollmignore` rules;
    /// the tracked ones are listed unless `.ollmignore` matches them; paths
    /// through a built-in name are dropped.
    #[test]
    fn property_22_ignore_pattern_respect(
        files in prop::collection::vec(file_path(), 1..25),
        tracked in prop::collection::vec(any::<bool>(), 25),
        gitignores in ignore_files(gitignore_line()),
        ollmignores in ignore_files(ollmignore_line()),
    ) {
        let tree = Tree::new();
        tree.git(&["init", "-q", "."]);
        for file in &files {
            tree.write(file, "x");
        }
        for (dir, lines) in &gitignores {
            tree.write(&format!("{dir}.gitignore"), &(lines.join("\n") + "\n"));
        }
        for (dir, lines) in &ollmignores {
            tree.write(&format!("{dir}.ollmignore"), &(lines.join("\n") + "\n"));
        }
        // Some files are tracked, ignore rules or not: git lists those anyway.
        let mut add = vec!["add", "-f", "--"];
        for (file, track) in files.iter().zip(&tracked) {
            if *track && tree.root.join(file).is_file() {
                add.push(file);
            }
        }
        if add.len() > 3 {
            tree.git(&add);
        }
        let tracked = tree.git(&["ls-files", "-z", "--cached"]);
        let by_gitignore = tree.git(&["ls-files", "-z", "--others", "--exclude-standard"]);
        let by_ollmignore = tree.git(&["ls-files", "-z", "--others", "--exclude-per-directory=.ollmignore"]);
        let tracked_but_ollmignored = tree.git(&[
            "ls-files", "-z", "--cached", "--ignored", "--exclude-per-directory=.ollmignore",
        ]);
        let untracked = by_gitignore.intersection(&by_ollmignore).cloned();
        let kept_tracked = tracked.difference(&tracked_but_ollmignored).cloned();
        let expected: BTreeSet<String> = untracked
            .chain(kept_tracked)
            .filter(|p| !p.split('/').any(|c| BUILTINS.contains(&c)))
            .collect();
        let ours = tree.discover(&["--max-depth", "unlimited", "--no-cache"]);
        prop_assert_eq!(ours, expected);
    }

    /// Property 23: with maxDepth N, no file deeper than N directory levels
    /// below the root is discovered, and every file at most N levels deep is.
    #[test]
    fn property_23_depth_limit_enforcement(
        levels in prop::collection::vec(0usize..8, 1..20),
        max_depth in 0usize..8,
    ) {
        let tree = Tree::new();
        let mut all = BTreeSet::new();
        for (i, level) in levels.iter().enumerate() {
            let dirs: Vec<String> = (0..*level).map(|l| format!("d{}", (i + l) % 3)).collect();
            let mut parts = dirs.clone();
            parts.push(format!("f{i}"));
            let path = parts.join("/");
            tree.write(&path, "x");
            all.insert((path, *level));
        }
        let depth = max_depth.to_string();
        let ours = tree.discover(&["--max-depth", &depth]);
        let expected: BTreeSet<String> = all
            .iter()
            .filter(|(_, level)| *level <= max_depth)
            .map(|(p, _)| p.clone())
            .collect();
        for path in &ours {
            prop_assert!(path.matches('/').count() <= max_depth, "{path} is too deep");
        }
        prop_assert_eq!(ours, expected);
    }
}

/// A running `ollm-discover watch` whose events arrive on a channel.
struct Watching {
    child: std::process::Child,
    events: std::sync::mpsc::Receiver<serde_json::Value>,
}

impl Watching {
    fn start(tree: &Tree) -> Watching {
        use std::io::BufRead;
        let mut child = tree
            .command(&assert_cmd::cargo::cargo_bin("ollm-discover"))
            .args(["watch", "--ready", "--debounce-ms", "20"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("spawn watch");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, events) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let Ok(value) = serde_json::from_str(&line) else {
                    break;
                };
                if tx.send(value).is_err() {
                    break;
                }
            }
        });
        let watching = Watching { child, events };
        let ready = watching.next().expect("ready event");
        assert_eq!(ready["event"], "ready");
        watching
    }

    fn next(&self) -> Option<serde_json::Value> {
        self.events
            .recv_timeout(std::time::Duration::from_secs(30))
            .ok()
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Debug, Clone, Copy)]
enum Op {
    Write,
    Delete,
}

fn op() -> impl Strategy<Value = (Op, String)> {
    let name = prop::sample::select(vec![
        "a.rs",
        "b.txt",
        "sub/c.rs",
        "sub/deeper/d.md",
        "new/e.rs",
    ]);
    (
        prop_oneof![Just(Op::Write), Just(Op::Write), Just(Op::Delete)],
        name,
    )
        .prop_map(|(op, name)| (op, name.to_string()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Property 24: every file change in the watched tree (add, modify,
    /// delete) is reported with the right event type and path, and nothing
    /// else is.
    #[test]
    fn property_24_file_change_notification(ops in prop::collection::vec(op(), 1..8)) {
        let tree = Tree::new();
        std::fs::create_dir_all(tree.root.join("sub/deeper")).expect("dirs");
        let watching = Watching::start(&tree);
        let mut exists = BTreeSet::new();
        for (i, (op, name)) in ops.iter().enumerate() {
            let path = tree.root.join(name);
            let expected = match op {
                Op::Write => {
                    std::fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
                    std::fs::write(&path, "x".repeat(i + 1)).expect("write");
                    if exists.insert(name.clone()) { "add" } else { "change" }
                }
                Op::Delete => {
                    if !exists.remove(name) {
                        continue;
                    }
                    std::fs::remove_file(&path).expect("remove");
                    "unlink"
                }
            };
            let event = watching.next();
            prop_assert!(event.is_some(), "no event after {op:?} {name}");
            let event = event.expect("checked");
            prop_assert_eq!(&event["event"], expected, "after {:?} {}: {}", op, name, event);
            prop_assert_eq!(&event["relativePath"], name.as_str());
            prop_assert_eq!(&event["type"], "file");
            prop_assert_eq!(event["path"].as_str(), path.to_str());
        }
    }
}
