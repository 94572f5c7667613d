//! A source session handed over in parts: a bounded number of its items
//! at a time, with the session's fields as far as they are known, so that
//! neither a reader nor the writer holds a huge session whole.

use serde_json::Value;

use super::{Body, Item, Outcome, Transcript};
use crate::error::Result;

/// The most items a [`Part`] holds (fewer when they weigh more than
/// [`PART_BYTES`]).
pub const PART_ITEMS: usize = 2000;
/// About the most text a [`Part`] holds, in bytes.
pub const PART_BYTES: usize = 4 << 20;

/// A part of one source session, handed over in order: the session's
/// fields as far as they are known (final in the last part, which also
/// holds what was skipped) and the next of its items.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    pub transcript: Transcript,
    pub first: bool,
    pub last: bool,
}

/// Hands `transcript` over in parts of at most `max_items` items (and
/// about [`PART_BYTES`]); one part when it has no items.
pub fn split(
    mut transcript: Transcript,
    max_items: usize,
    each: &mut dyn FnMut(Part) -> Result<()>,
) -> Result<()> {
    let items = std::mem::take(&mut transcript.items);
    let mut parts = Parts::new(max_items);
    for item in items {
        if let Some(full) = parts.push(item) {
            parts.hand_over(&transcript, full, false, each)?;
        }
    }
    let rest = parts.take();
    parts.hand_over(&transcript, rest, true, each)
}

/// Items gathered into parts, and whether the first was handed over.
#[derive(Debug)]
pub struct Parts {
    max_items: usize,
    items: Vec<Item>,
    bytes: usize,
    started: bool,
}

impl Parts {
    pub fn new(max_items: usize) -> Parts {
        Parts {
            max_items: max_items.max(1),
            items: Vec::new(),
            bytes: 0,
            started: false,
        }
    }

    /// Adds `item`; returns the items of a full part.
    pub fn push(&mut self, item: Item) -> Option<Vec<Item>> {
        self.bytes += item.weight();
        self.items.push(item);
        (self.items.len() >= self.max_items || self.bytes >= PART_BYTES).then(|| self.take())
    }

    /// The items gathered so far.
    pub fn take(&mut self) -> Vec<Item> {
        self.bytes = 0;
        std::mem::take(&mut self.items)
    }

    /// Hands `items` over as the next part, with `header`'s fields.
    pub fn hand_over(
        &mut self,
        header: &Transcript,
        items: Vec<Item>,
        last: bool,
        each: &mut dyn FnMut(Part) -> Result<()>,
    ) -> Result<()> {
        let mut transcript = Transcript {
            items: Vec::new(),
            ..header.clone()
        };
        transcript.items = items;
        let first = !std::mem::replace(&mut self.started, true);
        each(Part {
            transcript,
            first,
            last,
        })
    }
}

/// A session handed over in parts as its source is read: what a reader
/// gathered in a transcript's items is handed over once final, the
/// transcript giving the other fields as far as they are known.
pub struct Handing<'e> {
    parts: Parts,
    each: &'e mut dyn FnMut(Part) -> Result<()>,
}

impl<'e> Handing<'e> {
    pub fn new(max_items: usize, each: &'e mut dyn FnMut(Part) -> Result<()>) -> Handing<'e> {
        Handing {
            parts: Parts::new(max_items),
            each,
        }
    }

    /// Takes the items of `transcript` (final) and hands over full parts.
    pub fn items_done(&mut self, transcript: &mut Transcript) -> Result<()> {
        for item in std::mem::take(&mut transcript.items) {
            if let Some(full) = self.parts.push(item) {
                self.parts.hand_over(transcript, full, false, self.each)?;
            }
        }
        Ok(())
    }

    /// Hands over the items `transcript` still holds and the last part,
    /// with its final fields.
    pub fn finish(mut self, transcript: &mut Transcript) -> Result<()> {
        self.items_done(transcript)?;
        let rest = self.parts.take();
        self.parts.hand_over(transcript, rest, true, self.each)
    }
}

/// Gathers the parts of each session back into whole transcripts.
#[cfg(test)]
pub fn whole(parts: Vec<Part>) -> Vec<Transcript> {
    let mut out: Vec<Transcript> = Vec::new();
    for part in parts {
        let mut transcript = part.transcript;
        if !part.first
            && let Some(open) = out.last_mut()
        {
            let mut items = std::mem::take(&mut open.items);
            items.append(&mut transcript.items);
            transcript.items = items;
            *open = transcript;
        } else {
            out.push(transcript);
        }
    }
    out
}

impl Item {
    /// About how many bytes of text it holds (what bounds a [`Part`]).
    pub fn weight(&self) -> usize {
        fn of(value: &Value) -> usize {
            match value {
                Value::String(s) => s.len() + 2,
                Value::Array(items) => items.iter().map(of).sum::<usize>() + 2,
                Value::Object(map) => map.iter().map(|(k, v)| k.len() + of(v) + 4).sum(),
                _ => 8,
            }
        }
        let body = match &self.body {
            Body::Message { text, images, .. } => text.len() + images.iter().map(of).sum::<usize>(),
            Body::ToolCall(call) => {
                let outcome = match &call.outcome {
                    Outcome::Done(text) | Outcome::Failed(text) => text.len(),
                    Outcome::NoResult(_) => 0,
                };
                call.call_id.len() + call.name.len() + of(&call.args) + outcome
            }
        };
        body + self.key.len() + 64
    }
}

/// Each message item of `t`, by its key, with its images.
#[cfg(test)]
pub fn message_images(t: &Transcript) -> Vec<(&str, &[Value])> {
    t.items
        .iter()
        .filter_map(|item| match &item.body {
            Body::Message { images, .. } => Some((item.key.as_str(), images.as_slice())),
            Body::ToolCall(_) => None,
        })
        .collect()
}

/// Checks that `read_parts` hands `expected` (the sessions read whole)
/// over alike in parts of 1, 2, 3 items and of all of them: each session
/// opened and closed once, no part too large, nothing lost, doubled or
/// moved, and the fields final in each session's last part.
#[cfg(test)]
pub fn assert_parts_agree(
    expected: &[Transcript],
    read_parts: impl Fn(usize, &mut dyn FnMut(Part) -> Result<()>) -> Result<()>,
) {
    let items: usize = expected.iter().map(|t| t.items.len()).sum();
    for size in [1, 2, 3, items.max(1)] {
        let mut parts = Vec::new();
        read_parts(size, &mut |part| {
            assert!(part.transcript.items.len() <= size, "a part over {size}");
            parts.push(part);
            Ok(())
        })
        .unwrap();
        let firsts = parts.iter().filter(|p| p.first).count();
        let lasts = parts.iter().filter(|p| p.last).count();
        assert_eq!(
            (firsts, lasts),
            (expected.len(), expected.len()),
            "size {size}"
        );
        assert_eq!(whole(parts), expected, "parts of {size} items differ");
    }
}
