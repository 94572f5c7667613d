//! The user's git repository is never touched: Codex's per-turn refs left
//! 102 GB of orphan objects (#29388) and broke libgit2 clients (#28241);
//! its `/undo` lost staged changes (#8214). libgit2 (the `git2` crate)
//! opens the repository after a snapshot and a restore.

use std::path::Path;

use super::Cp;
use crate::support::tree;

fn git(dir: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// What a libgit2 client (an editor, a GUI; Codex's broke, #28241) reads
/// of the repository: HEAD's commit, and the index with `src/lib.rs`
/// staged as the user staged it.
fn libgit2_reads_the_repository(work: &Path, staged: &str) {
    let repo = git2::Repository::open(work).expect("libgit2 opens the repository");
    let head = repo.head().unwrap().peel_to_commit().unwrap();
    assert_eq!(head.message(), Some("first\n"));
    let index = repo.index().unwrap();
    let entry = index.get_path(Path::new("src/lib.rs"), 0).unwrap();
    let blob = repo.find_blob(entry.id).unwrap();
    assert_eq!(blob.content(), staged.as_bytes());
    let status = repo.status_file(Path::new("src/lib.rs")).unwrap();
    assert!(status.contains(git2::Status::INDEX_MODIFIED), "{status:?}");
}

fn init_repo(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["config", "core.fsmonitor", "false"]);
}

const STAGED: &str = "pub fn a() {}\npub fn staged() {}\n";

#[test]
fn the_users_git_is_untouched_by_snapshot_and_restore() {
    let cp = Cp::new();
    let work = cp.work();
    init_repo(work);
    cp.write("src/lib.rs", "pub fn a() {}\n");
    cp.write("README", "hello\n");
    git(work, &["add", "-A"]);
    git(work, &["commit", "-q", "-m", "first"]);
    git(work, &["pack-refs", "--all"]);
    // Staged but not committed: what Codex's undo overwrote.
    cp.write("src/lib.rs", STAGED);
    git(work, &["add", "src/lib.rs"]);
    let staged = git(work, &["diff", "--cached", "--stat"]);
    let objects = git(work, &["count-objects", "-v"]);
    let before = tree(&work.join(".git"));

    let turn = cp.snapshot();
    libgit2_reads_the_repository(work, STAGED);
    cp.write("README", "agent edit\n");
    cp.write("new.rs", "// agent\n");
    cp.snapshot();
    let (code, report) = cp.restore(turn, &[]);
    assert_eq!(code, 0, "{report}");
    libgit2_reads_the_repository(work, STAGED);

    assert_eq!(cp.read("README").unwrap(), "hello\n");
    assert!(!cp.path("new.rs").exists());
    assert_eq!(tree(&work.join(".git")), before, ".git changed");
    assert_eq!(git(work, &["count-objects", "-v"]), objects);
    assert_eq!(git(work, &["diff", "--cached", "--stat"]), staged);
    assert!(git(work, &["status", "--porcelain"]).contains("M  src/lib.rs"));
    git(work, &["fsck", "--no-progress"]);
}

#[test]
fn nested_repositories_and_submodules_keep_their_git_dirs() {
    let cp = Cp::new();
    let work = cp.work();
    init_repo(work);
    cp.write("top.txt", "top\n");
    let nested = work.join("vendor/nested");
    std::fs::create_dir_all(&nested).unwrap();
    init_repo(&nested);
    std::fs::write(nested.join("lib.c"), "int x;\n").unwrap();
    git(&nested, &["add", "-A"]);
    git(&nested, &["commit", "-q", "-m", "nested"]);
    // A submodule's work tree has a `.git` file pointing into the parent.
    let sub = work.join("modules/sub");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(sub.join(".git"), "gitdir: ../../.git/modules/sub\n").unwrap();
    std::fs::write(sub.join("code.py"), "x = 1\n").unwrap();
    let nested_git = tree(&nested.join(".git"));
    let top_git = tree(&work.join(".git"));

    let turn = cp.snapshot();
    std::fs::write(nested.join("lib.c"), "int y;\n").unwrap();
    std::fs::write(sub.join("code.py"), "x = 2\n").unwrap();
    cp.snapshot();
    let (code, report) = cp.restore(turn, &[]);
    assert_eq!(code, 0, "{report}");

    assert_eq!(
        std::fs::read_to_string(nested.join("lib.c")).unwrap(),
        "int x;\n"
    );
    assert_eq!(
        std::fs::read_to_string(sub.join("code.py")).unwrap(),
        "x = 1\n"
    );
    assert_eq!(tree(&nested.join(".git")), nested_git);
    assert_eq!(tree(&work.join(".git")), top_git);
    assert_eq!(
        std::fs::read_to_string(sub.join(".git")).unwrap(),
        "gitdir: ../../.git/modules/sub\n"
    );
    let listed = cp.run(&["diff", "--session", &cp.id, "--turn", "2"]);
    let text = String::from_utf8(listed.stdout).unwrap();
    assert!(!text.contains(".git/"), "{text}");
}
