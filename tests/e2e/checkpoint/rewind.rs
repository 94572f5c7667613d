//! Conversation and code together (Claude Code's rewind offers both), and
//! checkpoints for free around a tool run by `ollm-env run --checkpoint`.

use super::Cp;
use crate::support::json;

fn record(cp: &Cp, role: &str, text: &str) {
    cp.sb
        .session_ok(&["record", &cp.id, "--role", role, "--text", text]);
}

#[test]
fn rewind_branches_the_conversation_and_restores_the_files_to_the_same_point() {
    let sb = Cp::new().sb;
    let id = sb.create_session();
    let cp = Cp { sb, id };
    cp.write("lib.rs", "fn v1() {}\n");
    record(&cp, "user", "add v2");
    let out = cp.run(&["snapshot", "--session", &cp.id, "--turn", "1"]);
    assert!(out.status.success());
    record(&cp, "assistant", "done");
    cp.write("lib.rs", "fn v2() {}\n");
    record(&cp, "user", "and v3");
    let out = cp.run(&["snapshot", "--session", &cp.id, "--turn", "3"]);
    assert!(out.status.success());

    let out = cp.sb.session(&["rewind", &cp.id, "1"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rewound = json(&out);
    assert_eq!(cp.read("lib.rs").unwrap(), "fn v1() {}\n");
    assert_eq!(rewound["code"]["applied"], true);
    let branch = rewound["branch"]["sessionId"].as_str().unwrap();
    let got = json(&cp.sb.session_ok(&["get", branch]));
    assert_eq!(got["messages"].as_array().unwrap().len(), 1, "{got}");

    // --code alone at a conflict: nothing changes, no branch, exit 1.
    cp.write("lib.rs", "fn users_edit() {}\n");
    let out = cp.sb.session(&["rewind", &cp.id, "3", "--code"]);
    assert_eq!(out.status.code(), Some(1));
    let rewound = json(&out);
    assert!(rewound["branch"].is_null());
    assert_eq!(cp.read("lib.rs").unwrap(), "fn users_edit() {}\n");
}

#[test]
fn env_run_with_checkpoint_snapshots_around_the_tool_and_passes_its_exit_code() {
    let cp = Cp::new();
    cp.write("data.txt", "before the tool\n");
    cp.write("user.txt", "the user's, made before the tool ran\n");
    let out = cp
        .sb
        .cmd("ollm-env")
        .args(["run", "--checkpoint", &cp.id, "--", "sh", "-c"])
        .arg("echo changed by the tool > data.txt; echo new > tool-made.txt; exit 3")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(cp.read("data.txt").unwrap(), "changed by the tool\n");
    let list = json(&cp.run(&["list", "--session", &cp.id]));
    let origins: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["origin"].as_str().unwrap())
        .collect();
    assert_eq!(origins, ["observed", "turn"]);
    let (code, report) = cp.restore(1, &[]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(cp.read("data.txt").unwrap(), "before the tool\n");
    assert!(!cp.path("tool-made.txt").exists());
    assert!(cp.path("user.txt").exists());
}
