//! `ollm-loopcheck`'s repeated-content pattern end to end: real degenerate
//! outputs of SmolLM2 are loops, real long answers and Markdown are not,
//! whether an output comes whole or streamed in chunks, in every mode; and,
//! with a live model, a degenerating answer is stopped while it streams.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::support::{Sandbox, bin_path, real_model, stderr, test_path};

const BIN: &str = "ollm-loopcheck";

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/loopcheck");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("degenerate-") || name.starts_with("quiet-")
        })
        .collect();
    files.sort();
    files
}

/// The output chunks of a fixture: an `.ndjson` file holds the chunks a
/// model streamed (output events); any other file is one text, cut here
/// into pieces of 1 to 13 characters.
fn chunks(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    if path.extension().is_some_and(|e| e == "ndjson") {
        return text
            .lines()
            .map(|line| serde_json::from_str::<Value>(line).unwrap())
            .filter(|e| e["type"] == "output")
            .map(|e| e["text"].as_str().unwrap().to_string())
            .collect();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut at = 0;
    for size in [1, 3, 7, 2, 13, 5].iter().cycle() {
        if at >= chars.len() {
            break;
        }
        let end = (at + size).min(chars.len());
        out.push(chars[at..end].iter().collect());
        at = end;
    }
    out
}

pub fn events(outputs: &[String]) -> String {
    let mut lines = vec![
        json!({"type": "user", "text": "Please answer."}),
        json!({"type": "turn"}),
    ];
    lines.extend(outputs.iter().map(|t| json!({"type": "output", "text": t})));
    lines.iter().map(|e| format!("{e}\n")).collect()
}

fn verdicts(sandbox: &Sandbox, args: &[&str], input: &str) -> Vec<Value> {
    let out = sandbox
        .cmd(BIN)
        .arg("--warn-only")
        .args(args)
        .write_stdin(input.to_string())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The pattern type of the first verdict, or "none".
fn kind(verdict: &Value) -> String {
    verdict["pattern"]["type"]
        .as_str()
        .unwrap_or("none")
        .to_string()
}

#[test]
fn degenerate_model_outputs_are_repeated_content_and_real_answers_stay_quiet() {
    let files = fixtures();
    assert!(
        files
            .iter()
            .filter(|f| f.to_string_lossy().contains("degenerate-"))
            .count()
            >= 3
            && files
                .iter()
                .filter(|f| f.to_string_lossy().contains("quiet-"))
                .count()
                >= 5,
        "fixtures missing: {files:?}"
    );
    let sandbox = Sandbox::new();
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let expected = if name.starts_with("degenerate-") {
            "repeated-content"
        } else {
            "none"
        };
        let pieces = chunks(&file);
        let whole = vec![pieces.concat()];
        let one_shot = verdicts(&sandbox, &[], &events(&whole));
        assert_eq!(
            kind(&one_shot[0]),
            expected,
            "{name}, whole: {}",
            one_shot[0]
        );
        let streamed = verdicts(&sandbox, &[], &events(&pieces));
        assert_eq!(
            kind(&streamed[0]),
            expected,
            "{name}, in {} chunks: {}",
            pieces.len(),
            streamed[0]
        );
        // --stream prints every report; one-shot gives the first stop, else the first warning.
        let stream = verdicts(&sandbox, &["--stream"], &events(&pieces));
        let gravest = stream
            .iter()
            .find(|v| v["level"] == "stop")
            .unwrap_or(&stream[0]);
        assert_eq!(gravest, &streamed[0], "{name}: --stream");
        assert_eq!(kind(&stream[0]), expected, "{name}: --stream");
        // --state, the chunks spread over three calls: the first call that
        // reports gives the one-shot verdict.
        let input = events(&pieces);
        let lines: Vec<&str> = input.lines().collect();
        let state = sandbox.work.join(format!("{name}.state"));
        let third = lines.len().div_ceil(3);
        let mut first = None;
        for part in lines.chunks(third) {
            let text = part.iter().map(|l| format!("{l}\n")).collect::<String>();
            let v = verdicts(&sandbox, &["--state", state.to_str().unwrap()], &text).remove(0);
            if first.is_none() && v["loop"] == true {
                first = Some(v);
            }
        }
        let first = first.unwrap_or_else(|| json!({"loop": false}));
        assert_eq!(kind(&first), expected, "{name}: --state");
        if expected != "none" {
            assert!(
                stream.contains(&first),
                "{name}: --state reports where the stream does: {first}"
            );
        }
    }
}

fn corpus(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/loops")
        .join(kind);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

/// `text` cut as a model streams it: pieces of 20 to 200 characters, the
/// sizes drawn from a fixed sequence.
pub fn streamed(text: &str, seed: u64) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut x = seed;
    let mut out = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let end = (at + 20 + (x >> 33) as usize % 181).min(chars.len());
        out.push(chars[at..end].iter().collect());
        at = end;
    }
    out
}

fn rust_sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_output_of_the_degenerate_corpus_is_caught_while_it_streams() {
    let files = corpus("degenerate");
    assert!(files.len() >= 12, "{files:?}");
    let sandbox = Sandbox::new();
    for (i, file) in files.iter().enumerate() {
        let name = file.file_name().unwrap().to_string_lossy();
        let pieces = streamed(&std::fs::read_to_string(file).unwrap(), i as u64);
        let out = sandbox
            .cmd(BIN)
            .arg("--stream")
            .write_stdin(events(&pieces))
            .output()
            .unwrap();
        let first: Value =
            serde_json::from_str(String::from_utf8_lossy(&out.stdout).lines().next().unwrap())
                .unwrap();
        assert_eq!(kind(&first), "repeated-content", "{name}: {first}");
        assert_eq!(first["level"], "warn", "{name}: {first}");
        // Before the output's end: a streaming runtime can cut it short.
        assert!(
            first["event"].as_u64().unwrap() < pieces.len() as u64 + 2,
            "{name}: {first}"
        );
    }
}

#[test]
fn the_quiet_corpus_of_real_technical_text_gives_no_warn_and_no_stop() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = corpus("quiet");
    files.push(root.join("README.md"));
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    files.extend(pages);
    rust_sources(&root.join("src"), &mut files);
    let mut input = String::new();
    let mut chunks = 0;
    for (i, file) in files.iter().enumerate() {
        let pieces = streamed(&std::fs::read_to_string(file).unwrap(), i as u64);
        chunks += pieces.len();
        // Each document is the one answer of a conversation of its own.
        input.push_str("{\"type\":\"reset\"}\n");
        input.push_str(&events(&pieces));
    }
    assert!(chunks >= 1000, "{chunks} chunks");
    assert_stream_is_quiet(input);
}

/// `input` through `ollm-loopcheck --stream` gives one verdict, with no
/// loop and no warning.
pub fn assert_stream_is_quiet(input: String) {
    let sandbox = Sandbox::new();
    let out = sandbox
        .cmd(BIN)
        .arg("--stream")
        .write_stdin(input)
        .output()
        .unwrap();
    let verdicts = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(0), "{verdicts}");
    assert_eq!(verdicts.lines().count(), 1, "{verdicts}");
    let quiet: Value = serde_json::from_str(verdicts.trim()).unwrap();
    assert_eq!(quiet["loop"], false, "{quiet}");
    assert_eq!(quiet["level"], Value::Null, "{quiet}");
}

/// The URL of a live model, or `None` (and a visible SKIPPED line); under
/// `CI=true` a missing model is a failure, so CI never skips this silently.
fn live_model() -> Option<String> {
    let url = real_model();
    assert!(
        !(url.is_none() && std::env::var("CI").as_deref() == Ok("true")),
        "CI=true but no model answers: set OLLM_TEST_LLM_URL or start shared/tools/llm-server"
    );
    url
}

/// Streams a chat completion from `url` at temperature 0, feeding each
/// content delta to a running `ollm-loopcheck --stream` as it arrives.
/// Returns the first verdict line and how many deltas were sent.
fn stream_through_loopcheck(sandbox: &Sandbox, url: &str, prompt: &str) -> (Value, usize) {
    let mut child = Command::new(bin_path(BIN))
        .args(["--stream", "--warn-only"])
        .env_clear()
        .env("PATH", test_path())
        .env("HOME", &sandbox.home)
        .env("OLLM_HOME", &sandbox.ollm_home)
        .current_dir(&sandbox.work)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{}", json!({"type": "user", "text": prompt})).unwrap();
    writeln!(stdin, "{}", json!({"type": "turn"})).unwrap();
    let body = json!({
        "model": "smollm2", "temperature": 0, "max_tokens": 400, "stream": true,
        "messages": [{"role": "user", "content": prompt}],
    });
    let reply = ureq::post(format!("{url}/v1/chat/completions"))
        .header("content-type", "application/json")
        .send(body.to_string())
        .unwrap();
    let mut sent = 0;
    for line in BufReader::new(reply.into_body().into_reader()).lines() {
        let line = line.unwrap();
        let Some(data) = line.strip_prefix("data: ") else {
            continue;
        };
        if data.trim() == "[DONE]" {
            break;
        }
        let chunk: Value = serde_json::from_str(data).unwrap();
        if let Some(text) = chunk["choices"][0]["delta"]["content"].as_str() {
            writeln!(stdin, "{}", json!({"type": "output", "text": text})).unwrap();
            sent += 1;
        }
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let first = String::from_utf8(out.stdout).unwrap();
    let first: Value = serde_json::from_str(first.lines().next().unwrap()).unwrap();
    (first, sent)
}

#[test]
fn a_live_model_that_repeats_itself_is_caught_while_it_streams() {
    let Some(url) = live_model() else { return };
    let sandbox = Sandbox::new();
    let (verdict, sent) = stream_through_loopcheck(&sandbox, &url, DEGENERATE_PROMPT);
    assert_eq!(
        kind(&verdict),
        "repeated-content",
        "{verdict} after {sent} chunks"
    );
    assert!(
        verdict["event"].as_u64().unwrap() < sent as u64 + 2,
        "reported on a chunk, before the end: {verdict}"
    );
    let (verdict, sent) = stream_through_loopcheck(&sandbox, &url, ORDINARY_PROMPT);
    assert_eq!(kind(&verdict), "none", "{verdict} after {sent} chunks");
}

/// A repetitive prompt SmolLM2-135M answers by repeating one sentence until
/// its token limit. (Its natural degenerate answers, in the fixtures, loop
/// over whole paragraphs whose length varies from run to run when the
/// server batches other requests, so they are checked from the fixtures.)
const DEGENERATE_PROMPT: &str =
    "Repeat after me: I am a cat. I am a cat. I am a cat. I am a cat. I am a cat.";
/// A prompt it answers without repeating itself
/// (`tests/fixtures/loopcheck/quiet-smollm2-python-code.ndjson`).
const ORDINARY_PROMPT: &str =
    "Write a Python function that reverses a string, with a short explanation.";
