//! One reading of a session: `ollm-session`, `ollm-compress` and
//! `ollm-loopcheck` order a session's messages and tool calls the same way,
//! by instant, whatever the offsets and fraction lengths of the timestamps.

use serde_json::{Value, json};

use crate::support::{Sandbox, json, stderr, stdout};

const ID: &str = "6a1f0c2e-7b3d-4e5f-8a9b-0c1d2e3f4a5b";

/// Messages and tool calls whose timestamps sort differently as strings
/// than as instants: `+02:00`/`+01:00` offsets, `Z`, `+00:00`, and
/// fractions of 0, 1, 2 and 3 digits.
fn session() -> Value {
    let msg = |role: &str, text: &str, at: &str| json!({"role": role, "parts": [{"type": "text", "text": text}], "timestamp": at});
    let call = |n: u32, at: &str| {
        json!({"id": format!("c{n}"), "name": "shell", "args": {"command": "cargo build"},
               "result": {"llmContent": format!("build output {n}")}, "timestamp": at})
    };
    json!({
        "sessionId": ID,
        "startTime": "2026-11-22T10:00:00.000Z",
        "lastActivity": "2026-11-22T10:00:06.000Z",
        "model": "smollm2", "provider": "openai",
        "messages": [
            msg("user", "fix the build", "2026-11-22T10:00:00Z"),
            msg("assistant", "Looking (1).", "2026-11-22T12:00:01.5+02:00"),
            msg("assistant", "Looking (2).", "2026-11-22T10:00:03Z"),
            msg("user", "stop and think", "2026-11-22T11:00:04.25+01:00"),
            msg("assistant", "Looking (3).", "2026-11-22T10:00:06.000Z"),
        ],
        "toolCalls": [
            call(0, "2026-11-22T10:00:01.9Z"),
            call(1, "2026-11-22T10:00:03.100Z"),
            call(2, "2026-11-22T10:00:04.5Z"),
            call(3, "2026-11-22T10:00:05+00:00"),
        ],
        "metadata": {"tokenCount": 0, "compressionCount": 0}
    })
}

/// The order by instant (a message first on a tie), as each record's text.
const EXPECTED: &[&str] = &[
    "fix the build",
    "Looking (1).",
    "build output 0",
    "Looking (2).",
    "build output 1",
    "stop and think",
    "build output 2",
    "build output 3",
    "Looking (3).",
];

/// Where each expected record's text first appears in `text`, in order.
fn assert_in_order(what: &str, text: &str, expected: &[&str]) {
    let places: Vec<Option<usize>> = expected.iter().map(|t| text.find(t)).collect();
    assert!(
        places.iter().all(Option::is_some) && places.windows(2).all(|w| w[0] < w[1]),
        "{what} orders the records differently: {places:?}\n{text}"
    );
}

/// The events `ollm-loopcheck` documents for a session, in the expected order.
fn expected_events() -> String {
    let mut lines = Vec::new();
    for text in EXPECTED {
        let line = if text.starts_with("build output") {
            json!({"type": "tool", "name": "shell", "args": {"command": "cargo build"}}).to_string()
        } else if text.starts_with("Looking") {
            lines.push(json!({"type": "turn"}).to_string());
            json!({"type": "output", "text": text}).to_string()
        } else {
            json!({"type": "user", "text": text}).to_string()
        };
        lines.push(line);
    }
    lines.join("\n") + "\n"
}

#[test]
fn session_compress_and_loopcheck_see_one_order_whatever_the_offsets_and_fractions() {
    let sandbox = Sandbox::new();
    let text = serde_json::to_string_pretty(&session()).unwrap();
    let data = sandbox.ollm_home.join("session-data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join(format!("{ID}.json")), &text).unwrap();
    let file = sandbox.write("session.json", &text);

    // ollm-session: the Markdown transcript lists the records in order.
    let out = sandbox
        .cmd("ollm-session")
        .args(["export", ID, "--format", "markdown"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_in_order("ollm-session export", &stdout(&out), EXPECTED);

    // ollm-compress: the transcript sent to the summarizer, from the store
    // and from the file (everything but the newest message is summarized).
    for input in [&["--session", ID][..], &[file.to_str().unwrap()][..]] {
        let out = sandbox
            .cmd("ollm-compress")
            .args([
                "--strategy",
                "summarize",
                "--force",
                "--token-limit",
                "100000",
            ])
            .args(["--summarizer-cmd", "cat > prompt.txt; echo 'Goal: build'"])
            .args(input)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let v = json(&out);
        assert_eq!(
            v["compressedMessages"].as_array().unwrap().last().unwrap()["parts"][0]["text"],
            "Looking (3)."
        );
        let prompt = std::fs::read_to_string(sandbox.work.join("prompt.txt")).unwrap();
        assert_in_order(
            &format!("ollm-compress {input:?}"),
            &prompt,
            &EXPECTED[..EXPECTED.len() - 1],
        );
    }

    // ollm-loopcheck: the session file gives exactly the verdicts of its
    // events written out in the expected order, for settings whose verdicts
    // depend on where each call and turn falls.
    let events = sandbox.write("events.ndjson", &expected_events());
    for settings in [
        &["--repeat-threshold", "2"][..],
        &["--repeat-threshold", "3"][..],
        &["--max-turns", "1"][..],
        &["--max-turns", "2"][..],
    ] {
        let verdict = |input: &std::path::Path| {
            let out = sandbox
                .cmd("ollm-loopcheck")
                .arg("--warn-only")
                .args(settings)
                .arg(input)
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
            json(&out)
        };
        assert_eq!(verdict(&file), verdict(&events), "{settings:?}");
    }
    let v = {
        let out = sandbox
            .cmd("ollm-loopcheck")
            .args(["--repeat-threshold", "2"])
            .arg(&file)
            .output()
            .unwrap();
        json(&out)
    };
    // The second call (event 7) repeats the first; by string order it would be event 5.
    assert_eq!(
        (v["pattern"]["type"].as_str(), v["event"].as_u64()),
        (Some("repeated-tool"), Some(7))
    );
}
