//! A small state file replaced in place with one `fdatasync`: two slots,
//! each holding a whole version of the contents with a sequence number and
//! a checksum. A write goes to the slot that does not hold the current
//! version, so a crash at any instant leaves that version intact, and a torn
//! slot fails its checksum and is passed over. Atomic replace (a temp file,
//! its fsync, a rename and the directory's fsync) is only needed when the
//! file is created or its slots grow. A cache that is checked before use
//! (a session's summary) is written with [`Durability::Cache`]: no
//! `fdatasync`, since losing the newest version costs only its rebuild.
//! [`current`] reads the newest version from a file's bytes, for readers
//! that take no lock and never write.
//!
//! Layout (little-endian): `OLLMSLOT`, format `u32`, slot capacity `u32`,
//! then two slots of `seq u64, len u32, 0u32, xxh3-64 u64, payload`
//! padded to the capacity. A slot whose `seq` is 0 is empty.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::os::unix::fs::FileExt;
use std::path::Path;

use super::Durability;
use crate::error::{Error, Result};

const MAGIC: &[u8; 8] = b"OLLMSLOT";
const FORMAT: u32 = 1;
const HEADER: usize = 16;
const SLOT_HEADER: usize = 24;
/// The smallest slot of [`create`]; a file grows to twice what its
/// contents need.
const MIN_CAPACITY: usize = 4096;

/// Whether `bytes` start like a slotted file (rather than an older format).
pub fn is_slotted(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// An open slotted file whose current version has been read; the caller
/// holds the lock that guards it.
#[derive(Debug)]
pub struct Slots {
    file: File,
    capacity: usize,
    /// The slot holding the current version, and its sequence number.
    current: usize,
    seq: u64,
}

/// What [`Slots::open`] found at a path.
#[derive(Debug)]
pub enum Contents {
    /// A slotted file and its current version's contents.
    Slotted(Slots, Vec<u8>),
    /// A file in another format (an older one, for the caller to read).
    Other(Vec<u8>),
    /// A slotted file that cannot be read, and why.
    Unreadable(String),
}

impl Slots {
    /// Opens `path` (a regular file, never through a link) for reading and
    /// in-place writing; `None` when missing.
    pub fn open(path: &Path) -> Result<Option<Contents>> {
        let mut options = OpenOptions::new();
        options.read(true).write(true);
        let Some((mut file, _)) = super::open_checked(path, &mut options)? else {
            return Ok(None);
        };
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| Error::io(path, &e))?;
        if !is_slotted(&bytes) {
            return Ok(Some(Contents::Other(bytes)));
        }
        Ok(Some(match parse(&bytes) {
            Ok((capacity, current, seq)) => {
                let payload = payload(&bytes, capacity, current).to_vec();
                let slots = Slots {
                    file,
                    capacity,
                    current,
                    seq,
                };
                Contents::Slotted(slots, payload)
            }
            Err(why) => Contents::Unreadable(why),
        }))
    }

    /// Writes `payload` as the next version into the other slot and syncs
    /// it (one `fdatasync`). Returns `false`, writing nothing, when it does
    /// not fit: then [`create`] the file anew.
    pub fn write(&mut self, path: &Path, payload: &[u8]) -> Result<bool> {
        self.write_with(path, payload, Durability::Synced)
    }

    /// [`Slots::write`], syncing only when `durability` asks for it (a
    /// cache checked before use needs no `fdatasync`: a torn slot fails
    /// its checksum and the other one still holds the previous version).
    pub fn write_with(
        &mut self,
        path: &Path,
        payload: &[u8],
        durability: Durability,
    ) -> Result<bool> {
        if payload.len() > self.capacity {
            return Ok(false);
        }
        let target = 1 - self.current;
        let seq = self.seq + 1;
        let slot = slot_bytes(seq, payload);
        self.file
            .write_all_at(&slot, slot_offset(self.capacity, target) as u64)
            .and_then(|()| match durability {
                Durability::Synced => self.file.sync_data(),
                Durability::Cache => Ok(()),
            })
            .map_err(|e| Error::io(path, &e))?;
        self.current = target;
        self.seq = seq;
        Ok(true)
    }
}

/// Creates (or atomically replaces, synced) `path` holding `payload` as its
/// only version, with room for contents twice its size.
pub fn create(path: &Path, payload: &[u8]) -> Result<()> {
    create_with(path, payload, MIN_CAPACITY, Durability::Synced)
}

/// [`create`] with slots of at least `min_capacity` bytes (small files that
/// are read often), synced only when `durability` asks for it.
pub fn create_with(
    path: &Path,
    payload: &[u8],
    min_capacity: usize,
    durability: Durability,
) -> Result<()> {
    let capacity = (payload.len() * 2).max(min_capacity).next_power_of_two();
    let capacity = u32::try_from(capacity)
        .map_err(|_| Error::input(format!("{} would be too large", path.display())))?;
    let mut bytes = Vec::with_capacity(HEADER + 2 * (SLOT_HEADER + capacity as usize));
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&FORMAT.to_le_bytes());
    bytes.extend_from_slice(&capacity.to_le_bytes());
    for slot in [slot_bytes(1, payload), Vec::new()] {
        let end = bytes.len() + SLOT_HEADER + capacity as usize;
        bytes.extend_from_slice(&slot);
        bytes.resize(end, 0);
    }
    super::write_atomic(path, &bytes, durability)
}

/// The current version's contents in the bytes of a slotted file, or why
/// there is none.
pub fn current(bytes: &[u8]) -> std::result::Result<&[u8], String> {
    let (capacity, current, _) = parse(bytes)?;
    Ok(payload(bytes, capacity, current))
}

/// The payload of slot `slot`, which [`parse`] found intact.
fn payload(bytes: &[u8], capacity: usize, slot: usize) -> &[u8] {
    let at = slot_offset(capacity, slot);
    let len = u32_at(bytes, at + 8) as usize;
    &bytes[at + SLOT_HEADER..at + SLOT_HEADER + len]
}

fn slot_offset(capacity: usize, slot: usize) -> usize {
    HEADER + slot * (SLOT_HEADER + capacity)
}

/// The checksum of a slot: its first 16 bytes (sequence number, length,
/// reserved word) and its payload.
fn checksum(head: &[u8], payload: &[u8]) -> u64 {
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    hasher.update(&head[..16]);
    hasher.update(payload);
    hasher.digest()
}

fn slot_bytes(seq: u64, payload: &[u8]) -> Vec<u8> {
    let mut slot = Vec::with_capacity(SLOT_HEADER + payload.len());
    slot.extend_from_slice(&seq.to_le_bytes());
    slot.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    slot.extend_from_slice(&0u32.to_le_bytes());
    let sum = checksum(&slot, payload);
    slot.extend_from_slice(&sum.to_le_bytes());
    slot.extend_from_slice(payload);
    slot
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(word)
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

/// The capacity, the slot holding the newest valid version and its
/// sequence number.
fn parse(bytes: &[u8]) -> std::result::Result<(usize, usize, u64), String> {
    if bytes.len() < HEADER || !is_slotted(bytes) {
        return Err("not a slotted state file".to_string());
    }
    let format = u32_at(bytes, 8);
    if format != FORMAT {
        return Err(format!("slot format {format}, expected {FORMAT}"));
    }
    let capacity = u32_at(bytes, 12) as usize;
    if bytes.len() != slot_offset(capacity, 2) {
        return Err(format!(
            "{} bytes where its header says {}",
            bytes.len(),
            slot_offset(capacity, 2)
        ));
    }
    let valid = |slot: usize| -> Option<u64> {
        let at = slot_offset(capacity, slot);
        let seq = u64_at(bytes, at);
        let len = u32_at(bytes, at + 8) as usize;
        if seq == 0 || len > capacity {
            return None;
        }
        let payload = &bytes[at + SLOT_HEADER..at + SLOT_HEADER + len];
        (u64_at(bytes, at + 16) == checksum(&bytes[at..], payload)).then_some(seq)
    };
    match (valid(0), valid(1)) {
        (Some(a), Some(b)) if b > a => Ok((capacity, 1, b)),
        (Some(a), _) => Ok((capacity, 0, a)),
        (None, Some(b)) => Ok((capacity, 1, b)),
        (None, None) => Err("neither of its two slots is intact".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &Path) -> (Vec<u8>, Slots) {
        match Slots::open(path).unwrap().unwrap() {
            Contents::Slotted(slots, payload) => (payload, slots),
            other => panic!("not readable: {other:?}"),
        }
    }

    #[test]
    fn versions_alternate_between_the_slots_and_the_newest_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state");
        assert!(Slots::open(&path).unwrap().is_none());
        create(&path, b"one").unwrap();
        for (i, next) in [b"two".as_slice(), b"three", b"four"].iter().enumerate() {
            let (_, mut slots) = read(&path);
            assert!(slots.write(&path, next).unwrap());
            assert_eq!(read(&path).0, *next, "write {i}");
        }
        let len = std::fs::metadata(&path).unwrap().len();
        assert_eq!(len as usize, slot_offset(MIN_CAPACITY, 2));
    }

    #[test]
    fn a_torn_write_leaves_the_previous_version() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state");
        create(&path, b"kept").unwrap();
        let (_, mut slots) = read(&path);
        assert!(slots.write(&path, b"torn version").unwrap());
        // Tear the newest slot (slot 1) at every byte of its header and payload.
        let whole = std::fs::read(&path).unwrap();
        let at = slot_offset(MIN_CAPACITY, 1);
        for i in at..at + SLOT_HEADER + 12 {
            let mut torn = whole.clone();
            torn[i] ^= 0x5a;
            std::fs::write(&path, &torn).unwrap();
            assert_eq!(read(&path).0, b"kept", "byte {i}");
        }
    }

    #[test]
    fn contents_that_outgrow_the_slots_ask_for_a_new_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state");
        create(&path, b"small").unwrap();
        let big = vec![b'x'; MIN_CAPACITY + 1];
        let (_, mut slots) = read(&path);
        assert!(!slots.write(&path, &big).unwrap());
        assert_eq!(read(&path).0, b"small");
        create(&path, &big).unwrap();
        assert_eq!(read(&path).0, big);
    }

    #[test]
    fn a_small_cache_file_is_read_from_its_bytes_and_rewritten_in_place() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cache");
        create_with(&path, b"first", 512, Durability::Cache).unwrap();
        assert_eq!(
            std::fs::metadata(&path).unwrap().len() as usize,
            slot_offset(512, 2)
        );
        let inode = std::fs::metadata(&path).unwrap().ino();
        for next in [b"second".as_slice(), b"third"] {
            let (_, mut slots) = read(&path);
            assert!(slots.write_with(&path, next, Durability::Cache).unwrap());
            assert_eq!(current(&std::fs::read(&path).unwrap()).unwrap(), next);
        }
        assert_eq!(std::fs::metadata(&path).unwrap().ino(), inode);
        // Contents past the minimum get slots with room for twice their size.
        create_with(&path, &[b'z'; 600], 512, Durability::Cache).unwrap();
        assert_eq!(
            std::fs::metadata(&path).unwrap().len() as usize,
            slot_offset(2048, 2)
        );
        create_with(&path, b"first", 512, Durability::Cache).unwrap();
        assert!(current(b"{\"plain\":\"json\"}").is_err());
        // A payload as large as a slot fits; one byte more does not.
        let (_, mut slots) = read(&path);
        assert!(
            slots
                .write_with(&path, &[b'y'; 512], Durability::Cache)
                .unwrap()
        );
        assert_eq!(read(&path).0, [b'y'; 512]);
        assert!(
            !slots
                .write_with(&path, &[b'x'; 513], Durability::Cache)
                .unwrap()
        );
    }

    #[test]
    fn damage_beyond_both_slots_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state");
        create(&path, b"x").unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER + SLOT_HEADER] ^= 1;
        assert!(parse(&bytes).is_err());
        assert!(parse(&bytes[..100]).is_err());
        assert!(parse(b"OLLMSLOT").is_err());
        assert!(!is_slotted(b"{\"version\":1}"));
    }
}
