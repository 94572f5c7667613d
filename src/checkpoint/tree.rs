//! What one snapshot saw: each path of the file set with its kind, mode,
//! size, modification time and content hash, as sorted lines (a tree
//! object, stored like any content so unchanged turns share it).

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The kind of an entry: a regular file, or a symbolic link (its content
/// is the link's target, never what it points to).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    File,
    Symlink,
}

/// One path as a snapshot saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Node {
    pub kind: Kind,
    /// The permission bits (`0o755`); 0 for a link.
    pub mode: u32,
    pub size: u64,
    pub mtime_ns: i64,
    /// The inode's change time: a rename or a write sets it, so a file that
    /// first appears with an old one was there all along (out of view).
    pub ctime_ns: i64,
    /// The content's hash; `None` for a file over the size limit, recorded
    /// by its size and time only (seen, but not restorable).
    pub hash: Option<String>,
}

impl Node {
    /// Whether `self` (on disk now) is the state `other` recorded: the same
    /// kind, content and exec bits; for a file recorded by stat only, the
    /// same size and time.
    pub fn same_as(&self, other: &Node) -> bool {
        if self.kind != other.kind {
            return false;
        }
        match (&self.hash, &other.hash) {
            (Some(a), Some(b)) => a == b && self.exec_bits() == other.exec_bits(),
            (None, None) => self.size == other.size && self.mtime_ns == other.mtime_ns,
            _ => false,
        }
    }

    fn exec_bits(&self) -> u32 {
        match self.kind {
            Kind::File => self.mode & 0o111,
            Kind::Symlink => 0,
        }
    }

    /// Whether a restore can bring this state back.
    pub fn restorable(&self) -> bool {
        self.hash.is_some()
    }
}

/// Relative path bytes (git's order) to what was there.
pub(crate) type Tree = BTreeMap<Vec<u8>, Node>;

/// The tree as text: one line per path, `KIND MODE SIZE MTIME CTIME HASH PATH`,
/// the path in hex so any byte (a newline, non-UTF-8) survives. (The store
/// keeps trees split by directory, [`super::dirtree`]; this flat form is a
/// restore plan's, and the store's before the split.)
pub(crate) fn encode(tree: &Tree) -> Vec<u8> {
    let mut out = String::with_capacity(tree.len() * 120);
    for (path, node) in tree {
        encode_line(&mut out, path, node);
    }
    out.into_bytes()
}

/// Appends one entry's line: `KIND MODE SIZE MTIME CTIME HASH NAME`.
pub(crate) fn encode_line(out: &mut String, name: &[u8], node: &Node) {
    let kind = match node.kind {
        Kind::File => 'f',
        Kind::Symlink => 'l',
    };
    let hash = node.hash.as_deref().unwrap_or("-");
    let _ = writeln!(
        out,
        "{kind} {:o} {} {} {} {hash} {}",
        node.mode,
        node.size,
        node.mtime_ns,
        node.ctime_ns,
        to_hex(name)
    );
}

/// Parses [`encode`]'s text; `Err` names the first bad line.
pub(crate) fn decode(bytes: &[u8]) -> Result<Tree, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "not text".to_string())?;
    let mut tree = Tree::new();
    for (number, line) in text.lines().enumerate() {
        let (path, node) =
            decode_line(line).ok_or_else(|| format!("line {}: not a tree entry", number + 1))?;
        tree.insert(path, node);
    }
    Ok(tree)
}

/// Parses one line of [`encode_line`].
pub(crate) fn decode_line(line: &str) -> Option<(Vec<u8>, Node)> {
    let mut fields = line.split(' ');
    let kind = match fields.next()? {
        "f" => Kind::File,
        "l" => Kind::Symlink,
        _ => return None,
    };
    let mode = u32::from_str_radix(fields.next()?, 8).ok()?;
    let size = fields.next()?.parse().ok()?;
    let mtime_ns = fields.next()?.parse().ok()?;
    let ctime_ns = fields.next()?.parse().ok()?;
    let hash = match fields.next()? {
        "-" => None,
        hash if is_hash(hash) => Some(hash.to_string()),
        _ => return None,
    };
    let name = from_hex(fields.next()?)?;
    let node = Node {
        kind,
        mode,
        size,
        mtime_ns,
        ctime_ns,
        hash,
    };
    Some((name, node))
}

/// Whether `text` is a content hash as the store names objects (SHA-256 in
/// lowercase hex): what keeps a damaged tree from naming a path outside it.
pub(crate) fn is_hash(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

pub(crate) fn to_hex(bytes: &[u8]) -> String {
    // By table, not `write!` per byte: a tree and the stat cache hex-encode
    // every path of the work tree.
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &byte in bytes {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 0xf)]));
    }
    out
}

pub(crate) fn from_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|at| u8::from_str_radix(text.get(at..at + 2)?, 16).ok())
        .collect()
}

/// A relative path for people and JSON: the UTF-8 text, or with each byte
/// that is not UTF-8 written `\xNN`.
pub(crate) fn shown(path: &[u8]) -> String {
    let mut out = String::new();
    for chunk in path.utf8_chunks() {
        out.push_str(chunk.valid());
        for byte in chunk.invalid() {
            let _ = write!(out, "\\x{byte:02x}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_survives_encoding_with_any_path_bytes() {
        let mut tree = Tree::new();
        let file = Node {
            kind: Kind::File,
            mode: 0o755,
            size: 3,
            mtime_ns: -5,
            ctime_ns: 7,
            hash: Some("a".repeat(64)),
        };
        let big = Node {
            hash: None,
            ..file.clone()
        };
        tree.insert(b"dir/a b\n\xff".to_vec(), file);
        tree.insert(b"big.iso".to_vec(), big);
        assert_eq!(decode(&encode(&tree)).unwrap(), tree);
        assert!(decode(b"f 644 1 1 1 ../etc 00\n").is_err());
    }

    #[test]
    fn a_non_utf8_name_is_shown_with_escapes() {
        assert_eq!(shown(b"caf\xe9.txt"), "caf\\xe9.txt");
    }

    #[test]
    fn exec_bit_and_content_decide_sameness_size_and_time_only_for_large_files() {
        let a = Node {
            kind: Kind::File,
            mode: 0o644,
            size: 1,
            mtime_ns: 1,
            ctime_ns: 1,
            hash: Some("b".repeat(64)),
        };
        let later = Node {
            mtime_ns: 9,
            ..a.clone()
        };
        assert!(a.same_as(&later));
        let exec = Node {
            mode: 0o755,
            ..a.clone()
        };
        assert!(!a.same_as(&exec));
        let large = Node {
            hash: None,
            ..a.clone()
        };
        assert!(!large.same_as(&Node {
            hash: None,
            ..later
        }));
        assert!(!large.same_as(&a));
    }
}
