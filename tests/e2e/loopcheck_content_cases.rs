//! The content-loop cases gemini-cli's loop detection is tested on
//! (`loopDetectionService.test.ts`), as black-box runs of
//! `ollm-loopcheck --stream` at its default settings: the shape of each
//! case, in this project's own words and data. One difference is
//! deliberate: gemini-cli forgets what it tracked when a table row, list
//! item, heading or quote follows; here those lines are not tracked
//! themselves, and prose repeated on both sides of one is still a loop
//! (the cases below check what they protect: different text after them).
//!
//! And the cases of issue 46: documents whose lines differ only in their
//! numbers (reference links, compare links, versions, dates, ids, paths)
//! are not loops.

use serde_json::{Value, json};

use crate::repeated_content::streamed;
use crate::support::Sandbox;

/// Every verdict `ollm-loopcheck --stream` prints for one conversation:
/// a user message, a turn, then `events`, their outputs streamed as a
/// model streams them: the text between two other events in chunks of 20
/// to 200 characters (gemini-cli's cases feed one chunk per repetition,
/// which here would be identical outputs, another rule).
fn stream(events: &[Value]) -> Vec<Value> {
    let mut rechunked = Vec::new();
    let mut text = String::new();
    for e in events {
        if let Some(t) = e["text"].as_str().filter(|_| e["type"] == "output") {
            text.push_str(t);
            continue;
        }
        rechunked.extend(
            streamed(&std::mem::take(&mut text), 7)
                .iter()
                .map(|t| chunk(t)),
        );
        rechunked.push(e.clone());
    }
    rechunked.extend(streamed(&text, 7).iter().map(|t| chunk(t)));
    let mut input = String::new();
    for e in [
        json!({"type": "user", "text": "Go on."}),
        json!({"type": "turn"}),
    ]
    .iter()
    .chain(&rechunked)
    {
        input.push_str(&format!("{e}\n"));
    }
    let out = Sandbox::new()
        .cmd("ollm-loopcheck")
        .args(["--stream", "--warn-only"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn chunk(text: &str) -> Value {
    json!({"type": "output", "text": text})
}

fn chunks(texts: impl IntoIterator<Item = String>) -> Vec<Value> {
    texts.into_iter().map(|t| chunk(&t)).collect()
}

/// The first repeated-content report, if any (the quiet verdict is not).
fn content_loop(events: &[Value]) -> Option<Value> {
    stream(events)
        .into_iter()
        .find(|v| v["pattern"]["type"] == "repeated-content")
}

#[track_caller]
fn assert_quiet(events: &[Value]) {
    let verdicts = stream(events);
    assert_eq!(verdicts.len(), 1, "{verdicts:?}");
    assert_eq!(verdicts[0]["loop"], false, "{verdicts:?}");
}

#[track_caller]
fn assert_caught(events: &[Value]) -> Value {
    content_loop(events).expect("a repeated-content report")
}

/// `length` characters of one sentence with an id, repeated and cut.
fn sentence_with_id(id: u32, length: usize) -> String {
    format!("The worker {id} reads its queue and waits for more. ")
        .chars()
        .cycle()
        .take(length)
        .collect()
}

/// Letters and digits from a fixed pseudo-random sequence.
fn noise(seed: u64, length: usize) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut x = seed;
    (0..length)
        .map(|_| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ALPHABET[(x >> 33) as usize % ALPHABET.len()] as char
        })
        .collect()
}

#[test]
fn random_characters_are_not_a_loop() {
    assert_quiet(&chunks((0..1000).map(|i| noise(i, 10))));
}

#[test]
fn a_chunk_repeated_back_to_back_is_a_loop_and_its_report_shows_it() {
    let verdict = assert_caught(&chunks((0..10).map(|_| sentence_with_id(1, 50))));
    let details = verdict["pattern"]["details"].as_str().unwrap();
    assert!(details.contains("worker 1 reads its queue"), "{details}");
    let count = verdict["pattern"]["count"].as_u64().unwrap();
    assert!(details.contains(&format!(" {count} times")), "{details}");
}

#[test]
fn a_list_with_a_long_shared_prefix_is_not_a_loop() {
    let prefix = "regions/eu-west3/clusters/prod-cluster-0042/nodepools/";
    let list: String = (0..15).map(|i| format!("- {prefix}{i}\n")).collect();
    assert_quiet(&[chunk(&list)]);
    let bare: String = (0..15).map(|i| format!("{prefix}{i}\n")).collect();
    assert_quiet(&[chunk(&bare)]);
}

#[test]
fn repetitions_far_apart_are_not_a_loop() {
    let mut events = Vec::new();
    for i in 0..10 {
        events.push(chunk(&sentence_with_id(1, 50)));
        events.push(chunk(&noise(i, 2000)));
    }
    assert_quiet(&events);
}

#[test]
fn a_longer_pattern_repeated_is_a_loop() {
    let pattern = sentence_with_id(3, 150);
    assert_caught(&chunks((0..30).map(|_| pattern.clone())));
}

#[test]
fn a_block_of_short_lines_repeated_is_a_loop() {
    let block = "I will stop writing now.\n  I will hand the turn back.\n  That is all.\n  I will not run anything else.\n  I will wait for the next request.\n";
    assert_caught(&chunks((0..30).map(|_| block.to_string())));
    let closing = "I have applied every requested change and checked the tests. I will now report the work as finished.\n  ";
    assert_caught(&chunks((0..30).map(|_| closing.to_string())));
}

#[test]
fn alternating_short_phrases_and_a_repeated_train_of_thought_are_a_loop() {
    assert_caught(&chunks((0..100).map(|_| "Checking... Done. ".to_string())));
    let thought = "I need to open the config. The config is missing. I will write the config. ";
    assert_caught(&chunks((0..30).map(|_| thought.to_string())));
}

#[test]
fn repetition_inside_a_code_block_is_not_a_loop() {
    let repeated = sentence_with_id(1, 50);
    let mut events = vec![chunk("```\n")];
    events.extend((0..10).map(|_| chunk(&format!("{repeated}\n"))));
    events.push(chunk("```\n"));
    assert_quiet(&events);
    // A code block opened after a few repeats: what follows is code.
    let mut events: Vec<Value> = (0..2).map(|_| chunk(&repeated)).collect();
    events.push(chunk("\n```javascript\n"));
    events.extend((0..10).map(|_| chunk(&format!("{repeated}\n"))));
    assert_quiet(&events);
    // Several fences in turn, and a long block of one line of code.
    let loop_line = "for (let i = 0; i < 10; i++) { console.log(i); }\n";
    let mut events = vec![chunk("Normal text\n```\n")];
    events.extend((0..20).map(|_| chunk(loop_line)));
    events.extend([
        chunk("```\n"),
        chunk("```python\n"),
        chunk("print(1)\n```\n"),
    ]);
    events.extend([
        chunk("```\ncode1\n```\n"),
        chunk("some text\n"),
        chunk("```\ncode2\n```\n"),
    ]);
    // Chunks of one line of code over and over are near-identical outputs
    // (repeated-output, a rule on events); the content is not a loop.
    assert_eq!(content_loop(&events), None);
}

#[test]
fn repetition_after_a_code_block_closes_is_a_loop() {
    let repeated = sentence_with_id(1, 50);
    let mut events = vec![chunk("```\nsome code\n```\n")];
    events.extend((0..10).map(|_| chunk(&repeated)));
    assert_caught(&events);
}

#[test]
fn different_text_after_a_table_list_heading_or_quote_is_not_a_loop() {
    for line in [
        "| Column 1 | Column 2 |",
        "* item",
        "- item",
        "+ item",
        "1. item",
        "42. item",
        "## Heading",
        "> Quote text",
    ] {
        let mut events: Vec<Value> = (0..3).map(|_| chunk(&sentence_with_id(1, 50))).collect();
        events.push(chunk(&format!("\n{line}\n")));
        events.extend((0..3).map(|_| chunk(&sentence_with_id(100, 50))));
        assert_quiet(&events);
    }
}

#[test]
fn a_repeated_divider_is_not_a_loop() {
    assert_quiet(&chunks((0..15).map(|_| format!("{}\n", "-".repeat(50)))));
    assert_quiet(&chunks((0..15).map(|_| "-".repeat(50))));
}

#[test]
fn a_tool_call_ends_the_output_whose_content_is_tracked() {
    let mut events: Vec<Value> = (0..3).map(|_| chunk(&sentence_with_id(1, 50))).collect();
    events.push(json!({"type": "tool", "name": "read_file", "args": {"path": "a.rs"}}));
    events.extend((0..3).map(|_| chunk(&sentence_with_id(1, 50))));
    assert_quiet(&events);
}

/// Issue 46: what a changelog, a reference list or a release page repeats.
#[test]
fn lines_that_differ_in_their_numbers_are_different_content() {
    let pull_links: String = (2880..2900)
        .map(|n| format!("[#{n}]: https://github.com/example-org/example/pull/{n}\n"))
        .collect();
    let compare_links: String = (10..30)
        .map(|n| {
            format!(
                "[0.4.{n}]: https://github.com/example-org/example/compare/0.4.{}...0.4.{n}\n",
                n - 1
            )
        })
        .collect();
    let releases: String = (1..12)
        .map(|n| {
            format!(
                "### 0.{n}.0 (2017-0{}-1{})\n\n- Bug fixes.\n\n",
                n % 9 + 1,
                n % 10
            )
        })
        .collect();
    let details: String = (1..10)
        .map(|n| {
            format!("## v1.{n}.0\n\n<details><summary>view details</summary>\n\n* Update deps.\n\n</details>\n\n")
        })
        .collect();
    let dates: String = (1..28)
        .map(|d| format!("- Released on 2026-03-{d:02} as build 4.{d}.1\n"))
        .collect();
    let paths: String = (1..25)
        .map(|n| format!("src/generated/protocol/v3/messages/message_{n:03}.rs\n"))
        .collect();
    for text in [pull_links, compare_links, releases, details, dates, paths] {
        assert_quiet(&chunks(text.lines().map(|l| format!("{l}\n"))));
        assert_quiet(&[chunk(&text)]);
    }
}

/// Issue 46: what is still a loop, numbers and all.
#[test]
fn the_same_prose_with_only_a_counter_moving_is_still_a_loop() {
    let steps: String = (1..12)
        .map(|n| format!("Step {n}: I will not give up on finding the answer to this question.\n"))
        .collect();
    let verdict = assert_caught(&[chunk(&steps)]);
    let details = verdict["pattern"]["details"].as_str().unwrap();
    assert!(details.contains("only its numbers changing"), "{details}");
    assert!(details.contains("I will not give up"), "{details}");
    // Short names with a number ("Item 7") are a list, not a loop.
    let items: String = (1..30).map(|n| format!("Item {n}\n")).collect();
    assert_quiet(&[chunk(&items)]);
}
