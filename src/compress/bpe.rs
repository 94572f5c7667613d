//! tiktoken's cl100k_base and o200k_base token counts, ready without being
//! built: the rank tables are embedded in the binary as build.rs wrote them
//! (see `bpe_table`), the pre-tokenizer is written out (`pretokenize`), and
//! each piece is merged by tiktoken's own algorithm (`byte_pair_merge`,
//! ported here counting only), so the counts are tiktoken's.

use super::bpe_table::Table;
use super::pretokenize::{self, Pattern};
use crate::error::{Error, Result};

static CL100K: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_base.bpe"));
static O200K: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_base.bpe"));

/// One of tiktoken's encodings.
#[derive(Clone, Copy)]
pub struct Encoding {
    table: Table<'static>,
    pattern: Pattern,
}

impl Encoding {
    pub fn cl100k() -> Result<Encoding> {
        Encoding::embedded(CL100K, Pattern::Cl100k, "cl100k_base")
    }

    pub fn o200k() -> Result<Encoding> {
        Encoding::embedded(O200K, Pattern::O200k, "o200k_base")
    }

    fn embedded(bytes: &'static [u8], pattern: Pattern, name: &str) -> Result<Encoding> {
        let table = Table::parse(bytes).ok_or_else(|| {
            Error::Corrupt(format!(
                "the {name} table built into this program is damaged (rebuild it)"
            ))
        })?;
        Ok(Encoding { table, pattern })
    }

    /// Tokens in `text`, as tiktoken's `encode_ordinary(text).len()`.
    pub fn count(&self, text: &str) -> u64 {
        pretokenize::pieces(self.pattern, text)
            .map(|piece| self.count_piece(piece.as_bytes()) as u64)
            .sum()
    }

    fn count_piece(&self, piece: &[u8]) -> usize {
        if piece.len() <= 1 {
            piece.len()
        } else if self.table.rank(piece).is_some() {
            1
        } else if piece.len() < 100 {
            self.merge_count(piece)
        } else {
            self.merge_count_large(piece)
        }
    }

    fn rank(&self, piece: &[u8]) -> u32 {
        self.table.rank(piece).unwrap_or(u32::MAX)
    }

    /// tiktoken's `_byte_pair_merge`: merges the lowest-ranked adjacent pair
    /// until none is a token; the number of parts left.
    fn merge_count(&self, piece: &[u8]) -> usize {
        // (start, rank of the pair starting there)
        let mut parts: Vec<(usize, u32)> = Vec::with_capacity(piece.len() + 1);
        let mut min = (u32::MAX, usize::MAX);
        for i in 0..piece.len() - 1 {
            let rank = self.rank(&piece[i..i + 2]);
            if rank < min.0 {
                min = (rank, i);
            }
            parts.push((i, rank));
        }
        parts.push((piece.len() - 1, u32::MAX));
        parts.push((piece.len(), u32::MAX));
        let rank_at = |parts: &[(usize, u32)], i: usize| {
            if i + 3 < parts.len() {
                self.rank(&piece[parts[i].0..parts[i + 3].0])
            } else {
                u32::MAX
            }
        };
        while min.0 != u32::MAX {
            let i = min.1;
            if i > 0 {
                parts[i - 1].1 = rank_at(&parts, i - 1);
            }
            parts[i].1 = rank_at(&parts, i);
            parts.remove(i + 1);
            min = (u32::MAX, usize::MAX);
            for (i, &(_, rank)) in parts[..parts.len() - 1].iter().enumerate() {
                if rank < min.0 {
                    min = (rank, i);
                }
            }
        }
        parts.len() - 1
    }

    /// tiktoken's `_byte_pair_merge_large`: the same merges with a heap, for
    /// long pieces (a run of spaces, a minified line).
    fn merge_count_large(&self, piece: &[u8]) -> usize {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        struct State {
            prev: usize,
            end: usize,
            next_end: usize,
            next_rank: u32,
        }
        let mut state: Vec<State> = Vec::with_capacity(piece.len());
        state.push(State {
            prev: usize::MAX,
            end: 1,
            next_end: 2,
            next_rank: u32::MAX,
        });
        // Lowest rank first, then leftmost.
        let mut heap = BinaryHeap::with_capacity(piece.len());
        for i in 0..piece.len() - 1 {
            let rank = self.rank(&piece[i..i + 2]);
            if rank != u32::MAX {
                heap.push(Reverse((rank, i)));
                state[i].next_rank = rank;
            }
            state.push(State {
                prev: i,
                end: i + 2,
                next_end: i + 3,
                next_rank: u32::MAX,
            });
        }
        let potential_merge = |state: &mut Vec<State>,
                               heap: &mut BinaryHeap<Reverse<(u32, usize)>>,
                               start: usize,
                               end: usize| {
            state[start].next_end = end;
            state[start].next_rank = u32::MAX;
            if end <= piece.len() {
                let rank = self.rank(&piece[start..end]);
                if rank != u32::MAX {
                    heap.push(Reverse((rank, start)));
                    state[start].next_rank = rank;
                }
            }
        };
        while let Some(Reverse((rank, left_start))) = heap.pop() {
            if rank != state[left_start].next_rank {
                continue; // invalidated by an earlier merge
            }
            let right_start = state[left_start].end;
            let right_end = state[left_start].next_end;
            let right_next_end = state[right_start].next_end;
            state[left_start].end = right_end;
            potential_merge(&mut state, &mut heap, left_start, right_next_end);
            if right_end < state.len() {
                state[right_end].prev = left_start;
            }
            if left_start > 0 {
                let prev_start = state[left_start].prev;
                potential_merge(&mut state, &mut heap, prev_start, right_end);
            }
            state[right_start].next_rank = u32::MAX;
        }
        let mut count = 0;
        let mut i = 0;
        while i < state.len() {
            count += 1;
            i = state[i].end;
        }
        count
    }
}
