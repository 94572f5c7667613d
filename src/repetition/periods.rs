//! Periods: each unit's hash goes to the index of where it occurred
//! before, those earlier occurrences become candidate periods, and each
//! candidate counts its run of units equal to the unit one period back
//! (see the module's opening comment). [`ContentTracker::check`] and
//! [`ContentTracker::check_recurring`] read the result.

use serde::{Deserialize, Serialize};

use super::index::Index;
use super::{
    CHAIN_DEPTH, ContentTracker, MAX_CANDIDATES, MAX_PERIOD_CHARS, MAX_UNITS, NONE, Repetition,
};

/// A period being followed: how long the passage has repeated at it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Candidate {
    /// In units.
    pub(super) period: u64,
    /// Consecutive units equal to the unit `period` places before them.
    pub(super) run: u64,
    /// Of those, the last ones also equal as written (numbers included).
    pub(super) exact: u64,
}

impl ContentTracker {
    pub(super) fn unit_at(&self, number: u64) -> Option<u64> {
        let k = number.checked_sub(self.first)?;
        self.hashes.get(k as usize).copied()
    }

    pub(super) fn written_at(&self, number: u64) -> Option<u64> {
        let k = number.checked_sub(self.first)?;
        self.written.get(k as usize).copied()
    }

    /// Normalised characters up to the end of unit `number` (kept).
    pub(super) fn end_of(&self, number: u64) -> Option<u64> {
        let k = number.checked_sub(self.first)?;
        self.ends.get(k as usize).copied()
    }

    pub(super) fn push_unit(
        &mut self,
        hash: u64,
        written: u64,
        chars: u64,
        found: &mut Option<Repetition>,
    ) {
        let i = self.first + self.hashes.len() as u64;
        self.chars += chars;
        self.hashes.push_back(hash);
        self.written.push_back(written);
        self.ends.push_back(self.chars);
        self.raw_ends.push_back(self.raw_chars);
        let previous = self.index_unit(hash, i);

        let mut candidates = std::mem::take(&mut self.candidates);
        candidates.retain_mut(|c| {
            let at = i.checked_sub(c.period);
            let same = at
                .and_then(|at| self.unit_at(at))
                .is_some_and(|h| h == hash);
            c.run += 1;
            c.exact = if at.and_then(|at| self.written_at(at)) == Some(written) {
                c.exact + 1
            } else {
                0
            };
            same
        });
        let mut q = previous;
        for _ in 0..CHAIN_DEPTH {
            if q == NONE {
                break;
            }
            let period = i - q;
            let too_long = self
                .end_of(q)
                .is_none_or(|end| self.chars - end > MAX_PERIOD_CHARS);
            if too_long {
                break;
            }
            if !candidates.iter().any(|c| c.period == period) {
                let exact = u64::from(self.written_at(q) == Some(written));
                let fresh = Candidate {
                    period,
                    run: 1,
                    exact,
                };
                if candidates.len() < MAX_CANDIDATES {
                    candidates.push(fresh);
                } else if let Some(weakest) = candidates.iter_mut().min_by_key(|c| c.run)
                    && weakest.run <= 1
                {
                    *weakest = fresh;
                }
            }
            q = self.previous_of(q);
        }
        candidates.sort_unstable_by_key(|c| c.period);
        self.candidates = candidates;
        if found.is_none() {
            *found = self.check(i).or_else(|| self.check_recurring(i));
        }
        self.trim();
    }

    pub(super) fn index_unit(&mut self, hash: u64, i: u64) -> u64 {
        let previous = self
            .index
            .newest
            .insert(hash, i)
            .filter(|&p| p >= self.first)
            .unwrap_or(NONE);
        self.index.previous.push_back(previous);
        let sum = self.index.sums.back().copied().unwrap_or(0);
        self.index.sums.push_back(sum.wrapping_add(hash));
        previous
    }

    pub(super) fn previous_of(&self, number: u64) -> u64 {
        number
            .checked_sub(self.first)
            .and_then(|k| self.index.previous.get(k as usize).copied())
            .filter(|&p| p != NONE && p >= self.first)
            .unwrap_or(NONE)
    }

    /// Drops units no period can reach back to, and stale index entries.
    fn trim(&mut self) {
        while self.hashes.len() > 1
            && (self.hashes.len() > MAX_UNITS || self.chars - self.ends[1] > MAX_PERIOD_CHARS)
        {
            self.hashes.pop_front();
            self.written.pop_front();
            self.ends.pop_front();
            self.raw_ends.pop_front();
            self.index.previous.pop_front();
            self.index.sums.pop_front();
            self.first += 1;
        }
        let first = self.first;
        self.candidates
            .retain(|c| c.period <= self.hashes.len() as u64);
        if self.index.newest.len() > 2 * self.hashes.len() + 64 {
            self.index.newest.retain(|_, at| *at >= first);
        }
    }

    /// Builds the index from the hashes (after loading a saved state).
    pub(super) fn ensure_index(&mut self) {
        if self.indexed {
            return;
        }
        self.index = Index::default();
        self.indexed = true;
        let hashes: Vec<u64> = self.hashes.iter().copied().collect();
        for (k, hash) in hashes.into_iter().enumerate() {
            self.index_unit(hash, self.first + k as u64);
        }
    }
}
