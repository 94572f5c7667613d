//! Reading a rollout, whole or only the lines appended since it was last
//! read (a hook call, a watcher's round).
//!
//! A rollout's records need little of the lines before them: the
//! session's fields so far (its id, working directory, model, title, the
//! first and last times), whether the last prompt awaits its `event_msg`
//! copy, and the calls still waiting for their output. So a read leaves
//! an [`Anchor`] holding those fields ([`record::State`]), the offset just
//! past the last line it read and that line's number (item keys are line
//! numbers), when no call waits for its output there. The next read of
//! the file grown from that very offset reads the new lines alone, with
//! the fields carried over, and hands over what a whole read would add.
//! It reads the whole file instead when:
//! - the anchor stops elsewhere than the cursor (the file grew while it
//!   was read, or ended in lines not read: blank, overlong, torn but
//!   parsed);
//! - a `thread_rolled_back` is among the new lines (the turns it takes
//!   back may be before them).
//!
//! An output whose call is before the anchor cannot come: no call was
//! waiting there. A compressed rollout is never tailed (its cursor is a
//! hash of the whole file).

use serde::{Deserialize, Serialize};

use super::record::{Reader, State};
use super::{JSONL, codex_home_of, index};
use crate::error::Result;
use crate::session::import::cursor::{Anchor, Tail};
use crate::session::import::lines::{self, Line};
use crate::session::import::parts::Parts;
use crate::session::import::{Part, Skipped, Source, TailRead};

/// What an [`Anchor`] of a rollout holds (its `state`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Resume {
    /// The offset just past the last line read, and that line's number.
    offset: u64,
    line: u64,
    /// What the lines before skipped (a torn line aside: it is read again).
    skipped: Skipped,
    state: State,
}

/// Reads the whole rollout `source`; the anchor a later tail continues
/// from, if any.
pub(super) fn whole(
    source: &Source,
    max_items: usize,
    each: &mut dyn FnMut(Part) -> Result<()>,
) -> Result<Option<Anchor>> {
    match read(source, None, max_items, each)? {
        TailRead::Read(anchor) => Ok(anchor),
        TailRead::Whole => Ok(None),
    }
}

/// Reads only the lines `tail` names when they can be read alone (see the
/// module's comment); [`TailRead::Whole`], having handed nothing over,
/// otherwise.
pub(super) fn tail(
    source: &Source,
    tail: &Tail,
    max_items: usize,
    each: &mut dyn FnMut(Part) -> Result<()>,
) -> Result<TailRead> {
    let resume = tail
        .anchor
        .state
        .clone()
        .and_then(|state| serde_json::from_value::<Resume>(state).ok())
        .filter(|resume| resume.offset == tail.from && source.kind == JSONL);
    match resume {
        Some(resume) => read(source, Some((resume, tail.to)), max_items, each),
        None => Ok(TailRead::Whole),
    }
}

/// Where the lines read stop: past the last complete line, and whether a
/// line after it (unfinished) was read into the records.
struct Stop {
    offset: u64,
    line: u64,
    past: bool,
}

/// Reads the rollout in two passes, handing it over in parts of at most
/// `max_items` items: the first keeps only the items' keys, to learn which
/// stay to the end (a rollback takes turns back) and where each call's
/// output is; the second hands each item over once it is final. So what
/// is held is the keys, and the items between a call and its output.
/// With `resume`, only the lines up to `to` after it are read.
fn read(
    source: &Source,
    resume: Option<(Resume, u64)>,
    max_items: usize,
    each: &mut dyn FnMut(Part) -> Result<()>,
) -> Result<TailRead> {
    let reader = |lean: bool| match &resume {
        Some((resume, _)) => Reader::resumed(source, resume.state.clone(), lean),
        None if lean => Reader::lean(source),
        None => Reader::new(source),
    };
    let range = resume.as_ref().map(|(resume, to)| (resume.offset, *to));
    let before = resume.as_ref().map_or(0, |(resume, _)| resume.line);
    let mut stop = Stop {
        offset: range.map_or(0, |(from, _)| from),
        line: before,
        past: false,
    };
    let mut first = reader(true);
    let mut skipped = Skipped::default();
    each_line(source, range, &mut skipped, |line, skipped| {
        let number = before + line.number;
        let parsed = line.parse::<serde_json::Value>(skipped);
        if line.complete {
            (stop.offset, stop.line) = (line.offset + line.length, number);
        } else {
            stop.past |= parsed.is_some();
        }
        if let Some(value) = parsed {
            first.record(number, value, skipped);
        }
        Ok(())
    })?;
    if resume.is_some() && first.rolled_back() {
        return Ok(TailRead::Whole);
    }
    let state = first.state();
    let mut second = reader(false).handing_over(&first);
    let mut header = first.finish();
    header.items = Vec::new();
    if let Some((resume, _)) = &resume {
        header.skipped.add(&resume.skipped);
    }
    header.skipped.add(&skipped);
    let anchor = state
        .filter(|_| !stop.past && source.kind == JSONL)
        .and_then(|state| {
            let resume = Resume {
                offset: stop.offset,
                line: stop.line,
                skipped: Skipped {
                    torn_lines: 0,
                    ..header.skipped
                },
                state,
            };
            Some(Anchor {
                id: stop.line.to_string(),
                time: 0,
                response: None,
                state: Some(serde_json::to_value(resume).ok()?),
            })
        });
    if header.title.is_none()
        && let Some(home) = codex_home_of(&source.path)
    {
        header.title = index::thread_name(&home, &header.source_id);
    }
    let mut parts = Parts::new(max_items);
    let mut again = Skipped::default();
    each_line(source, range, &mut again, |line, again| {
        let number = before + line.number;
        if let Some(value) = line.parse::<serde_json::Value>(again) {
            second.record(number, value, again);
        }
        for item in second.take_ready(number) {
            if let Some(full) = parts.push(item) {
                parts.hand_over(&header, full, false, each)?;
            }
        }
        Ok(())
    })?;
    for item in second.finish().items {
        if let Some(full) = parts.push(item) {
            parts.hand_over(&header, full, false, each)?;
        }
    }
    let rest = parts.take();
    parts.hand_over(&header, rest, true, each)?;
    Ok(TailRead::Read(anchor))
}

/// Each line of the rollout, or of its bytes `range` only.
fn each_line(
    source: &Source,
    range: Option<(u64, u64)>,
    skipped: &mut Skipped,
    each: impl FnMut(Line<'_>, &mut Skipped) -> Result<()>,
) -> Result<()> {
    match range {
        Some(range) => lines::each_line_in(&source.path, range, skipped, each),
        None => lines::each_line(&source.path, skipped, each),
    }
}

#[cfg(test)]
mod tests;
