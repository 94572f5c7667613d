//! A BPE rank table laid out to be used in place, with nothing built at
//! run time: `build.rs` writes one for each of tiktoken's vocabularies and
//! the binary embeds it. Building tiktoken's hash map instead cost ~50 ms
//! per process, the whole of a `compress check`.
//!
//! Layout, every number a little-endian u32:
//! `"OLLMBPE1" | ranks | slots (a power of two) | pool length |
//! slot[slots] (rank + 1 of a token hashed there, 0 = empty) |
//! start[ranks + 1] (where each rank's bytes begin in the pool) | pool`.
//! A rank without bytes (a gap, a special token) has `start[r] == start[r + 1]`.
//!
//! This file is also compiled into `build.rs`, so it uses nothing of the crate.

const MAGIC: &[u8; 8] = b"OLLMBPE1";
const HEADER: usize = 20;

/// FNV-1a: short keys, no setup.
pub fn hash(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The table of `tokens` (index = rank; `None` for a rank with no bytes).
#[allow(dead_code)] // used by build.rs and by tests
pub fn write(tokens: &[Option<Vec<u8>>]) -> Vec<u8> {
    let slots = (tokens.len() * 2).next_power_of_two();
    let mut slot = vec![0u32; slots];
    let mut start = Vec::with_capacity(tokens.len() + 1);
    let mut pool = Vec::new();
    for (rank, token) in tokens.iter().enumerate() {
        start.push(pool.len() as u32);
        let Some(bytes) = token else { continue };
        pool.extend_from_slice(bytes);
        let mut i = hash(bytes) as usize & (slots - 1);
        while slot[i] != 0 {
            i = (i + 1) & (slots - 1);
        }
        slot[i] = rank as u32 + 1;
    }
    start.push(pool.len() as u32);
    let mut out = MAGIC.to_vec();
    for n in [tokens.len(), slots, pool.len()] {
        out.extend_from_slice(&(n as u32).to_le_bytes());
    }
    for n in slot.iter().chain(&start) {
        out.extend_from_slice(&n.to_le_bytes());
    }
    out.extend_from_slice(&pool);
    out
}

/// A table read in place.
#[derive(Clone, Copy)]
pub struct Table<'a> {
    slot: &'a [u8],
    start: &'a [u8],
    pool: &'a [u8],
    mask: usize,
}

#[allow(dead_code)] // build.rs only writes tables
impl<'a> Table<'a> {
    /// The table in `bytes`, if they hold one whose sizes add up.
    pub fn parse(bytes: &'a [u8]) -> Option<Table<'a>> {
        let rest = bytes.strip_prefix(MAGIC)?;
        let ranks = u32_at(rest, 0)? as usize;
        let slots = u32_at(rest, 1)? as usize;
        let pool_len = u32_at(rest, 2)? as usize;
        if !slots.is_power_of_two() {
            return None;
        }
        let body = bytes.get(HEADER..)?;
        let (slot, body) = body.split_at_checked(slots * 4)?;
        let (start, pool) = body.split_at_checked((ranks + 1) * 4)?;
        (pool.len() == pool_len).then_some(Table {
            slot,
            start,
            pool,
            mask: slots - 1,
        })
    }

    /// The rank of the token whose bytes are `piece`.
    pub fn rank(&self, piece: &[u8]) -> Option<u32> {
        let mut i = hash(piece) as usize & self.mask;
        for _ in 0..=self.mask {
            let rank = u32_at(self.slot, i)?.checked_sub(1)?;
            if self.bytes(rank)? == piece {
                return Some(rank);
            }
            i = (i + 1) & self.mask;
        }
        None
    }

    /// The bytes of `rank`.
    pub fn bytes(&self, rank: u32) -> Option<&'a [u8]> {
        let from = u32_at(self.start, rank as usize)? as usize;
        let to = u32_at(self.start, rank as usize + 1)? as usize;
        self.pool.get(from..to)
    }
}

fn u32_at(bytes: &[u8], index: usize) -> Option<u32> {
    let word = bytes.get(index * 4..index * 4 + 4)?;
    Some(u32::from_le_bytes([word[0], word[1], word[2], word[3]]))
}
