//! Where each unit occurred, derived from the saved hashes.

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

/// Where each unit occurred: derived from the hashes, never saved.
#[derive(Debug, Clone, Default)]
pub(super) struct Index {
    /// The newest unit number of each hash (the keys are hashes already).
    pub(super) newest: HashMap<u64, u64, BuildHasherDefault<Unhashed>>,
    /// `previous[k]`: the unit number of the previous occurrence of
    /// `hashes[k]`, or `NONE`.
    pub(super) previous: VecDeque<u64>,
    /// `sums[k]`: the wrapping sum of the hashes up to `hashes[k]`, so the
    /// units between two positions have a form (a sum) found in O(1).
    pub(super) sums: VecDeque<u64>,
}

/// A hasher for keys that are well-mixed hashes already: it keeps them.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Unhashed(u64);

impl Hasher for Unhashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}
