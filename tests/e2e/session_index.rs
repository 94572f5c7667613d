//! The file store's index (`<dataDir>/.index/`): private like the rest of
//! the store, rebuilt when damaged or asked to, and never behind what
//! other programs do to the data directory.

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

use serde_json::{Value, json};

use crate::support::{Sandbox, ids_of_listing, json, stderr};

pub(crate) fn listed_ids(sb: &Sandbox) -> Vec<String> {
    ids_of_listing(&sb.session_ok(&["list"]))
}

/// A session as the OLLM CLI writes it: `<id>.json.tmp`, renamed into place.
fn write_cli_session(sb: &Sandbox, id: &str, title: &str, at: &str) {
    let path = sb.sessions_dir().join(format!("{id}.json"));
    let tmp = sb.sessions_dir().join(format!("{id}.json.tmp"));
    std::fs::write(&tmp, cli_document(id, title, at)).unwrap();
    std::fs::rename(&tmp, &path).unwrap();
}

/// A session as a person with an editor writes it: in place, the
/// directory unchanged.
fn edit_cli_session_in_place(sb: &Sandbox, id: &str, title: &str, at: &str) {
    let path = sb.sessions_dir().join(format!("{id}.json"));
    std::fs::write(path, cli_document(id, title, at)).unwrap();
}

fn cli_document(id: &str, title: &str, at: &str) -> String {
    let doc = json!({
        "sessionId": id, "startTime": at, "lastActivity": at,
        "model": "gemma3:1b", "provider": "ollama", "title": title,
        "messages": [{"role": "user", "parts": [{"type": "text", "text": "hi"}], "timestamp": at}],
        "toolCalls": [], "metadata": {"tokenCount": 1, "compressionCount": 0}
    });
    serde_json::to_string_pretty(&doc).unwrap()
}

#[test]
fn the_index_is_private_and_reindex_rebuilds_it_from_the_files() {
    let sb = Sandbox::new();
    sb.create_session_as(Some("cli"), &["--title", "one"]);
    sb.create_session_as(Some("journal"), &["--title", "two"]);
    sb.create_session_as(Some("journal"), &["--title", "three"]);
    assert_eq!(listed_ids(&sb).len(), 3);
    // A search adds the trigram bits and their lock.
    sb.session_ok(&["search", "anything"]);
    let index = sb.sessions_dir().join(".index");
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&index), 0o700);
    let files: Vec<PathBuf> = std::fs::read_dir(&index)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    for name in ["sessions.db", "grams", "grams.lock"] {
        assert!(files.iter().any(|f| f.ends_with(name)), "{name}: {files:?}");
    }
    for file in &files {
        assert_eq!(mode(file), 0o600, "{}", file.display());
    }
    let out = sb.session_ok(&["reindex"]);
    let report = json(&out);
    assert_eq!(report["sessions"], 3, "{report}");
    assert_eq!(report["rebuilt"], true);
    assert_eq!(listed_ids(&sb).len(), 3);
}

#[test]
fn a_damaged_or_deleted_index_is_rebuilt_and_loses_nothing() {
    let sb = Sandbox::new();
    let ids = [
        sb.create_session_as(Some("cli"), &["--title", "a"]),
        sb.create_session_as(Some("journal"), &["--title", "b"]),
    ];
    let before = json(&sb.session_ok(&["list"]));
    let index = sb.sessions_dir().join(".index");
    for name in ["sessions.db-wal", "sessions.db-shm"] {
        let _ = std::fs::remove_file(index.join(name));
    }
    std::fs::write(index.join("sessions.db"), b"this is not a database at all").unwrap();
    assert_eq!(json(&sb.session_ok(&["list"])), before);
    sb.session_ok(&["get", &ids[0][..8]]);
    std::fs::remove_dir_all(&index).unwrap();
    assert_eq!(json(&sb.session_ok(&["list"])), before);
    let out = sb.session_ok(&["get", "b"]);
    assert_eq!(json(&out)["sessionId"], ids[1].as_str());
}

#[test]
fn what_the_ollm_cli_writes_rewrites_and_removes_is_seen_at_once() {
    let sb = Sandbox::new();
    let ours = sb.create_session_as(Some("journal"), &["--title", "ours"]);
    assert_eq!(listed_ids(&sb), vec![ours.clone()]);
    let theirs = "6ba7b810-9dad-41d1-80b4-00c04fd430c8";
    write_cli_session(&sb, theirs, "theirs", "2099-01-01T00:00:00.000Z");
    // Newest first: the CLI's session is the latest.
    assert_eq!(listed_ids(&sb), vec![theirs.to_string(), ours.clone()]);
    let last = json(&sb.session_ok(&["get", "--last"]));
    assert_eq!(last["sessionId"], theirs);
    // Rewritten twice (ext4 gives the file its first inode back at the
    // second rename), each time with a new title.
    for (title, at) in [
        ("renamed by the cli", "2099-01-01T00:00:01.000Z"),
        ("renamed again", "2099-01-01T00:00:02.000Z"),
    ] {
        write_cli_session(&sb, theirs, title, at);
    }
    let got = json(&sb.session_ok(&["get", "renamed again"]));
    assert_eq!(got["sessionId"], theirs);
    let out = sb
        .cmd("ollm-session")
        .args(["get", "theirs"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "the old title still names it");
    // An edit in place leaves the directory as it was: a read of the
    // session itself shows it, and `reindex` brings the index up to date.
    edit_cli_session_in_place(&sb, theirs, "edited by hand", "2099-01-01T00:00:03.000Z");
    assert_eq!(
        json(&sb.session_ok(&["get", theirs]))["title"],
        "edited by hand"
    );
    sb.session_ok(&["reindex"]);
    let got = json(&sb.session_ok(&["get", "edited by hand"]));
    assert_eq!(got["sessionId"], theirs);
    std::fs::remove_file(sb.sessions_dir().join(format!("{theirs}.json"))).unwrap();
    assert_eq!(listed_ids(&sb), vec![ours.clone()]);
    // A session directory removed by hand is gone from the listing too.
    std::fs::remove_dir_all(sb.sessions_dir().join(&ours)).unwrap();
    assert_eq!(listed_ids(&sb), Vec::<String>::new());
}

#[test]
fn a_journal_changed_behind_the_index_is_read_again() {
    let sb = Sandbox::new();
    let id = sb.create_session_as(Some("journal"), &["--title", "grows"]);
    assert_eq!(json(&sb.session_ok(&["list"]))[0]["messageCount"], 0);
    // An older ollm appends a record without telling the index.
    let line = json!({"type": "message", "at": "2099-01-01T00:00:00.000Z", "tokens": 1,
        "message": {"role": "user", "parts": [{"type": "text", "text": "hi"}],
                    "timestamp": "2099-01-01T00:00:00.000Z"}});
    let journal = sb.sessions_dir().join(&id).join("journal.ndjson");
    let mut text = std::fs::read_to_string(&journal).unwrap();
    text.push_str(&format!("{line}\n"));
    std::fs::write(&journal, text).unwrap();
    let row: Value = json(&sb.session_ok(&["list"]))[0].clone();
    assert_eq!(row["messageCount"], 1);
    assert_eq!(row["lastActivity"], "2099-01-01T00:00:00.000Z");
}

/// The session ids `search PATTERN` (with `args`) finds, each once, sorted.
pub(crate) fn found(sb: &Sandbox, pattern: &str, args: &[&str]) -> Vec<String> {
    let out = sb.session_ok(&[&["search", pattern, "--format", "json"], args].concat());
    hit_ids(&out)
}

/// The session ids of a `search --format json`'s hits, each once, sorted.
pub(crate) fn hit_ids(out: &std::process::Output) -> Vec<String> {
    let mut ids: Vec<String> = json(out)
        .as_array()
        .unwrap()
        .iter()
        .map(|hit| hit["sessionId"].as_str().unwrap().to_string())
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

pub(crate) fn record(sb: &Sandbox, id: &str, text: &str) {
    let message = json!({"role": "user", "parts": [{"type": "text", "text": text}]});
    let out = sb
        .cmd("ollm-session")
        .args(["record", id])
        .write_stdin(message.to_string())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn search_through_the_index_finds_what_every_writer_added_since() {
    let sb = Sandbox::new();
    let journal = sb.create_session_as(Some("journal"), &["--title", "journal"]);
    let plain = sb.create_session_as(Some("cli"), &["--title", "plain"]);
    assert!(found(&sb, "zanzibar", &[]).is_empty());
    // Recorded after the bits were made: read from where they end.
    record(&sb, &journal, "We sail to Zanzibar at dawn.");
    record(&sb, &plain, "the RETRY loop of the uploader");
    assert_eq!(found(&sb, "zanzibar", &["-i"]), vec![journal.clone()]);
    assert_eq!(found(&sb, "retry loop", &["-i"]), vec![plain.clone()]);
    assert_eq!(
        found(&sb, "Zanzi[a-z]+", &["--regex"]),
        vec![journal.clone()]
    );
    record(&sb, &plain, "and then zanzibar again");
    let mut both = vec![journal.clone(), plain.clone()];
    both.sort();
    assert_eq!(found(&sb, "zanzibar", &["-i"]), both);
    // The OLLM CLI adds a session of its own, and rewrites it.
    let theirs = "6ba7b810-9dad-41d1-80b4-00c04fd430c8";
    write_cli_session(&sb, theirs, "theirs", "2099-01-01T00:00:00.000Z");
    let doc = sb.sessions_dir().join(format!("{theirs}.json"));
    let text = std::fs::read_to_string(&doc)
        .unwrap()
        .replace("\"hi\"", "\"off to Zanzibar\"");
    let tmp = sb.sessions_dir().join(format!("{theirs}.json.tmp"));
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, &doc).unwrap();
    assert_eq!(found(&sb, "zanzibar", &["-i"]).len(), 3);
    // Gone sessions are not found, and their slots serve new ones.
    sb.session_ok(&["delete", &journal]);
    std::fs::remove_file(&doc).unwrap();
    assert_eq!(found(&sb, "zanzibar", &["-i"]), vec![plain.clone()]);
    let newer = sb.create_session_as(Some("journal"), &["--title", "newer"]);
    record(&sb, &newer, "nothing about islands");
    assert_eq!(found(&sb, "zanzibar", &["-i"]), vec![plain.clone()]);
    assert_eq!(found(&sb, "islands", &[]), vec![newer.clone()]);
    // Bits lost or damaged are made again from the files.
    std::fs::write(sb.sessions_dir().join(".index/grams"), b"not ours").unwrap();
    assert_eq!(found(&sb, "zanzibar", &["-i"]), vec![plain]);
    std::fs::remove_file(sb.sessions_dir().join(".index/grams")).unwrap();
    assert_eq!(found(&sb, "islands", &[]), vec![newer]);
}

#[test]
fn a_search_whose_bits_cannot_be_kept_reads_every_session_and_says_so() {
    let sb = Sandbox::new();
    let id = sb.create_session_as(Some("journal"), &["--title", "journal"]);
    record(&sb, &id, "We sail to Zanzibar at dawn.");
    // Something that is not a file where the bits go.
    let grams = sb.sessions_dir().join(".index/grams");
    let _ = std::fs::remove_file(&grams);
    std::fs::create_dir_all(grams.join("in-the-way")).unwrap();
    let out = sb
        .cmd("ollm-session")
        .args(["search", "Zanzibar", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let hits = json(&out);
    assert_eq!(hits[0]["sessionId"], id.as_str(), "{hits}");
    let err = stderr(&out);
    assert!(
        err.contains("files are read instead") && err.lines().count() == 1,
        "{err}"
    );
}

/// More hits than one thread writes (8,192): rendered where they are found,
/// sorted on every core and gathered on every core, they come out whole, in
/// the order a table shows them, in each format the same.
#[test]
fn a_search_of_thousands_of_hits_is_written_whole_and_in_one_order_in_every_format() {
    let sb = Sandbox::new();
    let ids: Vec<String> = (0..3)
        .map(|i| sb.create_session_as(Some("journal"), &["--title", &format!("s{i}")]))
        .collect();
    for (s, id) in ids.iter().enumerate() {
        // 500 distinct times shared by the sessions: many ties to break.
        let lines: String = (0..3000)
            .map(|i| {
                let at = format!("2026-01-01T00:{:02}:{:02}.000Z", (i % 500) / 60, i % 60);
                json!({"role": "user", "parts": [{"type": "text", "text": format!("the needle {s}/{i}")}], "timestamp": at})
                    .to_string()
                    + "\n"
            })
            .collect();
        let out = sb
            .cmd("ollm-session")
            .args(["record", id])
            .write_stdin(lines)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let array = json(&sb.session_ok(&["search", "needle", "--format", "json"]));
    let hits = array.as_array().unwrap();
    assert_eq!(hits.len(), 9000);
    let lines = crate::support::stdout(&sb.session_ok(&["search", "needle", "--format", "ndjson"]));
    let from_lines: Vec<Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(&from_lines, hits);
    // The text format takes the path that holds every hit as a record.
    let text = crate::support::stdout(&sb.session_ok(&["search", "needle", "--format", "text"]));
    let rows: Vec<(String, String)> = text
        .lines()
        .map(|l| {
            let cells: Vec<&str> = l.split('\t').collect();
            (cells[0].to_string(), cells[1].to_string())
        })
        .collect();
    let shown: Vec<(String, String)> = hits
        .iter()
        .map(|h| {
            let id = h["sessionId"].as_str().unwrap();
            (id[..8].to_string(), format!("#{}", h["messageIndex"]))
        })
        .collect();
    assert_eq!(rows, shown);
    let times: Vec<&str> = hits
        .iter()
        .map(|h| h["timestamp"].as_str().unwrap())
        .collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "newest first");
    let first = json(&sb.session_ok(&["search", "needle", "--limit", "10", "--format", "json"]));
    assert_eq!(first.as_array().unwrap()[..], hits[..10]);
}

#[test]
fn the_first_build_of_a_large_store_shows_its_progress_at_a_terminal_only() {
    let sb = Sandbox::new();
    sb.write_cli_sessions(2_000, "");
    // Piped: the index is built without a word.
    let out = sb.session_ok(&["list", "--limit", "1"]);
    assert_eq!(stderr(&out), "");
    std::fs::remove_dir_all(sb.sessions_dir().join(".index")).unwrap();
    let argv = format!(
        "{} list --limit 1 --format json >/dev/null",
        crate::support::bin_path("ollm-session").display()
    );
    let Some((seen, code)) = crate::support::at_a_terminal(&sb, &argv) else {
        return;
    };
    assert_eq!(code, Some(0), "{seen}");
    assert!(
        seen.contains("building the session index of 2000 sessions (once; about "),
        "{seen:?}"
    );
    // Built: the next command has nothing to say.
    let (seen, _) = crate::support::at_a_terminal(&sb, &argv).unwrap();
    assert!(!seen.contains("building"), "{seen:?}");
}

/// A first build fills a file of its own (written without a journal, as
/// fast as it can be) and renames it into place once complete: killed at
/// any point, it leaves no index that answers, and the next command
/// builds one again and answers every session.
#[test]
fn a_first_build_killed_midway_is_done_again_by_the_next_command() {
    use std::time::{Duration, Instant};
    let sb = Sandbox::new();
    let ids = sb.write_cli_sessions(3_000, "");
    let index = sb.sessions_dir().join(".index");
    let building = index.join("building.db");
    // What a build killed while it wrote its pages leaves: the start of
    // a database, cut short.
    std::fs::create_dir_all(&index).unwrap();
    let mut cut = b"SQLite format 3\0".to_vec();
    cut.resize(3000, 7);
    std::fs::write(&building, &cut).unwrap();
    let out = sb.session_ok(&["list"]);
    assert_eq!(stderr(&out), "");
    assert_eq!(ids_of_listing(&out), ids);
    assert!(!building.exists());
    for after in [
        Duration::ZERO,
        Duration::from_millis(30),
        Duration::from_millis(150),
    ] {
        std::fs::remove_dir_all(&index).unwrap();
        let mut child = sb.spawn_session(&["list", "--limit", "1"]);
        let deadline = Instant::now() + Duration::from_secs(60);
        while !building.exists() && child.try_wait().unwrap().is_none() {
            assert!(Instant::now() < deadline, "no build started");
            std::thread::sleep(Duration::from_millis(1));
        }
        std::thread::sleep(after);
        let _ = child.kill();
        child.wait().unwrap();
        let out = sb.session_ok(&["list"]);
        assert_eq!(stderr(&out), "", "killed {after:?} into its build");
        assert_eq!(ids_of_listing(&out), ids);
        assert!(!building.exists());
        assert!(index.join("sessions.db").exists());
        // The newest, as the index built by the command before says.
        let out = sb.session_ok(&["get", "--last", "--format", "json"]);
        assert_eq!(json(&out)["sessionId"], ids[0].as_str());
    }
}
