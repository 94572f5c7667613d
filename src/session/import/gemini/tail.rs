//! Reading gemini-cli's log, whole or only the lines appended since it was
//! last read (a hook call, a watcher's round).
//!
//! A log's later records need of its earlier ones the session's fields
//! (its first line and `$set`s), which messages are already in the
//! conversation and in what order, and the model named last. A read
//! leaves an [`Anchor`] holding the fields, the ids of the conversation's
//! messages (hashed to 64 bits), the last one's, the model named before
//! it and at the end, and the offset just past the last line read. The
//! next read of the log grown from that very offset reads the new lines
//! alone when each message they hold is new or replaces the last one
//! (gemini-cli updates the message it is writing: its tool calls, their
//! results): the conversation is then the earlier one followed by theirs.
//! It reads the whole file instead when:
//! - a new line rewinds (`$rewindTo`) or sets the message list;
//! - a new line replaces a message before the last (it keeps its place);
//! - the anchor stops elsewhere than the cursor (the log grew while it was
//!   read, or ended in lines not read).

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::JSONL;
use super::log::Meta;
use super::stream::Index;
use crate::error::Result;
use crate::session::import::cursor::{Anchor, Tail};
use crate::session::import::{Part, Skipped, Source, TailRead};

/// What an [`Anchor`] of a log holds (its `state`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Resume {
    offset: u64,
    meta: Meta,
    /// The conversation's message ids, hashed.
    ids: Vec<u64>,
    last: Option<u64>,
    model_before_last: Option<String>,
    model: Option<String>,
    /// What the lines before skipped (a torn line aside: it is read again).
    skipped: Skipped,
}

/// Reads the whole log `source`; the anchor a later tail continues from.
pub(super) fn whole(
    source: &Source,
    max_items: usize,
    each: &mut dyn FnMut(Part) -> Result<()>,
) -> Result<Option<Anchor>> {
    let mut skipped = Skipped::default();
    let index = Index::replay(&source.path, None, Meta::default(), &mut skipped)?;
    let ids: Vec<u64> = index.ids().map(short).collect();
    let (meta, end, past) = (index.meta.clone(), index.end, index.past_end);
    let mut header = index.header(&source.path);
    header.skipped = skipped;
    let ended = index.hand_over(&source.path, header, max_items, each)?;
    Ok((!past && source.kind == JSONL).then(|| {
        anchor(Resume {
            offset: end,
            meta,
            ids,
            last: ended.last.map(short),
            model_before_last: ended.model_before_last,
            model: ended.model,
            skipped: without_torn(ended.skipped),
        })
    }))
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
    let Some(resume) = tail
        .anchor
        .state
        .clone()
        .and_then(|state| serde_json::from_value::<Resume>(state).ok())
        .filter(|resume| resume.offset == tail.from && source.kind == JSONL)
    else {
        return Ok(TailRead::Whole);
    };
    let mut skipped = Skipped::default();
    let index = Index::replay(
        &source.path,
        Some((tail.from, tail.to)),
        resume.meta.clone(),
        &mut skipped,
    )?;
    let earlier: HashSet<u64> = resume.ids.iter().copied().collect();
    let new_ids: Vec<u64> = index.ids().map(short).collect();
    let replaces_last = resume
        .last
        .is_some_and(|last| new_ids.first() == Some(&last));
    // (The last message replaced after a new one came is one replaced
    // before the last: it keeps its place, before the new one.)
    let replaces_earlier = new_ids
        .iter()
        .enumerate()
        .any(|(at, id)| earlier.contains(id) && !(at == 0 && replaces_last));
    if index.reaches_back || index.past_end || replaces_earlier {
        return Ok(TailRead::Whole);
    }
    let (meta, end) = (index.meta.clone(), index.end);
    let mut header = index.header(&source.path);
    header.model = if replaces_last {
        resume.model_before_last.clone()
    } else {
        resume.model.clone()
    };
    header.skipped = resume.skipped;
    header.skipped.add(&skipped);
    let ended = index.hand_over(&source.path, header, max_items, each)?;
    let mut ids = resume.ids;
    ids.extend(new_ids.iter().filter(|id| !earlier.contains(id)));
    let (last, model_before_last) = match ended.last {
        Some(last) => (Some(short(last)), ended.model_before_last),
        None => (resume.last, resume.model_before_last),
    };
    Ok(TailRead::Read(Some(anchor(Resume {
        offset: end,
        meta,
        ids,
        last,
        model_before_last,
        model: ended.model,
        skipped: without_torn(ended.skipped),
    }))))
}

fn anchor(resume: Resume) -> Anchor {
    Anchor {
        id: resume.offset.to_string(),
        time: 0,
        response: None,
        state: serde_json::to_value(resume).ok(),
    }
}

fn short(id: u128) -> u64 {
    // The low half: a UUID's random bits.
    id as u64
}

fn without_torn(skipped: Skipped) -> Skipped {
    Skipped {
        torn_lines: 0,
        ..skipped
    }
}

#[cfg(test)]
mod tests;
