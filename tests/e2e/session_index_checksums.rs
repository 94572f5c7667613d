//! Bytes of the index that changed while it still parses (a flipped byte
//! in a change log line, a row's field altered in the database): no
//! command answers from them; each answers as the sessions' files do,
//! says so once, and nothing stored is lost.

use crate::session_index::{found, record};
use crate::session_index_damage::answers;
use crate::support::{Sandbox, ids_of_listing, json};

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

/// The ids a `list --format json` holds, sorted.
fn listed_ids(out: &std::process::Output) -> Vec<String> {
    let mut ids = ids_of_listing(out);
    ids.sort();
    ids
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

/// Two sessions recorded and listed (the index built); the second's id.
fn two_listed(sb: &Sandbox) -> (String, String) {
    let first = sb.create_session_as(Some("journal"), &[]);
    record(sb, &first, "we sailed to zanzibar");
    // A journal: a file in the OLLM CLI's format written this instant is
    // read again by the next fold (its stamp is racy), which hides the damage.
    let second = sb.create_session_as(Some("journal"), &[]);
    record(sb, &second, "a voyage to zanzibar");
    answers(sb, &["list"]);
    (first, second)
}

/// Runs `statement` on the index's database, as damage would.
fn alter_db(sb: &Sandbox, statement: &str, id: &str) {
    let db = rusqlite::Connection::open(sb.sessions_dir().join(".index/sessions.db")).unwrap();
    assert_eq!(db.execute(statement, [id]).unwrap(), 1);
}

#[test]
fn a_database_row_whose_fields_changed_is_not_answered_from() {
    for (column, statement) in [
        (
            "model",
            "UPDATE sessions SET model = 'forged' WHERE id = ?1",
        ),
        (
            "json",
            "UPDATE sessions SET json = replace(json, '\"messageCount\":1', '\"messageCount\":7') WHERE id = ?1",
        ),
    ] {
        let sb = Sandbox::new();
        let (first, second) = two_listed(&sb);
        let file = sb.sessions_dir().join(&second).join("journal.ndjson");
        let stored = std::fs::read(&file).unwrap();
        alter_db(&sb, statement, &second);

        let (out, warning) = answers(&sb, &["list", "--format", "json"]);
        let warning = warning.unwrap_or_else(|| panic!("{column}: no warning"));
        assert!(warning.contains("damaged"), "{column}: {warning}");
        let row = listed_row(&out, &second);
        assert_eq!(row["model"], "m", "{column}");
        assert_eq!(row["messageCount"], 1, "{column}");
        // Not found under what the damaged row says.
        let (out, _) = answers(&sb, &["list", "--model", "forged", "--format", "json"]);
        assert_eq!(json(&out), serde_json::json!([]), "{column}");
        let (out, _) = answers(&sb, &["get", "--last", "--format", "json"]);
        assert_eq!(json(&out)["sessionId"], second.as_str(), "{column}");
        assert_eq!(json(&out)["model"], "m", "{column}");
        let mut both = vec![first.clone(), second.clone()];
        both.sort();
        assert_eq!(found(&sb, "zanzibar", &[]), both, "{column}");
        // Built again by now: the row is whole, and no command warns.
        let (out, warning) = answers(&sb, &["list", "--format", "json"]);
        assert_eq!(warning, None, "{column}");
        assert_eq!(listed_row(&out, &second)["messageCount"], 1, "{column}");
        let db = rusqlite::Connection::open(sb.sessions_dir().join(".index/sessions.db")).unwrap();
        let model: String = db
            .query_row("SELECT model FROM sessions WHERE id = ?1", [&second], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(model, "m", "{column}");
        // Nothing stored was touched.
        assert_eq!(std::fs::read(&file).unwrap(), stored, "{column}");
    }
}

#[test]
fn a_database_sqlite_finds_malformed_is_bypassed_then_built_again() {
    let sb = Sandbox::new();
    let (first, second) = two_listed(&sb);
    // Built anew and written back whole (its WAL emptied), then every page
    // but the first overwritten.
    answers(&sb, &["reindex"]);
    let path = sb.sessions_dir().join(".index/sessions.db");
    let mut bytes = std::fs::read(&path).unwrap();
    for page in bytes.chunks_mut(4096).skip(1) {
        page[8..].fill(0xa5);
    }
    std::fs::write(&path, bytes).unwrap();

    let mut both = vec![first, second.clone()];
    both.sort();
    let (out, warning) = answers(&sb, &["list", "--format", "json"]);
    let warning = warning.expect("a warning about the damaged database");
    assert!(warning.contains("damaged"), "{warning}");
    assert_eq!(listed_ids(&out), both);
    answers(&sb, &["list"]);
    let (out, warning) = answers(&sb, &["get", "--last", "--format", "json"]);
    assert_eq!(warning, None);
    assert_eq!(json(&out)["sessionId"], second.as_str());
    assert_eq!(found(&sb, "zanzibar", &[]), both);
}

/// A row whose `problem` was set, or whose `last_ms` (not one of the
/// columns its checksum covers) was changed, is neither left out of a
/// listing nor reported as a session that could not be read: only columns
/// a checksum vouches for decide what a listing keeps.
#[test]
fn a_changed_row_is_not_left_out_by_the_conditions_of_a_listing() {
    for (column, statement, list) in [
        (
            "problem",
            "UPDATE sessions SET problem = 'forged' WHERE id = ?1",
            &["list", "--format", "json"][..],
        ),
        (
            "last_ms",
            "UPDATE sessions SET last_ms = 0 WHERE id = ?1",
            &["list", "--since", "1d", "--format", "json"][..],
        ),
    ] {
        let sb = Sandbox::new();
        let (first, second) = two_listed(&sb);
        alter_db(&sb, statement, &second);

        let out = sb.session_ok(list);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("forged"), "{column}: {stderr}");
        let mut both = vec![first.clone(), second.clone()];
        both.sort();
        assert_eq!(listed_ids(&out), both, "{column}");
        assert_eq!(listed_row(&out, &second)["messageCount"], 1, "{column}");
    }
}
