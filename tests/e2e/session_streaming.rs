//! `ollm-session list` writes a long listing as it reads it (that the
//! pages after the first are read as they are asked for is checked in
//! `session::store::pages`; the time to the first row is a row of
//! `bench/scale.sh`). A session deleted while the listing waits on its
//! reader leaves it whole: every other session once, in order.

use std::io::{BufRead, BufReader, Read};
use std::process::Stdio;

use crate::support::Sandbox;

/// Sessions in the store: far more than the listing writes before a
/// reader that stopped reading (a full pipe) holds it up.
const SESSIONS: usize = 600;

/// Starts `list --format FORMAT` into a pipe, reads until the newest
/// session's id has come, deletes `oldest` while the listing waits on the
/// pipe, and returns everything the listing wrote.
fn list_deleting_the_oldest_meanwhile(
    sb: &Sandbox,
    format: &str,
    newest: &str,
    oldest: &str,
) -> String {
    let mut child = sb
        .std_cmd("ollm-session")
        .args(["list", "--format", format])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut text = String::new();
    while !text.contains("sessionId") {
        assert_ne!(out.read_line(&mut text).unwrap(), 0, "{text}");
    }
    assert!(text.contains(newest), "the newest comes first: {text}");
    // The listing has written at most what the pipe holds and our reader
    // took.
    sb.session_ok(&["delete", oldest]);
    out.read_to_string(&mut text).unwrap();
    assert!(child.wait().unwrap().success());
    text
}

/// Whether `listed` is `ids` with `deleted` shown or not: a listing is one
/// snapshot of the index, which may have been read before it went.
fn whole(listed: &[String], ids: &[String], deleted: &str) -> bool {
    let without: Vec<&String> = ids.iter().filter(|id| *id != deleted).collect();
    listed == ids || listed.iter().collect::<Vec<_>>() == without
}

#[test]
fn a_listing_stays_whole_while_a_session_is_deleted_under_it() {
    let sb = Sandbox::new();
    let ids = sb.write_cli_sessions(SESSIONS, &"padding ".repeat(30));
    sb.session_ok(&["reindex"]);

    let text = list_deleting_the_oldest_meanwhile(&sb, "ndjson", &ids[0], &ids[SESSIONS - 1]);
    let listed: Vec<String> = text
        .lines()
        .map(|line| {
            let row: serde_json::Value = serde_json::from_str(line).unwrap();
            row["sessionId"].as_str().unwrap().to_string()
        })
        .collect();
    assert!(whole(&listed, &ids, &ids[SESSIONS - 1]), "{listed:?}");

    // The JSON array too, and it is one valid array.
    let text = list_deleting_the_oldest_meanwhile(&sb, "json", &ids[0], &ids[SESSIONS - 2]);
    let listed: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    let listed: Vec<String> = listed
        .iter()
        .map(|row| row["sessionId"].as_str().unwrap().to_string())
        .collect();
    assert!(
        whole(&listed, &ids[..SESSIONS - 1], &ids[SESSIONS - 2]),
        "{listed:?}"
    );
}
