//! The `--paths` listing cache: a hit replays the listing without reading
//! the tree, and every kind of change that alters a listing invalidates it.

use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;

use super::*;
use crate::support::Sandbox;

/// A git work tree with ignore rules, old enough to be cached.
fn project(sandbox: &Sandbox) -> PathBuf {
    let root = sandbox.work.join("proj");
    std::fs::create_dir_all(&root).expect("root");
    git_init(sandbox, &root);
    touch(&root, b".gitignore", "*.log\nign/\n");
    touch(&root, b"a/.gitignore", "*.tmp\n");
    for name in [
        "a/b/c.rs",
        "a/b/d.tmp",
        "a/e.log",
        "ign/tracked.rs",
        "ign/other.rs",
        "top.rs",
    ] {
        touch(&root, name.as_bytes(), "x");
    }
    git(sandbox, &root, &["add", "-f", "ign/tracked.rs"]);
    touch(&sandbox.home, b".config/git/ignore", "*.swp\n");
    touch(&root, b"x.swp", "x");
    root
}

fn listing(sandbox: &Sandbox, root: &Path, cache: bool) -> Vec<Vec<u8>> {
    let mut cmd = sandbox.cmd("ollm-discover");
    cmd.current_dir(root)
        .args(["--paths", "--null", "--max-depth", "unlimited"]);
    if !cache {
        cmd.arg("--no-cache");
    }
    let output = cmd.output().expect("run");
    assert!(
        output.status.success(),
        "{}",
        crate::support::stderr(&output)
    );
    split_nul(&output.stdout)
}

fn cache_file(sandbox: &Sandbox) -> Option<(PathBuf, u64)> {
    let dir = sandbox.ollm_home.join("cache/discover");
    let entry = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .find(|e| e.path().extension().is_some_and(|x| x == "bin"))?;
    let ino = entry.metadata().ok()?.ino();
    Some((entry.path(), ino))
}

type Change = fn(&Sandbox, &Path);

#[test]
fn every_change_that_alters_the_listing_invalidates_the_cache() {
    let changes: Vec<(&str, Change)> = vec![
        ("add a nested file", |_, r| touch(r, b"a/b/new.rs", "x")),
        ("remove a file", |_, r| {
            std::fs::remove_file(r.join("a/b/c.rs")).expect("rm");
        }),
        ("rename a directory", |_, r| {
            std::fs::rename(r.join("a"), r.join("z")).expect("mv");
        }),
        ("edit an ignore file, same size", |_, r| {
            touch(r, b"a/.gitignore", "*.rs\n\n");
        }),
        ("add a nested ignore file", |_, r| {
            touch(r, b"a/b/.gitignore", "c.rs\n");
        }),
        ("edit info/exclude", |_, r| {
            touch(r, b".git/info/exclude", "top.rs\n");
        }),
        ("edit the global excludes file", |s, _| {
            touch(&s.home, b".config/git/ignore", "*.rs\n");
        }),
        ("track an ignored file", |s, r| {
            git(s, r, &["add", "-f", "a/e.log"]);
        }),
        ("delete a tracked file in an ignored directory", |_, r| {
            std::fs::remove_file(r.join("ign/tracked.rs")).expect("rm");
        }),
        ("add an .ollmignore above the root", |s, _| {
            touch(&s.work, b".ollmignore", "top.rs\n");
        }),
        ("replace a file by a directory", |_, r| {
            std::fs::remove_file(r.join("top.rs")).expect("rm");
            touch(r, b"top.rs/inner.rs", "x");
        }),
    ];
    let setups: Vec<(Sandbox, PathBuf)> = changes
        .iter()
        .map(|_| {
            let sandbox = Sandbox::new();
            let root = project(&sandbox);
            (sandbox, root)
        })
        .collect();
    // Listings are cached only when nothing they read changed in the last two seconds.
    std::thread::sleep(std::time::Duration::from_millis(3100));
    for ((name, change), (sandbox, root)) in changes.iter().zip(&setups) {
        let first = listing(sandbox, root, true);
        let (file, ino) = cache_file(sandbox).unwrap_or_else(|| panic!("{name}: no cache written"));
        assert_eq!(
            listing(sandbox, root, true),
            first,
            "{name}: the replay differs"
        );
        let (_, ino_after) = cache_file(sandbox).expect("cache");
        assert_eq!(
            ino, ino_after,
            "{name}: a hit must not walk and rewrite {file:?}"
        );
        change(sandbox, root);
        let fresh = listing(sandbox, root, false);
        assert_ne!(fresh, first, "{name}: the change should alter the listing");
        assert_eq!(
            listing(sandbox, root, true),
            fresh,
            "{name}: stale cache replayed"
        );
    }
}

#[test]
fn a_damaged_cache_file_is_ignored_and_replaced() {
    let sandbox = Sandbox::new();
    let root = project(&sandbox);
    std::thread::sleep(std::time::Duration::from_millis(3100));
    let expected = listing(&sandbox, &root, true);
    let (file, _) = cache_file(&sandbox).expect("cache written");
    let bytes = std::fs::read(&file).expect("read");
    for damaged in [
        Vec::new(),
        bytes[..bytes.len() / 2].to_vec(),
        vec![0xff; 64],
    ] {
        std::fs::write(&file, &damaged).expect("damage");
        assert_eq!(listing(&sandbox, &root, true), expected);
    }
    // Rewritten whole: as long as the first, and answered from on the next
    // run (a hit leaves the file as it is; a miss renames a new one over
    // it). Neither the file nor the replayed listing is compared in order:
    // the entries are stored in the order the parallel walk met them.
    let (file, ino) = cache_file(&sandbox).expect("cache rewritten");
    let len = std::fs::metadata(&file).expect("stat").len();
    assert_eq!(len, bytes.len() as u64, "rewritten whole");
    let sorted = |mut paths: Vec<Vec<u8>>| {
        paths.sort();
        paths
    };
    assert_eq!(sorted(listing(&sandbox, &root, true)), sorted(expected));
    assert_eq!(
        cache_file(&sandbox).expect("cache kept").1,
        ino,
        "not a hit"
    );
}

#[test]
fn a_recently_changed_tree_is_not_cached() {
    let sandbox = Sandbox::new();
    let root = project(&sandbox);
    listing(&sandbox, &root, true);
    assert!(cache_file(&sandbox).is_none());
}
