//! A model's Hugging Face `tokenizer.json`, counted without building the
//! `tokenizers` crate's vocabulary and merge maps (~220 ms per process for
//! SmolLM2's): the file is prepared once into a compact form (`prepare`)
//! that `hf_cache` keeps under `$OLLM_HOME/cache/tokenizers/` and that is
//! used in place afterwards (`Prepared::parse`).
//!
//! Only the configuration GPT-2-style byte-level BPE models ship is
//! prepared, and only when every option is one whose behaviour is
//! reproduced here exactly (see `prepare`); anything else is counted by the
//! `tokenizers` crate. The counts are `tokenizers`'
//! `encode(text, add_special_tokens = false).len()`:
//! 1. added tokens are split out first (leftmost-longest), one token each;
//! 2. the rest is split by the Digits pre-tokenizer, if any, then by the
//!    ByteLevel expression (`pretokenize::Pattern::Gpt2`);
//! 3. each piece's bytes are merged by the rank of the *pair* in `merges`
//!    (the `tokenizers` BPE `Word::merge_all`, not tiktoken's
//!    rank-of-result), and the symbols left are counted.
//!
//! Layout, every number a little-endian u32 unless said otherwise:
//! `"OLLMHFB1" | checksum (u64, xxh3 of everything after it) | digits |
//! slots (a power of two) | added tokens | added pool length |
//! byte_id[256] (u32::MAX: no token) | slot[slots] × (left, right, rank, new id; rank u32::MAX =
//! empty) | added_start[added + 1] | added pool`.
//! `digits`: 0 = no Digits pre-tokenizer, 1 = contiguous, 2 = individual.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

use super::pretokenize::{self, Pattern};

mod prepare;

pub use prepare::prepare;

const MAGIC: &[u8; 8] = b"OLLMHFB1";
const HEADER: usize = 8 + 8 + 4 * 4;
const EMPTY: u32 = u32::MAX;

/// How the Digits pre-tokenizer (before ByteLevel) splits numbers off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Digits {
    None,
    Contiguous,
    Individual,
}
pub(super) fn pair_hash(left: u32, right: u32) -> usize {
    let key = u64::from(left) << 32 | u64::from(right);
    (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize
}

/// The bytes of a prepared tokenizer: just prepared, or the cache's, mapped.
pub enum Bytes {
    Owned(Vec<u8>),
    Mapped(memmap2::Mmap),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Owned(bytes) => bytes,
            Bytes::Mapped(bytes) => bytes,
        }
    }
}

/// A prepared tokenizer, read in place from the bytes `prepare` wrote.
pub struct Prepared {
    bytes: Bytes,
    digits: Digits,
    mask: usize,
    slots_at: usize,
    added: Option<AhoCorasick>,
}

impl Prepared {
    /// The tokenizer in `bytes`, if they hold one intact (checksum and
    /// sizes); None for a damaged or truncated file.
    pub fn parse(bytes: impl Into<Bytes>) -> Option<Prepared> {
        let bytes = bytes.into();
        let rest = bytes.strip_prefix(MAGIC)?;
        let (sum, body) = rest.split_at_checked(8)?;
        if u64::from_le_bytes(sum.try_into().ok()?) != xxhash_rust::xxh3::xxh3_64(body) {
            return None;
        }
        let digits = match u32_at(body, 0)? {
            0 => Digits::None,
            1 => Digits::Contiguous,
            2 => Digits::Individual,
            _ => return None,
        };
        let slots = u32_at(body, 1)? as usize;
        let added = u32_at(body, 2)? as usize;
        let pool_len = u32_at(body, 3)? as usize;
        if !slots.is_power_of_two() {
            return None;
        }
        let slots_at = HEADER + 256 * 4;
        let starts_at = slots_at + slots * 16;
        let pool_at = starts_at + (added + 1) * 4;
        if bytes.len() != pool_at.checked_add(pool_len)? {
            return None;
        }
        let starts = &bytes[starts_at..pool_at];
        let contents = (0..added)
            .map(|i| {
                let from = u32_at(starts, i)? as usize;
                let to = u32_at(starts, i + 1)? as usize;
                std::str::from_utf8(bytes.get(pool_at + from..pool_at + to)?).ok()
            })
            .collect::<Option<Vec<&str>>>()?;
        let added = if contents.is_empty() {
            None
        } else {
            Some(
                // A few dozen short tokens: the DFA would cost more to
                // build (~0.5M instructions) than it saves on 20 messages.
                AhoCorasick::builder()
                    .kind(Some(AhoCorasickKind::ContiguousNFA))
                    .match_kind(MatchKind::LeftmostLongest)
                    .build(&contents)
                    .ok()?,
            )
        };
        Some(Prepared {
            digits,
            mask: slots - 1,
            slots_at,
            added,
            bytes,
        })
    }

    /// Tokens in `text`, as the `tokenizers` crate's
    /// `encode(text, false).len()` for the file this was prepared from.
    pub fn count(&self, text: &str) -> u64 {
        let mut merger = Merger::default();
        let mut total = 0;
        let mut at = 0;
        if let Some(added) = &self.added {
            for found in added.find_iter(text) {
                total += self.count_ordinary(&text[at..found.start()], &mut merger) + 1;
                at = found.end();
            }
        }
        total + self.count_ordinary(&text[at..], &mut merger)
    }

    fn count_ordinary(&self, text: &str, merger: &mut Merger) -> u64 {
        let mut total = 0;
        let mut segment = |segment: &str| {
            for piece in pretokenize::pieces(Pattern::Gpt2, segment) {
                total += merger.count(self, piece.as_bytes()) as u64;
            }
        };
        match self.digits {
            Digits::None => segment(text),
            digits => {
                let mut from = 0;
                let mut chars = text.char_indices().peekable();
                while let Some((i, c)) = chars.next() {
                    if !pretokenize::is_number(c) {
                        continue;
                    }
                    let mut end = i + c.len_utf8();
                    if digits == Digits::Contiguous {
                        while let Some(&(j, d)) = chars.peek() {
                            if !pretokenize::is_number(d) {
                                break;
                            }
                            end = j + d.len_utf8();
                            chars.next();
                        }
                    }
                    if from < i {
                        segment(&text[from..i]);
                    }
                    segment(&text[i..end]);
                    from = end;
                }
                if from < text.len() {
                    segment(&text[from..]);
                }
            }
        }
        total
    }

    fn byte_id(&self, byte: u8) -> u32 {
        self.word(HEADER / 4 + usize::from(byte))
    }

    /// (rank, merged id) of the pair `(left, right)`.
    fn merge(&self, left: u32, right: u32) -> Option<(u32, u32)> {
        let mut i = pair_hash(left, right) & self.mask;
        for _ in 0..=self.mask {
            let at = self.slots_at / 4 + i * 4;
            let rank = self.word(at + 2);
            if rank == EMPTY {
                return None;
            }
            if self.word(at) == left && self.word(at + 1) == right {
                return Some((rank, self.word(at + 3)));
            }
            i = (i + 1) & self.mask;
        }
        None
    }

    /// The `index`th u32; in bounds by `parse`'s size check.
    fn word(&self, index: usize) -> u32 {
        let b = &self.bytes[index * 4..index * 4 + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }
}

impl From<Vec<u8>> for Bytes {
    fn from(bytes: Vec<u8>) -> Bytes {
        Bytes::Owned(bytes)
    }
}

impl From<memmap2::Mmap> for Bytes {
    fn from(bytes: memmap2::Mmap) -> Bytes {
        Bytes::Mapped(bytes)
    }
}

fn u32_at(bytes: &[u8], index: usize) -> Option<u32> {
    let word = bytes.get(index * 4..index * 4 + 4)?;
    Some(u32::from_le_bytes([word[0], word[1], word[2], word[3]]))
}

/// One symbol of a word being merged.
#[derive(Clone, Copy)]
struct Symbol {
    id: u32,
    prev: usize,
    next: usize,
    alive: bool,
}

const NONE: usize = usize::MAX;

/// The buffers of `tokenizers`' `Word::merge_all`, reused across pieces.
#[derive(Default)]
struct Merger {
    symbols: Vec<Symbol>,
    /// Lowest rank first, then leftmost: (rank, position, merged id).
    queue: BinaryHeap<Reverse<(u32, usize, u32)>>,
}

impl Merger {
    /// The number of tokens `piece` merges into.
    fn count(&mut self, tokenizer: &Prepared, piece: &[u8]) -> usize {
        self.symbols.clear();
        self.queue.clear();
        for id in piece.iter().map(|&b| tokenizer.byte_id(b)) {
            // A byte without a token is left out (see `model_tables`).
            if id != EMPTY {
                let i = self.symbols.len();
                self.symbols.push(Symbol {
                    id,
                    prev: i.checked_sub(1).unwrap_or(NONE),
                    next: i + 1,
                    alive: true,
                });
            }
        }
        let Some(last) = self.symbols.len().checked_sub(1) else {
            return 0;
        };
        self.symbols[last].next = NONE;
        for i in 0..last {
            if let Some((rank, new_id)) =
                tokenizer.merge(self.symbols[i].id, self.symbols[i + 1].id)
            {
                self.queue.push(Reverse((rank, i, new_id)));
            }
        }
        let mut count = self.symbols.len();
        while let Some(Reverse((_, pos, new_id))) = self.queue.pop() {
            let here = self.symbols[pos];
            if !here.alive || here.next == NONE {
                continue;
            }
            let right = self.symbols[here.next];
            // An entry made stale by an earlier merge.
            if tokenizer
                .merge(here.id, right.id)
                .is_none_or(|(_, id)| id != new_id)
            {
                continue;
            }
            self.symbols[pos].id = new_id;
            self.symbols[pos].next = right.next;
            self.symbols[here.next].alive = false;
            count -= 1;
            if right.next != NONE {
                self.symbols[right.next].prev = pos;
            }
            if here.prev != NONE
                && let Some((rank, id)) = tokenizer.merge(self.symbols[here.prev].id, new_id)
            {
                self.queue.push(Reverse((rank, here.prev, id)));
            }
            if right.next != NONE
                && let Some((rank, id)) = tokenizer.merge(new_id, self.symbols[right.next].id)
            {
                self.queue.push(Reverse((rank, pos, id)));
            }
        }
        count
    }
}

#[cfg(test)]
mod tests;
