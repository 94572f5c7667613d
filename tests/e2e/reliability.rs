//! The reliability suite (issue 7): many writers into one session, and a
//! crash soak across programs — writers killed with SIGKILL at random
//! moments while readers list, get and search — after which every
//! acknowledged record is present and every store loads.
//!
//! Context adds from several processes at once are proven by
//! `context::concurrent_adds_from_many_processes_lose_nothing` (96 adds
//! from 8 writers at once, none lost); the soak below adds killed context
//! writers racing live ones.
//!
//! The soak's random choices come from `OLLM_SOAK_SEED` (printed; a new
//! seed each run otherwise), so a failure can be replayed exactly.

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::on_each_store;
use crate::support::{Sandbox, SessionStore, is_root, json, stderr, stdout};

on_each_store!(
    eight_writers_of_500_records_make_exactly_4000_untorn_records,
    session_writers_killed_at_random_while_readers_read_lose_nothing,
    deletes_snapshots_and_cleanups_killed_while_racing_writers_leave_nothing_half_done,
);

fn run_ok(sb: &Sandbox, bin: &str, args: &[&str]) -> std::process::Output {
    let out = sb.std_cmd(bin).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{bin} {args:?} exited {:?}: {}",
        out.status.code(),
        stderr(&out)
    );
    out
}

/// SplitMix64: small, deterministic, good enough to pick kill moments.
struct Rng(u64);
impl Rng {
    fn from_env() -> Rng {
        let seed = std::env::var("OLLM_SOAK_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(7, |d| d.as_nanos() as u64)
            });
        eprintln!("soak seed: OLLM_SOAK_SEED={seed} replays this run");
        Rng(seed)
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A message or a tool call carrying `marker` (`<…>`, so no marker is a
/// substring of another).
fn record_line(marker: &str, n: usize, pad: usize) -> String {
    let filler = "x".repeat(pad);
    let value = if n.is_multiple_of(2) {
        json!({"role": "user", "parts": [{"type": "text", "text": format!("{marker} {filler}")}]})
    } else {
        json!({
            "id": marker,
            "name": "read_file",
            "args": {"marker": marker},
            "result": {"llmContent": format!("{marker} {filler}")}
        })
    };
    value.to_string() + "\n"
}

/// Every marker of a session as `get` returns it, in messages then tool calls.
fn markers_of(session: &Value) -> Vec<String> {
    let mut found = Vec::new();
    for m in session["messages"].as_array().unwrap() {
        let text = m["parts"][0]["text"].as_str().unwrap();
        found.push(text.split(' ').next().unwrap().to_string());
    }
    for t in session["toolCalls"].as_array().unwrap() {
        found.push(t["id"].as_str().unwrap().to_string());
    }
    found
}

/// Session `id`'s records in stored order, each as its journal line.
fn stored_records(sb: &Sandbox, id: &str) -> Vec<Value> {
    if let Some(pg) = &sb.pg {
        let rows = pg
            .client()
            .query(
                "SELECT kind, body FROM ollm_records WHERE session_id = $1 ORDER BY seq",
                &[&id],
            )
            .unwrap();
        return rows
            .iter()
            .map(|row| {
                let kind: String = row.get(0);
                let body: Value = serde_json::from_str(row.get(1)).unwrap();
                let mut record = json!({ "type": kind });
                record[&kind] = body;
                record
            })
            .collect();
    }
    let journal = std::fs::read_to_string(journal_path(sb, id)).unwrap();
    assert!(journal.ends_with('\n'), "torn tail");
    journal
        .lines()
        .skip(1)
        .map(|line| {
            serde_json::from_str(line).unwrap_or_else(|e| panic!("torn record ({e}): {line}"))
        })
        .collect()
}

fn journal_path(sb: &Sandbox, id: &str) -> std::path::PathBuf {
    sb.sessions_dir().join(id).join("journal.ndjson")
}

fn eight_writers_of_500_records_make_exactly_4000_untorn_records(store: SessionStore) {
    const WRITERS: usize = 8;
    const EACH: usize = 500;
    let started = Instant::now();
    let Some(sb) = Sandbox::on(store) else {
        return;
    };
    let id = sb.create_journal_session();
    let children: Vec<(Child, std::thread::JoinHandle<std::io::Result<()>>)> = (0..WRITERS)
        .map(|w| {
            let mut child = sb.spawn_session(&["record", &id]);
            let mut input = child.stdin.take().unwrap();
            let lines: String = (0..EACH)
                .map(|n| record_line(&format!("<w{w}-{n}>"), n, (w * 37 + n * 11) % 300))
                .collect();
            (
                child,
                std::thread::spawn(move || input.write_all(lines.as_bytes())),
            )
        })
        .collect();
    for (child, feeder) in children {
        let out = child.wait_with_output().unwrap();
        feeder.join().unwrap().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let acks = stdout(&out);
        assert_eq!(acks.lines().count(), EACH, "one acknowledgement a record");
        for ack in acks.lines() {
            let ack: Value = serde_json::from_str(ack).unwrap();
            assert_eq!(ack["sessionId"], id.as_str());
        }
    }
    let writing = started.elapsed();

    // The records as stored, in their one order (the journal's lines, the
    // database's seq): 4,000 of them, every one whole, each writer's in the
    // order it sent them.
    let records = stored_records(&sb, &id);
    assert_eq!(records.len(), WRITERS * EACH);
    let mut next_seq = [0usize; WRITERS];
    for record in &records {
        let marker = match record["type"].as_str().unwrap() {
            "message" => record["message"]["parts"][0]["text"]
                .as_str()
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .to_string(),
            "toolCall" => record["toolCall"]["id"].as_str().unwrap().to_string(),
            other => panic!("unexpected record type {other}"),
        };
        let (w, n) = marker
            .trim_matches(['<', '>'])
            .trim_start_matches('w')
            .split_once('-')
            .unwrap();
        let (w, n): (usize, usize) = (w.parse().unwrap(), n.parse().unwrap());
        assert_eq!(n, next_seq[w], "writer {w}'s records out of order");
        next_seq[w] += 1;
    }
    assert!(next_seq.iter().all(|&n| n == EACH));

    // What readers see: every marker exactly once, and the summary agrees.
    let session = json(&run_ok(&sb, "ollm-session", &["get", &id]));
    let markers = markers_of(&session);
    assert_eq!(markers.len(), WRITERS * EACH);
    let unique: HashSet<&String> = markers.iter().collect();
    assert_eq!(unique.len(), WRITERS * EACH, "a record appears twice");
    for w in 0..WRITERS {
        for n in 0..EACH {
            assert!(unique.contains(&format!("<w{w}-{n}>")), "<w{w}-{n}> lost");
        }
    }
    let list = run_ok(&sb, "ollm-session", &["list"]);
    assert!(stderr(&list).is_empty(), "{}", stderr(&list));
    let summary = &json(&list)[0];
    let messages = session["messages"].as_array().unwrap().len();
    let tool_calls = session["toolCalls"].as_array().unwrap().len();
    assert_eq!(
        (messages, tool_calls),
        (WRITERS * EACH / 2, WRITERS * EACH / 2)
    );
    assert_eq!(summary["messageCount"], messages);
    assert_eq!(summary["toolCallCount"], tool_calls);
    assert_eq!(summary["tokenCount"], session["metadata"]["tokenCount"]);
    assert_eq!(summary["lastActivity"], session["lastActivity"]);
    eprintln!(
        "{} records from {WRITERS} writers in {:.1} s, checked in {:.1} s",
        WRITERS * EACH,
        writing.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
}

/// One `ollm-session record` streaming records until killed; its
/// acknowledged markers land in `acked` as the acknowledgements arrive.
struct SessionWriter {
    child: Child,
    acks: std::thread::JoinHandle<()>,
    /// Told once the first record is acknowledged, so a kill lands while
    /// the writer is writing however slowly a loaded machine starts it.
    first_ack: std::sync::mpsc::Receiver<()>,
}

fn spawn_session_writer(
    sb: &Sandbox,
    id: &str,
    markers: Vec<String>,
    pads: Vec<usize>,
    acked: Arc<Mutex<HashMap<String, String>>>,
) -> SessionWriter {
    let mut child = sb
        .std_cmd("ollm-session")
        .args(["record", id])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let fed = markers.clone();
    std::thread::spawn(move || {
        for (n, (marker, pad)) in fed.iter().zip(pads).enumerate() {
            if input
                .write_all(record_line(marker, n, pad).as_bytes())
                .is_err()
            {
                break;
            }
        }
    });
    let reader = BufReader::new(child.stdout.take().unwrap());
    let owner = id.to_string();
    let (told, first_ack) = std::sync::mpsc::channel();
    let acks = std::thread::spawn(move || {
        // The n-th acknowledgement is the n-th record: `record` handles
        // its input in order and acknowledges each once it is on disk.
        for (line, marker) in reader
            .lines()
            .map_while(std::result::Result::ok)
            .zip(markers)
        {
            let ack: Value = serde_json::from_str(&line).unwrap();
            assert_eq!(ack["sessionId"], owner.as_str());
            acked.lock().unwrap().insert(marker, owner.clone());
            let _ = told.send(());
        }
    });
    SessionWriter {
        child,
        acks,
        first_ack,
    }
}

/// Reads the store over and over while writers are killed: every command
/// succeeds, reports no corrupt session, and shows every record that was
/// acknowledged before it started.
fn reader_loop(
    sb: &Sandbox,
    ids: Vec<String>,
    acked: Arc<Mutex<HashMap<String, String>>>,
    stop: Arc<AtomicBool>,
    reads: Arc<AtomicUsize>,
    seed: u64,
) {
    let mut rng = Rng(seed);
    while !stop.load(Ordering::Relaxed) {
        let before: HashMap<String, String> = acked.lock().unwrap().clone();
        match rng.below(3) {
            0 => {
                let out = run_ok(sb, "ollm-session", &["list"]);
                assert!(stderr(&out).is_empty(), "list: {}", stderr(&out));
                assert_eq!(json(&out).as_array().unwrap().len(), ids.len());
            }
            1 => {
                let id = &ids[rng.below(ids.len() as u64) as usize];
                let out = run_ok(sb, "ollm-session", &["get", id]);
                let present: HashSet<String> = markers_of(&json(&out)).into_iter().collect();
                for (marker, owner) in &before {
                    if owner == id {
                        assert!(
                            present.contains(marker),
                            "get {id}: acknowledged {marker} missing"
                        );
                    }
                }
            }
            _ => {
                let Some((marker, owner)) = before
                    .iter()
                    .nth(rng.below(before.len().max(1) as u64) as usize)
                else {
                    continue;
                };
                let out = run_ok(sb, "ollm-session", &["search", marker]);
                assert!(stderr(&out).is_empty(), "search: {}", stderr(&out));
                let hits = json(&out);
                assert!(
                    hits.as_array()
                        .unwrap()
                        .iter()
                        .any(|h| h["sessionId"] == owner.as_str()),
                    "search {marker}: no hit in {owner}: {hits}"
                );
            }
        }
        reads.fetch_add(1, Ordering::Relaxed);
    }
}

fn session_writers_killed_at_random_while_readers_read_lose_nothing(store: SessionStore) {
    const ROUNDS: usize = 30;
    const WRITERS: usize = 2;
    let Some(sb) = Sandbox::on(store) else {
        return;
    };
    let sb = Arc::new(sb);
    let mut rng = Rng::from_env();
    let ids: Vec<String> = (0..3).map(|_| sb.create_journal_session()).collect();
    let acked: Arc<Mutex<HashMap<String, String>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let reads = Arc::new(AtomicUsize::new(0));
    let reader = {
        let (sb, ids, acked, stop, reads) = (
            Arc::clone(&sb),
            ids.clone(),
            Arc::clone(&acked),
            Arc::clone(&stop),
            Arc::clone(&reads),
        );
        let seed = rng.next();
        std::thread::spawn(move || reader_loop(&sb, ids, acked, stop, reads, seed))
    };
    let mut kills = 0;
    let mut finished = 0;
    let mut torn = 0;
    let mut torn_made = 0;
    for round in 0..ROUNDS {
        let writers: Vec<SessionWriter> = (0..WRITERS)
            .map(|w| {
                let id = &ids[rng.below(ids.len() as u64) as usize];
                let markers: Vec<String> =
                    (0..300).map(|n| format!("<r{round}-w{w}-{n}>")).collect();
                // Mostly small records, now and then one of a few MiB so a
                // kill can land inside its write(2).
                let pads = (0..300)
                    .map(|_| match rng.below(15) {
                        0 => 2_000_000 + rng.below(8_000_000) as usize,
                        _ => rng.below(4_000) as usize,
                    })
                    .collect();
                spawn_session_writer(&sb, id, markers, pads, Arc::clone(&acked))
            })
            .collect();
        for writer in &writers {
            let _ = writer.first_ack.recv_timeout(Duration::from_secs(60));
        }
        std::thread::sleep(Duration::from_millis(rng.below(250)));
        for mut writer in writers {
            if writer.child.try_wait().unwrap().is_none() {
                kills += 1;
            } else {
                finished += 1;
            }
            let _ = writer.child.kill(); // SIGKILL
            let _ = writer.child.wait();
            writer.acks.join().unwrap();
        }
        for id in ids.iter().filter(|_| sb.pg.is_none()) {
            let journal = std::fs::read(journal_path(&sb, id)).unwrap();
            if !journal.ends_with(b"\n") {
                torn += 1;
            }
        }
        // A kill inside write(2) is rare at these odds, so now and then
        // leave what it leaves: the first part of a record, no newline.
        // (A database keeps no part of an uncommitted transaction.)
        if sb.pg.is_none() && rng.below(3) == 0 {
            let id = &ids[rng.below(ids.len() as u64) as usize];
            let record = format!(
                "{{\"type\":\"message\",\"at\":\"2026-11-22T00:00:00.000Z\",\"message\":{}}}",
                record_line(&format!("<torn-{round}>"), 0, 100).trim_end()
            );
            let cut = 1 + rng.below(record.len() as u64) as usize;
            let mut file = std::fs::OpenOptions::new()
                .append(true)
                .open(journal_path(&sb, id))
                .unwrap();
            file.write_all(&record.as_bytes()[..cut]).unwrap();
            torn_made += 1;
        }
        if reader.is_finished() {
            break; // it failed; join below reports why
        }
    }
    stop.store(true, Ordering::Relaxed);
    reader.join().expect("a concurrent reader failed");
    let acked = acked.lock().unwrap().clone();
    eprintln!(
        "session soak: {kills} writers killed, {finished} finished first, {torn} torn tails seen and {torn_made} made, {} records acknowledged, {} concurrent reads",
        acked.len(),
        reads.load(Ordering::Relaxed)
    );
    assert!(kills >= 50, "only {kills} kills");
    assert!(
        acked.len() > 100,
        "too few acknowledged records to prove anything"
    );

    let list = run_ok(&sb, "ollm-session", &["list"]);
    assert!(stderr(&list).is_empty(), "list reports: {}", stderr(&list));
    let listed = json(&list);
    assert_eq!(listed.as_array().unwrap().len(), ids.len());
    if sb.pg.is_none() {
        // The index, after all those kills, says what the files say.
        run_ok(&sb, "ollm-session", &["reindex"]);
        assert_eq!(json(&run_ok(&sb, "ollm-session", &["list"])), listed);
    }
    for id in &ids {
        let session = json(&run_ok(&sb, "ollm-session", &["get", id]));
        let markers = markers_of(&session);
        let present: HashSet<&String> = markers.iter().collect();
        assert_eq!(present.len(), markers.len(), "{id}: a record appears twice");
        assert!(
            !markers.iter().any(|m| m.starts_with("<torn-")),
            "{id}: an unacknowledged torn tail was read as a record"
        );
        for (marker, owner) in &acked {
            if owner == id {
                assert!(
                    present.contains(marker),
                    "acknowledged {marker} lost from {id}"
                );
            }
        }
        let row = listed
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["sessionId"] == id.as_str())
            .unwrap();
        assert_eq!(
            row["messageCount"],
            session["messages"].as_array().unwrap().len()
        );
        assert_eq!(
            row["toolCallCount"],
            session["toolCalls"].as_array().unwrap().len()
        );
        // New records still go in, after whatever torn tail a kill left.
        let out = run_ok(
            &sb,
            "ollm-session",
            &["record", id, "--role", "user", "--text", "<after>"],
        );
        let ack = json(&out);
        assert_eq!(ack["index"], session["messages"].as_array().unwrap().len());
        if sb.pg.is_some() {
            continue;
        }
        let journal = std::fs::read_to_string(journal_path(&sb, id)).unwrap();
        assert!(journal.ends_with('\n'));
        for line in journal.lines() {
            serde_json::from_str::<Value>(line).expect("every journal line is whole after a write");
        }
    }
    if sb.pg.is_some() {
        return;
    }
    let leftovers: Vec<_> = std::fs::read_dir(sb.sessions_dir())
        .unwrap()
        .filter_map(std::result::Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains("corrupt"))
        .collect();
    assert!(leftovers.is_empty(), "sessions set aside: {leftovers:?}");
}

fn spawn_quiet(sb: &Sandbox, bin: &str, args: &[&str]) -> Child {
    sb.std_cmd(bin)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn context_adds_killed_at_random_keep_the_store_loadable_and_complete() {
    const KILLS: usize = 50;
    let sb = Sandbox::new();
    let mut rng = Rng::from_env();
    std::fs::create_dir_all(sb.work.join(".ollm")).unwrap();
    run_ok(&sb, "ollm", &["trust"]);
    run_ok(&sb, "ollm-context", &["add", "kept", "before the crashes"]);
    let sizes = [1_000usize, 100_000, 1_000_000, 4_000_000];
    for (i, size) in sizes.iter().enumerate() {
        sb.write(&format!("content-{i}.txt"), &"y".repeat(*size));
    }
    let mut acked: HashSet<String> = HashSet::from(["kept".to_string()]);
    let mut killed = 0;
    let mut round = 0;
    while killed < KILLS {
        round += 1;
        assert!(
            round < KILLS * 10,
            "the adds finish before they can be killed"
        );
        // A doomed add and a live one race for the lock.
        let doomed_key = format!("doomed-{round}");
        let file = format!("content-{}.txt", rng.below(sizes.len() as u64));
        let mut doomed = spawn_quiet(
            &sb,
            "ollm-context",
            &["add", &doomed_key, "--from-file", &file],
        );
        let live_key = format!("live-{round}");
        let live = spawn_quiet(&sb, "ollm-context", &["add", &live_key, "live entry"]);
        std::thread::sleep(Duration::from_micros(500 + rng.below(40_000)));
        if doomed.try_wait().unwrap().is_none() {
            killed += 1;
        }
        let _ = doomed.kill();
        if doomed.wait().unwrap().success() {
            acked.insert(doomed_key.clone());
        }
        let out = live.wait_with_output().unwrap();
        assert!(out.status.success(), "live add: {}", stderr(&out));
        acked.insert(live_key);

        let list = run_ok(&sb, "ollm-context", &["list"]);
        let present: HashSet<String> = json(&list)
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["key"].as_str().unwrap().to_string())
            .collect();
        for key in &acked {
            assert!(
                present.contains(key),
                "round {round}: acknowledged {key} lost"
            );
        }
        // Keep the store small: a big entry that made it in (acknowledged
        // or not) is checked, then removed.
        if present.contains(&doomed_key) {
            run_ok(&sb, "ollm-context", &["remove", &doomed_key]);
            acked.remove(&doomed_key);
        }
    }
    run_ok(&sb, "ollm-context", &["add", "after", "still writable"]);
    let prompt = stdout(&run_ok(&sb, "ollm-context", &["prompt"]));
    assert!(prompt.contains("## after") && prompt.contains("## kept"));
    let set_aside: Vec<_> = std::fs::read_dir(sb.work.join(".ollm"))
        .unwrap()
        .filter_map(std::result::Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("corrupt"))
        .collect();
    assert!(set_aside.is_empty(), "store set aside: {set_aside:?}");
    eprintln!(
        "context soak: {killed} adds killed in {round} rounds, {} acknowledged",
        acked.len()
    );
}

/// One `--state` call's events: a turn, a tool call and an output, all
/// different from every other call's, so no loop is ever reported.
fn loop_events(call: usize, pad: usize) -> String {
    [
        json!({"type": "turn"}),
        json!({"type": "tool", "name": "read_file", "args": {"path": format!("src/{call}.rs")}}),
        json!({"type": "output", "text": format!("call {call}: {}", "z".repeat(pad))}),
    ]
    .iter()
    .map(|e| e.to_string() + "\n")
    .collect()
}

const LOOP_EVENTS: u64 = 3;

#[test]
fn loopcheck_state_writers_killed_at_random_keep_every_acknowledged_event() {
    const KILLS: usize = 50;
    let sb = Sandbox::new();
    let mut rng = Rng::from_env();
    let args = ["--state", "loop-state.json", "--max-turns", "100000000"];
    // `event` in a --state verdict counts every event the state has seen.
    let probe = |call: usize| -> u64 {
        let mut child = spawn_quiet(&sb, "ollm-loopcheck", &args);
        child
            .stdin
            .take()
            .unwrap()
            .write_all(loop_events(call, 10).as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "probe: {}", stderr(&out));
        let verdict = json(&out);
        assert_eq!(verdict["loop"], false);
        verdict["event"].as_u64().unwrap()
    };
    let mut seen = probe(0);
    assert_eq!(seen, LOOP_EVENTS);
    let mut killed = 0;
    let mut committed_by_killed = 0;
    let mut call = 1;
    while killed < KILLS {
        assert!(
            call < KILLS * 20,
            "the calls finish before they can be killed"
        );
        let mut child = spawn_quiet(&sb, "ollm-loopcheck", &args);
        let mut input = child.stdin.take().unwrap();
        let events = loop_events(call, rng.below(20_000) as usize);
        let feeder = std::thread::spawn(move || input.write_all(events.as_bytes()));
        std::thread::sleep(Duration::from_micros(rng.below(8_000)));
        let was_running = child.try_wait().unwrap().is_none();
        let _ = child.kill();
        let out = child.wait_with_output().unwrap();
        let _ = feeder.join();
        let acknowledged = out.status.code() == Some(0) && !out.stdout.is_empty();
        if was_running && !acknowledged {
            killed += 1;
        }
        call += 1;
        let now = probe(call);
        call += 1;
        // The killed call's events are either all in the state or none are.
        if acknowledged {
            assert_eq!(now, seen + 2 * LOOP_EVENTS, "an acknowledged call was lost");
        } else if now == seen + 2 * LOOP_EVENTS {
            committed_by_killed += 1;
        } else {
            assert_eq!(
                now,
                seen + LOOP_EVENTS,
                "a killed call left part of its events"
            );
        }
        seen = now;
    }
    let entries: Vec<String> = std::fs::read_dir(&sb.work)
        .unwrap()
        .filter_map(std::result::Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("corrupt"))
        .collect();
    assert!(entries.is_empty(), "state set aside: {entries:?}");
    eprintln!(
        "loopcheck soak: {killed} calls killed ({committed_by_killed} had already replaced the state), {seen} events kept"
    );
}

/// Everything below `dir` whose name marks it as left by a killed writer:
/// temp files and directories, tombstones of deletes.
fn leftovers_below(dir: &std::path::Path) -> Vec<String> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.contains(".ollm-tmp-")
            || name.starts_with(".tmp-")
            || name.starts_with(".trash-")
            || name.contains(".tmp-")
            || name.ends_with(".tmp")
        {
            found.push(entry.path().display().to_string());
        }
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            found.extend(leftovers_below(&entry.path()));
        }
    }
    found
}

/// The snapshot ids of a session (empty when it has none or is gone).
fn snapshot_ids(sb: &Sandbox, id: &str) -> Vec<String> {
    let out = sb
        .std_cmd("ollm-session")
        .args(["snapshot", "list", id])
        .output()
        .unwrap();
    if !out.status.success() {
        return Vec::new();
    }
    json(&out)
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect()
}

/// Issue 11's soak: `delete`, `cleanup`, snapshot create, restore and
/// delete, and record writers race each other and are killed with SIGKILL
/// at random moments. After the next write: no acknowledged record is
/// missing from a session that exists, no session is half deleted, no
/// snapshot directory outlives its session, no temp file or tombstone is
/// left. A few seconds by default; `OLLM_SOAK_ROUNDS` runs more rounds.
fn deletes_snapshots_and_cleanups_killed_while_racing_writers_leave_nothing_half_done(
    store: SessionStore,
) {
    let rounds: usize = std::env::var("OLLM_SOAK_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(12);
    let Some(sb) = Sandbox::on(store) else {
        return;
    };
    let mut rng = Rng::from_env();
    let acked: Arc<Mutex<HashMap<String, String>>> = Arc::default();
    let mut sessions: Vec<String> = (0..5).map(|_| sb.create_journal_session()).collect();
    let (mut kills, mut done) = (0, 0);
    for round in 0..rounds {
        while sessions.len() < 4 {
            sessions.push(sb.create_journal_session());
        }
        let pick = |rng: &mut Rng, sessions: &[String]| {
            sessions[rng.below(sessions.len() as u64) as usize].clone()
        };
        let mut writers = Vec::new();
        for w in 0..2 {
            let id = pick(&mut rng, &sessions);
            let markers: Vec<String> = (0..200).map(|n| format!("<l{round}-w{w}-{n}>")).collect();
            let pads = (0..200).map(|_| rng.below(3_000) as usize).collect();
            writers.push(spawn_session_writer(
                &sb,
                &id,
                markers,
                pads,
                Arc::clone(&acked),
            ));
        }
        let mut others: Vec<Child> = Vec::new();
        for _ in 0..4 {
            let id = pick(&mut rng, &sessions);
            let args: Vec<String> = match rng.below(6) {
                0 => vec!["delete".into(), id],
                1 => vec!["cleanup".into(), "--keep".into(), "3".into()],
                2 => vec!["snapshot".into(), "create".into(), id],
                3 | 4 => match snapshot_ids(&sb, &id).first() {
                    Some(snap) if rng.below(2) == 0 => {
                        vec!["snapshot".into(), "delete".into(), snap.clone()]
                    }
                    Some(snap) => vec![
                        "snapshot".into(),
                        "restore".into(),
                        snap.clone(),
                        "--as-session".into(),
                    ],
                    None => vec!["snapshot".into(), "create".into(), id],
                },
                _ => vec!["snapshot".into(), "create".into(), id],
            };
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            others.push(spawn_quiet(&sb, "ollm-session", &args));
        }
        std::thread::sleep(Duration::from_millis(5 + rng.below(150)));
        for mut child in others {
            if child.try_wait().unwrap().is_none() {
                kills += 1;
            } else {
                done += 1;
            }
            let _ = child.kill(); // SIGKILL
            let _ = child.wait();
        }
        for mut writer in writers {
            if writer.child.try_wait().unwrap().is_none() {
                kills += 1;
            } else {
                done += 1;
            }
            let _ = writer.child.kill();
            let _ = writer.child.wait();
            writer.acks.join().unwrap();
        }
        sessions = crate::support::ids_of_listing(&run_ok(&sb, "ollm-session", &["list"]));
    }
    // The next write of each kind finishes or sweeps what kills left.
    sb.create_journal_session();
    let present = crate::support::ids_of_listing(&run_ok(&sb, "ollm-session", &["list"]));
    for id in &present {
        run_ok(
            &sb,
            "ollm-session",
            &["record", id, "--role", "user", "--text", "<after>"],
        );
        run_ok(&sb, "ollm-session", &["snapshot", "create", id]);
    }
    let acked = acked.lock().unwrap().clone();
    eprintln!(
        "lifecycle soak: {rounds} rounds, {kills} processes killed, {done} finished first, {} records acknowledged, {} sessions left",
        acked.len(),
        present.len()
    );
    assert!(kills > rounds, "only {kills} kills");
    for id in &present {
        let session = json(&run_ok(&sb, "ollm-session", &["get", id]));
        let markers: HashSet<String> = markers_of(&session).into_iter().collect();
        for (marker, owner) in &acked {
            if owner == id {
                assert!(
                    markers.contains(marker),
                    "acknowledged {marker} lost from {id}"
                );
            }
        }
        for snap in snapshot_ids(&sb, id) {
            run_ok(
                &sb,
                "ollm-session",
                &["snapshot", "show", &snap, "--session", id],
            );
        }
    }
    let snapshots_root = sb.ollm_home.join("context-snapshots");
    let orphans: Vec<String> = std::fs::read_dir(&snapshots_root)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|name| !present.contains(name) && name != ".locks")
                .collect()
        })
        .unwrap_or_default();
    assert!(
        orphans.is_empty(),
        "snapshots outlived their session: {orphans:?}"
    );
    if let Some(pg) = &sb.pg {
        let orphans: i64 = pg
            .client()
            .query_one(
                "SELECT count(*) FROM ollm_snapshots s \
                 WHERE NOT EXISTS (SELECT 1 FROM ollm_sessions WHERE id = s.session_id)",
                &[],
            )
            .unwrap()
            .get(0);
        assert_eq!(orphans, 0, "snapshot rows outlived their session");
        assert!(
            !snapshots_root.exists()
                || std::fs::read_dir(&snapshots_root)
                    .unwrap()
                    .all(|e| { e.unwrap().file_name() == ".locks" }),
            "snapshots written to the local directory on PostgreSQL"
        );
    }
    let data = sb.sessions_dir();
    let mut left = leftovers_below(&data);
    left.extend(leftovers_below(&snapshots_root));
    assert!(left.is_empty(), "left by killed writers: {left:?}");
    if store == SessionStore::Postgres {
        return;
    }
    let corrupt: Vec<_> = std::fs::read_dir(&data)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("corrupt"))
        .collect();
    assert!(corrupt.is_empty(), "sessions set aside: {corrupt:?}");
}

/// The local PostgreSQL cluster (`pg_lsclusters`: version and name) that
/// the tests' server is, when this process may stop and start it.
fn local_cluster() -> Option<(String, String)> {
    if !is_root() {
        eprintln!("SKIPPED: stopping the PostgreSQL server needs root");
        return None;
    }
    let out = Command::new("pg_lsclusters").arg("-h").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut fields = text.lines().next()?.split_whitespace();
    let found = (fields.next()?.to_string(), fields.next()?.to_string());
    if !crate::pg::server_url().contains("host=/") {
        eprintln!("SKIPPED: the test server is not this machine's cluster");
        return None;
    }
    Some(found)
}

/// Starts the cluster again when dropped if it is down, whatever the
/// test did.
struct Restart((String, String));

impl Restart {
    fn run(&self, action: &str) {
        let (version, name) = &self.0;
        let status = Command::new("pg_ctlcluster")
            .args([version, name, action])
            .status()
            .unwrap();
        assert!(status.success(), "pg_ctlcluster {action} failed");
    }
}

impl Drop for Restart {
    fn drop(&mut self) {
        let (version, name) = &self.0;
        let running = Command::new("pg_ctlcluster")
            .args([version, name, "status"])
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !running {
            let _ = Command::new("pg_ctlcluster")
                .args([version, name, "start"])
                .status();
        }
    }
}

#[test]
fn postgres_stopped_and_restarted_mid_run_loses_nothing_acknowledged() {
    let Some(cluster) = local_cluster() else {
        return;
    };
    let Some(pg) = crate::pg::TestPg::alone() else {
        return;
    };
    let mut sb = Sandbox::new();
    sb.pg = Some(pg);
    let id = sb.create_journal_session();
    let acked: Arc<Mutex<HashMap<String, String>>> = Arc::default();
    let writers: Vec<SessionWriter> = (0..2)
        .map(|w| {
            let markers = (0..20_000).map(|n| format!("<down-w{w}-{n}>")).collect();
            spawn_session_writer(&sb, &id, markers, vec![100; 20_000], Arc::clone(&acked))
        })
        .collect();
    let waiting = Instant::now();
    while acked.lock().unwrap().len() < 40 && waiting.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let server = Restart(cluster);
    server.run("stop");

    // Down: writers stop with a storage failure, readers get one line.
    for mut writer in writers {
        let status = writer.child.wait().unwrap();
        writer.acks.join().unwrap();
        assert_eq!(status.code(), Some(4), "a writer cut off by the server");
    }
    let acked = acked.lock().unwrap().clone();
    assert!(
        acked.len() >= 40,
        "only {} records before the stop",
        acked.len()
    );
    for args in [&["list"][..], &["get", &id], &["search", "down"]] {
        let out = sb.std_cmd("ollm-session").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(4), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("ollm-session: postgresql://"), "{err}");
    }

    // Up again: everything acknowledged is there, and writing goes on.
    server.run("start");
    let session = json(&run_ok(&sb, "ollm-session", &["get", &id]));
    let present: HashSet<String> = markers_of(&session).into_iter().collect();
    for marker in acked.keys() {
        assert!(present.contains(marker), "acknowledged {marker} lost");
    }
    let out = run_ok(
        &sb,
        "ollm-session",
        &["record", &id, "--role", "user", "--text", "<after-restart>"],
    );
    assert_eq!(
        json(&out)["index"],
        session["messages"].as_array().unwrap().len()
    );
    eprintln!(
        "server restart: {} records acknowledged before the stop, all present",
        acked.len()
    );
}
