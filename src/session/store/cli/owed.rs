//! Records a write into a session the OLLM CLI is writing still owes the
//! file: kept until a version the CLI wrote is seen to hold them, and put
//! back into every version read meanwhile that lacks them.
//!
//! Two ways a record goes missing with a writer that takes no lock:
//! - ollm's own: the CLI read the file before ollm's version went in and
//!   renamed its own, built from that read, in after it;
//! - the CLI's: a CLI version came in just before ollm's swap, which
//!   displaced it; ollm's version was at the path until the CLI's went
//!   back in, and a CLI that read it then built its next version without
//!   its own last record.
//!
//! A record is known by its value: the CLI's messages carry no id, but a
//! role, parts and a timestamp to the millisecond, which two records do not
//! share in practice. A record put back goes after the record it followed
//! where it was written, else before the first record with a later
//! timestamp.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use crate::fs::replace::Stamp;

/// The document's lists of records, in the order the CLI writes them.
const LISTS: [&str; 2] = ["messages", "toolCalls"];

/// A record the file must hold: in which list, and the record it followed
/// where it was written (`None`: it came first).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Owed {
    list: &'static str,
    record: Value,
    after: Option<Value>,
}

fn records<'a>(fields: &'a Map<String, Value>, list: &str) -> &'a [Value] {
    match fields.get(list) {
        Some(Value::Array(items)) => items,
        _ => &[],
    }
}

/// Whether `items` hold `record` (looked for from the end: what is owed is
/// recent).
fn holds_record(items: &[Value], record: &Value) -> bool {
    items.iter().rev().any(|item| item == record)
}

/// How many records each list holds, to see what a change adds.
pub(super) fn lengths(fields: &Map<String, Value>) -> [usize; 2] {
    LISTS.map(|list| records(fields, list).len())
}

fn owed_at(list: &'static str, items: &[Value], at: usize) -> Owed {
    Owed {
        list,
        record: items[at].clone(),
        after: at.checked_sub(1).map(|before| items[before].clone()),
    }
}

/// The records a change added at the end of each list, since the lists
/// were `before` long.
pub(super) fn added_since(fields: &Map<String, Value>, before: [usize; 2]) -> Vec<Owed> {
    LISTS
        .into_iter()
        .zip(before)
        .flat_map(|(list, from)| {
            let items = records(fields, list);
            (from.min(items.len())..items.len()).map(move |at| owed_at(list, items, at))
        })
        .collect()
}

/// The records of `version` that `base` does not hold: what another
/// program added to the version it built from `base`.
pub(super) fn newer_records(version: &Map<String, Value>, base: &Map<String, Value>) -> Vec<Owed> {
    LISTS
        .into_iter()
        .flat_map(|list| {
            let items = records(version, list);
            let known = records(base, list);
            (0..items.len())
                .filter(move |&at| !holds_record(known, &items[at]))
                .map(move |at| owed_at(list, items, at))
        })
        .collect()
}

/// Whether `fields` hold every one of `owed`.
pub(super) fn holds(fields: &Map<String, Value>, owed: &[Owed]) -> bool {
    owed.iter()
        .all(|o| holds_record(records(fields, o.list), &o.record))
}

/// Puts each of `owed` that `fields` lack back (in `owed`'s order, so one
/// follows another it came after). Returns how many.
pub(super) fn restore(fields: &mut Map<String, Value>, owed: &[Owed]) -> usize {
    let mut restored = 0;
    for o in owed {
        let slot = fields
            .entry(o.list.to_string())
            .or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(items) = slot else {
            continue;
        };
        if holds_record(items, &o.record) {
            continue;
        }
        let at = place(items, o);
        items.insert(at, o.record.clone());
        restored += 1;
    }
    restored
}

/// Where `o` goes back in `items`: after the record it followed, else
/// before the first later one by timestamp, else at the end.
fn place(items: &[Value], o: &Owed) -> usize {
    let after = match &o.after {
        None => Some(0),
        Some(before) => items
            .iter()
            .rposition(|item| item == before)
            .map(|at| at + 1),
    };
    after.unwrap_or_else(|| {
        let stamp = |record: &Value| {
            record
                .get("timestamp")
                .and_then(Value::as_str)
                .map(String::from)
        };
        match stamp(&o.record) {
            Some(own) => items
                .iter()
                .position(|item| stamp(item).is_some_and(|other| other > own))
                .unwrap_or(items.len()),
            None => items.len(),
        }
    })
}

/// A record owed to a session's file, since when, and the files that held
/// it when it became owed (a version the CLI swapped back in): those prove
/// nothing, a later version of the CLI's that holds it does.
struct Pending {
    path: PathBuf,
    since: Instant,
    owed: Owed,
    held_by: Vec<Stamp>,
}

/// What this process's writes still owe, by file: a streaming `record`
/// puts back, before each write, what an earlier one of its writes lost.
static PENDING: Mutex<Vec<Pending>> = Mutex::new(Vec::new());

/// How long a record stays owed, since it was last put back, without a CLI
/// version seen to hold it: a CLI write comes this long after its read at
/// most (beyond it, its temp file is taken for one a killed CLI left).
const OWED_FOR: Duration = Duration::from_secs(2);

/// Notes that the file at `path` must hold `owed` (until a version the CLI
/// wrote, other than the files `held_by`, is seen holding them, or
/// [`OWED_FOR`] passes).
pub(super) fn owe(path: &Path, owed: Vec<Owed>, held_by: &[Stamp]) {
    let Ok(mut pending) = PENDING.lock() else {
        return;
    };
    let since = Instant::now();
    for o in owed {
        if let Some(known) = pending.iter_mut().find(|p| p.path == path && p.owed == o) {
            known.since = since;
            known.held_by.extend_from_slice(held_by);
        } else {
            pending.push(Pending {
                path: path.to_path_buf(),
                since,
                owed: o,
                held_by: held_by.to_vec(),
            });
        }
    }
}

/// Whether anything is owed to `path`.
pub(super) fn owes(path: &Path) -> bool {
    PENDING.lock().is_ok_and(|pending| {
        pending
            .iter()
            .any(|p| p.path == path && p.since.elapsed() < OWED_FOR)
    })
}

/// Settles what is owed to `path` against `fields`, just read from it:
/// what they lack is put back; what they hold is no longer owed when the
/// file is another program's (`theirs`, its stamp) and not one that held
/// it already: that program built its version from one holding it.
/// Returns how many records were put back.
pub(super) fn settle(path: &Path, fields: &mut Map<String, Value>, theirs: Option<Stamp>) -> usize {
    let Ok(mut pending) = PENDING.lock() else {
        return 0;
    };
    pending.retain(|p| p.since.elapsed() < OWED_FOR);
    let owed: Vec<Owed> = pending
        .iter()
        .filter(|p| p.path == path)
        .map(|p| p.owed.clone())
        .collect();
    if owed.is_empty() {
        return 0;
    }
    // Put back again, a record is owed anew: a CLI writing back to back
    // can keep dropping it for longer than OWED_FOR.
    let now = Instant::now();
    for p in pending.iter_mut().filter(|p| p.path == path) {
        if !holds_record(records(fields, p.owed.list), &p.owed.record) {
            p.since = now;
        }
    }
    if let Some(stamp) = theirs {
        pending.retain(|p| {
            p.path != path
                || p.held_by.iter().any(|held| held.same_file(Some(stamp)))
                || !holds_record(records(fields, p.owed.list), &p.owed.record)
        });
    }
    restore(fields, &owed)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn message(text: &str, at: &str) -> Value {
        json!({"role": "user", "parts": [{"type": "text", "text": text}], "timestamp": at})
    }

    fn document(messages: &[&Value]) -> Map<String, Value> {
        let value = json!({"sessionId": "s", "messages": messages, "toolCalls": []});
        match value {
            Value::Object(fields) => fields,
            _ => unreachable!(),
        }
    }

    fn texts(fields: &Map<String, Value>) -> Vec<&str> {
        records(fields, "messages")
            .iter()
            .map(|m| m["parts"][0]["text"].as_str().unwrap())
            .collect()
    }

    #[test]
    fn a_cli_record_lost_to_a_version_built_from_ours_goes_back_after_the_one_it_followed() {
        // Read: [a]. The CLI's [a, M] came in just before our swap and was
        // put back; a CLI that read ours ([a, ours]) wrote [a, ours, N].
        let a = message("a", "2026-01-27T10:00:00.000Z");
        let m = message("M", "2026-01-27T10:00:01.000Z");
        let ours = message("ours", "2026-01-27T10:00:01.500Z");
        let n = message("N", "2026-01-27T10:00:02.000Z");
        let read = document(&[&a]);
        let displaced = document(&[&a, &m]);
        let owed = newer_records(&displaced, &read);
        let mut now = document(&[&a, &ours, &n]);
        assert!(!holds(&now, &owed));
        assert_eq!(restore(&mut now, &owed), 1);
        assert_eq!(texts(&now), ["a", "M", "ours", "N"]);
        assert!(holds(&now, &owed));
        assert_eq!(restore(&mut now, &owed), 0, "nothing is put back twice");
    }

    #[test]
    fn what_the_displaced_version_shares_with_the_read_is_not_owed() {
        // A record the read held and the displaced version too is no new
        // record of the CLI's: a later writer that removed it meant to.
        let a = message("a", "2026-01-27T10:00:00.000Z");
        let b = message("b", "2026-01-27T10:00:00.500Z");
        let m = message("M", "2026-01-27T10:00:01.000Z");
        let owed = newer_records(&document(&[&a, &b, &m]), &document(&[&a, &b]));
        let mut now = document(&[&b]);
        restore(&mut now, &owed);
        assert_eq!(texts(&now), ["b", "M"]);
    }

    #[test]
    fn a_record_whose_predecessor_is_gone_goes_by_its_timestamp() {
        let a = message("a", "2026-01-27T10:00:00.000Z");
        let m = message("M", "2026-01-27T10:00:01.000Z");
        let later = message("later", "2026-01-27T10:00:02.000Z");
        let owed = newer_records(&document(&[&a, &m]), &document(&[&a]));
        let mut now = document(&[&later]);
        restore(&mut now, &owed);
        assert_eq!(texts(&now), ["M", "later"]);
    }

    #[test]
    fn the_records_a_change_added_are_those_past_the_old_ends() {
        let a = message("a", "2026-01-27T10:00:00.000Z");
        let ours = message("ours", "2026-01-27T10:00:01.000Z");
        let mut fields = document(&[&a]);
        let before = lengths(&fields);
        if let Some(Value::Array(items)) = fields.get_mut("messages") {
            items.push(ours.clone());
        }
        if let Some(Value::Array(calls)) = fields.get_mut("toolCalls") {
            calls.push(json!({"id": "call_1", "name": "run"}));
        }
        let added = added_since(&fields, before);
        assert_eq!(added.len(), 2);
        assert_eq!(added[0].record, ours);
        assert_eq!(added[0].after, Some(a.clone()));
        assert_eq!(added[1].after, None);
        assert!(holds(&fields, &added));
        assert!(!holds(&document(&[&a]), &added));
    }

    /// The stamp of a new file in `dir`: a version of the CLI's.
    fn cli_version(dir: &Path, name: &str) -> Option<Stamp> {
        let path = dir.join(name);
        std::fs::write(&path, name).unwrap();
        Stamp::at(&path)
    }

    #[test]
    fn an_owed_record_is_put_back_until_a_cli_version_holds_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        let a = message("a", "2026-01-27T10:00:00.000Z");
        let ours = message("ours", "2026-01-27T10:00:01.000Z");
        let m = message("M", "2026-01-27T10:00:01.500Z");
        owe(&path, added_since(&document(&[&a, &ours]), [1, 0]), &[]);
        // The CLI's version built from a read made before ours went in.
        let mut lost = document(&[&a, &m]);
        assert_eq!(settle(&path, &mut lost, cli_version(dir.path(), "1")), 1);
        assert_eq!(texts(&lost), ["a", "ours", "M"]);
        // Our own version holding it settles nothing: a CLI may still
        // have read the one before.
        let mut own = lost.clone();
        assert_eq!(settle(&path, &mut own, None), 0);
        let mut theirs = lost.clone();
        assert_eq!(settle(&path, &mut theirs, cli_version(dir.path(), "2")), 0);
        // Seen in a CLI version: owed no more, a later removal is meant.
        let mut removed = document(&[&a, &m]);
        assert_eq!(settle(&path, &mut removed, cli_version(dir.path(), "3")), 0);
        assert_eq!(texts(&removed), ["a", "M"]);
    }

    #[test]
    fn a_displaced_cli_record_is_owed_past_the_displaced_file_itself() {
        // The CLI's [a, M] was swapped out by mistake and back in: read
        // again, it holds M, which proves nothing; the CLI's next version,
        // built from ours while ours was at the path, lacks it.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        let a = message("a", "2026-01-27T10:00:00.000Z");
        let m = message("M", "2026-01-27T10:00:01.000Z");
        let ours = message("ours", "2026-01-27T10:00:01.500Z");
        let n = message("N", "2026-01-27T10:00:02.000Z");
        let displaced = cli_version(dir.path(), "displaced");
        let owed = newer_records(&document(&[&a, &m]), &document(&[&a]));
        owe(&path, owed, &[displaced.unwrap()]);
        let mut again = document(&[&a, &m]);
        assert_eq!(settle(&path, &mut again, displaced), 0);
        let mut built_from_ours = document(&[&a, &ours, &n]);
        assert_eq!(
            settle(&path, &mut built_from_ours, cli_version(dir.path(), "next")),
            1
        );
        assert_eq!(texts(&built_from_ours), ["a", "M", "ours", "N"]);
    }
}
