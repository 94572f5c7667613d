//! The three ways to run the detector. They share [`Detector`], so for the
//! same events they report the same verdicts (a property test checks it).

use std::io::BufRead;

use super::detector::{Detector, Level, Settings, Verdict, gravest};
use super::event::{self, Event};
use crate::error::Result;
use crate::input;

/// One-shot: the first stop anywhere in `events`, else the first warning,
/// or the quiet verdict after all of them.
pub fn one_shot(events: &[Event], settings: &Settings) -> Verdict {
    let mut detector = Detector::new();
    let mut first = None;
    for event in events {
        first = gravest(first, detector.push(event, settings));
    }
    first.unwrap_or_else(|| detector.quiet_verdict())
}

/// Streaming: reads NDJSON events line by line and calls `emit` with each
/// report as soon as its event is read; at the end of input, when nothing
/// was reported, emits the quiet verdict once. Returns the gravest level reported.
pub fn stream(
    reader: impl BufRead,
    name: &str,
    settings: &Settings,
    mut emit: impl FnMut(&Verdict) -> Result<()>,
) -> Result<Option<Level>> {
    let mut detector = Detector::new();
    let mut reported = None;
    input::for_each_line(reader, name, |line, text| {
        let event = event::parse_line(text, name, line)?;
        if let Some(verdict) = detector.push(&event, settings) {
            reported = reported.max(verdict.level);
            emit(&verdict)?;
        }
        Ok(())
    })?;
    if reported.is_none() {
        emit(&detector.quiet_verdict())?;
    }
    Ok(reported)
}
