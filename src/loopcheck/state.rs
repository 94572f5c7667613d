//! The incremental mode's state file: the detector's bounded state, read,
//! advanced by this call's events and written back under a lock, so a
//! per-turn call costs the same at turn 5,000 as at turn 5.
//!
//! The file is a [`slots`] file: each call writes the new state in place
//! into the slot that does not hold the current one and syncs it once, so a
//! crash leaves the previous state. A state file of the first format (pretty
//! JSON, replaced atomically) is read, and replaced by a slotted one.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::detector::{Detector, Settings, Verdict};
use super::event::Event;
use crate::error::{Error, Result};
use crate::fs::locked_file;
use crate::fs::slots::{self, Contents, Slots};

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
    let (mut slots, mut detector) = match Slots::open(path)? {
        None => (None, Detector::new()),
        Some(Contents::Slotted(slots, payload)) => match parse(&payload, path)? {
            Ok(detector) => (Some(slots), detector),
            Err(why) => return Err(set_aside(path, &why)?),
        },
        Some(Contents::Other(bytes)) => match parse(&bytes, path)? {
            Ok(detector) => (None, detector),
            Err(why) => return Err(set_aside(path, &why)?),
        },
        Some(Contents::Unreadable(why)) => return Err(set_aside(path, &why)?),
    };
    let mut first = None;
    for event in events {
        let report = detector.push(event, settings);
        if first.is_none() {
            first = report;
        }
    }
    let verdict = first.unwrap_or_else(|| detector.quiet_verdict());
    let payload = serde_json::to_vec(&StateFile {
        version: VERSION,
        detector,
    })
    .map_err(|e| Error::input(format!("cannot encode {}: {e}", path.display())))?;
    let written = match &mut slots {
        Some(slots) => slots.write(path, &payload)?,
        None => false,
    };
    if !written {
        slots::create(path, &payload)?;
    }
    Ok(verdict)
}

/// The detector in a state's JSON; `Ok(Err(why))` when it is not a state
/// of this version.
fn parse(bytes: &[u8], path: &Path) -> Result<std::result::Result<Detector, String>> {
    let state: StateFile = match serde_json::from_slice(bytes) {
        Ok(state) => state,
        Err(e) => return Ok(Err(crate::io_util::one_line(&e.to_string()))),
    };
    if state.version != VERSION {
        return Err(Error::Corrupt(format!(
            "loop state {} has version {}, expected {VERSION}; delete it to start over",
            path.display(),
            state.version
        )));
    }
    Ok(Ok(state.detector))
}

fn set_aside(path: &Path, why: &str) -> Result<Error> {
    locked_file::set_aside(path, "loop state", why)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn() -> Vec<Event> {
        vec![Event::Turn]
    }

    #[test]
    fn a_state_of_the_first_format_is_continued_and_then_slotted() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        let mut detector = Detector::new();
        for event in turn().iter().chain(turn().iter()) {
            detector.push(event, &Settings::default());
        }
        let old = StateFile {
            version: VERSION,
            detector,
        };
        std::fs::write(&path, serde_json::to_vec_pretty(&old).unwrap()).unwrap();
        let verdict = advance(&path, &turn(), &Settings::default()).unwrap();
        assert_eq!((verdict.event, verdict.turn), (3, 3));
        assert!(slots::is_slotted(&std::fs::read(&path).unwrap()));
        let verdict = advance(&path, &turn(), &Settings::default()).unwrap();
        assert_eq!((verdict.event, verdict.turn), (4, 4));
    }

    #[test]
    fn every_call_after_the_first_writes_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        advance(&path, &turn(), &Settings::default()).unwrap();
        let inode = |p: &Path| std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(p).unwrap());
        let first = inode(&path);
        for n in 2..20 {
            let verdict = advance(&path, &turn(), &Settings::default()).unwrap();
            assert_eq!(verdict.turn, n);
        }
        assert_eq!(
            inode(&path),
            first,
            "the file was replaced, not written in place"
        );
    }
}
