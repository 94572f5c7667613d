//! The baseline `bench/session.sh` measures recording against: the spec's
//! whole-file store, where each recorded message re-reads the session
//! file, appends, writes a temporary file, fsyncs it, renames it over the
//! original and fsyncs the directory.
//!
//! `cargo run --release --example session_rewrite -- FILE N` records N
//! messages into the spec-format session FILE and prints milliseconds per
//! record.

// A benchmark baseline, not a program users run: a panic is its error report.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(n)) = (
        args.get(1),
        args.get(2).and_then(|n| n.parse::<usize>().ok()),
    ) else {
        eprintln!("usage: session_rewrite FILE N");
        std::process::exit(2);
    };
    let path = std::path::Path::new(path);
    let dir = path.parent().unwrap_or(std::path::Path::new("."));
    let tmp = dir.join(".rewrite.tmp");
    let started = Instant::now();
    for i in 0..n {
        let bytes = std::fs::read(path).expect("read");
        let mut session: serde_json::Value = serde_json::from_slice(&bytes).expect("parse");
        let message = serde_json::json!({
            "role": "user",
            "parts": [{"type": "text", "text": format!("rewrite baseline message {i}")}],
            "timestamp": ollm::timestamp::now_iso(),
        });
        session["messages"]
            .as_array_mut()
            .expect("messages")
            .push(message);
        session["lastActivity"] = ollm::timestamp::now_iso().into();
        let out = serde_json::to_vec_pretty(&session).expect("encode");
        let mut file = std::fs::File::create(&tmp).expect("create");
        file.write_all(&out).expect("write");
        file.sync_all().expect("fsync");
        std::fs::rename(&tmp, path).expect("rename");
        std::fs::File::open(dir)
            .and_then(|d| d.sync_all())
            .expect("fsync dir");
    }
    let ms = started.elapsed().as_secs_f64() * 1000.0 / n as f64;
    println!("{ms:.3}");
}
