//! Bytes of the index that changed while it still parses (a flipped byte
//! in a change log line, a row's field altered in the database): no
//! command answers from them; each answers as the sessions' files do,
//! says so once, and nothing stored is lost.

use crate::session_index::{found, record};
use crate::session_index_damage::answers;
use crate::support::{Sandbox, json};

/// The row of session `id` in a `list --format json`.
fn listed_row(out: &std::process::Output, id: &str) -> serde_json::Value {
    json(out)
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["sessionId"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("{id} not listed"))
}

#[test]
fn a_log_line_whose_bytes_changed_is_not_trusted() {
    let sb = Sandbox::new();
    let first = sb.create_session_as(Some("journal"), &[]);
    record(&sb, &first, "we sailed to zanzibar");
    // The index is built; what follows is only in its change log.
    answers(&sb, &["list"]);
    let id = sb.create_session_as(Some("journal"), &[]);
    record(&sb, &id, "a voyage to zanzibar");
    let log = sb.sessions_dir().join(".index/log");
    let text = std::fs::read_to_string(&log).unwrap();
    // One byte of the last line, the new session's `put`, flipped.
    let (before, last) = text.trim_end().rsplit_once('\n').unwrap();
    assert!(last.contains("\"messageCount\":1,"), "{text}");
    let last = last.replace("\"messageCount\":1,", "\"messageCount\":7,");
    std::fs::write(&log, format!("{before}\n{last}\n")).unwrap();

    let (out, warning) = answers(&sb, &["list", "--format", "json"]);
    let warning = warning.expect("a warning about the damaged log");
    assert!(warning.contains("damaged"), "{warning}");
    assert_eq!(listed_row(&out, &id)["messageCount"], 1);
    let (out, warning) = answers(&sb, &["get", "--last", "--format", "json"]);
    assert_eq!(warning, None);
    assert_eq!(json(&out)["sessionId"], id.as_str());
    let mut both = vec![first, id.clone()];
    both.sort();
    assert_eq!(found(&sb, "zanzibar", &[]), both);
    assert_eq!(found(&sb, "voyage", &[]), vec![id.clone()]);
    let (out, _) = answers(&sb, &["get", &id, "--format", "json"]);
    assert_eq!(json(&out)["messages"].as_array().unwrap().len(), 1);
}
