//! `ollm-session list` writes a long listing as it reads it: a reader of
//! the pipe has the newest sessions while the oldest are not read yet.

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
    // took: the oldest session is pages away, not read yet.
    sb.session_ok(&["delete", oldest]);
    out.read_to_string(&mut text).unwrap();
    assert!(child.wait().unwrap().success());
    text
}

#[test]
fn list_writes_the_newest_sessions_before_it_reads_the_oldest() {
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
    // Every other session once, newest first; not the one deleted while
    // the listing was under way (a listing read whole before writing
    // would still show it).
    assert_eq!(listed, ids[..SESSIONS - 1]);

    // The JSON array too, and it is one valid array.
    let text = list_deleting_the_oldest_meanwhile(&sb, "json", &ids[0], &ids[SESSIONS - 2]);
    let listed: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    let listed: Vec<&str> = listed
        .iter()
        .map(|row| row["sessionId"].as_str().unwrap())
        .collect();
    assert_eq!(listed, ids[..SESSIONS - 2]);
}
