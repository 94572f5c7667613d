//! A change written into a session's document while another program (the
//! OLLM CLI) may rewrite the file too: read, change, write over the file
//! read and no other, and make the change again when the CLI's version
//! built from an earlier read went in over it.

use std::path::Path;
use std::time::Duration;

use serde_json::{Map, Value};

use super::read::{read, read_for_adding};
use super::{Document, in_flight, owed, splice};
use crate::error::{Error, Result};
use crate::fs::replace::{Replaced, Stamp};
use crate::lossless;

/// Reads the document of session `id`, changes it with `change` and writes
/// it back, reading again when another program rewrote the file in
/// between (the caller holds the session's lock against our own writers).
/// `change` gets the document's head and adds records (the records already
/// there are not in it: [`read_for_adding`]) and returns what the caller
/// wants back. The document returned is stamped as the file written.
pub fn rewrite<T>(
    id: &str,
    path: &Path,
    change: impl FnMut(&mut Document) -> Result<T>,
) -> Result<Option<(T, Document)>> {
    rewrite_when(id, path, true, change, |_| true)
}

/// [`rewrite`] for a change that counts what it changed: nothing is
/// written when it counts 0. Returns the count.
pub fn rewrite_if(
    id: &str,
    path: &Path,
    change: impl FnMut(&mut Document) -> Result<u64>,
) -> Result<Option<u64>> {
    Ok(rewrite_when(id, path, false, change, |count| *count > 0)?.map(|(count, _)| count))
}

fn rewrite_when<T>(
    id: &str,
    path: &Path,
    adding: bool,
    mut change: impl FnMut(&mut Document) -> Result<T>,
    changed: impl Fn(&T) -> bool,
) -> Result<Option<(T, Document)>> {
    const TRIES: u32 = 64;
    // The change's result and the records it added, once made.
    let mut made: Option<(T, Vec<owed::Owed>)> = None;
    // Whether a version holding the change was at the path, if only for a
    // moment: the CLI may have built on it, so the change is looked for
    // before it is made again.
    let mut shown = false;
    for attempt in 0..TRIES {
        // A version the CLI is about to rename in is read, not raced.
        in_flight::wait_for_rename(path);
        // The first look of a change that only adds records, with nothing
        // owed to the file, reads the head alone; a race with the CLI is
        // settled on whole records.
        let read_document = if adding && made.is_none() && !owed::owes(path) {
            read_for_adding
        } else {
            read
        };
        let Some(mut document) = read_document(id, path)? else {
            return Ok(None);
        };
        let theirs = document.stamp.filter(|_| document.theirs);
        let restored = owed::settle(path, &mut document.fields, theirs);
        let (out, added) = match made.take() {
            Some((out, added))
                if shown && !added.is_empty() && owed::holds(&document.fields, &added) =>
            {
                if restored == 0 {
                    return Ok(Some((out, document)));
                }
                (out, added)
            }
            _ => {
                let before = owed::lengths(&document.fields);
                let out = change(&mut document)?;
                if !changed(&out) && restored == 0 {
                    return Ok(Some((out, document)));
                }
                let added = owed::added_since(&document.fields, before);
                (out, added)
            }
        };
        let ours = match document.write(id, path)? {
            Replaced::Written(ours) => ours,
            Replaced::Changed => {
                in_flight::saw_another();
                made = Some((out, added));
                back_off(attempt);
                continue;
            }
            Replaced::Displaced(versions) => {
                in_flight::saw_another();
                let held_by: Vec<Stamp> = versions.iter().map(|(stamp, _)| *stamp).collect();
                owed::owe(path, displaced_records(&document, &versions), &held_by);
                shown = true;
                made = Some((out, added));
                back_off(attempt);
                continue;
            }
        };
        document.stamp = Some(ours);
        shown = true;
        let watch = if document.cli_active {
            in_flight::watch_for()
        } else {
            Duration::ZERO
        };
        // The CLI renamed a version in over ours: built from a read made
        // before ours went in, it lacks our change, which is made again.
        let kept = !in_flight::replaced_after(path, ours, watch)
            || read(id, path)?.is_none_or(|now| now.keeps(&document));
        if kept {
            if document.cli_active {
                // Checked again by this process's next write into the
                // session: the CLI may rename a version built from an
                // earlier read in later still.
                owed::owe(path, added, &[]);
            }
            return Ok(Some((out, document)));
        }
        made = Some((out, added));
        back_off(attempt);
    }
    Err(Error::Io {
        path: path.to_path_buf(),
        message: format!("another program kept rewriting the file; {TRIES} tries"),
    })
}

/// What the versions swapped out by mistake (their bytes) added to the
/// one `document` was read from: the CLI's records that a version it built
/// from ours, while ours was at the path, lacks. A version that does not
/// parse adds nothing.
pub(super) fn displaced_records(
    document: &Document,
    versions: &[(Stamp, Vec<u8>)],
) -> Vec<owed::Owed> {
    let fields = |bytes: &[u8]| {
        serde_json::from_slice::<Map<String, Value>>(&lossless::decode(bytes).text).ok()
    };
    let read_bytes = document
        .kept
        .as_ref()
        .map_or(&document.read_bytes[..], splice::Kept::raw);
    let Some(read) = fields(read_bytes) else {
        return Vec::new();
    };
    versions
        .iter()
        .filter_map(|(_, bytes)| fields(bytes))
        .flat_map(|version| owed::newer_records(&version, &read))
        .collect()
}

/// A pause before trying again, longer each time (to 32 ms) and varied,
/// so that two writers that keep meeting fall out of step.
fn back_off(attempt: u32) {
    let jitter = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos() % 1000);
    let micros = (250u64 << attempt.min(7)) + u64::from(jitter);
    std::thread::sleep(Duration::from_micros(micros));
}

impl Document {
    /// Whether this document holds everything `ours` wrote: its records
    /// (in their order, others may come between) and its top-level fields.
    fn keeps(&self, ours: &Document) -> bool {
        let records = |document: &Document, key: &str| -> Vec<Value> {
            match document.fields.get(key) {
                Some(Value::Array(items)) => items.clone(),
                _ => Vec::new(),
            }
        };
        let holds_in_order = |key: &str| {
            let mine = records(ours, key);
            let mut theirs = records(self, key).into_iter();
            mine.iter()
                .all(|record| theirs.any(|other| &other == record))
        };
        holds_in_order("messages")
            && holds_in_order("toolCalls")
            && ours.fields.keys().all(|key| self.fields.contains_key(key))
    }
}
