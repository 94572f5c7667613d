//! Issue 45: ollm never replaces a file of the OLLM CLI's that it did not
//! read. The CLI's side (`tests/fixtures/ollm-cli/recording.js`, run by
//! Node) records 200 messages, each from a fresh read of the file, while
//! `ollm-session record` records 200 into the same session; afterwards
//! every message of both is in the file, in every one of 50 rounds (five
//! at a time), also with both cores kept busy.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

use crate::support::{Sandbox, bin_path, stderr};

const EACH: usize = 200;
const ROUNDS: usize = 50;
/// Rounds run at once, each in a session of its own: a record into a
/// session the CLI is writing watches for the CLI's next version, so one
/// round at a time is partly sleep; five at a time also load the machine.
const LANES: usize = 5;

fn script() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ollm-cli/recording.js")
}

/// Whether Node is there to play the CLI (SKIPPED without it; a failure
/// under CI).
fn have_node() -> bool {
    match Command::new("node").arg("--version").output() {
        Ok(out) if out.status.success() => true,
        other => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI=true and no node ({other:?})"
            );
            eprintln!("SKIPPED: no node to play the OLLM CLI");
            false
        }
    }
}

fn node(sb: &Sandbox, args: &[&str]) -> Command {
    let mut command = Command::new("node");
    command
        .arg(script())
        .arg(sb.sessions_dir())
        .args(args)
        .env("HOME", &sb.home);
    command
}

/// The texts of the session's messages, read from the file as the CLI
/// reads it.
fn texts_in_file(sb: &Sandbox, id: &str) -> Vec<String> {
    let bytes = std::fs::read(sb.sessions_dir().join(format!("{id}.json"))).unwrap();
    let session: Value = serde_json::from_slice(&bytes).unwrap();
    session["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            m["parts"][0]["text"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect()
}

/// One round: a new session of the CLI's, both writers at once. Returns
/// the messages missing afterwards (and how many are there twice).
fn one_round(sb: &Sandbox) -> Vec<String> {
    let out = node(sb, &["create", "llama3.2:3b", "ollama"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let id = String::from_utf8(out.stdout).unwrap();
    let count = EACH.to_string();
    let cli = node(sb, &["record-many", &id, "user", "TS", &count])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut ollm = Command::new(bin_path("ollm-session"))
        .env_clear()
        .env("HOME", &sb.home)
        .env("OLLM_HOME", &sb.ollm_home)
        .args(["record", &id])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = ollm.stdin.take().unwrap();
    for n in 0..EACH {
        let record =
            json!({"role": "assistant", "parts": [{"type": "text", "text": format!("ollm {n}")}]});
        writeln!(input, "{record}").unwrap();
    }
    drop(input);
    let (cli, ollm) = (
        cli.wait_with_output().unwrap(),
        ollm.wait_with_output().unwrap(),
    );
    assert!(cli.status.success(), "the CLI: {}", stderr(&cli));
    assert!(ollm.status.success(), "ollm: {}", stderr(&ollm));
    let texts = texts_in_file(sb, &id);
    let got: BTreeSet<&String> = texts.iter().collect();
    let mut wrong: Vec<String> = (0..EACH)
        .flat_map(|n| [format!("TS {n}"), format!("ollm {n}")])
        .filter(|text| !got.contains(text))
        .collect();
    // A record made again after the CLI had built on it is one too many.
    if texts.len() != got.len() {
        wrong.push(format!("{} records held twice", texts.len() - got.len()));
    }
    wrong
}

fn every_message_of_both_writers_in_every_round(sb: &Sandbox) {
    let lost: Vec<String> = std::thread::scope(|scope| {
        let lanes: Vec<_> = (0..LANES)
            .map(|lane| {
                scope.spawn(move || {
                    (lane..ROUNDS)
                        .step_by(LANES)
                        .filter_map(|round| {
                            let missing = one_round(sb);
                            (!missing.is_empty()).then(|| format!("round {round}: {missing:?}"))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        lanes
            .into_iter()
            .flat_map(|lane| lane.join().expect("a lane of rounds"))
            .collect()
    });
    assert!(
        lost.is_empty(),
        "{} of {ROUNDS} rounds lost messages:\n{}",
        lost.len(),
        lost.join("\n")
    );
}

#[test]
fn the_clis_writes_and_ours_into_one_session_all_stay() {
    if !have_node() {
        return;
    }
    every_message_of_both_writers_in_every_round(&Sandbox::new());
}

/// Busy loops on both cores, killed when dropped: the writers are
/// preempted at any point, which widens every window between a check and
/// a rename.
struct Load(Vec<Child>);

impl Load {
    fn on_every_core() -> Load {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        Load(
            (0..cores)
                .map(|_| {
                    Command::new("sh")
                        .args(["-c", "while :; do :; done"])
                        .spawn()
                        .unwrap()
                })
                .collect(),
        )
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

#[test]
fn the_clis_writes_and_ours_into_one_session_all_stay_under_load() {
    if !have_node() {
        return;
    }
    let _load = Load::on_every_core();
    every_message_of_both_writers_in_every_round(&Sandbox::new());
}
