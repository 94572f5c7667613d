//! Any bytes as loopcheck's NDJSON events: each line is an event or a
//! one-line error; every parsed event serializes and re-parses equal; the
//! detector takes any events without panicking, and so does a detector
//! restored from any state that parses (the first line, as a `--state` file).
#![no_main]
use libfuzzer_sys::fuzz_target;
use ollm::loopcheck::event::parse_line;
use ollm::loopcheck::{Detector, Event, Settings};

fuzz_target!(|data: &[u8]| {
    let mut events = Vec::new();
    let _ = ollm::input::for_each_line(data, "fuzz", |n, line| {
        match parse_line(line, "fuzz", n) {
            Ok(event) => {
                let text = serde_json::to_string(&event).expect("an event serializes");
                let again = parse_line(&text, "again", 1).expect("a written event re-parses");
                assert_eq!(event, again);
                events.push(event);
            }
            Err(err) => assert!(!err.to_string().contains('\n'), "{err}"),
        }
        Ok(())
    });
    let settings = [
        Settings::from(&ollm::config::LoopDetectionConfig::default()),
        Settings {
            enabled: true,
            max_turns: 3,
            repeat_threshold: 2,
            similarity_threshold: 0.5,
            cycle_max_length: 16,
            // The smallest window and threshold: repeated-content at its most eager.
            content_chunk_size: 10,
            content_repeat_threshold: 2,
            // Every report a stop at once: the levels' other path.
            warnings_before_stop: 0,
        },
    ];
    for settings in &settings {
        let mut detector = Detector::new();
        for event in &events {
            let _ = detector.push(event, settings);
        }
        assert_eq!(detector.events(), events.len() as u64);
        let first = data.split(|&b| b == b'\n').next().unwrap_or_default();
        if let Ok(mut restored) = serde_json::from_slice::<Detector>(first) {
            for event in events.iter().chain([&Event::Turn]) {
                let _ = restored.push(event, settings);
            }
            let _ = restored.quiet_verdict();
        }
    }
});
