//! The session a checkpoint belongs to, as the session store knows it:
//! the files its recorded tool calls named are covered even if ignored
//! (Claude Code's rewind restored only what its own edit tools touched;
//! an ignored `.env` an agent wrote was lost), and `--session` names a
//! session as every other command does.

use super::Cp;
use crate::support::{assert_one_line_error, json};

/// A sandbox whose session is in the session store, titled `title`.
fn recorded(title: &str) -> Cp {
    let sb = Cp::new().sb;
    let id = sb.create_session_as(None, &["--title", title]);
    Cp { sb, id }
}

fn record_tool_call(cp: &Cp, tool: &str, args: &serde_json::Value) {
    cp.sb.session_ok(&[
        "record",
        &cp.id,
        "--tool",
        tool,
        "--args",
        &args.to_string(),
        "--result",
        "ok",
    ]);
}

#[test]
fn an_ignored_file_a_recorded_tool_call_wrote_is_restored_and_one_none_named_is_left_alone() {
    let cp = recorded("ignored files");
    cp.write(".gitignore", "*.env\nbuild/\n");
    cp.write("src/main.rs", "fn main() {}\n");
    // Turn 1: the agent writes an ignored file with its Write tool (an
    // absolute path, as Claude Code records it) and patches another (a
    // relative path in a Codex patch header); a build writes a third that
    // no tool call named.
    cp.write("secret.env", "TOKEN=agent-wrote-this\n");
    cp.write("build/gen.env", "GENERATED=1\n");
    cp.write("build/out.bin", "first build\n");
    let secret = cp.path("secret.env").display().to_string();
    record_tool_call(
        &cp,
        "Write",
        &serde_json::json!({"file_path": secret, "content": "TOKEN=agent-wrote-this\n"}),
    );
    let patch = "*** Begin Patch\n*** Update File: build/gen.env\n@@\n-GENERATED=0\n+GENERATED=1\n*** End Patch\n";
    record_tool_call(&cp, "apply_patch", &serde_json::json!({"input": patch}));
    let turn = cp.snapshot();

    // Turn 2: a shell command changes all three.
    cp.sh("echo TOKEN=changed > secret.env; echo GENERATED=2 > build/gen.env; echo second build > build/out.bin");
    cp.snapshot();

    let (code, report) = cp.restore(turn, &[]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(cp.read("secret.env").unwrap(), "TOKEN=agent-wrote-this\n");
    assert_eq!(cp.read("build/gen.env").unwrap(), "GENERATED=1\n");
    assert_eq!(cp.read("build/out.bin").unwrap(), "second build\n");
}

#[test]
fn a_tool_call_naming_a_path_outside_the_tree_or_through_a_link_is_not_covered() {
    let cp = recorded("outside");
    let outside = tempfile::tempdir().unwrap();
    let elsewhere = outside.path().join("elsewhere.env");
    std::fs::write(&elsewhere, "NOT=ours\n").unwrap();
    std::os::unix::fs::symlink(outside.path(), cp.path("linked")).unwrap();
    cp.write(".gitignore", "*.env\n");
    for path in [
        elsewhere.display().to_string(),
        "../elsewhere.env".to_string(),
        "linked/elsewhere.env".to_string(),
    ] {
        record_tool_call(&cp, "Write", &serde_json::json!({"file_path": path}));
    }
    let out = cp.run(&["snapshot", "--session", &cp.id]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(&elsewhere, "NOT=ours, changed\n").unwrap();
    let (code, report) = cp.restore(1, &[]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(
        std::fs::read_to_string(&elsewhere).unwrap(),
        "NOT=ours, changed\n"
    );
}

#[test]
fn session_takes_a_prefix_a_title_or_last_as_every_session_command_does() {
    let cp = recorded("refactor the parser");
    cp.write("a.txt", "one\n");
    let prefix = &cp.id[..8];
    let by_prefix = json(&cp.run(&["snapshot", "--session", prefix]));
    assert_eq!(by_prefix["sessionId"], cp.id.as_str(), "{by_prefix}");
    let by_title = json(&cp.run(&["snapshot", "--session", "refactor the parser"]));
    assert_eq!(by_title["sessionId"], cp.id.as_str(), "{by_title}");
    let by_last = json(&cp.run(&["snapshot", "--last"]));
    assert_eq!(by_last["sessionId"], cp.id.as_str(), "{by_last}");
    assert_eq!(by_last["turn"], 3);
    let listed = json(&cp.run(&["list", "--session", prefix]));
    assert_eq!(listed.as_array().unwrap().len(), 3, "{listed}");
}

#[test]
fn an_unknown_prefix_or_title_is_not_found_and_a_whole_id_not_yet_recorded_works() {
    let cp = recorded("known");
    cp.write("a.txt", "one\n");
    for unknown in ["0123abcd", "no such title"] {
        let out = cp.run(&["snapshot", "--session", unknown]);
        assert_eq!(out.status.code(), Some(3), "{unknown}");
        assert_one_line_error(&out, "ollm-checkpoint");
    }
    let unrecorded = "9c0ffee0-1234-4abc-8def-0123456789ab";
    let out = cp.run(&["snapshot", "--session", unrecorded]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(json(&out)["sessionId"], unrecorded);
}
