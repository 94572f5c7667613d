//! A record added to a document in the CLI's layout without parsing the
//! records already there, so that recording into a session of 10,000
//! messages costs about what copying its file costs.
//!
//! `JSON.stringify(session, null, 2)` puts every top-level key on a line
//! of its own indented by two spaces, every element of `messages` and
//! `toolCalls` four spaces in, and never a raw newline inside a string.
//! [`elide`] finds the two arrays by those lines alone, keeps their
//! elements as the bytes they are, and hands back the rest of the document
//! (the head, with both arrays empty) to be parsed and changed like any
//! document. [`Kept::merge`] puts the kept elements back in front of
//! whatever the change added, with the separators `JSON.stringify` writes.
//! For a file in that layout the result is byte for byte what parsing the
//! whole file, adding the records and writing it again gives; a file in
//! any other layout (written by hand, by another tool) is not elided, and
//! is read and rewritten whole as before.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use memchr::memmem;

use crate::fs::replace::Stamp;

/// The top-level arrays whose elements are kept as bytes.
const RECORDS: [&str; 2] = ["messages", "toolCalls"];
/// A line holding a top-level key.
const KEY_LINE: &[u8] = b"\n  \"";
/// The line that closes a top-level array.
const ARRAY_END: &[u8] = b"\n  ]";

/// The records of a document, kept as the bytes they were read as.
#[derive(Debug, Clone)]
pub(super) struct Kept {
    raw: Vec<u8>,
    lists: Vec<List>,
}

/// One top-level array: the lines of its elements in `raw` (between
/// `[\n` and `\n  ]`, empty for `[]`) and how many elements they hold.
#[derive(Debug, Clone)]
struct List {
    key: &'static str,
    elements: Range<usize>,
    count: u64,
}

/// Where a top-level array's value is in a document's bytes.
struct Found {
    key: &'static str,
    value: Range<usize>,
    elements: Range<usize>,
}

/// The head of `raw` (its records' arrays written `[]`) and the records
/// kept aside; `None` when `raw` is not in the layout `JSON.stringify`
/// writes.
pub(super) fn elide(raw: Vec<u8>) -> Option<(Vec<u8>, Kept)> {
    let found = find_lists(&raw)?;
    let mut head = Vec::with_capacity(4096);
    let mut at = 0;
    let mut lists = Vec::with_capacity(found.len());
    for list in found {
        head.extend_from_slice(&raw[at..list.value.start]);
        head.extend_from_slice(b"[]");
        at = list.value.end;
        let count = count_elements(&raw[list.elements.clone()]);
        lists.push(List {
            key: list.key,
            elements: list.elements,
            count,
        });
    }
    head.extend_from_slice(&raw[at..]);
    Some((head, Kept { raw, lists }))
}

impl Kept {
    /// The whole document as it was read.
    pub(super) fn raw(&self) -> &[u8] {
        &self.raw
    }

    /// How many elements the kept array `key` holds.
    pub(super) fn count(&self, key: &str) -> u64 {
        self.lists
            .iter()
            .find(|list| list.key == key)
            .map_or(0, |list| list.count)
    }

    /// The whole document: `head` (the changed head, as written, with the
    /// records the change added) with the kept elements put back in front
    /// of the added ones. `None` when `head` lost one of the arrays.
    pub(super) fn merge(&self, head: &[u8]) -> Option<Vec<u8>> {
        let found = find_lists(head)?;
        let mut out = Vec::with_capacity(self.raw.len() + head.len());
        let mut at = 0;
        for list in &self.lists {
            let new = found.iter().find(|f| f.key == list.key)?;
            out.extend_from_slice(&head[at..new.value.start]);
            at = new.value.end;
            let kept = &self.raw[list.elements.clone()];
            let added = &head[new.elements.clone()];
            if kept.is_empty() && added.is_empty() {
                out.extend_from_slice(b"[]");
                continue;
            }
            out.extend_from_slice(b"[\n");
            out.extend_from_slice(kept);
            if !kept.is_empty() && !added.is_empty() {
                out.extend_from_slice(b",\n");
            }
            out.extend_from_slice(added);
            out.extend_from_slice(ARRAY_END);
        }
        out.extend_from_slice(&head[at..]);
        Some(out)
    }
}

/// The last document this process wrote by splicing: a streaming record
/// then neither reads back nor checks again what it wrote itself, as long
/// as the file there is still the one it wrote (same inode, size and time).
static LAST_WRITTEN: Mutex<Option<(PathBuf, Stamp, Vec<u8>)>> = Mutex::new(None);

/// Keeps `bytes`, just written at `path` as the file stamped `stamp`.
pub(super) fn remember(path: &Path, stamp: Stamp, bytes: Vec<u8>) {
    if let Ok(mut last) = LAST_WRITTEN.lock() {
        *last = Some((path.to_path_buf(), stamp, bytes));
    }
}

/// The bytes [`remember`]ed for `path` when the file there is stamped
/// `stamp` (taken: the next write remembers its own).
pub(super) fn recall(path: &Path, stamp: Stamp) -> Option<Vec<u8>> {
    let mut last = LAST_WRITTEN.lock().ok()?;
    match last.take() {
        Some((at, written, bytes)) if at == path && written == stamp => Some(bytes),
        other => {
            *last = other;
            None
        }
    }
}

/// The records' arrays of a document in the CLI's layout, in the order
/// they come; `None` when the layout is another, or an array is missing
/// or repeated.
fn find_lists(bytes: &[u8]) -> Option<Vec<Found>> {
    if !bytes.starts_with(b"{\n") || !bytes.ends_with(b"\n}") {
        return None;
    }
    let key_lines: Vec<usize> = memmem::find_iter(bytes, KEY_LINE).collect();
    let mut found: Vec<Found> = Vec::with_capacity(RECORDS.len());
    for (n, &line) in key_lines.iter().enumerate() {
        let name_start = line + KEY_LINE.len() - 1;
        let (name, after) = key_at(bytes, name_start)?;
        let Some(key) = RECORDS.into_iter().find(|key| *key == name) else {
            continue;
        };
        if found.iter().any(|f| f.key == key) {
            return None;
        }
        let start = after;
        let rest = &bytes[start..];
        let (value, elements) = if rest.starts_with(b"[]") {
            (start..start + 2, start..start)
        } else if rest.starts_with(b"[\n    ") && rest.get(6).is_some_and(|b| *b != b' ') {
            let close = start + memmem::find(rest, ARRAY_END)?;
            // The next key must come after the array's end: a key line
            // inside it means the elements are not indented as expected.
            if key_lines.get(n + 1).is_some_and(|&next| next < close) {
                return None;
            }
            (start..close + ARRAY_END.len(), start + 2..close)
        } else {
            return None;
        };
        found.push(Found {
            key,
            value,
            elements,
        });
    }
    // A document without one of them is left to a whole rewrite, which adds it.
    (found.len() == RECORDS.len()).then_some(found)
}

/// The key whose string starts at `start` (its opening quote), and where
/// its value starts (after `": `).
fn key_at(bytes: &[u8], start: usize) -> Option<(String, usize)> {
    let mut at = start + 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b'"' => break,
            b'\n' => return None,
            _ => at += 1,
        }
    }
    let name: String = serde_json::from_slice(bytes.get(start..=at)?).ok()?;
    let value = at + 1 + 2;
    (bytes.get(at + 1..value)? == b": ").then_some((name, value))
}

/// How many elements the lines of an array hold: lines four spaces in
/// that open an element (not the `}` or `]` that closes one).
fn count_elements(lines: &[u8]) -> u64 {
    if lines.is_empty() {
        return 0;
    }
    let opens = |line_start: &[u8]| {
        line_start.starts_with(b"    ")
            && line_start
                .get(4)
                .is_some_and(|b| !matches!(b, b' ' | b'}' | b']'))
    };
    let first = u64::from(opens(lines));
    let rest = memmem::find_iter(lines, b"\n    ")
        .filter(|&at| opens(&lines[at + 1..]))
        .count() as u64;
    first + rest
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::{Map, Value, json};

    fn pretty(value: &Value) -> Vec<u8> {
        crate::lossless::to_vec_pretty(value).unwrap()
    }

    fn parse(bytes: &[u8]) -> Map<String, Value> {
        serde_json::from_slice(bytes).unwrap()
    }

    /// What splicing gives for `document` after `change`, next to what
    /// parsing it whole and writing it again gives.
    fn both_ways(document: &Value, change: impl Fn(&mut Map<String, Value>)) -> (Vec<u8>, Vec<u8>) {
        let raw = pretty(document);
        let mut whole = parse(&raw);
        change(&mut whole);
        let (head, kept) = elide(raw).expect("in the CLI's layout");
        let mut head = parse(&head);
        change(&mut head);
        let spliced = kept.merge(&pretty(&Value::Object(head))).unwrap();
        (spliced, pretty(&Value::Object(whole)))
    }

    fn push(key: &'static str, record: Value) -> impl Fn(&mut Map<String, Value>) {
        move |fields| {
            if let Some(Value::Array(items)) = fields.get_mut(key) {
                items.push(record.clone());
            }
        }
    }

    fn session(messages: Value, tool_calls: Value) -> Value {
        json!({
            "sessionId": "s",
            "lastActivity": "t0",
            "messages": messages,
            "toolCalls": tool_calls,
            "metadata": {"tokenCount": 1, "modeHistory": []},
            "title": "a \"quoted\" title",
        })
    }

    #[test]
    fn a_record_added_to_a_long_session_is_what_a_whole_rewrite_writes() {
        let messages: Vec<Value> = (0..50)
            .map(|i| json!({"role": "user", "parts": [{"type": "text", "text": format!("m{i}\n  ]")}]}))
            .collect();
        let document = session(Value::Array(messages), json!([{"id": "c1", "args": {}}]));
        let record = json!({"role": "assistant", "parts": [{"type": "text", "text": "new"}]});
        let (spliced, whole) = both_ways(&document, push("messages", record));
        assert_eq!(
            String::from_utf8(spliced).unwrap(),
            String::from_utf8(whole).unwrap()
        );
    }

    #[test]
    fn empty_arrays_and_head_changes_come_out_as_a_whole_rewrite_writes_them() {
        let record = json!({"id": "c", "args": {"a": [1, 2]}});
        for document in [
            session(json!([]), json!([])),
            session(json!([{"role": "user"}]), json!([])),
        ] {
            let change = |fields: &mut Map<String, Value>| {
                push("toolCalls", record.clone())(fields);
                fields.insert("lastActivity".into(), "t1".into());
                fields.insert("added".into(), json!({"x": [1]}));
            };
            let (spliced, whole) = both_ways(&document, change);
            assert_eq!(spliced, whole);
            let (spliced, whole) = both_ways(&document, |_| {});
            assert_eq!(spliced, whole);
        }
    }

    /// A JSON value of any shape, with text that looks like the layout's
    /// own lines (`\n  ]`, `\n  "messages": [`) and characters JSON escapes.
    fn any_text() -> impl Strategy<Value = String> {
        const PIECES: [&str; 10] = [
            "\n  ]",
            "\n  \"messages\": [",
            "\n    {",
            "a",
            "\"",
            "\\",
            "é",
            "😀",
            "\t",
            " ",
        ];
        proptest::collection::vec(proptest::sample::select(&PIECES[..]), 0..8)
            .prop_map(|pieces| pieces.concat())
    }

    fn any_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any_text().prop_map(Value::from),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::vec((any_text(), inner), 0..4)
                    .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Property 1 (persistence round-trip), for the CLI's format: a
        /// record added by splicing writes the file a whole rewrite writes.
        #[test]
        fn property_1_session_persistence_round_trip_spliced_as_rewritten(
            messages in proptest::collection::vec(any_value(), 0..5),
            tool_calls in proptest::collection::vec(any_value(), 0..3),
            added in proptest::collection::vec((any::<bool>(), any_value()), 0..3),
            activity in any_value(),
        ) {
            let document = session(Value::Array(messages), Value::Array(tool_calls));
            let change = |fields: &mut Map<String, Value>| {
                for (tool, record) in &added {
                    let key = if *tool { "toolCalls" } else { "messages" };
                    push(key, record.clone())(fields);
                }
                fields.insert("lastActivity".into(), activity.clone());
            };
            let (spliced, whole) = both_ways(&document, change);
            prop_assert_eq!(String::from_utf8(spliced).unwrap(), String::from_utf8(whole).unwrap());
        }
    }

    #[test]
    fn what_was_written_is_recalled_only_for_that_file_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        std::fs::write(&path, b"{}").unwrap();
        let stamp = Stamp::at(&path).unwrap();
        remember(&path, stamp, b"{}".to_vec());
        assert_eq!(recall(&dir.path().join("other.json"), stamp), None);
        std::fs::write(&path, b"{ }").unwrap();
        assert_eq!(recall(&path, Stamp::at(&path).unwrap()), None);
        assert_eq!(recall(&path, stamp), Some(b"{}".to_vec()));
        assert_eq!(recall(&path, stamp), None, "taken once");
    }

    #[test]
    fn elements_are_counted_whatever_they_hold() {
        let document = session(
            json!([{"a": 1}, "text", 3, [1, 2], {"b": {"c": [{}]}}]),
            json!([]),
        );
        let (_, kept) = elide(pretty(&document)).unwrap();
        assert_eq!(kept.count("messages"), 5);
        assert_eq!(kept.count("toolCalls"), 0);
    }

    #[test]
    fn a_file_in_another_layout_is_not_elided() {
        let document = session(json!([{"a": 1}]), json!([]));
        let compact = serde_json::to_vec(&document).unwrap();
        assert!(elide(compact).is_none());
        let four = {
            let mut out = Vec::new();
            let formatter = serde_json::ser::PrettyFormatter::with_indent(b"    ");
            let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
            serde::Serialize::serialize(&document, &mut ser).unwrap();
            out
        };
        assert!(elide(four).is_none());
        let mut twice = pretty(&document);
        let at = twice.len() - 2;
        twice.splice(at..at, b",\n  \"messages\": []".iter().copied());
        assert!(elide(twice).is_none());
        let mut trailing = pretty(&document);
        trailing.push(b'\n');
        assert!(elide(trailing).is_none());
    }
}
