//! Restores: what comes back, what goes, what is never touched.

use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;

use super::{Cp, listed};

/// Claude Code's checkpoints "do not track files modified by bash
/// commands": here the whole set is compared at each turn.
#[test]
fn changes_made_by_shell_commands_are_restored() {
    let cp = Cp::new();
    cp.write("src/main.c", "int main() { return 0; }\n");
    cp.write("notes/plan.md", "step one\n");
    cp.write("lib/a.c", "a\n");
    cp.write("lib/b.c", "b\n");
    let turn = cp.snapshot();
    cp.sh(
        "sed -i 's/return 0/return 1/' src/main.c && mv notes/plan.md notes/done.md && rm -r lib",
    );
    cp.snapshot();
    let (code, report) = cp.restore(turn, &[]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(cp.read("src/main.c").unwrap(), "int main() { return 0; }\n");
    assert_eq!(cp.read("notes/plan.md").unwrap(), "step one\n");
    assert_eq!(cp.read("lib/a.c").unwrap(), "a\n");
    assert_eq!(cp.read("lib/b.c").unwrap(), "b\n");
    assert!(!cp.path("notes/done.md").exists(), "{report}");
}

/// gemini-cli, Cline and Copilot CLI ran `git clean -fd` on restore and
/// deleted user files: only what this session made after N goes.
#[test]
fn restore_deletes_only_files_the_session_created_after_the_turn() {
    let cp = Cp::new();
    cp.write("app.py", "print(1)\n");
    cp.write("scratch/user-notes.txt", "mine, untracked, from before\n");
    let turn = cp.snapshot();
    cp.write("generated/agent.py", "print(2)\n");
    cp.snapshot();
    cp.write("user-after.txt", "the user wrote this after the agent\n");
    let (code, report) = cp.restore(turn, &[]);
    assert_eq!(code, 0, "{report}");
    assert!(!cp.path("generated/agent.py").exists(), "{report}");
    assert!(!cp.path("generated").exists(), "an emptied directory stays");
    assert_eq!(
        cp.read("scratch/user-notes.txt").unwrap(),
        "mine, untracked, from before\n"
    );
    assert_eq!(
        cp.read("user-after.txt").unwrap(),
        "the user wrote this after the agent\n"
    );
    assert!(listed(&report, "leftAlone").contains(&"user-after.txt".to_string()));
    assert_eq!(listed(&report, "deleted"), ["generated/agent.py"]);
}

/// Claude Code's partial restores and deletions it offered to undo but
/// could not (#14002, #18516, #34368): every kind of entry comes back.
#[test]
fn deleted_files_and_trees_come_back_with_content_mode_and_kind() {
    let cp = Cp::new();
    let long = format!("{}/deep.txt", ["level"; 40].join("/"));
    cp.write("tools/run.sh", "#!/bin/sh\necho hi\n");
    std::fs::set_permissions(
        cp.path("tools/run.sh"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    cp.write("empty", "");
    cp.write("dos.txt", "one\r\ntwo\r\n");
    cp.write(&long, "far down\n");
    let binary: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
    std::fs::write(cp.path("blob.bin"), &binary).unwrap();
    let odd = std::ffi::OsStr::from_bytes(b"caf\xe9 \n.txt");
    std::fs::write(cp.work().join(odd), "latin-1 name\n").unwrap();
    std::os::unix::fs::symlink("tools/run.sh", cp.path("run")).unwrap();
    let turn = cp.snapshot();
    cp.sh("rm -rf tools empty dos.txt blob.bin run level caf*");
    std::fs::remove_file(cp.work().join(odd)).ok();
    cp.snapshot();
    let (code, report) = cp.restore(turn, &[]);
    assert_eq!(code, 0, "{report}");
    let mode = std::fs::metadata(cp.path("tools/run.sh"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o755);
    assert_eq!(cp.read("tools/run.sh").unwrap(), "#!/bin/sh\necho hi\n");
    assert_eq!(cp.read("empty").unwrap(), "");
    assert_eq!(cp.read("dos.txt").unwrap(), "one\r\ntwo\r\n");
    assert_eq!(cp.read(&long).unwrap(), "far down\n");
    assert_eq!(std::fs::read(cp.path("blob.bin")).unwrap(), binary);
    assert_eq!(
        std::fs::read(cp.work().join(odd)).unwrap(),
        b"latin-1 name\n"
    );
    let link = std::fs::symlink_metadata(cp.path("run")).unwrap();
    assert!(link.file_type().is_symlink());
    assert_eq!(
        std::fs::read_link(cp.path("run")).unwrap(),
        std::path::Path::new("tools/run.sh")
    );
}

/// Codex's `/undo` overwrote users' changes (#8214): a file the user
/// edited after the agent is a conflict; nothing changes without --force,
/// and the snapshot taken before a forced restore undoes it.
#[test]
fn a_user_edit_after_the_agent_is_a_conflict_force_overwrites_and_undo_brings_it_back() {
    let cp = Cp::new();
    cp.write("a.txt", "original\n");
    cp.write("b.txt", "b original\n");
    let turn = cp.snapshot();
    cp.write("a.txt", "agent edit\n");
    cp.write("b.txt", "agent edit of b\n");
    cp.snapshot();
    cp.write("a.txt", "the user's own edit\n");

    let (code, report) = cp.restore(turn, &[]);
    assert_eq!(code, 1, "{report}");
    assert_eq!(listed(&report, "conflicts"), ["a.txt"]);
    assert_eq!(report["applied"], false);
    assert_eq!(cp.read("a.txt").unwrap(), "the user's own edit\n");
    assert_eq!(
        cp.read("b.txt").unwrap(),
        "agent edit of b\n",
        "nothing changed"
    );

    let (code, dry) = cp.restore(turn, &["--force", "--dry-run"]);
    assert_eq!(code, 0);
    assert_eq!(dry["applied"], false);
    assert_eq!(cp.read("a.txt").unwrap(), "the user's own edit\n");

    let (code, forced) = cp.restore(turn, &["--force"]);
    assert_eq!(code, 0, "{forced}");
    assert_eq!(cp.read("a.txt").unwrap(), "original\n");
    assert_eq!(cp.read("b.txt").unwrap(), "b original\n");

    let undo = forced["undoTurn"].as_u64().unwrap();
    let (code, undone) = cp.restore(undo, &[]);
    assert_eq!(code, 0, "{undone}");
    assert_eq!(cp.read("a.txt").unwrap(), "the user's own edit\n");
    assert_eq!(cp.read("b.txt").unwrap(), "agent edit of b\n");
}

/// An edited `.gitignore` changes what discover lists, never what a
/// restore deletes: files it brings into view were not made by the session.
#[test]
fn an_edited_gitignore_deletes_nothing_the_session_did_not_create() {
    let cp = Cp::new();
    cp.write(".gitignore", "cache/\n");
    cp.write("cache/user-data.db", "the user's data\n");
    cp.write("main.rs", "fn main() {}\n");
    // Older than any snapshot: the user's file from long before.
    cp.sh("touch -d '2020-01-01' cache/user-data.db");
    let turn = cp.snapshot();
    cp.write(".gitignore", "# nothing ignored now\n");
    cp.write("agent-made.rs", "// new\n");
    cp.snapshot();
    let (code, report) = cp.restore(turn, &[]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(cp.read("cache/user-data.db").unwrap(), "the user's data\n");
    assert!(!cp.path("agent-made.rs").exists());
    assert_eq!(cp.read(".gitignore").unwrap(), "cache/\n");
    // And the other way: a file the session made, ignored afterwards, is
    // still the session's to remove.
    let cp = Cp::new();
    cp.write("main.rs", "fn main() {}\n");
    let turn = cp.snapshot();
    cp.write("out.log", "agent output\n");
    cp.snapshot();
    cp.write(".gitignore", "*.log\n");
    cp.snapshot();
    let (code, report) = cp.restore(turn, &[]);
    assert_eq!(code, 0, "{report}");
    assert!(!cp.path("out.log").exists(), "{report}");
}

/// opencode snapshots only inside git repositories: this works anywhere.
#[test]
fn works_in_a_directory_that_is_not_a_git_repository() {
    let cp = Cp::new();
    assert!(!cp.work().join(".git").exists());
    cp.write("report.txt", "draft 1\n");
    let turn = cp.snapshot();
    cp.write("report.txt", "draft 2\n");
    cp.snapshot();
    let diff = cp.run(&["diff", "--session", &cp.id, "--turn", "2", "--patch"]);
    let patch = String::from_utf8(diff.stdout).unwrap();
    assert!(patch.contains("-draft 1\n+draft 2"), "{patch}");
    let (code, _) = cp.restore(turn, &[]);
    assert_eq!(code, 0);
    assert_eq!(cp.read("report.txt").unwrap(), "draft 1\n");
}
