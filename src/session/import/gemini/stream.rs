//! gemini-cli's operation log read in two passes, so that memory follows
//! the number of messages, not the size of the file.
//!
//! The first pass replays the log keeping only where each message of the
//! conversation is ([`Index`]): its id (as a number), and the line that
//! holds it now (a message line, or an element of a `$set.messages`
//! checkpoint or of the metadata line), in the order gemini-cli keeps
//! them. A repeated id moves its slot to the later line and keeps its
//! place, a checkpoint empties the index before its own messages,
//! `$rewindTo` cuts it. The second pass reads the lines of the slots
//! again by their offsets, in conversation order, and hands the items over
//! in parts. What is held is the index (about 70 bytes a message) and one
//! line: a checkpoint line is parsed once for all of its messages.

use std::collections::HashMap;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::log::{self, Meta, Record};
use crate::error::{Error, Result};
use crate::session::import::lines::{self, Line};
use crate::session::import::parts::Parts;
use crate::session::import::{Item, Part, Skipped, Transcript};

/// A slot's `element` when its line is the message itself.
const WHOLE_LINE: u32 = u32::MAX;

/// Where one message of the conversation is read from.
#[derive(Debug, Clone, Copy)]
struct Slot {
    id: u128,
    offset: u64,
    length: u32,
    /// Its index in the line's message list, or [`WHOLE_LINE`].
    element: u32,
}

/// The conversation the log ends with, as places in the file.
#[derive(Debug, Default)]
pub struct Index {
    pub(super) meta: Meta,
    slots: Vec<Slot>,
    position: HashMap<u128, u32>,
    /// Whether a record took messages back or set them all (`$rewindTo`,
    /// a message list): lines read alone cannot tell what it left.
    pub(super) reaches_back: bool,
    /// Where the lines read stop: past the last complete line, and
    /// whether a line after it (unfinished) was read into the index.
    pub(super) end: u64,
    pub(super) past_end: bool,
}

/// Where a read of the conversation's messages ended: the last message's
/// id, the model named before it and the model at the end.
#[derive(Debug, Default)]
pub struct Ended {
    pub last: Option<u128>,
    pub model_before_last: Option<String>,
    pub model: Option<String>,
    /// What was skipped, the messages' own included.
    pub skipped: Skipped,
}

impl Index {
    /// Replays the lines of `path` (or only its bytes `range`, the
    /// session's fields being `meta` before them).
    pub fn replay(
        path: &Path,
        range: Option<(u64, u64)>,
        meta: Meta,
        skipped: &mut Skipped,
    ) -> Result<Index> {
        let mut index = Index {
            meta,
            end: range.map_or(0, |(from, _)| from),
            ..Index::default()
        };
        let mut each = |line: Line<'_>, skipped: &mut Skipped| {
            let record = line.parse::<Value>(skipped);
            if line.complete {
                index.end = line.offset + line.length;
            } else {
                index.past_end |= record.is_some();
            }
            if let Some(record) = record {
                index.apply(&line, record, skipped);
            }
            Ok(())
        };
        match range {
            Some(range) => lines::each_line_in(path, range, skipped, &mut each)?,
            None => lines::each_line(path, skipped, &mut each)?,
        }
        Ok(index)
    }

    /// The ids of the conversation's messages, in order.
    pub fn ids(&self) -> impl Iterator<Item = u128> + '_ {
        self.slots.iter().map(|slot| slot.id)
    }

    fn apply(&mut self, line: &Line<'_>, record: Value, skipped: &mut Skipped) {
        // A line is at most `lines::MAX_LINE_BYTES` (64 MiB) long.
        let length = u32::try_from(line.length).unwrap_or(u32::MAX);
        let at = |element: u32, id: &str| Slot {
            id: key_of(id),
            offset: line.offset,
            length,
            element,
        };
        match Record::of(record) {
            Record::RewindTo(id) => {
                self.reaches_back = true;
                self.rewind(key_of(&id));
            }
            Record::Message(message) => {
                let id = message.get("id").and_then(Value::as_str).unwrap_or("");
                self.put(at(WHOLE_LINE, id));
            }
            Record::Metadata {
                fields,
                messages,
                checkpoint,
            } => {
                if let Some(messages) = messages {
                    self.reaches_back = true;
                    if checkpoint {
                        self.slots.clear();
                        self.position.clear();
                    }
                    for (element, message) in messages.iter().enumerate() {
                        if log::is_message(message) {
                            let id = message.get("id").and_then(Value::as_str).unwrap_or("");
                            let element = u32::try_from(element).unwrap_or(WHOLE_LINE - 1);
                            self.put(at(element, id));
                        }
                    }
                }
                self.meta.set(&fields);
            }
            Record::Unknown => skipped.unknown_kinds += 1,
        }
    }

    fn rewind(&mut self, id: u128) {
        let keep = self.position.get(&id).map_or(0, |&at| at as usize);
        for gone in self.slots.drain(keep..) {
            self.position.remove(&gone.id);
        }
    }

    fn put(&mut self, slot: Slot) {
        match self.position.get(&slot.id) {
            Some(&at) => self.slots[at as usize] = slot,
            None => {
                let at = u32::try_from(self.slots.len()).unwrap_or(u32::MAX);
                self.position.insert(slot.id, at);
                self.slots.push(slot);
            }
        }
    }

    /// The transcript's fields besides its items and model.
    pub fn header(&self, path: &Path) -> Transcript {
        self.meta.header(path)
    }

    /// Reads the conversation's messages again from `path` and hands
    /// their items over in parts of at most `max_items`, `header` giving
    /// the other fields (the model as far as read; final in the last part).
    pub fn hand_over(
        self,
        path: &Path,
        mut header: Transcript,
        max_items: usize,
        each: &mut dyn FnMut(Part) -> Result<()>,
    ) -> Result<Ended> {
        let mut ended = Ended::default();
        let mut reader = Reader {
            path: path.to_path_buf(),
            file: File::open(path).map_err(|e| Error::io(path, &e))?,
            list: None,
        };
        let mut parts = Parts::new(max_items);
        let mut items: Vec<Item> = Vec::new();
        for slot in &self.slots {
            let Some(message) = reader.message(slot)? else {
                continue;
            };
            ended.last = Some(slot.id);
            ended.model_before_last.clone_from(&header.model);
            log::message_of(message).into_items(&mut header.model, &mut header.skipped, &mut items);
            for item in items.drain(..) {
                if let Some(full) = parts.push(item) {
                    parts.hand_over(&header, full, false, each)?;
                }
            }
        }
        ended.model.clone_from(&header.model);
        ended.skipped = header.skipped;
        let rest = parts.take();
        parts.hand_over(&header, rest, true, each)?;
        Ok(ended)
    }
}

/// A message id as a number: a UUID (what gemini-cli writes) as itself,
/// any other id hashed to 128 bits.
fn key_of(id: &str) -> u128 {
    use std::hash::{DefaultHasher, Hash, Hasher};
    if let Ok(uuid) = uuid::Uuid::try_parse(id) {
        return uuid.as_u128();
    }
    let half = |seed: u8| {
        let mut hasher = DefaultHasher::new();
        seed.hash(&mut hasher);
        id.hash(&mut hasher);
        hasher.finish()
    };
    u128::from(half(0)) << 64 | u128::from(half(1))
}

/// Lines read again by offset, the message list of the last list line
/// read kept until another is needed.
struct Reader {
    path: PathBuf,
    file: File,
    list: Option<(u64, Vec<Value>)>,
}

impl Reader {
    /// The message of `slot` (`None`: its line no longer reads as it did,
    /// the file having been rewritten since the first pass).
    fn message(&mut self, slot: &Slot) -> Result<Option<Map<String, Value>>> {
        let found = if slot.element == WHOLE_LINE {
            self.record(slot)?
        } else {
            if self.list.as_ref().is_none_or(|(at, _)| *at != slot.offset) {
                let list = match self.record(slot)? {
                    Some(record) => match Record::of(Value::Object(record)) {
                        Record::Metadata {
                            messages: Some(list),
                            ..
                        } => list,
                        _ => Vec::new(),
                    },
                    None => Vec::new(),
                };
                self.list = Some((slot.offset, list));
            }
            self.list
                .as_mut()
                .and_then(|(_, list)| list.get_mut(slot.element as usize))
                .map(Value::take)
                .and_then(|message| match message {
                    Value::Object(message) => Some(message),
                    _ => None,
                })
        };
        Ok(found.filter(|message| {
            message
                .get("id")
                .and_then(Value::as_str)
                .is_some_and(|id| key_of(id) == slot.id)
        }))
    }

    /// The record on the line of `slot`, parsed as the first pass did.
    fn record(&self, slot: &Slot) -> Result<Option<Map<String, Value>>> {
        let mut raw = vec![0; slot.length as usize];
        self.file
            .read_exact_at(&mut raw, slot.offset)
            .map_err(|e| Error::io(&self.path, &e))?;
        let mut ignored = Skipped::default();
        let (bytes, complete) = lines::clean_line(&raw, slot.offset, &mut ignored);
        let line = Line {
            number: 0,
            offset: slot.offset,
            length: u64::from(slot.length),
            bytes: &bytes,
            complete,
        };
        Ok(match line.parse::<Value>(&mut ignored) {
            Some(Value::Object(record)) => Some(record),
            _ => None,
        })
    }
}
