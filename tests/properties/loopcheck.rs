//! Properties 14–17: loop detection; and the three ways of running it agree.

use ollm::loopcheck::detector::Level;
use ollm::loopcheck::detector::all_reports;
use ollm::loopcheck::modes;
use ollm::loopcheck::state;
use ollm::loopcheck::{Detector, Event, PatternType, Settings, Verdict};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// A JSON value a few levels deep.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-1000i64..1000).prop_map(Value::from),
        "[a-z ]{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,4}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// The same object with its keys inserted in another order, at every depth.
fn reorder(value: &Value, seed: u64) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            if seed % 2 == 1 {
                entries.reverse();
            }
            if !entries.is_empty() {
                let k = (seed as usize / 2) % entries.len();
                entries.rotate_left(k);
            }
            let mut out = Map::new();
            for (key, v) in entries {
                out.insert(
                    key.clone(),
                    reorder(v, seed.wrapping_mul(31).wrapping_add(7)),
                );
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| reorder(v, seed)).collect()),
        other => other.clone(),
    }
}

/// Events that are not user messages or resets (they keep tracking going).
fn plain_event() -> impl Strategy<Value = Event> {
    prop_oneof![
        Just(Event::Turn),
        ("[a-c]", json_value()).prop_map(|(name, args)| Event::Tool { name, args }),
        "[a-z ]{0,30}".prop_map(|text| Event::Output { text }),
    ]
}

fn settings_with(threshold: u64) -> Settings {
    Settings {
        repeat_threshold: threshold,
        ..Settings::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Property 14: N consecutive identical tool calls (same name and
    /// arguments, whatever their key order), N = repeatThreshold, are a loop;
    /// one nested difference among them is not.
    #[test]
    fn property_14_repeated_tool_call_detection(
        prefix in prop::collection::vec(plain_event(), 0..12),
        threshold in 2u64..6,
        name in "[a-z_]{1,12}",
        inner in json_value(),
        seeds in prop::collection::vec(any::<u64>(), 6),
        differ_at in 0usize..6,
    ) {
        let settings = settings_with(threshold);
        let args = json!({"path": "src/main.rs", "opts": {"deep": inner}});
        let mut detector = Detector::new();
        for event in &prefix {
            detector.push(event, &settings);
        }
        detector.push(&Event::User { text: "go".into() }, &settings);
        let mut last = None;
        for seed in seeds.iter().take(threshold as usize) {
            last = detector.push(&Event::Tool { name: name.clone(), args: reorder(&args, *seed) }, &settings);
        }
        let verdict = last.expect("a loop after N identical calls");
        let pattern = verdict.pattern.expect("a pattern");
        prop_assert_eq!(pattern.kind, PatternType::RepeatedTool);
        prop_assert_eq!(pattern.count, threshold);
        prop_assert!(pattern.details.contains(&name));

        // The same calls with one nested leaf changed never make a repeated-tool loop.
        let mut detector = Detector::new();
        detector.push(&Event::User { text: "go".into() }, &settings);
        let differ_at = differ_at % threshold as usize;
        for (i, seed) in seeds.iter().take(threshold as usize).enumerate() {
            let args = if i == differ_at {
                json!({"path": "src/main.rs", "opts": {"deep": inner, "line": 2}})
            } else {
                reorder(&args, *seed)
            };
            let call = Event::Tool { name: name.clone(), args };
            let repeated = detector
                .push(&call, &settings)
                .and_then(|v| v.pattern)
                .is_some_and(|p| p.kind == PatternType::RepeatedTool);
            prop_assert!(!repeated, "call {} made a repeated-tool loop", i);
        }
    }

    /// Property 15: N consecutive identical outputs are a repeated-output
    /// loop, whatever turns and tool calls come between them. (Blank outputs, from turns
    /// that only call tools, are not outputs to repeat and are ignored.)
    #[test]
    fn property_15_repeated_output_detection(
        prefix in prop::collection::vec(plain_event(), 0..12),
        threshold in 2u64..6,
        text in "\\PC{0,200}".prop_filter("a blank output is ignored", |t| !t.trim().is_empty()),
        between in prop::collection::vec(prop_oneof![
            Just(Event::Turn),
            "[a-c]".prop_map(|name| Event::Tool { name, args: json!({}) }),
        ], 0..6),
    ) {
        let settings = Settings { max_turns: 1_000, ..settings_with(threshold) };
        let mut detector = Detector::new();
        for event in &prefix {
            detector.push(event, &settings);
        }
        detector.push(&Event::User { text: String::new() }, &settings);
        let mut reports = Vec::new();
        for i in 0..threshold as usize {
            if let Some(event) = between.get(i) {
                detector.push(event, &settings);
            }
            reports.push(detector.push(&Event::Output { text: text.clone() }, &settings));
        }
        // Fewer than N make no repeated-output loop. (Outputs with nothing
        // between them are also one text to repeated-content, which may
        // rightly report a short text repeated back to back earlier.)
        for early in &reports[..reports.len() - 1] {
            let kind = early.as_ref().and_then(|v| v.pattern.as_ref()).map(|p| p.kind);
            prop_assert!(kind.is_none() || kind == Some(PatternType::RepeatedContent), "{:?}", kind);
        }
        let pattern = reports.last().cloned().flatten().and_then(|v| v.pattern).expect("a loop");
        prop_assert_eq!(pattern.kind, PatternType::RepeatedOutput);
        prop_assert_eq!(pattern.count, threshold);
    }

    /// Property 16: a turn count exceeding maxTurns is a loop; reaching it is not.
    #[test]
    fn property_16_turn_limit_detection(
        max_turns in 1u64..40,
        others in prop::collection::vec(plain_event(), 0..40),
        users in prop::collection::vec(any::<bool>(), 0..40),
    ) {
        let settings = Settings { max_turns, repeat_threshold: 1_000, cycle_max_length: 0, ..Settings::default() };
        let mut detector = Detector::new();
        let mut turns = 0;
        let mut others = others.into_iter().filter(|e| *e != Event::Turn);
        for i in 0..=max_turns as usize {
            if users.get(i).copied().unwrap_or(false) {
                let user = Event::User { text: "more".into() };
                prop_assert!(detector.push(&user, &settings).is_none());
            }
            if let Some(event) = others.next() {
                prop_assert!(detector.push(&event, &settings).is_none());
            }
            turns += 1;
            let report = detector.push(&Event::Turn, &settings);
            if turns <= max_turns {
                prop_assert!(report.is_none(), "turn {turns} of {max_turns} reported");
            } else {
                let verdict = report.expect("a turn-limit loop");
                prop_assert_eq!(verdict.turn, max_turns + 1);
                let pattern = verdict.pattern.expect("a pattern");
                prop_assert_eq!(pattern.kind, PatternType::TurnLimit);
                prop_assert_eq!(pattern.count, max_turns + 1);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Property 17: a detected loop is reported with its pattern's details
    /// and stops execution: the program exits 1 (the documented "negative
    /// verdict" code) so a `set -e` script stops, or 0 with --warn-only.
    #[test]
    fn property_17_loop_detection_stops_execution(
        kind in 0u8..3,
        name in "[a-z_]{1,10}",
        args in json_value(),
        text in "[a-z][a-z ]{0,39}",
    ) {
        let events: Vec<Value> = match kind {
            // One report past the first (a warning), so the verdict is a stop.
            0 => vec![json!({"type": "tool", "name": name, "args": args}); 4],
            1 => vec![json!({"type": "output", "text": text}); 4],
            _ => vec![json!({"type": "turn"}); 52],
        };
        let input: String = events.iter().map(|e| format!("{e}\n")).collect();
        let bin = env!("CARGO_BIN_EXE_ollm-loopcheck");
        let home = tempfile::tempdir().unwrap();
        let mut outputs = Vec::new();
        for warn_only in [false, true] {
            let mut cmd = assert_cmd::Command::new(bin);
            cmd.env_clear().env("OLLM_HOME", home.path()).env("HOME", home.path()).current_dir(home.path());
            if warn_only {
                cmd.arg("--warn-only");
            }
            let out = cmd.write_stdin(input.clone()).output().unwrap();
            prop_assert_eq!(out.status.code(), Some(i32::from(!warn_only)));
            let verdict: Verdict = serde_json::from_slice(&out.stdout).unwrap();
            prop_assert!(verdict.is_loop);
            let pattern = verdict.pattern.clone().expect("pattern details");
            prop_assert!(pattern.details.len() > 20);
            prop_assert!(pattern.details.contains(&pattern.count.to_string()));
            outputs.push(out.stdout);
        }
        prop_assert_eq!(&outputs[0], &outputs[1]);
    }
}

/// Events from a small alphabet, so loops, cycles and near-misses are common.
fn loopy_event() -> impl Strategy<Value = Event> {
    prop_oneof![
        3 => Just(Event::Turn),
        1 => Just(Event::User { text: "next".into() }),
        1 => Just(Event::Reset),
        6 => (0u8..3, 0u8..2, any::<bool>()).prop_map(|(name, arg, flip)| {
            let args = if flip {
                json!({"opts": {"line": arg}, "path": "f"})
            } else {
                json!({"path": "f", "opts": {"line": arg}})
            };
            Event::Tool { name: ["read", "edit", "test"][name as usize].into(), args }
        }),
        4 => (0u8..3, 0u32..20).prop_map(|(which, n)| Event::Output {
            text: match which {
                0 => format!("Waiting for the build to finish, attempt {n}"),
                1 => "All tests passed.".to_string(),
                _ => format!("{n}"),
            },
        }),
        // Chunks of a streamed output: repeated ones make repeated content,
        // Markdown structure restarts it.
        4 => prop::sample::select(CHUNKS).prop_map(|text| Event::Output { text: text.into() }),
    ]
}

const CHUNKS: &[&str] = &[
    "I will check the file again. ",
    "I will check the ",
    "file again. I will ",
    "la la ",
    "\n",
    "- item\n",
    "| a | b |\n",
    "```\n",
    "## Heading\n",
    "ERROR: retrying\n",
    "The answer is 42.",
];

/// Repeated-content settings: small windows and thresholds so loops are
/// common, the defaults, and off.
fn content_settings() -> impl Strategy<Value = (u64, u64)> {
    (
        prop_oneof![Just(10u64), Just(16), Just(50)],
        prop_oneof![Just(0u64), Just(2), Just(3), Just(10)],
    )
}

/// Single events and short blocks of events repeated a few times, so
/// repeats and cycles (broken or not by what comes next) are common.
fn loopy_events() -> impl Strategy<Value = Vec<Event>> {
    let segment = prop_oneof![
        2 => loopy_event().prop_map(|e| vec![e]),
        1 => (prop::collection::vec(loopy_event(), 1..4), 2usize..5)
            .prop_map(|(block, times)| (0..times).flat_map(|_| block.clone()).collect()),
    ];
    prop::collection::vec(segment, 0..20).prop_map(|segments| segments.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// One-shot, streaming and incremental (state file) runs of the same
    /// events give the same verdicts: the one-shot verdict is the stream's
    /// first stop, else its first line, and each incremental call reports
    /// the stream's first stop among its events, else its first warning
    /// (or the quiet verdict at its end).
    #[test]
    fn one_shot_streaming_and_incremental_agree(
        events in loopy_events(),
        cuts in prop::collection::vec(0usize..120, 0..12),
        threshold in 2u64..5,
        max_turns in 1u64..30,
        similarity in prop_oneof![Just(1.0f64), Just(0.9), Just(0.75)],
        cycle_max_length in 0u64..5,
        (content_chunk_size, content_repeat_threshold) in content_settings(),
        warnings_before_stop in 0u64..3,
    ) {
        let settings = Settings {
            enabled: true,
            max_turns,
            repeat_threshold: threshold,
            similarity_threshold: similarity,
            cycle_max_length,
            content_chunk_size,
            content_repeat_threshold,
            warnings_before_stop,
        };
        let one_shot = modes::one_shot(&events, &settings);

        let ndjson: String = events.iter().map(|e| format!("{}\n", serde_json::to_string(e).unwrap())).collect();
        let mut streamed: Vec<Verdict> = Vec::new();
        let found = modes::stream(ndjson.as_bytes(), "events", &settings, |v| {
            streamed.push(v.clone());
            Ok(())
        }).unwrap();
        prop_assert_eq!(found, one_shot.level);
        let gravest = |within: &dyn Fn(&Verdict) -> bool| {
            let reports: Vec<&Verdict> = streamed.iter().filter(|v| v.is_loop && within(v)).collect();
            reports
                .iter()
                .find(|v| v.level == Some(Level::Stop))
                .or(reports.first())
                .map(|v| (*v).clone())
        };
        prop_assert_eq!(gravest(&|_| true).unwrap_or_else(|| streamed[0].clone()), one_shot);

        let dir = tempfile::tempdir().unwrap();
        let state_path = dir.path().join("state.json");
        let mut bounds: Vec<usize> = cuts.into_iter().filter(|c| *c <= events.len()).collect();
        bounds.push(0);
        bounds.push(events.len());
        bounds.sort_unstable();
        bounds.dedup();
        let mut replica = Detector::new();
        for pair in bounds.windows(2) {
            let (start, end) = (pair[0], pair[1]);
            let verdict = state::advance(&state_path, &events[start..end], &settings).unwrap();
            for event in &events[start..end] {
                replica.push(event, &settings);
            }
            let expected = gravest(&|v| v.event > start as u64 && v.event <= end as u64)
                .unwrap_or_else(|| replica.quiet_verdict());
            prop_assert_eq!(verdict, expected);
        }
    }
}

/// Text with stretches that repeat (a degenerate answer), prose, and
/// Markdown structure.
fn output_text() -> impl Strategy<Value = String> {
    let segment = prop_oneof![
        ("[a-z]{1,8}( [a-z]{1,8}){1,6}\\. ", 1usize..16).prop_map(|(s, n)| s.repeat(n)),
        "[a-z ,.]{0,80}",
        prop::sample::select(CHUNKS).prop_map(str::to_string),
    ];
    prop::collection::vec(segment, 1..12).prop_map(|s| s.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// One output sent whole or streamed as several `output` events, cut
    /// anywhere (even inside a line or a code fence), finds the same
    /// repeated content: whether there is any, and the count of the first.
    #[test]
    fn repeated_content_does_not_depend_on_how_an_output_is_streamed(
        text in output_text(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..12),
        (content_chunk_size, content_repeat_threshold) in content_settings(),
    ) {
        // Repeated-output reports (identical chunks in a row) would hide
        // some content reports; this property is about the latter.
        let settings = Settings {
            repeat_threshold: 1_000,
            content_chunk_size,
            content_repeat_threshold,
            ..Settings::default()
        };
        let chars: Vec<char> = text.chars().collect();
        let mut bounds: Vec<usize> = cuts.iter().map(|i| i.index(chars.len() + 1)).collect();
        bounds.extend([0, chars.len()]);
        bounds.sort_unstable();
        bounds.dedup();
        let pieces: Vec<Event> = bounds
            .windows(2)
            .map(|w| Event::Output { text: chars[w[0]..w[1]].iter().collect() })
            .collect();
        let first_content = |events: &[Event]| {
            all_reports(events, &settings)
                .into_iter()
                .filter_map(|v| v.pattern)
                .find(|p| p.kind == PatternType::RepeatedContent)
                .map(|p| p.count)
        };
        let whole = first_content(&[Event::Turn, Event::Output { text: text.clone() }]);
        let mut streamed = vec![Event::Turn];
        streamed.extend(pieces);
        prop_assert_eq!(first_content(&streamed), whole);
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// The saved state stays bounded however long the outputs: at most
    /// 1,024 units' hashes and ends, whatever was streamed before.
    #[test]
    fn the_saved_state_stays_bounded(
        outputs in prop::collection::vec(output_text(), 1..8),
        (content_chunk_size, content_repeat_threshold) in content_settings(),
    ) {
        let settings = Settings { content_chunk_size, content_repeat_threshold, ..Settings::default() };
        let mut detector = Detector::new();
        let mut longest = 0;
        for text in outputs.iter().cycle().take(60) {
            detector.push(&Event::Output { text: text.clone() }, &settings);
            longest = longest.max(serde_json::to_string(&detector).unwrap().len());
        }
        // At most 1,024 unit hashes and ends, a preview, an 8 KiB output sample.
        let _ = (content_chunk_size, content_repeat_threshold);
        let bound = 1024 * 2 * 21 + 2 * 1024 + 8 * 1024 + 4096;
        prop_assert!(longest <= bound, "{} bytes > {}", longest, bound);
    }
}
