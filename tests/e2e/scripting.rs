//! What a shell script takes from the programs without a JSON tool (the
//! tour runs where `jq` is not installed).

use serde_json::Value;

use crate::support::{Sandbox, json, stderr, stdout};

#[test]
fn create_quiet_prints_the_new_id_alone_and_the_session_is_there() {
    let sb = Sandbox::new();
    let out = sb.session_ok(&["create", "-q", "--model", "m", "--provider", "p"]);
    let printed = stdout(&out);
    let id = printed.strip_suffix('\n').expect("one line");
    assert!(!id.contains(['\n', '{', '"']), "{printed:?}");
    assert_eq!(json(&sb.session_ok(&["get", id]))["sessionId"], id);
}

#[test]
fn compress_format_messages_prints_what_the_model_is_given() {
    let sb = Sandbox::new();
    let id = sb.create_session_as(None, &[]);
    for i in 0..40 {
        let text = format!(
            "turn {i}: {}",
            "the parser fails on nested lists ".repeat(30)
        );
        sb.session_ok(&["record", &id, "--role", "assistant", "--text", &text]);
    }
    let args = [
        "--session",
        &id,
        "--strategy",
        "truncate",
        "--token-limit",
        "2000",
    ];
    let report = sb.cmd("ollm-compress").args(args).output().unwrap();
    assert!(report.status.success(), "{}", stderr(&report));
    let whole = json(&report);
    let messages = sb
        .cmd("ollm-compress")
        .args(args)
        .args(["--format", "messages"])
        .output()
        .unwrap();
    assert!(messages.status.success(), "{}", stderr(&messages));
    let array: Value = serde_json::from_slice(&messages.stdout).unwrap();
    let kept = array.as_array().map(Vec::len);
    assert!(
        kept.is_some_and(|n| n > 0 && n < 40),
        "{kept:?} messages kept"
    );
    assert_eq!(array, whole["compressedMessages"]);
}
