//! For tests: a file grown a line (or half a line) at a time and read
//! after each step as a live import does, by its tail where the importer
//! can, else whole; and the same steps read whole each time. What the two
//! add to a store must be the same.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::cursor::Tail;
use super::write::stored_key;
use super::{Importer, Item, Part, Source, TailRead, Tool, Transcript};

/// The real transcript `relative` under the shared fixtures, if present.
pub fn fixture(relative: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/importer-fixtures")
        .join(relative);
    path.is_file().then_some(path)
}

/// A store as the writer keeps it: each session's records in the order
/// they were added, none twice (by its stored key). Two are equal when
/// their records are; `heads` holds each session's fields as its latest
/// read's last part gave them.
#[derive(Debug, Default)]
pub struct Stored {
    pub records: HashMap<String, (HashSet<String>, Vec<Item>)>,
    pub heads: HashMap<String, Transcript>,
}

impl PartialEq for Stored {
    fn eq(&self, other: &Stored) -> bool {
        self.records == other.records
    }
}

impl Stored {
    pub fn add(&mut self, mut part: Part) {
        let id = part.transcript.source_id.clone();
        let (keys, items) = self.records.entry(id.clone()).or_default();
        for item in std::mem::take(&mut part.transcript.items) {
            if keys.insert(stored_key(&item).into_owned()) {
                items.push(item);
            }
        }
        if part.last {
            self.heads.insert(id, part.transcript);
        }
    }
}

/// The lines of the file at `path`, each with its newline.
pub fn lines_of(path: &Path) -> Vec<Vec<u8>> {
    std::fs::read(path)
        .unwrap()
        .split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect()
}

/// The writes that grow a file to `lines`: `sizes` lines at a time (in
/// turn), the last line of each write cut in two halves when `halves`.
pub fn writes(lines: &[Vec<u8>], sizes: &[usize], halves: bool) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let (mut at, mut turn) = (0, 0);
    while at < lines.len() {
        let end = (at + sizes[turn % sizes.len()]).min(lines.len());
        turn += 1;
        let mut write = lines[at..end].concat();
        let last = &lines[end - 1];
        if halves && last.len() > 2 {
            let cut = write.len() - last.len() / 2;
            out.push(write[..cut].to_vec());
            write.drain(..cut);
        }
        out.push(write);
        at = end;
    }
    out
}

/// Grows a file named `name` by `writes` and reads it with `importer`
/// (its sources of `kind`) after each; returns the store made by whole
/// reads, the one made by tail reads where possible, and how many reads
/// were of a tail.
pub fn grow(
    importer: &'static dyn Importer,
    (name, kind): (&str, &'static str),
    writes: &[Vec<u8>],
) -> (Stored, Stored, usize) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    let src = Source {
        tool: Tool::new(importer),
        path: path.clone(),
        kind,
        bytes: 0,
    };
    let (mut whole, mut tailed) = (Stored::default(), Stored::default());
    let (mut anchor, mut offset, mut tails) = (None, 0u64, 0);
    let mut bytes = Vec::new();
    for write in writes {
        bytes.extend_from_slice(write);
        std::fs::write(&path, &bytes).unwrap();
        importer
            .read_parts(&src, usize::MAX, &mut |part| {
                whole.add(part);
                Ok(())
            })
            .unwrap();
        let end = bytes
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |at| at as u64 + 1);
        if end == offset {
            continue;
        }
        let read = match anchor.take() {
            Some(anchor) => importer
                .read_tail(
                    &src,
                    &Tail {
                        from: offset,
                        to: end,
                        anchor,
                    },
                    usize::MAX,
                    &mut |part| {
                        tailed.add(part);
                        Ok(())
                    },
                )
                .unwrap(),
            None => TailRead::Whole,
        };
        anchor = match read {
            TailRead::Read(next) => {
                tails += 1;
                next
            }
            TailRead::Whole => importer
                .read_anchored(&src, usize::MAX, &mut |part| {
                    tailed.add(part);
                    Ok(())
                })
                .unwrap(),
        };
        offset = end;
    }
    (whole, tailed, tails)
}

/// Grown by `writes` through `grow`, the tail reads store what whole reads
/// store and end with the same session fields; how many reads were of a
/// tail. A first write of half a line is joined to the next: a whole read
/// of it alone makes an empty session named after the file, which a tail
/// read, having nothing to start from, does not.
pub fn same_as_whole(
    grow: impl Fn(&[Vec<u8>]) -> (Stored, Stored, usize),
    writes: &[Vec<u8>],
    what: &str,
) -> usize {
    let mut writes = writes.to_vec();
    if writes.len() > 1 && !writes[0].contains(&b'\n') {
        let second = writes.remove(1);
        writes[0].extend(second);
    }
    let (whole, tailed, tails) = grow(&writes);
    assert_eq!(tailed, whole, "{what}");
    assert_eq!(tailed.heads, whole.heads, "{what}: the session's fields");
    tails
}
