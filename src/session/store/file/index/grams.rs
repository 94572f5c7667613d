//! The trigrams of every session's stored bytes, kept so that a search
//! reads only the sessions that may hold a match and confirms there.
//!
//! Each session has a slot, and each slot a column of [`ROWS`] bits: every
//! trigram of the session's file (its bytes, ASCII letters lowercased)
//! sets the bit its hash picks. A query's literals ([`Condition`]) name the
//! bits a session holding a match must have set, so a search ANDs a few
//! rows of bits instead of reading every file. The bits are laid out by
//! row in blocks of 4,096 slots (a row of a block is 512 bytes): a query
//! reads a few hundred bytes per block, and one session's column is
//! written by rewriting its block. Bits are only ever added for a live
//! session, so a crash leaves a superset: more candidates, never a missed
//! match. The file starts with a header whose id the database names, so
//! a file that was replaced or lost is noticed and made again (as it is
//! after a reboot, since it is never synced: see `prefilter`). Each row of
//! a block is followed by its checksum, checked whenever the row is read:
//! a file cut short, or bits changed by anything but [`GramFile::write`],
//! is [`Damage`] (the caller makes the bits again), never an answer that
//! leaves out a session holding a match.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::fs as sfs;

/// Bits per session.
pub const ROWS: usize = 1 << ROW_BITS;
const ROW_BITS: u32 = 13;
pub const SLOTS_PER_BLOCK: usize = 4096;
const ROW_BYTES: usize = SLOTS_PER_BLOCK / 8;
/// A row's bits and their checksum (`xxh3`, little-endian).
const SUM_BYTES: usize = 8;
const ROW_STRIDE: usize = ROW_BYTES + SUM_BYTES;
const BLOCK_BYTES: usize = ROWS * ROW_STRIDE;
const HEADER_BYTES: u64 = 4096;
const MAGIC: &[u8; 12] = b"ollm-grams-2";

/// What was found wrong with the bits file: it cannot be trusted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damage(pub String);

/// A result whose file may turn out to be damaged.
pub type Checked<T> = Result<std::result::Result<T, Damage>>;

fn sum_of(row: &[u8]) -> [u8; SUM_BYTES] {
    xxhash_rust::xxh3::xxh3_64(row).to_le_bytes()
}

/// Whether a row read with its checksum (`ROW_STRIDE` bytes) is intact.
fn intact(row_and_sum: &[u8]) -> bool {
    let (row, sum) = row_and_sum.split_at(ROW_BYTES);
    sum == sum_of(row)
}

/// The row the trigram `a b c` sets (ASCII letters taken in lowercase).
fn row_of(a: u8, b: u8, c: u8) -> usize {
    let gram = u32::from(a.to_ascii_lowercase()) << 16
        | u32::from(b.to_ascii_lowercase()) << 8
        | u32::from(c.to_ascii_lowercase());
    row_of_gram(gram)
}

fn row_of_gram(gram: u32) -> usize {
    (gram.wrapping_mul(0x9E37_79B1) >> (32 - ROW_BITS)) as usize
}

/// The rows one session's bytes set.
#[derive(Clone, PartialEq, Eq)]
pub struct Column([u64; ROWS / 64]);

impl Default for Column {
    fn default() -> Self {
        Column([0; ROWS / 64])
    }
}

impl Column {
    /// Every row: a session that could not be read is always a candidate.
    pub fn full() -> Column {
        Column([u64::MAX; ROWS / 64])
    }

    /// Adds the trigrams of `bytes`.
    pub fn add(&mut self, bytes: &[u8]) {
        // The trigram rolled along a byte at a time (the same rows as
        // `row_of` gives each window): `reindex` hashes every byte stored.
        let mut gram = 0u32;
        for (i, &byte) in bytes.iter().enumerate() {
            gram = (gram << 8 | u32::from(byte.to_ascii_lowercase())) & 0x00FF_FFFF;
            if i >= 2 {
                let row = row_of_gram(gram);
                self.0[row / 64] |= 1 << (row % 64);
            }
        }
    }

    /// The rows set, in order.
    fn rows(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let row = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    row
                })
            })
        })
    }
}

/// Which sessions may hold a match: those with every row of any one of
/// the alternatives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Condition {
    alternatives: Vec<Vec<usize>>,
}

/// Bytes that every JSON writer stores as they are, and that match only
/// themselves or their ASCII case. Left out: what a writer escapes (`"`,
/// `\`, `/` as `\/`), what a pretty-printing writer puts spaces or line
/// breaks after (a tool call's arguments are searched in their compact
/// form, and the OLLM CLI writes its files indented), and, when case is
/// ignored, `s` and `k` (they also match `ſ` and the Kelvin sign).
fn verbatim(byte: u8, ignore_case: bool) -> bool {
    (0x21..0x7f).contains(&byte)
        && !matches!(
            byte,
            b'"' | b'\\' | b'/' | b':' | b',' | b'{' | b'}' | b'[' | b']'
        )
        && !(ignore_case && matches!(byte.to_ascii_lowercase(), b's' | b'k'))
}

impl Condition {
    /// From the literals of which a stored match holds one
    /// ([`crate::session::query::stored_literals`]); `None` when one of
    /// them gives no trigram, so that every session may match.
    pub fn of(literals: &[Vec<u8>], ignore_case: bool) -> Option<Condition> {
        let mut alternatives = Vec::new();
        for literal in literals {
            let mut rows: Vec<usize> = literal
                .split(|&b| !verbatim(b, ignore_case))
                .flat_map(|run| run.windows(3).map(|w| row_of(w[0], w[1], w[2])))
                .collect();
            if rows.is_empty() {
                return None;
            }
            rows.sort_unstable();
            rows.dedup();
            alternatives.push(rows);
        }
        alternatives.sort();
        alternatives.dedup();
        (!alternatives.is_empty()).then_some(Condition { alternatives })
    }
}

/// The bits of every slot, in a file of the index's directory.
pub struct GramFile {
    file: File,
    path: PathBuf,
}

impl GramFile {
    /// Opens the file at `path` (made 0600 when missing; a link or a
    /// special file is refused without blocking) and reads its id: `None`
    /// when it has none yet (new, or not a file of ours).
    pub fn open(path: &Path) -> Result<(GramFile, Option<String>)> {
        let file = sfs::open_private_rw(path)?;
        let grams = GramFile {
            file,
            path: path.to_path_buf(),
        };
        let mut header = [0u8; 64];
        let read = grams.read_at(&mut header, 0)?;
        let id = (read == header.len() && header.starts_with(MAGIC))
            .then(|| {
                String::from_utf8_lossy(&header[MAGIC.len()..])
                    .trim_end_matches('\0')
                    .to_string()
            })
            .filter(|id| !id.is_empty());
        Ok((grams, id))
    }

    /// Empties the file and gives it a new id (returned).
    pub fn reset(&mut self) -> Result<String> {
        let id = uuid::Uuid::new_v4().to_string();
        let mut header = vec![0u8; HEADER_BYTES as usize];
        header[..MAGIC.len()].copy_from_slice(MAGIC);
        header[MAGIC.len()..MAGIC.len() + id.len()].copy_from_slice(id.as_bytes());
        self.file.set_len(0).map_err(|e| self.error(&e))?;
        self.file
            .write_all_at(&header, 0)
            .map_err(|e| self.error(&e))?;
        Ok(id)
    }

    fn error(&self, e: &std::io::Error) -> Error {
        Error::io(&self.path, e)
    }

    /// Reads at `offset`; bytes past the end read as zero. Returns how
    /// many bytes the file held.
    fn read_at(&self, buf: &mut [u8], offset: u64) -> Result<usize> {
        let mut done = 0;
        while done < buf.len() {
            match self.file.read_at(&mut buf[done..], offset + done as u64) {
                Ok(0) => break,
                Ok(n) => done += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.error(&e)),
            }
        }
        buf[done..].fill(0);
        Ok(done)
    }

    fn block_offset(block: usize) -> u64 {
        HEADER_BYTES + (block * BLOCK_BYTES) as u64
    }

    fn len(&self) -> Result<u64> {
        self.file
            .metadata()
            .map(|m| m.len())
            .map_err(|e| self.error(&e))
    }

    /// Writes `columns` (slot, its rows, whether the slot held another
    /// session before and is cleared first), a block at a time. A block
    /// already in the file is checked before its bits are added to: bits
    /// lost there would otherwise be given a new checksum.
    pub fn write(&self, columns: &mut [(u32, Column, bool)]) -> Checked<()> {
        columns.sort_by_key(|(slot, _, _)| *slot);
        let len = self.len()?;
        let mut block = vec![0u8; BLOCK_BYTES];
        for group in columns
            .chunk_by(|a, b| a.0 as usize / SLOTS_PER_BLOCK == b.0 as usize / SLOTS_PER_BLOCK)
        {
            let index = group[0].0 as usize / SLOTS_PER_BLOCK;
            let offset = Self::block_offset(index);
            if offset < len {
                self.read_at(&mut block, offset)?;
                if let Some(row) = block.chunks_exact(ROW_STRIDE).position(|r| !intact(r)) {
                    return Ok(Err(self.damage(index, row)));
                }
            } else {
                block.fill(0);
            }
            for (slot, column, clear) in group {
                let within = *slot as usize % SLOTS_PER_BLOCK;
                let (byte, bit) = (within / 8, 1u8 << (within % 8));
                if *clear {
                    for row in 0..ROWS {
                        block[row * ROW_STRIDE + byte] &= !bit;
                    }
                }
                for row in column.rows() {
                    block[row * ROW_STRIDE + byte] |= bit;
                }
            }
            for row in block.chunks_exact_mut(ROW_STRIDE) {
                let sum = sum_of(&row[..ROW_BYTES]);
                row[ROW_BYTES..].copy_from_slice(&sum);
            }
            self.file
                .write_all_at(&block, offset)
                .map_err(|e| self.error(&e))?;
        }
        Ok(Ok(()))
    }

    fn damage(&self, block: usize, row: usize) -> Damage {
        Damage(format!(
            "{}: row {row} of block {block} does not match its checksum",
            self.path.display()
        ))
    }

    /// The slots below `slots` whose columns `condition` admits; every
    /// row read is checked first, and a file too short to hold `slots` is
    /// damaged whatever the rows read.
    pub fn candidates(&self, condition: &Condition, slots: u32) -> Checked<Vec<u32>> {
        let words = SLOTS_PER_BLOCK / 64;
        let blocks = (slots as usize).div_ceil(SLOTS_PER_BLOCK);
        let len = self.len()?;
        if len < Self::block_offset(blocks) {
            return Ok(Err(Damage(format!(
                "{}: {len} bytes cannot hold the bits of {slots} sessions",
                self.path.display()
            ))));
        }
        let mut row = vec![0u8; ROW_STRIDE];
        let mut found = Vec::new();
        for block in 0..blocks {
            let offset = Self::block_offset(block);
            let mut any = vec![0u64; words];
            for rows in &condition.alternatives {
                let mut all = vec![u64::MAX; words];
                for &r in rows {
                    self.read_at(&mut row, offset + (r * ROW_STRIDE) as u64)?;
                    if !intact(&row) {
                        return Ok(Err(self.damage(block, r)));
                    }
                    for (word, bytes) in all.iter_mut().zip(row[..ROW_BYTES].chunks_exact(8)) {
                        let mut b = [0u8; 8];
                        b.copy_from_slice(bytes);
                        *word &= u64::from_le_bytes(b);
                    }
                }
                for (a, w) in any.iter_mut().zip(&all) {
                    *a |= w;
                }
            }
            for (w, &word) in any.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let slot = block * SLOTS_PER_BLOCK + w * 64 + bits.trailing_zeros() as usize;
                    if slot < slots as usize {
                        found.push(slot as u32);
                    }
                    bits &= bits - 1;
                }
            }
        }
        Ok(Ok(found))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // What `GramFile::candidates` asks of every slot's column at once,
    // asked of one column: the reference the conditions are checked with.
    impl Column {
        fn has(&self, row: usize) -> bool {
            self.0[row / 64] & (1 << (row % 64)) != 0
        }
    }

    impl Condition {
        fn admits(&self, column: &Column) -> bool {
            self.alternatives
                .iter()
                .any(|rows| rows.iter().all(|&row| column.has(row)))
        }
    }

    fn condition(pattern: &str, ignore_case: bool) -> Option<Condition> {
        Condition::of(&[pattern.as_bytes().to_vec()], ignore_case)
    }

    fn column(text: &str) -> Column {
        let mut column = Column::default();
        column.add(text.as_bytes());
        column
    }

    #[test]
    fn a_column_admits_the_literals_it_holds_in_any_ascii_case() {
        let held = column(r#"{"text":"we sailed to Zanzibar at dawn"}"#);
        assert!(condition("zanzibar", false).unwrap().admits(&held));
        assert!(condition("ZANZIBAR", true).unwrap().admits(&held));
        assert!(!condition("madagascar", false).unwrap().admits(&held));
    }

    #[test]
    fn bytes_a_writer_may_escape_or_case_may_fold_are_not_required() {
        // Quotes, backslashes, slashes, spaces and non-ASCII bytes split
        // the literal; what is left must still be found.
        assert_eq!(condition("a\"b c/d", false), None);
        let held = column(r#"{"text":"path a\/bcd\u00e9fgh"}"#);
        assert!(condition("bcd/éfgh", false).unwrap().admits(&held));
        // Ignoring case, `s` and `k` may be `ſ` and the Kelvin sign.
        let long_s = column("{\"text\":\"\u{17f}e\u{17f}\u{17f}ion\"}");
        assert!(condition("session", true).unwrap().admits(&long_s));
        assert!(!condition("session", false).unwrap().admits(&long_s));
    }

    #[test]
    fn the_rolled_trigrams_are_those_of_every_window() {
        let text = b"Ab\x00\xffZanzibar, 12:30 {x}";
        let mut windowed = Column::default();
        for w in text.windows(3) {
            let row = row_of(w[0], w[1], w[2]);
            windowed.0[row / 64] |= 1 << (row % 64);
        }
        assert!(column("Ab") == Column::default());
        let mut rolled = Column::default();
        rolled.add(text);
        assert!(rolled == windowed);
    }

    #[test]
    fn one_alternative_without_trigrams_admits_everything() {
        assert_eq!(
            Condition::of(&[b"zanzibar".to_vec(), b"ab".to_vec()], false),
            None
        );
        let either = Condition::of(&[b"alpha".to_vec(), b"gamma".to_vec()], false).unwrap();
        assert!(either.admits(&column("gamma ray")));
        assert!(!either.admits(&column("beta ray")));
    }

    #[test]
    fn the_file_gives_the_slots_whose_columns_hold_the_literal() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("grams");
        let (mut file, id) = GramFile::open(&path).unwrap();
        assert_eq!(id, None);
        let id = file.reset().unwrap();
        let slots = SLOTS_PER_BLOCK as u32 + 3;
        let mut columns = vec![
            (1, column("to zanzibar"), false),
            (slots - 1, column("ZANZIBAR again"), false),
            (7, column("nothing here"), false),
        ];
        file.write(&mut columns).unwrap().unwrap();
        let zanzibar = condition("zanzibar", false).unwrap();
        assert_eq!(
            file.candidates(&zanzibar, slots).unwrap(),
            Ok(vec![1, slots - 1])
        );
        // A slot given to another session is cleared first.
        file.write(&mut [(1, column("other text"), true)])
            .unwrap()
            .unwrap();
        assert_eq!(
            file.candidates(&zanzibar, slots).unwrap(),
            Ok(vec![slots - 1])
        );
        // Bits are only added otherwise.
        file.write(&mut [(7, column("zanzibar now"), false)])
            .unwrap()
            .unwrap();
        assert_eq!(
            file.candidates(&zanzibar, slots).unwrap(),
            Ok(vec![7, slots - 1])
        );
        let (_, reopened) = GramFile::open(&path).unwrap();
        assert_eq!(reopened, Some(id));
    }

    /// A file of two blocks, slot 1 and the last slot holding "zanzibar".
    fn two_blocks(dir: &Path) -> (GramFile, u32, Condition) {
        let (mut file, _) = GramFile::open(&dir.join("grams")).unwrap();
        file.reset().unwrap();
        let slots = SLOTS_PER_BLOCK as u32 + 3;
        file.write(&mut [
            (1, column("to zanzibar"), false),
            (slots - 1, column("zanzibar again"), false),
        ])
        .unwrap()
        .unwrap();
        (file, slots, condition("zanzibar", false).unwrap())
    }

    #[test]
    fn a_file_cut_short_is_damaged_not_an_answer_without_its_sessions() {
        let dir = tempfile::tempdir().unwrap();
        let (file, slots, zanzibar) = two_blocks(dir.path());
        let len = file.len().unwrap();
        // Cut after the first block's first row.
        file.file.set_len(HEADER_BYTES + ROW_STRIDE as u64).unwrap();
        assert!(file.candidates(&zanzibar, slots).unwrap().is_err());
        // Bits added past the cut grow the file back to its length; the
        // rows lost in the first block are still found out, by reading
        // and by writing.
        file.write(&mut [(SLOTS_PER_BLOCK as u32, column("zanzibar too"), false)])
            .unwrap()
            .unwrap();
        assert_eq!(file.len().unwrap(), len);
        assert!(file.candidates(&zanzibar, slots).unwrap().is_err());
        assert!(
            file.write(&mut [(2, column("more"), false)])
                .unwrap()
                .is_err()
        );
    }

    #[test]
    fn bits_changed_behind_the_file_s_back_fail_their_checksum() {
        let dir = tempfile::tempdir().unwrap();
        let (file, slots, zanzibar) = two_blocks(dir.path());
        // Clears the bits of every slot of the first block in the rows
        // "zanzibar" asks for.
        let Condition { alternatives } = zanzibar.clone();
        for &row in &alternatives[0] {
            file.file
                .write_all_at(&[0u8; ROW_BYTES], HEADER_BYTES + (row * ROW_STRIDE) as u64)
                .unwrap();
        }
        let damage = file.candidates(&zanzibar, slots).unwrap().unwrap_err();
        assert!(damage.0.contains("block 0"), "{damage:?}");
    }
}
