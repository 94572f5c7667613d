//! The incremental mode's state file: the detector's bounded state, read,
//! advanced by this call's events and replaced atomically under a lock, so a
//! per-turn call costs the same at turn 5,000 as at turn 5.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::detector::{Detector, Settings, Verdict};
use super::event::Event;
use crate::error::{Error, Result};
use crate::locked_file;

const VERSION: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct StateFile {
    version: u32,
    detector: Detector,
}

/// Applies `events` to the state in `path` (a fresh state when missing) and
/// returns this call's verdict: the first loop its events report, or quiet.
pub fn advance(path: &Path, events: &[Event], settings: &Settings) -> Result<Verdict> {
    let _lock = locked_file::lock(path)?;
    let mut detector = match locked_file::read::<StateFile>(path, "loop state")? {
        Some(state) if state.version == VERSION => state.detector,
        Some(state) => {
            return Err(Error::Corrupt(format!(
                "loop state {} has version {}, expected {VERSION}; delete it to start over",
                path.display(),
                state.version
            )));
        }
        None => Detector::new(),
    };
    let mut first = None;
    for event in events {
        let report = detector.push(event, settings);
        if first.is_none() {
            first = report;
        }
    }
    let verdict = first.unwrap_or_else(|| detector.quiet_verdict());
    locked_file::write(
        path,
        &StateFile {
            version: VERSION,
            detector,
        },
    )?;
    Ok(verdict)
}
