//! The incremental mode's state file: the detector's bounded state, read,
//! advanced by this call's events and written back under a lock, so a
//! per-turn call costs the same at turn 5,000 as at turn 5.
//!
//! The file is a [`slots`] file: each call writes the new state in place
//! into the slot that does not hold the current one and syncs it once, so a
//! crash leaves the previous state. A state file of the first format (pretty
//! JSON, replaced atomically) is read, and replaced by a slotted one.
//!
//! Only a file of ours is ever written or set aside: a slotted file, or
//! JSON carrying `"format": "ollm-loop-state"` or the first format's layout
//! (`{"version":1,"detector":{…}}`). Any other file named by `--state` (a
//! user's `package.json`) is refused before its lock file is made.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::detector::{Detector, Settings, Verdict};
use super::event::Event;
use crate::error::{Error, Result};
use crate::fs::locked_file;
use crate::fs::slots::{self, Contents, Slots};

const VERSION: u32 = 1;

/// The format marker of a state's JSON.
const MARKER: &str = "ollm-loop-state";

/// How a state file is told from any other file.
const FORMAT: locked_file::Format = locked_file::Format {
    what: "loop state",
    marker: MARKER,
    slotted: true,
    earlier: |object| {
        object.len() == 2
            && object.get("version").is_some_and(serde_json::Value::is_u64)
            && object
                .get("detector")
                .is_some_and(serde_json::Value::is_object)
    },
    earlier_start: "{\"version\":1,\"detector\":",
};

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct StateFile {
    /// [`MARKER`]; states written before it have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    format: Option<String>,
    version: u32,
    detector: Detector,
}

/// Applies `events` to the state in `path` (a fresh state when missing) and
/// returns this call's verdict: the first stop its events report, else the
/// first warning, or quiet.
/// A file at `path` that is not a state file is refused (exit 2) and left
/// as it is, with nothing created beside it; a state file that cannot be
/// read is set aside (exit 6).
pub fn advance(path: &Path, events: &[Event], settings: &Settings) -> Result<Verdict> {
    let _lock = locked_file::lock(path, &FORMAT)?;
    let (mut slots, mut detector) = match Slots::open(path)? {
        None => (None, Detector::new()),
        Some(Contents::Slotted(slots, payload)) => match parse(&payload, path)? {
            Ok(detector) => (Some(slots), detector),
            Err(why) => return Err(set_aside(path, &why)?),
        },
        // Checked again under the lock: it may have been replaced meanwhile.
        Some(Contents::Other(bytes)) if !FORMAT.recognises(&bytes) => {
            return Err(FORMAT.refuse(path));
        }
        Some(Contents::Other(bytes)) => match parse(&bytes, path)? {
            Ok(detector) => (None, detector),
            Err(why) => return Err(set_aside(path, &why)?),
        },
        Some(Contents::Unreadable(why)) => return Err(set_aside(path, &why)?),
    };
    let mut first = None;
    for event in events {
        first = super::detector::gravest(first, detector.push(event, settings));
    }
    let verdict = first.unwrap_or_else(|| detector.quiet_verdict());
    let payload = serde_json::to_vec(&StateFile {
        format: Some(MARKER.to_string()),
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
        Err(e) => return Ok(Err(crate::text::one_line(&e.to_string()))),
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
            format: None,
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

    fn names(dir: &Path) -> Vec<String> {
        crate::fs::names_in(dir)
    }

    #[test]
    fn the_state_carries_the_format_marker() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        advance(&path, &turn(), &Settings::default()).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let payload: serde_json::Value =
            serde_json::from_slice(slots::current(&bytes).unwrap()).unwrap();
        assert_eq!(payload["format"], MARKER);
        assert_eq!(payload["version"], VERSION);
    }

    #[test]
    fn a_file_that_is_not_a_state_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("package.json");
        for text in [
            "{\"name\": \"app\", \"version\": \"1.0.0\"}\n",
            "{\"version\": 1}",
            "",
            "not json",
        ] {
            std::fs::write(&path, text).unwrap();
            let err = advance(&path, &turn(), &Settings::default()).unwrap_err();
            assert_eq!(err.exit_code(), crate::ExitCode::Usage, "{text:?}: {err}");
            assert_eq!(names(dir.path()), ["package.json"], "{text:?}");
            assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        }
    }

    #[test]
    fn a_damaged_state_of_ours_is_set_aside() {
        for damaged in [
            b"{\"version\":1,\"detector\":".to_vec(),
            b"{\"format\":\"ollm-loop-state\",\"version\":1,\"detector\":\"broken\"}".to_vec(),
            b"OLLMSLOT\x01\x00\x00\x00\x00\x10\x00\x00".to_vec(),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("state.json");
            std::fs::write(&path, &damaged).unwrap();
            let err = advance(&path, &turn(), &Settings::default()).unwrap_err();
            assert_eq!(err.exit_code(), crate::ExitCode::Corrupt, "{err}");
            assert!(!path.exists());
            let aside: Vec<String> = names(dir.path())
                .into_iter()
                .filter(|n| n.starts_with("state.json.corrupt-"))
                .collect();
            assert_eq!(aside.len(), 1);
            assert_eq!(std::fs::read(dir.path().join(&aside[0])).unwrap(), damaged);
        }
    }
}
