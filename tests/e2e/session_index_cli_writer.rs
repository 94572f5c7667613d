//! The index against a process writing by the OLLM CLI's protocol
//! (`<id>.json.tmp` renamed into place, without ollm's locks) while ollm
//! records into sessions of the CLI's format, creates and branches such
//! sessions and deletes them: ollm's own writes need no pass over the
//! directory, so every rename of the other process, before, during or
//! after one of ollm's, must still reach the listing.

use crate::support::{Sandbox, json, stdout};

/// The OLLM CLI's write protocol in a loop: for each of `rounds` rounds,
/// each session of `ids` rewritten (its lastActivity a second later each
/// round) and one session of its own made.
const CLI_WRITER: &str = r#"
dir=$1 rounds=$2; shift 2
i=0
while [ "$i" -lt "$rounds" ]; do
  at=$(printf '2030-01-01T%02d:%02d:%02d.000Z' $((i / 3600)) $((i / 60 % 60)) $((i % 60)))
  new=$(printf '907a1a54-0000-4000-8000-%012d' "$i")
  for id in "$@" "$new"; do
    printf '{\n  "sessionId": "%s",\n  "startTime": "2030-01-01T00:00:00.000Z",\n  "lastActivity": "%s",\n  "model": "gemma3:1b",\n  "provider": "ollama",\n  "messages": [],\n  "toolCalls": [],\n  "metadata": {\n    "tokenCount": %d,\n    "compressionCount": 0\n  }\n}' \
      "$id" "$at" "$i" > "$dir/$id.json.tmp"
    mv -f "$dir/$id.json.tmp" "$dir/$id.json"
  done
  i=$((i + 1))
done
"#;

#[test]
fn a_cli_protocol_writer_racing_records_is_seen_by_the_listing_as_a_reindex_sees_it() {
    let sb = Sandbox::new();
    let ours: Vec<String> = (0..2)
        .map(|_| sb.create_session_as(Some("cli"), &[]))
        .collect();
    let theirs: Vec<String> = (1..=3)
        .map(|n| format!("907a1a54-0000-4000-8000-1000000000{n:02}"))
        .collect();
    let mut writer = std::process::Command::new("sh")
        .arg("-c")
        .arg(CLI_WRITER)
        .arg("sh")
        .arg(sb.sessions_dir())
        .arg("150")
        .args(&theirs)
        .spawn()
        .unwrap();
    let mut records = 0;
    let mut made = Vec::new();
    let cli = |args: &[&str]| {
        let out = sb
            .cmd("ollm-session")
            .env("OLLM_SESSION_FORMAT", "cli")
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {}", stdout(&out));
        out
    };
    while writer.try_wait().unwrap().is_none() || records < 20 {
        let id = &ours[records % ours.len()];
        match records % 6 {
            3 => made.push(json(&cli(&["create", "--model", "m", "--provider", "p"]))),
            4 => made.push(json(&cli(&["branch", id, "--at", "1"]))),
            5 => {
                let gone = made.pop().unwrap();
                cli(&["delete", gone["sessionId"].as_str().unwrap()]);
            }
            _ => {
                sb.session_ok(&["record", id, "--role", "user", "--text", "one more"]);
            }
        }
        if records % 3 == 0 {
            // A read between writes: the index trusts what it saw here.
            sb.session_ok(&["list", "--limit", "3"]);
        }
        records += 1;
    }
    assert!(writer.wait().unwrap().success());
    let listed = stdout(&sb.session_ok(&["list", "--format", "ndjson"]));
    sb.session_ok(&["reindex"]);
    let reindexed = stdout(&sb.session_ok(&["list", "--format", "ndjson"]));
    assert_eq!(listed.lines().count(), 2 + 3 + 150 + made.len());
    assert_eq!(listed, reindexed, "after {records} records");
}
