use super::*;
use serde_json::json;

fn tool(name: &str, args: serde_json::Value) -> Event {
    Event::Tool {
        name: name.into(),
        args,
    }
}

fn first(events: &[Event]) -> Option<Pattern> {
    all_reports(events, &Settings::default())
        .into_iter()
        .next()
        .and_then(|v| v.pattern)
}

#[test]
fn three_identical_calls_are_a_loop_and_two_are_not() {
    let call = tool("read", json!({"path": "a", "opts": {"line": 1}}));
    assert_eq!(first(&[call.clone(), call.clone()]), None);
    let p = first(&[call.clone(), call.clone(), call]).unwrap();
    assert_eq!((p.kind, p.count), (PatternType::RepeatedTool, 3));
    assert!(p.details.contains("`read`"), "{}", p.details);
}

#[test]
fn nested_argument_differences_break_the_run() {
    let events: Vec<Event> = (0..6)
        .map(|i| tool("read", json!({"path": "a", "opts": {"line": i % 2}})))
        .collect();
    // Alternating nested args is a cycle of two distinct calls, not a repeat.
    let p = first(&events).unwrap();
    assert_eq!(p.kind, PatternType::ToolCycle);
    let events: Vec<Event> = (0..6)
        .map(|i| tool("read", json!({"path": "a", "opts": {"line": i}})))
        .collect();
    assert_eq!(first(&events), None);
}

#[test]
fn a_user_message_resets_tracking_but_not_turns() {
    let call = tool("ls", json!({}));
    let events = [
        call.clone(),
        call.clone(),
        Event::User {
            text: "go on".into(),
        },
        call.clone(),
        call.clone(),
    ];
    assert_eq!(first(&events), None);
    let mut d = Detector::new();
    let s = Settings {
        max_turns: 2,
        ..Settings::default()
    };
    for e in [
        Event::Turn,
        Event::User {
            text: String::new(),
        },
        Event::Turn,
    ] {
        assert_eq!(d.push(&e, &s), None);
    }
    let v = d.push(&Event::Turn, &s).unwrap();
    assert_eq!(v.pattern.unwrap().kind, PatternType::TurnLimit);
    assert_eq!(v.turn, 3);
}

#[test]
fn turn_limit_is_reported_only_beyond_max_turns() {
    let s = Settings {
        max_turns: 5,
        ..Settings::default()
    };
    let events = vec![Event::Turn; 5];
    assert!(all_reports(&events, &s).is_empty());
    let events = vec![Event::Turn; 7];
    let reports = all_reports(&events, &s);
    assert_eq!(reports.len(), 2);
    assert_eq!(reports[0].turn, 6);
}

#[test]
fn reset_starts_a_new_conversation() {
    let s = Settings {
        max_turns: 1,
        ..Settings::default()
    };
    let events = [Event::Turn, Event::Reset, Event::Turn];
    assert!(all_reports(&events, &s).is_empty());
}

#[test]
fn cycles_of_two_and_three_are_found_and_named_in_order() {
    let a = tool("a", json!({}));
    let b = tool("b", json!({"x": 1}));
    let c = tool("c", json!([1]));
    let ab: Vec<Event> = [&a, &b].repeat(3).into_iter().cloned().collect();
    let p = first(&ab).unwrap();
    assert_eq!((p.kind, p.count), (PatternType::ToolCycle, 3));
    assert!(p.details.contains("`a` → `b`"), "{}", p.details);
    assert_eq!(first(&ab[..5]), None);
    let abc: Vec<Event> = [&a, &b, &c].repeat(3).into_iter().cloned().collect();
    assert_eq!(first(&abc[..8]), None);
    let p = first(&abc).unwrap();
    assert!(p.details.contains("`a` → `b` → `c`"), "{}", p.details);
    let mut shifted = vec![c.clone()];
    shifted.extend(abc.iter().cloned());
    assert!(first(&shifted).unwrap().details.contains("`c` → `a` → `b`"));
}

#[test]
fn cycles_can_be_disabled() {
    let s = Settings {
        cycle_max_length: 1,
        ..Settings::default()
    };
    let events: Vec<Event> = (0..10)
        .map(|i| tool(if i % 2 == 0 { "a" } else { "b" }, json!({})))
        .collect();
    assert!(all_reports(&events, &s).is_empty());
}

#[test]
fn similar_outputs_are_a_loop() {
    let events: Vec<Event> = (0..3)
        .flat_map(|i| {
            [
                Event::Turn,
                Event::Output {
                    text: format!("Still waiting for the deployment to finish (check {i})"),
                },
            ]
        })
        .collect();
    assert_eq!(first(&events).unwrap().kind, PatternType::RepeatedOutput);
}

#[test]
fn similar_chunks_of_one_streamed_output_are_not_repeated_output() {
    let link = |n: u32| format!("[#{n}]: https://github.com/tokio-rs/tokio/pull/{n}\n");
    let chunks: Vec<Event> = (2880..2890)
        .map(|n| Event::Output { text: link(n) })
        .collect();
    let mut streamed = vec![Event::Turn];
    streamed.extend(chunks.iter().cloned());
    assert_eq!(first(&streamed), None);
    // The same texts as outputs of turns in a row are a loop.
    let turns: Vec<Event> = chunks
        .into_iter()
        .flat_map(|chunk| [Event::Turn, chunk])
        .collect();
    assert_eq!(first(&turns).unwrap().kind, PatternType::RepeatedOutput);
    // An identical chunk three times in a row still is (Property 15).
    let same = vec![Event::Output { text: link(7) }; 3];
    assert_eq!(first(&same).unwrap().kind, PatternType::RepeatedOutput);
}

#[test]
fn similar_outputs_about_different_work_are_not_a_loop() {
    let mut events = Vec::new();
    for i in 0..5 {
        events.push(tool("edit", json!({"path": format!("f{i}.rs")})));
        events.push(Event::Output {
            text: format!("Edited f{i}.rs: renamed foo to bar."),
        });
    }
    assert_eq!(first(&events), None);
    // The same calls before each similar output: a loop.
    let mut events = Vec::new();
    for i in 0..3 {
        events.push(tool("status", json!({"job": 7})));
        events.push(Event::Output {
            text: format!("Job 7 still running (poll {i})."),
        });
    }
    let reports = all_reports(&events, &Settings::default());
    assert!(
        reports
            .iter()
            .any(|v| v.pattern.as_ref().unwrap().kind == PatternType::RepeatedOutput)
    );
}

#[test]
fn identical_outputs_repeat_whatever_came_between_and_blank_ones_are_ignored() {
    let mut events = Vec::new();
    for i in 0..3 {
        events.push(tool("edit", json!({"path": format!("f{i}.rs")})));
        events.push(Event::Output {
            text: String::new(),
        });
        events.push(Event::Output {
            text: "Done.".into(),
        });
    }
    assert_eq!(first(&events).unwrap().kind, PatternType::RepeatedOutput);
    let blanks = vec![Event::Output { text: " \n".into() }; 5];
    assert_eq!(first(&blanks), None);
}

#[test]
fn one_output_repeating_a_sentence_is_repeated_content_across_its_chunks() {
    let sentence = "I will read the configuration file again to be sure. ";
    let whole = Event::Output {
        text: sentence.repeat(6),
    };
    let p = first(&[Event::Turn, whole]).unwrap();
    assert_eq!(p.kind, PatternType::RepeatedContent);
    assert!(
        p.count >= 4 && p.details.contains("configuration file"),
        "{p:?}"
    );
    // Streamed as chunks, the same; a tool call between them starts a new output.
    let chunks: Vec<Event> = (0..6)
        .map(|_| Event::Output {
            text: sentence.into(),
        })
        .collect();
    let s = Settings {
        repeat_threshold: 100,
        ..Settings::default()
    };
    let streamed = all_reports(&chunks, &s);
    assert_eq!(
        streamed[0].pattern.as_ref().unwrap().kind,
        PatternType::RepeatedContent
    );
    let mut interrupted = Vec::new();
    for chunk in chunks {
        interrupted.push(chunk);
        interrupted.push(tool("read", json!({"path": "config.yaml"})));
    }
    let kinds: Vec<PatternType> = all_reports(&interrupted, &s)
        .into_iter()
        .filter_map(|v| v.pattern.map(|p| p.kind))
        .collect();
    assert!(!kinds.contains(&PatternType::RepeatedContent), "{kinds:?}");
}

#[test]
fn the_first_report_warns_and_one_after_it_stops_until_the_user_speaks() {
    let call = tool("ls", json!({}));
    let levels = |events: &[Event], s: &Settings| -> Vec<(u64, Option<Level>)> {
        all_reports(events, s)
            .into_iter()
            .map(|v| (v.event, v.level))
            .collect()
    };
    let s = Settings::default();
    let four = vec![call.clone(); 4];
    assert_eq!(
        levels(&four, &s),
        [(3, Some(Level::Warn)), (4, Some(Level::Stop))]
    );
    // A different loop after the warning is a stop too; a user message forgets the warning.
    let mut events = vec![call.clone(); 3];
    events.push(Event::Turn);
    events.extend(vec![tool("cat", json!({"path": "a"})); 3]);
    events.push(Event::User {
        text: "go on".into(),
    });
    events.extend(vec![call.clone(); 3]);
    assert_eq!(
        levels(&events, &s),
        [
            (3, Some(Level::Warn)),
            (7, Some(Level::Stop)),
            (11, Some(Level::Warn))
        ]
    );
    let stop_at_once = Settings {
        warnings_before_stop: 0,
        ..Settings::default()
    };
    assert_eq!(levels(&four[..3], &stop_at_once), [(3, Some(Level::Stop))]);
    let patient = Settings {
        warnings_before_stop: 2,
        ..Settings::default()
    };
    assert_eq!(
        levels(&[four.clone(), vec![call]].concat(), &patient),
        [
            (3, Some(Level::Warn)),
            (4, Some(Level::Warn)),
            (5, Some(Level::Stop))
        ]
    );
    // The verdict for a batch is its first stop, else its first warning.
    let verdicts = all_reports(&four, &s);
    let gravest_of = |vs: &[Verdict]| {
        vs.iter()
            .cloned()
            .fold(None, |first, v| gravest(first, Some(v)))
    };
    assert_eq!(gravest_of(&verdicts).unwrap().event, 4);
    assert_eq!(gravest_of(&verdicts[..1]).unwrap().event, 3);
}

#[test]
fn disabled_never_reports() {
    let s = Settings {
        enabled: false,
        max_turns: 1,
        ..Settings::default()
    };
    let call = tool("ls", json!({}));
    let events = [Event::Turn, Event::Turn, call.clone(), call.clone(), call];
    assert!(all_reports(&events, &s).is_empty());
}

#[test]
fn state_round_trips_through_json() {
    let mut d = Detector::new();
    let s = Settings::default();
    for e in [
        Event::Turn,
        tool("a", json!({"k": [1, 2]})),
        Event::Output { text: "x".into() },
    ] {
        d.push(&e, &s);
    }
    let text = serde_json::to_string(&d).unwrap();
    let back: Detector = serde_json::from_str(&text).unwrap();
    assert_eq!(back, d);
}
