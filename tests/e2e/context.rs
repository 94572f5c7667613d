//! `ollm-context` end to end: the store's commands, where it lives,
//! concurrent writers, TTL expiry, crashes mid-write and bad input.

use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use crate::support::{
    Sandbox, assert_one_line_error, at_a_terminal, bin_path, json, stderr, stdout, test_path,
};

const BIN: &str = "ollm-context";
const SESSION: &str = "3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1b";

fn run(sandbox: &Sandbox, args: &[&str]) -> std::process::Output {
    sandbox
        .cmd(BIN)
        .args(args)
        .output()
        .expect("run ollm-context")
}

fn ok(sandbox: &Sandbox, args: &[&str]) -> std::process::Output {
    let out = run(sandbox, args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        crate::support::stderr(&out)
    );
    out
}

fn keys(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|e| e["key"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn add_list_get_prompt_remove_clear() {
    let sandbox = Sandbox::new();
    ok(&sandbox, &["add", "style", "Use tabs.", "--priority", "80"]);
    ok(&sandbox, &["add", "notes", "Remember the tests."]);
    sandbox.write("spec.md", "# Spec\nThe spec.\n");
    ok(
        &sandbox,
        &[
            "add",
            "spec",
            "--from-file",
            "spec.md",
            "--source",
            "extension",
            "--priority",
            "80",
        ],
    );
    let out = sandbox
        .cmd(BIN)
        .args(["add", "git", "-", "--source", "hook", "--priority", "-5"])
        .write_stdin("M src/lib.rs\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));

    let list = json(&ok(&sandbox, &["list"]));
    assert_eq!(keys(&list), ["style", "notes", "spec", "git"]);
    assert_eq!(list[1]["priority"], 50);
    assert_eq!(list[1]["source"], "user");
    assert!(list[1]["timestamp"].as_str().unwrap().ends_with('Z'));
    assert_eq!(
        keys(&json(&ok(&sandbox, &["list", "--source", "hook"]))),
        ["git"]
    );

    let entry = json(&ok(&sandbox, &["get", "spec"]));
    assert_eq!(entry["content"], "# Spec\nThe spec.\n");
    assert_eq!(
        stdout(&ok(&sandbox, &["get", "git", "--content"])),
        "M src/lib.rs\n"
    );

    let prompt = stdout(&ok(&sandbox, &["prompt"]));
    assert_eq!(
        prompt,
        "## style\n\nUse tabs.\n\n## spec\n\n# Spec\nThe spec.\n\n## notes\n\nRemember the tests.\n\n## git\n\nM src/lib.rs\n"
    );
    assert_eq!(
        keys(&json(&ok(&sandbox, &["prompt", "--json"]))),
        ["style", "spec", "notes", "git"]
    );

    ok(&sandbox, &["remove", "spec"]);
    let out = run(&sandbox, &["remove", "spec"]);
    assert_eq!(out.status.code(), Some(3));
    assert_one_line_error(&out, BIN);
    ok(&sandbox, &["remove", "spec", "--missing-ok"]);

    assert_eq!(
        json(&ok(&sandbox, &["clear", "--source", "hook"]))["removed"],
        1
    );
    assert_eq!(keys(&json(&ok(&sandbox, &["list"]))), ["style", "notes"]);
    assert_eq!(json(&ok(&sandbox, &["clear"]))["removed"], 2);
    assert_eq!(stdout(&ok(&sandbox, &["prompt"])), "");
    assert_eq!(json(&ok(&sandbox, &["list"])), serde_json::json!([]));
}

/// `…T10:30:27.690Z`: the session store's form, so the strings sort in time order.
fn is_fixed_millis(text: &str) -> bool {
    let b = text.as_bytes();
    text.len() == 24
        && text.ends_with('Z')
        && b[19] == b'.'
        && b[20..23].iter().all(u8::is_ascii_digit)
        && ollm::timestamp::parse(text).is_some()
}

#[test]
fn timestamps_are_written_with_three_fraction_digits_everywhere() {
    let sandbox = Sandbox::new();
    // A store another version wrote with trailing zeros dropped and an offset.
    sandbox.write(
        ".ollm/context.json",
        r#"{"version":1,"entries":[
            {"key":"old","content":"x","priority":50,"source":"user","timestamp":"2026-11-22T04:00:27.69Z","expiresAt":"2999-01-01T02:00:55.3+02:00"},
            {"key":"older","content":"y","priority":50,"source":"user","timestamp":"2026-11-22T04:00:27Z"}]}"#,
    );
    let list = json(&ok(&sandbox, &["list"]));
    assert_eq!(list[0]["timestamp"], "2026-11-22T04:00:27.690Z");
    assert_eq!(list[0]["expiresAt"], "2999-01-01T00:00:55.300Z");
    assert_eq!(list[1]["timestamp"], "2026-11-22T04:00:27.000Z");
    for _ in 0..5 {
        ok(&sandbox, &["add", "fresh", "z", "--ttl", "1h"]);
    }
    ok(&sandbox, &["add", "other", "w"]);
    let mut seen = Vec::new();
    for out in [
        json(&ok(&sandbox, &["list"])),
        json(&ok(&sandbox, &["prompt", "--json"])),
        serde_json::from_str::<Value>(
            &std::fs::read_to_string(sandbox.work.join(".ollm/context.json")).unwrap(),
        )
        .unwrap()["entries"]
            .clone(),
        Value::Array(vec![json(&ok(&sandbox, &["get", "fresh"]))]),
    ] {
        for entry in out.as_array().unwrap() {
            for field in ["timestamp", "expiresAt"] {
                if let Some(at) = entry.get(field) {
                    let at = at.as_str().unwrap();
                    assert!(is_fixed_millis(at), "{field} {at:?} in {entry}");
                    seen.push(at.to_string());
                }
            }
        }
    }
    assert!(seen.len() >= 13, "{seen:?}");
}

#[test]
fn readding_a_key_replaces_it_in_place() {
    let sandbox = Sandbox::new();
    ok(&sandbox, &["add", "a", "first"]);
    ok(&sandbox, &["add", "b", "bee"]);
    ok(&sandbox, &["add", "a", "second", "--source", "hook"]);
    let list = json(&ok(&sandbox, &["list"]));
    assert_eq!(keys(&list), ["a", "b"]);
    assert_eq!(list[0]["content"], "second");
    assert_eq!(list[0]["source"], "hook");
}

#[test]
fn the_store_is_the_workspace_the_session_or_a_named_file() {
    let sandbox = Sandbox::new();
    // No workspace: .ollm/ is created in the current directory.
    assert_eq!(stdout(&ok(&sandbox, &["prompt"])), "");
    assert!(
        !sandbox.work.join(".ollm").exists(),
        "a read created the store"
    );
    ok(&sandbox, &["add", "k", "v"]);
    assert!(sandbox.work.join(".ollm/context.json").is_file());
    // From a subdirectory the workspace's store is found.
    std::fs::create_dir_all(sandbox.work.join("src/deep")).unwrap();
    let out = sandbox
        .cmd(BIN)
        .args(["get", "k", "--content"])
        .current_dir(sandbox.work.join("src/deep"))
        .output()
        .unwrap();
    assert_eq!(stdout(&out), "v\n");

    ok(
        &sandbox,
        &["--session", SESSION, "add", "s", "session only"],
    );
    assert!(
        sandbox
            .ollm_home
            .join(format!("context/{SESSION}.json"))
            .is_file()
    );
    assert_eq!(
        keys(&json(&ok(&sandbox, &["list", "--session", SESSION]))),
        ["s"]
    );
    assert_eq!(keys(&json(&ok(&sandbox, &["list"]))), ["k"]);

    ok(&sandbox, &["--file", "other/ctx.json", "add", "f", "file"]);
    assert!(sandbox.work.join("other/ctx.json").is_file());

    for bad in [
        "../../escape",
        "x",
        "3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1b/../../x",
        "",
    ] {
        let out = run(&sandbox, &["--session", bad, "add", "k", "v"]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert_one_line_error(&out, BIN);
    }
    assert_eq!(
        std::fs::read_dir(sandbox.ollm_home.join("context"))
            .unwrap()
            .count(),
        2
    );
}

#[test]
fn in_a_subdirectory_of_a_git_work_tree_the_store_is_at_its_top() {
    let sandbox = Sandbox::new();
    let repo = sandbox.work.join("repo");
    let deep = repo.join("src/deep");
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    let out = sandbox
        .cmd(BIN)
        .args(["add", "k", "v"])
        .current_dir(&deep)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let store = repo.join(".ollm/context.json");
    assert!(store.is_file(), "no store at the work tree's top");
    assert!(!deep.join(".ollm").exists(), "a store in the subdirectory");
    assert_eq!(
        json(&out)["store"].as_str().unwrap(),
        store.to_str().unwrap()
    );
    // The top's store is the one read from anywhere in the tree, and the
    // workspace it created is trusted (its entries reach the prompt).
    let prompt = sandbox
        .cmd(BIN)
        .arg("prompt")
        .current_dir(repo.join("src"))
        .output()
        .unwrap();
    assert_eq!(stdout(&prompt), "## k\n\nv\n");
}

#[test]
fn mutations_print_what_they_changed_as_one_json_line() {
    let sandbox = Sandbox::new();
    let store = sandbox.work.join(".ollm/context.json");
    let store = store.to_str().unwrap();
    let added = ok(&sandbox, &["add", "k", "v", "--source", "hook"]);
    assert_eq!(stdout(&added).lines().count(), 1);
    assert_eq!(
        json(&added),
        serde_json::json!({"added": "k", "replaced": false, "store": store})
    );
    assert_eq!(json(&ok(&sandbox, &["add", "k", "w"]))["replaced"], true);
    ok(&sandbox, &["add", "h", "x", "--source", "hook"]);
    let removed = ok(&sandbox, &["delete", "k"]);
    assert_eq!(stdout(&removed).lines().count(), 1);
    assert_eq!(
        json(&removed),
        serde_json::json!({"removed": 1, "keys": ["k"], "store": store})
    );
    assert_eq!(
        json(&ok(&sandbox, &["remove", "k", "--missing-ok"])),
        serde_json::json!({"removed": 0, "keys": [], "store": store})
    );
    assert_eq!(
        json(&ok(&sandbox, &["clear", "--source", "hook"])),
        serde_json::json!({"removed": 1, "keys": ["h"], "store": store})
    );
    let help = stdout(&ok(&sandbox, &["--help"]));
    assert!(help.contains("remove") && help.contains("delete"), "{help}");
}

#[test]
fn get_content_ends_with_one_newline() {
    let sandbox = Sandbox::new();
    ok(&sandbox, &["add", "bare", "no newline"]);
    assert_eq!(
        stdout(&ok(&sandbox, &["get", "bare", "--content"])),
        "no newline\n"
    );
    let out = sandbox
        .cmd(BIN)
        .args(["add", "ended", "-"])
        .write_stdin("ends\n")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        stdout(&ok(&sandbox, &["get", "ended", "--content"])),
        "ends\n"
    );
}

#[test]
fn expired_entries_drop_out() {
    let sandbox = Sandbox::new();
    ok(
        &sandbox,
        &[
            "add",
            "brief",
            "gone soon",
            "--ttl",
            "1s",
            "--priority",
            "90",
        ],
    );
    ok(&sandbox, &["add", "stays", "here", "--ttl", "1h"]);
    assert_eq!(
        keys(&json(&ok(&sandbox, &["prompt", "--json"]))),
        ["brief", "stays"]
    );
    std::thread::sleep(Duration::from_millis(1300));
    assert_eq!(keys(&json(&ok(&sandbox, &["list"]))), ["stays"]);
    assert_eq!(stdout(&ok(&sandbox, &["prompt"])), "## stays\n\nhere\n");
    assert_eq!(run(&sandbox, &["get", "brief"]).status.code(), Some(3));
    // The next write prunes it from the file.
    ok(&sandbox, &["add", "x", "y"]);
    let file = std::fs::read_to_string(sandbox.work.join(".ollm/context.json")).unwrap();
    assert!(!file.contains("gone soon"));
}

fn spawn_add(sandbox: &Sandbox, key: &str, content: &str) -> std::process::Child {
    spawn(sandbox, &["add", key, content])
}

fn spawn(sandbox: &Sandbox, args: &[&str]) -> std::process::Child {
    Command::new(bin_path(BIN))
        .args(args)
        .env_clear()
        .env("PATH", test_path())
        .env("HOME", &sandbox.home)
        .env("OLLM_HOME", &sandbox.ollm_home)
        .current_dir(&sandbox.work)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn ollm-context")
}

#[test]
fn concurrent_adds_from_many_processes_lose_nothing() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.work.join(".ollm")).unwrap();
    let writers = 8;
    let each = 12;
    let mut children = Vec::new();
    for round in 0..each {
        for writer in 0..writers {
            children.push(spawn_add(
                &sandbox,
                &format!("w{writer}-{round}"),
                &format!("from writer {writer}"),
            ));
        }
    }
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let list = json(&ok(&sandbox, &["list"]));
    assert_eq!(list.as_array().unwrap().len(), writers * each);
}

#[test]
fn writers_killed_mid_write_never_corrupt_the_store() {
    let sandbox = Sandbox::new();
    ok(&sandbox, &["add", "kept", "written before the crashes"]);
    let big = sandbox.write("big.txt", &"x".repeat(4 * 1024 * 1024));
    let big = big.to_str().unwrap();
    let mut completed = Vec::new();
    for i in 0..20 {
        let mut child = spawn(&sandbox, &["add", &format!("k{i}"), "--from-file", big]);
        std::thread::sleep(Duration::from_millis((i % 7) * 3));
        let _ = child.kill();
        let status = child.wait().unwrap();
        if status.success() {
            completed.push(format!("k{i}"));
        }
    }
    let list = json(&ok(&sandbox, &["list"]));
    let present = keys(&list);
    assert!(present.contains(&"kept".to_string()));
    for key in completed {
        assert!(
            present.contains(&key),
            "{key} was reported written but is missing"
        );
    }
}

#[test]
fn a_corrupt_store_is_set_aside_by_a_writer_and_reported() {
    // Cut short: one in the layout before the format marker, one with it.
    for garbage in [
        "{\"version\":1,\"entries\":[{\"key\":",
        "{\"format\":\"ollm-context-store\",\"version\":1,\"entries\":[{\"key\":",
    ] {
        for args in [&["add", "k", "v"][..], &["remove", "k"][..], &["clear"][..]] {
            let sandbox = Sandbox::new();
            sandbox.write(".ollm/context.json", garbage);
            let out = run(&sandbox, args);
            assert_eq!(out.status.code(), Some(6), "{args:?}");
            assert_one_line_error(&out, BIN);
            assert!(crate::support::stderr(&out).contains("moved to"));
            let aside: Vec<String> = std::fs::read_dir(sandbox.work.join(".ollm"))
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("context.json.corrupt-"))
                .collect();
            assert_eq!(aside.len(), 1, "{aside:?}");
            let kept = std::fs::read_to_string(sandbox.work.join(".ollm").join(&aside[0])).unwrap();
            assert_eq!(kept, garbage);
            // The write was not done on top of the corrupt file; the next one starts afresh.
            assert_eq!(json(&ok(&sandbox, &["list"])), serde_json::json!([]));
            ok(&sandbox, &["add", "k", "v"]);
        }
    }
}

/// The commands of `ollm-context` that only read.
const READS: [&[&str]; 4] = [&["list"], &["get", "k"], &["prompt"], &["prompt", "--json"]];

#[test]
fn reads_of_a_corrupt_store_report_it_and_change_nothing() {
    let sandbox = Sandbox::new();
    let garbage = "{\"format\":\"ollm-context-store\",\"version\":1,\"entries\":[{\"key\":";
    sandbox.write(".ollm/context.json", garbage);
    for args in READS {
        let before = crate::support::tree(&sandbox.work);
        let out = run(&sandbox, args);
        assert_eq!(out.status.code(), Some(6), "{args:?}");
        assert_one_line_error(&out, BIN);
        assert!(crate::support::stderr(&out).contains("left as it is"));
        assert_eq!(crate::support::tree(&sandbox.work), before, "{args:?}");
    }
}

#[test]
fn reads_of_a_missing_store_create_nothing() {
    let sandbox = Sandbox::new();
    for args in READS {
        let out = run(&sandbox, args);
        assert!(matches!(out.status.code(), Some(0 | 3)), "{args:?}");
        assert!(crate::support::tree(&sandbox.work).is_empty(), "{args:?}");
    }
}

#[test]
fn a_file_that_is_not_a_store_is_refused_by_reads_and_writes_alike() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "tsconfig.json",
        "{\n  // comments: JSON with them is not ours either\n  \"compilerOptions\": {\"strict\": true}\n}\n",
    );
    sandbox.write(
        "package.json",
        "{\"name\": \"app\", \"version\": \"1.0.0\"}\n",
    );
    for file in ["tsconfig.json", "package.json"] {
        for args in READS.iter().copied().chain([
            &["add", "k", "v"][..],
            &["remove", "k"][..],
            &["clear"][..],
        ]) {
            let before = crate::support::tree(&sandbox.work);
            let mut argv = vec!["--file", file];
            argv.extend_from_slice(args);
            let out = run(&sandbox, &argv);
            assert_eq!(out.status.code(), Some(2), "{argv:?}");
            assert_one_line_error(&out, BIN);
            assert!(crate::support::stderr(&out).contains(file), "{argv:?}");
            assert_eq!(crate::support::tree(&sandbox.work), before, "{argv:?}");
        }
    }
}

#[test]
fn a_store_written_before_the_format_marker_is_read_and_gets_it() {
    let sandbox = Sandbox::new();
    sandbox.write(
        ".ollm/context.json",
        r#"{"version":1,"entries":[{"key":"old","content":"x","priority":50,"source":"user","timestamp":"2026-11-22T04:00:27.690Z"}]}"#,
    );
    assert_eq!(keys(&json(&ok(&sandbox, &["list"]))), ["old"]);
    ok(&sandbox, &["add", "new", "y"]);
    let written: Value =
        serde_json::from_slice(&std::fs::read(sandbox.work.join(".ollm/context.json")).unwrap())
            .unwrap();
    assert_eq!(written["format"], "ollm-context-store");
    assert_eq!(keys(&json(&ok(&sandbox, &["list"]))), ["old", "new"]);
}

#[test]
fn git_status_shows_the_shared_files_of_a_new_ollm_dir_and_nothing_local() {
    let sandbox = Sandbox::new();
    let git = |args: &[&str]| {
        let out = sandbox.program("git").args(args).output().unwrap();
        assert!(out.status.success(), "git {args:?}");
        stdout(&out)
    };
    git(&["init", "-q"]);
    std::fs::create_dir(sandbox.work.join("src")).unwrap();
    let status = || git(&["status", "--porcelain", "--untracked-files=all"]);
    // A read creates nothing, not even .ollm/.
    ok(&sandbox, &["list"]);
    assert_eq!(status(), "");
    // The first write creates .ollm/ at the top of the work tree, with its .gitignore.
    let out = sandbox
        .cmd(BIN)
        .args(["add", "rules", "Use tabs."])
        .current_dir(sandbox.work.join("src"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        crate::support::stderr(&out)
    );
    let listing = std::fs::read_dir(sandbox.work.join(".ollm"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect::<std::collections::BTreeSet<_>>();
    assert!(listing.contains("context.json.lock"), "{listing:?}");
    let shared = "?? .ollm/.gitignore\n?? .ollm/context.json\n";
    assert_eq!(status(), shared);
    // Loop state, its lock, and a store set aside as corrupt are local too.
    let out = sandbox
        .cmd("ollm-loopcheck")
        .args(["--state", ".ollm/loop-state.json"])
        .write_stdin("{\"type\":\"turn\"}\n")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        crate::support::stderr(&out)
    );
    std::fs::write(
        sandbox.work.join(".ollm/context.json"),
        "{\"version\":1,\"entries\":[",
    )
    .unwrap();
    assert_eq!(run(&sandbox, &["add", "k", "v"]).status.code(), Some(6));
    ok(&sandbox, &["add", "k", "v"]);
    assert_eq!(status(), shared);
    // The user's own .gitignore there is never rewritten.
    std::fs::write(sandbox.work.join(".ollm/.gitignore"), "# mine\n").unwrap();
    ok(&sandbox, &["add", "k2", "v"]);
    assert_eq!(
        std::fs::read_to_string(sandbox.work.join(".ollm/.gitignore")).unwrap(),
        "# mine\n"
    );
}

#[test]
fn a_priority_in_words_is_answered_with_what_to_give() {
    let sandbox = Sandbox::new();
    let out = run(&sandbox, &["add", "k", "v", "--priority", "high"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("a priority is a whole number") && !err.contains("invalid digit"),
        "{err}"
    );
}

#[test]
fn add_from_a_terminal_says_it_reads_until_end_of_input() {
    let sandbox = Sandbox::new();
    let Some((screen, code)) =
        at_a_terminal(&sandbox, &format!("{} add k -", bin_path(BIN).display()))
    else {
        return;
    };
    assert_eq!(code, Some(0), "{screen}");
    assert!(
        screen.contains("reading the content from the terminal") && screen.contains("^D"),
        "{screen}"
    );
    // Piped, nothing is said: the content is already on its way.
    let piped = sandbox
        .cmd(BIN)
        .args(["add", "k", "-"])
        .write_stdin("piped\n")
        .output()
        .unwrap();
    assert!(piped.status.success());
    assert_eq!(stderr(&piped), "");
}

#[test]
fn an_add_whose_trust_record_cannot_be_written_is_reported_as_the_add_it_was() {
    let sandbox = Sandbox::new();
    // $OLLM_HOME under a file: the trust record fails, the store does not.
    sandbox.write("not-a-dir", "");
    let unusable_home = sandbox.work.join("not-a-dir/home");
    let out = sandbox
        .cmd(BIN)
        .args(["add", "rules", "Use tabs."])
        .env("OLLM_HOME", &unusable_home)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(json(&out)["added"], "rules");
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("warning: `rules` was added") && err.contains("ollm trust"),
        "{err}"
    );
    let stored = ok(&sandbox, &["--file", ".ollm/context.json", "list"]);
    assert_eq!(keys(&json(&stored)), ["rules"]);
}

#[test]
fn bad_input_is_one_line_with_a_documented_code() {
    let sandbox = Sandbox::new();
    ok(&sandbox, &["add", "kept", "safe"]);
    for (args, code) in [
        (&["add", "k", "v", "--ttl", "soon"][..], 2),
        (&["add", "k", "v", "--ttl", "0s"][..], 2),
        (&["add", "", "v"][..], 2),
        (&["add", "k", "v", "--priority", "high"][..], 2),
        (&["add", "k", "v", "--source", "robot"][..], 2),
        (&["add", "k", "--from-file", "missing.md"][..], 3),
        (&["add", "k"][..], 2),
        (&["get", "missing"][..], 3),
        (&["frobnicate"][..], 2),
    ] {
        let out = run(&sandbox, args);
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        assert_one_line_error(&out, BIN);
    }
    let out = sandbox
        .cmd(BIN)
        .args(["add", "k", "-"])
        .write_stdin(vec![b'a', 0xff])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_one_line_error(&out, BIN);
    sandbox.write(
        ".ollm/wrong.json",
        "{\"version\":1,\"entries\":[{\"key\":\"k\",\"content\":1}]}",
    );
    let out = run(&sandbox, &["--file", ".ollm/wrong.json", "list"]);
    assert_eq!(out.status.code(), Some(6));
    assert_eq!(keys(&json(&ok(&sandbox, &["list"]))), ["kept"]);
}
