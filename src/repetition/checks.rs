//! The two rules that read the units' hashes: a period repeated in a row
//! ([`ContentTracker::check`]) and a sentence coming back
//! ([`ContentTracker::check_recurring`]); see the module's opening comment.

use super::words::{self, WordKind};
use super::{
    CHAIN_DEPTH, ContentTracker, MAX_AVERAGE_GAP, MAX_PERIOD_CHARS, MAX_SENTENCE_UNITS,
    MIN_COUNTER_BODY_CHARS, MIN_SENTENCE_CHARS, NONE, Repetition, SENTENCE_START,
};

impl ContentTracker {
    /// Characters of the whole sentence ending at unit `newer` that is
    /// also, as written, the one ending at `older`; 0 if they differ or
    /// the same words end two different sentences ("the copyright file is
    /// now installed in …", "the changelog file is now installed in …").
    fn shared_sentence(&self, newer: u64, older: u64) -> u64 {
        let mut shared = 0;
        // Back to the older sentence's start, the output's first unit included.
        let reach = older.checked_sub(self.first).map_or(0, |kept| kept + 1);
        for k in 0..MAX_SENTENCE_UNITS.min(reach) {
            let (a, b) = (newer - k, older - k);
            let written = self.written_at(a);
            if a <= older || written.is_none() || written != self.written_at(b) {
                break;
            }
            let start = self.end_of(a - 1).unwrap_or(self.chars);
            match self.end_of(a) {
                Some(end) if end > start => shared += end - start,
                _ => break,
            }
            if written.is_some_and(|w| w & SENTENCE_START != 0) {
                return shared;
            }
        }
        0
    }
    fn sum_at(&self, number: u64) -> Option<u64> {
        let k = number.checked_sub(self.first)?;
        self.index.sums.get(k as usize).copied()
    }
    /// Whether unit `i`, a sentence, is the `threshold`-th occurrence of
    /// itself within reach, with few different forms of text between.
    pub(super) fn check_recurring(&self, i: u64) -> Option<Repetition> {
        let threshold = self.threshold as u64;
        let mut occurrences = vec![i];
        let mut q = i;
        // Other sentences ending in the same words are passed over (they
        // are text between), a few at most.
        let mut passed = 0;
        while (occurrences.len() as u64) < threshold {
            q = self.previous_of(q);
            let within = q != NONE
                && self
                    .end_of(q)
                    .is_some_and(|end| self.chars - end <= MAX_PERIOD_CHARS);
            if !within {
                return None;
            }
            if self.shared_sentence(*occurrences.last()?, q) >= MIN_SENTENCE_CHARS {
                occurrences.push(q);
            } else if passed < CHAIN_DEPTH {
                passed += 1;
            } else {
                return None;
            }
        }
        let mut forms: Vec<u64> = occurrences
            .windows(2)
            .map(|pair| {
                let (newer, older) = (pair[0], pair[1]);
                let between = self.sum_at(newer - 1)?.wrapping_sub(self.sum_at(older)?);
                Some(between.wrapping_mul(31).wrapping_add(newer - older))
            })
            .collect::<Option<Vec<u64>>>()?;
        forms.sort_unstable();
        forms.dedup();
        if forms.len() as u64 > threshold / 2 {
            return None;
        }
        let oldest = *occurrences.last()?;
        let span = self.chars - self.end_of(oldest)?;
        if span > MAX_AVERAGE_GAP * (threshold - 1) {
            return None;
        }
        let period = self.chars - self.end_of(occurrences[1])?;
        (threshold.saturating_mul(period) >= self.min_span as u64).then(|| Repetition {
            count: threshold,
            period,
            counter: false,
            unit: self.passage(occurrences[1]),
        })
    }
    /// The shortest candidate period repeated `threshold` times in a row,
    /// over at least `min_span` characters, ending at unit `i`; one whose
    /// occurrences differ in their numbers only if it is long enough to be
    /// a body around a counter.
    pub(super) fn check(&self, i: u64) -> Option<Repetition> {
        // A multiple of a period that already repeats is the same loop
        // read coarser: only the shortest counts ("Item 1 Item 2 Item 3
        // Item 4" is four names, not one long body).
        let mut shortest: Option<u64> = None;
        self.candidates.iter().find_map(|c| {
            if shortest.is_some_and(|p| c.period.is_multiple_of(p)) {
                return None;
            }
            if c.run >= c.period {
                shortest.get_or_insert(c.period);
            }
            let count = c.run / c.period + 1;
            let period = self.chars - self.end_of(i - c.period)?;
            let counter = c.exact < c.run;
            let enough = count >= self.threshold as u64
                && count.saturating_mul(period) >= self.min_span as u64
                && (!counter || period >= MIN_COUNTER_BODY_CHARS);
            if !enough {
                return None;
            }
            let unit = self.passage(i - c.period);
            if counter && !body_around_each_counter(&unit, period) {
                return None;
            }
            Some(Repetition {
                count,
                period,
                counter,
                unit,
            })
        })
    }
    /// The raw text after unit `before`, the last occurrence of a passage
    /// (as much of it as the preview kept).
    fn passage(&self, before: u64) -> String {
        let start = before
            .checked_sub(self.first)
            .and_then(|k| self.raw_ends.get(k as usize).copied())
            .unwrap_or(0);
        let wanted = usize::try_from(self.raw_chars - start).unwrap_or(usize::MAX);
        let skip = self.tail.chars().count().saturating_sub(wanted);
        self.tail.chars().skip(skip).collect()
    }
}

/// Whether a passage of `period` normalised characters whose occurrences
/// differ in their numbers has a body of [`MIN_COUNTER_BODY_CHARS`] around
/// each of its counters (`passage`, as written, counted for them; each
/// is read as `#` and a space). A model that loops moves one counter
/// around a body ("Step 7: Learn to Cook"); a row of a table in a
/// document moves several with little between them ("- 8 bits reduced
/// to 0 bits => eg. 2048 bits to 2040 bits DH key", libssh2's changelog,
/// four counters in 58 characters).
fn body_around_each_counter(passage: &str, period: u64) -> bool {
    let counters = passage
        .split_whitespace()
        .filter(|word| words::kind(&word.to_lowercase(), false) == WordKind::Number)
        .count() as u64;
    let body = period.saturating_sub(2 * counters);
    body >= MIN_COUNTER_BODY_CHARS * counters.max(1)
}
