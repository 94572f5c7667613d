//! The redaction's backstop (issue 54): a text longer than redaction reads
//! (16 MiB) is stored up to its last line end before the limit, redacted,
//! and the rest withheld; `record` says how many bytes, and no credential
//! past the limit reaches the store.

use crate::support::{Sandbox, json, stderr};

const TOKEN: &str = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
const LIMIT: usize = 16 << 20;

/// Build-log lines to about `size` bytes.
fn build_log(size: usize) -> String {
    let mut log = String::with_capacity(size + 200);
    let mut i = 0;
    while log.len() < size {
        log.push_str(&format!(
            "   Compiling crate{i} v0.{i}.0 (/home/u/src/crate{i}): warning: unused variable `x{i}`\n"
        ));
        i += 1;
    }
    log
}

fn record(sb: &Sandbox, id: &str, result: &str) -> (serde_json::Value, String) {
    let file = sb.write("result.txt", result);
    let out = sb.session_ok(&[
        "record",
        id,
        "--tool",
        "run",
        "--args",
        "{}",
        "--result-file",
        file.to_str().unwrap(),
    ]);
    (json(&out), stderr(&out))
}

fn stored_result(sb: &Sandbox, id: &str, index: usize) -> String {
    let session = json(&sb.session_ok(&["get", id]));
    session["toolCalls"][index]["result"]["llmContent"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn a_result_past_the_limit_is_stored_cut_without_a_credential_and_record_says_so() {
    let sb = Sandbox::new();
    let id = sb.create_session();
    let head = format!("{}token {TOKEN}\n", build_log(LIMIT - 4096));
    // One line across the limit: the text is cut where the head ends.
    let across = "x".repeat(8192);
    let tail = format!("{across} {TOKEN} past the limit\n{}", build_log(1 << 20));
    let (ack, warning) = record(&sb, &id, &format!("{head}{tail}"));
    let withheld = ack["withheld"].as_u64().expect("withheld in the ack");
    assert_eq!(withheld as usize, tail.len(), "{ack}");
    assert_eq!(ack["redacted"], 2, "the token and the withheld rest: {ack}");
    assert!(warning.contains("were not stored"), "{warning}");
    assert_eq!(warning.lines().count(), 1, "{warning}");

    let stored = stored_result(&sb, &id, 0);
    let kept = head.replace(TOKEN, "[REDACTED:github-token]");
    assert_eq!(
        stored,
        format!("{kept}[REDACTED:withheld {withheld} bytes past the limit]")
    );
    let on_disk = crate::support::tree(&sb.home)
        .into_values()
        .flatten()
        .any(|bytes| memchr::memmem::find(&bytes, TOKEN.as_bytes()).is_some());
    assert!(!on_disk, "the token is on disk");
}

#[test]
fn a_result_within_the_limit_is_stored_whole() {
    let sb = Sandbox::new();
    let id = sb.create_session();
    let text = format!("{}token {TOKEN}\n", build_log(LIMIT - 4096));
    let (ack, warning) = record(&sb, &id, &text);
    assert!(ack.get("withheld").is_none(), "{ack}");
    assert_eq!(ack["redacted"], 1, "{ack}");
    assert!(!warning.contains("not stored"), "{warning}");
    assert_eq!(
        stored_result(&sb, &id, 0),
        text.replace(TOKEN, "[REDACTED:github-token]")
    );
}
