//! Issue 11: stores that lose nothing and expose nothing. One test (or
//! more) per finding of the issue, each named after what it pins; every one
//! failed on the main branch the issue was filed against.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::on_each_store;
use crate::support::{
    Sandbox, SessionStore, assert_one_line_error, bin_path, is_root, json, stderr, stdout,
};

on_each_store!(
    restoring_a_snapshot_gives_back_every_record_in_order,
    a_snapshot_of_a_context_too_deep_for_readers_is_refused,
);

fn record(sb: &Sandbox, id: &str, text: &str) -> std::process::Output {
    sb.cmd("ollm-session")
        .args(["record", id, "--role", "user", "--text", text])
        .output()
        .unwrap()
}

fn record_tool(sb: &Sandbox, id: &str, result: &str) {
    let out = sb
        .cmd("ollm-session")
        .args(["record", id, "--tool", "read_file"])
        .args(["--args", r#"{"path":"a.txt"}"#, "--result", result])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

fn snapshots_dir(sb: &Sandbox, id: &str) -> PathBuf {
    sb.ollm_home.join("context-snapshots").join(id)
}

fn snapshot(sb: &Sandbox, id: &str) -> String {
    let out = sb
        .cmd("ollm-session")
        .args(["snapshot", "create", id])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    json(&out)["id"].as_str().unwrap().to_string()
}

fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path).unwrap().mode() & 0o777
}

/// Every file and directory below `dir` (not following links).
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if entry.file_type().unwrap().is_dir() {
            out.extend(walk(&path));
        }
        out.push(path);
    }
    out
}

// ------------------------------------------------ world-readable conversations

/// Runs `bin args…` under umask 022, the common default.
fn under_umask_022(sb: &Sandbox, bin: &str, args: &[&str]) -> std::process::Output {
    let out = sb
        .program("sh")
        .arg("-c")
        .arg("umask 022; exec \"$0\" \"$@\"")
        .arg(bin_path(bin))
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{bin} {args:?}: {}", stderr(&out));
    out
}

#[test]
fn stores_are_private_whatever_the_umask() {
    let sb = Sandbox::new();
    let out = under_umask_022(
        &sb,
        "ollm-session",
        &["create", "--model", "m", "--provider", "p"],
    );
    let id = json(&out)["sessionId"].as_str().unwrap().to_string();
    under_umask_022(
        &sb,
        "ollm-session",
        &["record", &id, "--role", "user", "--text", "a secret"],
    );
    under_umask_022(&sb, "ollm-session", &["snapshot", "create", &id]);
    under_umask_022(
        &sb,
        "ollm-context",
        &["--session", &id, "add", "k", "private value"],
    );
    let state = sb.work.join("state/loop.json");
    let event = r#"{"type":"turn"}"#;
    sb.program("sh")
        .arg("-c")
        .arg("umask 022; exec \"$0\" \"$@\"")
        .arg(bin_path("ollm-loopcheck"))
        .args(["--state", state.to_str().unwrap()])
        .write_stdin(format!("{event}\n"))
        .assert()
        .success();
    let export = sb.work.join("chat.json");
    under_umask_022(
        &sb,
        "ollm-session",
        &["export", &id, "--output", export.to_str().unwrap()],
    );

    let mut checked = 0;
    for path in walk(&sb.ollm_home).into_iter().chain([state, export]) {
        let meta = std::fs::symlink_metadata(&path).unwrap();
        let expected = if meta.is_dir() { 0o700 } else { 0o600 };
        assert_eq!(mode(&path), expected, "{}", path.display());
        checked += 1;
    }
    assert!(checked > 8, "{checked}");
    assert_eq!(mode(&sb.ollm_home), 0o700, "the ollm home is tightened");
}

#[test]
fn an_existing_open_store_is_tightened_on_its_next_write_with_one_notice() {
    let sb = Sandbox::new();
    let id = sb.create_journal_session();
    assert!(record(&sb, &id, "one").status.success());
    let journal = sb.sessions_dir().join(&id).join("journal.ndjson");
    for path in [
        &sb.ollm_home,
        &sb.sessions_dir(),
        &sb.sessions_dir().join(&id),
    ] {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::fs::set_permissions(&journal, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = sb
        .cmd("ollm-session")
        .args(["create", "--model", "m", "--provider", "p"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let notices = stderr(&out);
    assert_eq!(notices.lines().count(), 1, "{notices}");
    assert!(notices.contains("owner-only"), "{notices}");
    assert_eq!(mode(&sb.ollm_home), 0o700);
    assert_eq!(mode(&sb.sessions_dir()), 0o700);
    assert!(record(&sb, &id, "two").status.success());
    assert_eq!(mode(&journal), 0o600);
}

#[test]
fn export_keeps_an_existing_file_private() {
    let sb = Sandbox::new();
    let id = sb.create_journal_session();
    let path = sb.work.join("chat.json");
    std::fs::write(&path, "old").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    under_umask_022(
        &sb,
        "ollm-session",
        &["export", &id, "--output", path.to_str().unwrap(), "--force"],
    );
    assert_eq!(mode(&path), 0o600);
    let exported: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(exported["sessionId"], id.as_str());
}

// ------------------------------------------------ temp files and symlinks

#[test]
fn a_link_planted_at_the_old_fixed_summary_temp_name_is_not_followed() {
    let sb = Sandbox::new();
    let id = sb.create_journal_session();
    let victim = sb.work.join("victim");
    std::fs::write(&victim, "keep me").unwrap();
    let planted = sb.sessions_dir().join(&id).join("summary.json.tmp");
    std::os::unix::fs::symlink(&victim, &planted).unwrap();
    assert!(record(&sb, &id, "hello").status.success());
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    assert!(!planted.exists() && planted.symlink_metadata().is_err());
}

#[test]
fn links_planted_at_pid_temp_names_are_not_followed() {
    let sb = Sandbox::new();
    let store = sb.work.join(".ollm");
    std::fs::create_dir_all(&store).unwrap();
    let victim = sb.work.join("victim");
    std::fs::write(&victim, "keep me").unwrap();
    // The old temp name was `.context.json.tmp-<pid>`: cover the next pids.
    let me = std::process::id();
    for pid in me..me + 3000 {
        let link = store.join(format!(".context.json.tmp-{pid}"));
        std::os::unix::fs::symlink(&victim, link).unwrap();
    }
    for n in 0..3 {
        sb.cmd("ollm-context")
            .args(["add", &format!("k{n}"), "v"])
            .assert()
            .success();
    }
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    let stored: Value =
        serde_json::from_slice(&std::fs::read(store.join("context.json")).unwrap()).unwrap();
    assert!(stored.to_string().contains("k2"), "{stored}");
}

#[test]
fn a_session_directory_planted_as_a_link_is_refused_not_followed() {
    let sb = Sandbox::new();
    let id = sb.create_journal_session();
    let outside = sb.work.join("outside");
    std::fs::rename(sb.sessions_dir().join(&id), &outside).unwrap();
    std::os::unix::fs::symlink(&outside, sb.sessions_dir().join(&id)).unwrap();
    let before = std::fs::read(outside.join("journal.ndjson")).unwrap();
    let out = record(&sb, &id, "must not land outside");
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-session");
    assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(outside.join("journal.ndjson")).unwrap(),
        before
    );
}

#[test]
fn a_snapshot_directory_planted_as_a_link_is_refused() {
    let sb = Sandbox::new();
    let id = sb.create_journal_session();
    assert!(record(&sb, &id, "hello").status.success());
    let outside = sb.work.join("elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    let root = sb.ollm_home.join("context-snapshots");
    std::os::unix::fs::DirBuilderExt::mode(&mut std::fs::DirBuilder::new(), 0o700)
        .create(&root)
        .unwrap();
    std::os::unix::fs::symlink(&outside, root.join(&id)).unwrap();
    let out = sb
        .cmd("ollm-session")
        .args(["snapshot", "create", &id])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-session");
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
}

#[test]
fn a_dangling_lock_file_link_creates_nothing() {
    let sb = Sandbox::new();
    let id = sb.create_journal_session();
    let target = sb.work.join("created-through-the-link");
    let lock = sb.sessions_dir().join(".locks").join(format!("{id}.lock"));
    std::fs::create_dir_all(lock.parent().unwrap()).unwrap();
    let _ = std::fs::remove_file(&lock);
    std::os::unix::fs::symlink(&target, &lock).unwrap();
    let out = record(&sb, &id, "hello");
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-session");
    assert!(!target.exists());
}

#[test]
fn a_lock_directory_planted_as_a_link_is_refused() {
    let sb = Sandbox::new();
    let id = sb.create_journal_session();
    let outside = sb.work.join("locks-elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    let locks = sb.sessions_dir().join(".locks");
    std::fs::remove_dir_all(&locks).unwrap();
    std::os::unix::fs::symlink(&outside, &locks).unwrap();
    let out = record(&sb, &id, "hello");
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-session");
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
}

// ------------------------------------------------ special files

#[test]
fn device_files_are_refused_not_renamed_as_corrupt() {
    if !is_root() {
        eprintln!("SKIPPED: making a device node needs root");
        return;
    }
    let sb = Sandbox::new();
    let null = sb.work.join("null");
    let status = std::process::Command::new("mknod")
        .args([null.to_str().unwrap(), "c", "1", "3"])
        .status()
        .unwrap();
    assert!(status.success());
    let event = r#"{"type":"turn"}"#;
    let out = sb
        .cmd("ollm-loopcheck")
        .args(["--state", null.to_str().unwrap()])
        .write_stdin(format!("{event}\n"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-loopcheck");
    let out = sb
        .cmd("ollm-context")
        .args(["--file", null.to_str().unwrap(), "add", "k", "v"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-context");
    let meta = std::fs::symlink_metadata(&null).unwrap();
    assert!(std::os::unix::fs::FileTypeExt::is_char_device(
        &meta.file_type()
    ));
    let names: Vec<_> = std::fs::read_dir(&sb.work).unwrap().flatten().collect();
    assert_eq!(names.len(), 1, "nothing set aside, no lock made: {names:?}");
}

#[test]
fn a_fifo_as_loop_state_or_context_store_is_refused_without_blocking() {
    let sb = Sandbox::new();
    let fifo = sb.work.join("fifo.json");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    let out = sb
        .cmd("ollm-context")
        .args(["--file", fifo.to_str().unwrap(), "list"])
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(stderr(&out).contains("FIFO"), "{}", stderr(&out));
    let out = sb
        .cmd("ollm-loopcheck")
        .args(["--state", fifo.to_str().unwrap()])
        .write_stdin("{\"type\":\"turn\"}\n")
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(std::os::unix::fs::FileTypeExt::is_fifo(&kind));
}

// ------------------------------------------------ exports

#[test]
fn export_refuses_to_overwrite_without_force_and_refuses_special_targets() {
    let sb = Sandbox::new();
    let id = sb.create_journal_session();
    let path = sb.work.join("chat.json");
    std::fs::write(&path, "precious").unwrap();
    let out = sb
        .cmd("ollm-session")
        .args(["export", &id, "--output", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-session");
    assert!(stderr(&out).contains("--force"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "precious");

    let fifo = sb.work.join("fifo");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let out = sb
        .cmd("ollm-session")
        .args(["export", &id, "--force", "--output", fifo.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(std::os::unix::fs::FileTypeExt::is_fifo(
        &std::fs::symlink_metadata(&fifo).unwrap().file_type()
    ));

    let link = sb.work.join("link.json");
    std::os::unix::fs::symlink(&path, &link).unwrap();
    let out = sb
        .cmd("ollm-session")
        .args(["export", &id, "--force", "--output", link.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "precious");
}

#[test]
fn export_to_the_stdout_descriptor_writes_the_stream() {
    let sb = Sandbox::new();
    let id = sb.create_journal_session();
    for target in ["-", "/dev/fd/1"] {
        let out = sb
            .cmd("ollm-session")
            .args(["export", &id, "--output", target])
            .output()
            .unwrap();
        assert!(out.status.success(), "{target}: {}", stderr(&out));
        assert_eq!(json(&out)["sessionId"], id.as_str(), "{target}");
    }
}

// ------------------------------------------------ delete, tombstones, corrupt

#[test]
fn a_delete_cut_short_after_its_commit_point_leaves_no_snapshot_to_restore() {
    let sb = Sandbox::new();
    let id = sb.create_journal_session();
    assert!(record(&sb, &id, "a private message").status.success());
    let snap = snapshot(&sb, &id);
    // What a delete killed right after its first rename leaves behind:
    // its tombstone, and the mark that has the next writer sweep it.
    let tombstone = sb.sessions_dir().join(format!(".trash-{id}-1-1-0"));
    std::fs::rename(sb.sessions_dir().join(&id), &tombstone).unwrap();
    std::fs::write(sb.sessions_dir().join(".locks").join("store.writing"), b"").unwrap();
    let out = sb
        .cmd("ollm-session")
        .args(["snapshot", "restore", &snap, "--as-session"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stdout(&out));
    let out = sb
        .cmd("ollm-session")
        .args(["snapshot", "list", &id])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stdout(&out));
    // The next writer finishes the delete.
    sb.create_journal_session();
    assert!(!snapshots_dir(&sb, &id).exists());
    assert!(!tombstone.exists());
}

#[test]
fn clear_removes_snapshots_orphaned_by_an_earlier_delete() {
    let sb = Sandbox::new();
    let id = sb.create_journal_session();
    assert!(record(&sb, &id, "hello").status.success());
    snapshot(&sb, &id);
    // An older version's delete killed between its two steps.
    std::fs::remove_dir_all(sb.sessions_dir().join(&id)).unwrap();
    let out = sb
        .cmd("ollm-session")
        .args(["clear", "--all", "--yes"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["orphanedSnapshots"], json!([id]));
    assert!(!snapshots_dir(&sb, &id).exists());
}

fn corrupt(sb: &Sandbox, id: &str) -> PathBuf {
    let journal = sb.sessions_dir().join(id).join("journal.ndjson");
    let mut bytes = std::fs::read(&journal).unwrap();
    bytes.splice(0..0, b"garbage\n".iter().copied());
    std::fs::write(&journal, bytes).unwrap();
    // A read reports it and leaves it; the next write sets it aside.
    let out = sb.cmd("ollm-session").args(["get", id]).output().unwrap();
    assert_eq!(out.status.code(), Some(6), "{}", stderr(&out));
    assert!(journal.is_file());
    let out = record(sb, id, "after");
    assert_eq!(out.status.code(), Some(6), "{}", stderr(&out));
    sb.sessions_dir().join(format!("{id}.corrupt"))
}

#[test]
fn a_session_set_aside_as_corrupt_can_be_listed_and_deleted() {
    let sb = Sandbox::new();
    let id = sb.create_journal_session();
    assert!(record(&sb, &id, "hello").status.success());
    snapshot(&sb, &id);
    let aside = corrupt(&sb, &id);
    assert!(aside.is_dir());
    let out = sb
        .cmd("ollm-session")
        .args(["list", "--corrupt"])
        .output()
        .unwrap();
    let listed = json(&out);
    assert_eq!(listed[0]["sessionId"], id.as_str(), "{listed}");
    assert_eq!(listed[0]["format"], "journal");
    // Plain `list` output is unchanged: still an array of summaries.
    let out = sb.cmd("ollm-session").args(["list"]).output().unwrap();
    assert_eq!(json(&out), json!([]));

    let out = sb
        .cmd("ollm-session")
        .args(["delete", &id])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!aside.exists());
    assert!(!snapshots_dir(&sb, &id).exists());
    let out = sb
        .cmd("ollm-session")
        .args(["delete", &id])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
}

#[test]
fn cleanup_and_clear_remove_sessions_set_aside_as_corrupt() {
    let sb = Sandbox::new();
    let good = sb.create_journal_session();
    let bad = sb.create_journal_session();
    assert!(record(&sb, &bad, "x").status.success());
    let aside = corrupt(&sb, &bad);
    let out = sb
        .cmd("ollm-session")
        .args(["cleanup", "--keep", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["kept"], 1);
    assert!(!aside.exists(), "corrupt copies count as the oldest");
    assert!(sb.sessions_dir().join(&good).exists());

    let other = sb.create_journal_session();
    assert!(record(&sb, &other, "y").status.success());
    let aside = corrupt(&sb, &other);
    sb.cmd("ollm-session")
        .args(["clear", "--all", "--yes"])
        .assert()
        .success();
    assert!(!aside.exists());
    assert!(!sb.sessions_dir().join(&good).exists());
}

#[test]
fn temp_files_of_killed_writers_are_removed_by_the_next_writer() {
    let sb = Sandbox::new();
    let id = sb.create_journal_session();
    assert!(record(&sb, &id, "hello").status.success());
    snapshot(&sb, &id);
    let snaps = snapshots_dir(&sb, &id).join("snapshots");
    let session = sb.sessions_dir().join(&id);
    let context_dir = sb.work.join(".ollm");
    std::fs::create_dir_all(&context_dir).unwrap();
    let state = sb.work.join("loop.json");
    let planted = [
        snaps.join(".snapshot-x.json.tmp-4242"),
        snaps.join(".snapshots-index.json.ollm-tmp-abcdef"),
        session.join(".summary.json.ollm-tmp-abcdef"),
        context_dir.join(".context.json.tmp-4242"),
        context_dir.join(".context.json.ollm-tmp-abcdef"),
        sb.work.join(".loop.json.tmp-4242"),
    ];
    for path in &planted {
        std::fs::write(path, "a full copy of private data").unwrap();
    }
    snapshot(&sb, &id);
    assert!(record(&sb, &id, "again").status.success());
    sb.cmd("ollm-context")
        .args(["add", "k", "v"])
        .assert()
        .success();
    sb.cmd("ollm-loopcheck")
        .args(["--state", state.to_str().unwrap()])
        .write_stdin("{\"type\":\"turn\"}\n")
        .assert()
        .success();
    for path in &planted {
        assert!(!path.exists(), "left behind: {}", path.display());
    }
}

// ------------------------------------------------ snapshots and locks

fn restoring_a_snapshot_gives_back_every_record_in_order(store: SessionStore) {
    let Some(sb) = Sandbox::on(store) else {
        return;
    };
    let id = sb.create_journal_session();
    assert!(record(&sb, &id, "first").status.success());
    record_tool(&sb, &id, "file contents");
    assert!(record(&sb, &id, "second").status.success());
    record_tool(&sb, &id, "more contents");
    let snap = snapshot(&sb, &id);
    let out = sb
        .cmd("ollm-session")
        .args(["snapshot", "restore", &snap, "--as-session"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let restored = json(&out)["sessionId"].as_str().unwrap().to_string();
    let get = |id: &str| json(&sb.cmd("ollm-session").args(["get", id]).output().unwrap());
    let (a, b) = (get(&id), get(&restored));
    assert_eq!(a["messages"], b["messages"]);
    assert_eq!(a["toolCalls"], b["toolCalls"]);
    assert_eq!(b["provider"], "p");
    // The transcript's order (messages and tool calls interleaved) is kept.
    let md = |id: &str| {
        stdout(
            &sb.cmd("ollm-session")
                .args(["export", id, "--format", "markdown"])
                .output()
                .unwrap(),
        )
    };
    let order = |text: String| {
        text.lines()
            .filter(|l| l.starts_with("## ") || l.starts_with("### "))
            .map(|l| l.split(" · ").next().unwrap_or("").to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(order(md(&id)), order(md(&restored)));
}

#[test]
fn snapshot_create_waits_for_the_sessions_lock() {
    let sb = Sandbox::new();
    let id = sb.create_journal_session();
    assert!(record(&sb, &id, "hello").status.success());
    let lock = sb.sessions_dir().join(".locks").join(format!("{id}.lock"));
    std::fs::create_dir_all(lock.parent().unwrap()).unwrap();
    let held = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock)
        .unwrap();
    held.lock().unwrap();
    let mut child = std::process::Command::new(bin_path("ollm-session"))
        .env_clear()
        .env("HOME", &sb.home)
        .env("OLLM_HOME", &sb.ollm_home)
        .args(["snapshot", "create", &id])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(child.try_wait().unwrap().is_none(), "took no lock");
    assert!(!snapshots_dir(&sb, &id).join("snapshots").exists());
    held.unlock().unwrap();
    assert!(child.wait().unwrap().success());
    assert!(snapshots_dir(&sb, &id).join("snapshots").exists());
}

// ------------------------------------------------ read-only stores

#[test]
fn read_only_commands_work_on_a_read_only_store() {
    if !is_root() {
        eprintln!("SKIPPED: a read-only store is tested as `nobody`, which needs root");
        return;
    }
    let sb = Sandbox::new();
    let id = sb.create_journal_session();
    assert!(record(&sb, &id, "findable words").status.success());
    let top = sb.home.parent().unwrap();
    std::fs::set_permissions(top, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&sb.home, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&sb.work, std::fs::Permissions::from_mode(0o755)).unwrap();
    // Owned by `nobody`, with every write permission taken away.
    let chown = std::process::Command::new("chown")
        .args(["-R", "nobody", sb.ollm_home.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(chown.success());
    let chmod = std::process::Command::new("chmod")
        .args(["-R", "a-w", sb.ollm_home.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(chmod.success());
    let as_nobody = |args: &[&str]| {
        sb.program("setpriv")
            .args(["--reuid=nobody", "--regid=nogroup", "--clear-groups"])
            .arg(bin_path("ollm-session"))
            .args(args)
            .output()
            .unwrap()
    };
    for args in [
        vec!["list"],
        vec!["get", &id],
        vec!["search", "findable"],
        vec!["cleanup", "--keep", "0", "--dry-run"],
        vec!["config"],
        vec!["snapshot", "list", &id],
    ] {
        let out = as_nobody(&args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    }
    let out = as_nobody(&["cleanup", "--keep", "0", "--dry-run"]);
    assert_eq!(json(&out)["deleted"], json!([id]));
    // A writer gets a one-line storage error.
    let out = as_nobody(&["record", &id, "--role", "user", "--text", "x"]);
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-session");
}

// ------------------------------------------------ limits

/// `{"a":{"a":…}}` nested `depth` objects deep.
fn nested(depth: usize) -> String {
    "{\"a\":".repeat(depth) + "1" + &"}".repeat(depth)
}

#[test]
fn a_record_too_deep_for_readers_is_refused_by_the_writer() {
    let sb = Sandbox::new();
    let id = sb.create_journal_session();
    let call = format!(
        r#"{{"id":"c1","name":"t","args":{},"result":{{"llmContent":"x"}}}}"#,
        nested(124)
    );
    let out = sb
        .cmd("ollm-session")
        .args(["record", &id])
        .write_stdin(call)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-session");
    assert!(stderr(&out).contains("100 levels"), "{}", stderr(&out));
    // Just within the limit is written and read back.
    let call = format!(
        r#"{{"id":"c1","name":"t","args":{},"result":{{"llmContent":"x"}}}}"#,
        nested(98)
    );
    let out = sb
        .cmd("ollm-session")
        .args(["record", &id])
        .write_stdin(call)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let out = sb.cmd("ollm-session").args(["get", &id]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["toolCalls"].as_array().unwrap().len(), 1);
}

fn a_snapshot_of_a_context_too_deep_for_readers_is_refused(store: SessionStore) {
    let Some(sb) = Sandbox::on(store) else {
        return;
    };
    let id = sb.create_journal_session();
    let context = format!(
        r#"[{{"role":"user","parts":[{{"type":"data","n":{}}}],"timestamp":"2026-01-01T00:00:00Z"}}]"#,
        // The deepest input the parser takes: one level deeper in the file.
        nested(123)
    );
    let out = sb
        .cmd("ollm-session")
        .args(["snapshot", "create", &id, "--stdin"])
        .write_stdin(context)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-session");
    let out = sb
        .cmd("ollm-session")
        .args(["snapshot", "list", &id])
        .output()
        .unwrap();
    assert_eq!(json(&out), json!([]));
}

#[test]
fn a_plain_session_nested_beyond_the_reader_is_left_in_place() {
    let sb = Sandbox::new();
    let id = "3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1b";
    std::fs::create_dir_all(sb.sessions_dir()).unwrap();
    let text = format!(
        r#"{{"sessionId":"{id}","startTime":"2026-01-01T00:00:00Z","lastActivity":"2026-01-01T00:00:00Z","model":"m","provider":"p","messages":[],"toolCalls":[{{"id":"c","name":"t","args":{},"result":{{"llmContent":"x"}},"timestamp":"2026-01-01T00:00:00Z"}}],"metadata":{{"tokenCount":0,"compressionCount":0}}}}"#,
        nested(130)
    );
    let plain = sb.sessions_dir().join(format!("{id}.json"));
    std::fs::write(&plain, &text).unwrap();
    let out = sb.cmd("ollm-session").args(["get", id]).output().unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-session");
    assert_eq!(std::fs::read_to_string(&plain).unwrap(), text, "not moved");
}

#[test]
fn token_counts_saturate_instead_of_wrapping() {
    let sb = Sandbox::new();
    let id = sb.create_journal_session();
    for _ in 0..2 {
        let out = sb
            .cmd("ollm-session")
            .args(["record", &id, "--role", "user", "--text", "x"])
            .args(["--tokens", "18446744073709551615"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(json(&out)["tokenCount"], json!(u64::MAX));
    }
    let out = sb.cmd("ollm-session").args(["get", &id]).output().unwrap();
    assert_eq!(json(&out)["metadata"]["tokenCount"], json!(u64::MAX));
    let out = sb.cmd("ollm-session").args(["list"]).output().unwrap();
    assert_eq!(json(&out)[0]["tokenCount"], json!(u64::MAX));
}

#[test]
fn integers_beyond_64_bits_are_refused_not_rounded() {
    let sb = Sandbox::new();
    let id = sb.create_journal_session();
    let message = r#"{"role":"user","parts":[{"type":"data","n":100000000000000000001}]}"#;
    for input in [message.to_string(), format!("{message}\n{message}\n")] {
        let out = sb
            .cmd("ollm-session")
            .args(["record", &id])
            .write_stdin(input)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert_one_line_error(&out, "ollm-session");
        assert!(stderr(&out).contains("100000000000000000001"));
    }
    let out = sb
        .cmd("ollm-session")
        .args(["record", &id, "--tool", "t", "--result", "r"])
        .args(["--args", r#"{"n": 18446744073709551615}"#])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let got = stdout(&sb.cmd("ollm-session").args(["get", &id]).output().unwrap());
    assert!(got.contains("18446744073709551615"), "{got}");
}

#[test]
fn deeply_nested_yaml_is_refused_before_parsing() {
    let sb = Sandbox::new();
    let depth = 100_000;
    let text = format!("services: {}{}\n", "[".repeat(depth), "]".repeat(depth));
    std::fs::write(sb.ollm_home.join("config.yaml"), text).unwrap();
    let out = sb
        .cmd("ollm-session")
        .args(["config"])
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(5), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-session");
    assert!(stderr(&out).contains("64 levels"), "{}", stderr(&out));
}

// ------------------------------------------------ ollm-discover

pub(crate) fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn discover_does_not_list_fifos_or_sockets() {
    let sb = Sandbox::new();
    sb.write("a.txt", "a");
    mkfifo(&sb.work.join("pipe"));
    let _socket = std::os::unix::net::UnixListener::bind(sb.work.join("sock")).unwrap();
    let out = sb
        .cmd("ollm-discover")
        .args(["--paths", "--sort"])
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "a.txt\n");
}

#[test]
fn ignore_files_and_a_git_index_that_are_fifos_are_skipped_not_read() {
    let sb = Sandbox::new();
    sb.write("a.txt", "a");
    sb.write("sub/b.txt", "b");
    sb.write("other/c.txt", "c");
    mkfifo(&sb.work.join(".gitignore"));
    mkfifo(&sb.work.join("sub/.ollmignore"));
    std::fs::create_dir_all(sb.work.join(".git")).unwrap();
    mkfifo(&sb.work.join(".git/index"));
    let out = sb
        .cmd("ollm-discover")
        .args(["--paths", "--sort"])
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let listed = stdout(&out);
    assert!(
        listed.contains("a.txt") && listed.contains("other/c.txt"),
        "{listed}"
    );
    let warnings = stderr(&out);
    assert!(warnings.contains("FIFO"), "{warnings}");
    assert!(warnings.contains(".gitignore") && warnings.contains(".ollmignore"));
    assert!(warnings.contains("index"), "{warnings}");
}

#[test]
fn watch_reports_a_moved_root_and_exits_instead_of_going_silent() {
    use crate::discover::watch::Watch;
    let sb = Sandbox::new();
    sb.write("a.txt", "a");
    let mut watch = Watch::start(&sb, &[]);
    let moved = sb.work.with_file_name("moved-away");
    std::fs::rename(&sb.work, &moved).unwrap();
    watch.expect("unlink", "");
    assert_eq!(watch.wait_exit(), Some(4));
    std::fs::rename(&moved, &sb.work).unwrap();
}

#[test]
fn watch_reports_a_deleted_and_recreated_root_and_exits() {
    use crate::discover::watch::Watch;
    let sb = Sandbox::new();
    sb.write("a.txt", "a");
    let mut watch = Watch::start(&sb, &[]);
    std::fs::remove_dir_all(&sb.work).unwrap();
    std::fs::create_dir_all(&sb.work).unwrap();
    watch.expect("unlink", "");
    assert_eq!(watch.wait_exit(), Some(4));
}
