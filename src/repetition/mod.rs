//! Repeated content inside one text (a model's output, a summary): used by
//! loopcheck's repeated-content rule and by compression, which refuses a
//! summary that loops. In the base layer, as two services need it.
//!
//! A small model that degenerates writes the same sentence, paragraph or
//! numbered item over and over until its token limit, sometimes with only
//! a counter changing ("Step 7: …", "in the 24th century …").
//!
//! How: the output's text is normalised (letters lower-cased, every run of
//! digits and an ordinal suffix after it read as one `#`, white space
//! collapsed) and cut into *units*: a unit ends at the end of a line, after
//! a sentence's last word (`.`, `!`, `?`, `;`, `:`), and after any word whose
//! hash is a multiple of [`BREAK_MODULUS`]. That last rule cuts on content,
//! not on position, so a passage without punctuation is cut the same way
//! each time it recurs. Each unit is hashed, and the output becomes a
//! sequence of unit hashes `u`. A loop of period `d` units is a run of
//! positions where `u[i] == u[i − d]`: candidate periods come from where the
//! newest unit occurred before (up to [`CHAIN_DEPTH`] earlier occurrences, so
//! a unit recurring inside the period does not hide the period), and each
//! candidate counts its run of matches, dying at the first mismatch. A run
//! of `(threshold − 1) × d` matches is the passage occurring `threshold`
//! times in a row; it is a loop when those occurrences also cover at least
//! `minSpan` characters (so "Yes. Yes. Yes. Yes." is not one). Periods are
//! found up to [`MAX_PERIOD_CHARS`] characters.
//!
//! A model also loops less strictly: one sentence comes back again and
//! again with one or two variations between ("She loved to challenge the old
//! cat. She loved to challenge the old cat. Luna was …"). So a sentence
//! (the last [`MIN_SENTENCE_CHARS`] characters of units or more, the same
//! each time) that occurs `threshold` times, on average at most
//! [`MAX_AVERAGE_GAP`] characters apart, where the units between its
//! occurrences take at most `threshold / 2` different forms, is a loop too
//! (gemini-cli's rule, on units instead of fixed windows). Template lines
//! between different items (`#[derive(…)]` before each struct) have a
//! different form each time, and a document that uses one phrase in two
//! places does not come back to it within a sentence or two.
//!
//! Legitimate repetition is left alone ([`lines`]): code blocks,
//! indented code, table rows, dividers and log records are not tracked, and
//! a unit with no letter or digit (`}`, `---`) is skipped. Items that share
//! a template but say different things break every run. Tables, lists of
//! different items and changelogs therefore never repeat a whole period.
//!
//! Cost and state: a constant amount of work per character (one hash
//! update; per unit, a bounded chain walk and at most [`MAX_CANDIDATES`]
//! comparisons), and a state bounded by [`MAX_UNITS`] unit hashes covering
//! the last [`MAX_PERIOD_CHARS`] characters or so (a unit ends after at most
//! [`MAX_UNIT_WORDS`] words of at most [`MAX_WORD`] characters), plus a short preview of
//! the raw text. The text is processed one character at a time, so where a
//! streamed output was cut into chunks changes nothing. The index from hash
//! to position is rebuilt from the saved hashes after loading a state.

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

use serde::{Deserialize, Serialize};

pub(crate) mod lines;

use self::lines::LineKind;

/// The longest period found, in normalised characters.
pub const MAX_PERIOD_CHARS: u64 = 4096;

/// Unit hashes kept at most, however short the units.
const MAX_UNITS: usize = 1024;

/// A word whose hash is a multiple of this ends a unit (about one word in this many; four makes units short enough that a sentence repeated with varying text before it still ends in a unit of its own).
const BREAK_MODULUS: u64 = 4;

/// Bytes of a normalised word after which it is cut (`aaaa…` loops too).
const MAX_WORD: usize = 32;

/// Words after which a unit ends if nothing else ended it: counted from the
/// previous unit's end, so the cut still falls at the same place in every
/// occurrence of a passage.
const MAX_UNIT_WORDS: u32 = 24;

/// Earlier occurrences of a unit tried as candidate periods.
const CHAIN_DEPTH: usize = 8;

/// Candidate periods followed at once.
const MAX_CANDIDATES: usize = 16;

/// The shortest text, in normalised characters, whose recurrence with
/// varying text between counts: the units ending at each occurrence must
/// be the same for this long (a sentence, not a list marker).
const MIN_SENTENCE_CHARS: u64 = 24;

/// The average distance, in characters, between the occurrences of such a
/// sentence at most: a model repeating itself comes back to it within a
/// sentence or two, a document using one phrase in two places does not.
const MAX_AVERAGE_GAP: u64 = 256;

/// Raw characters kept for the preview of a repeated passage.
const PREVIEW_CHARS: usize = 240;

const NONE: u64 = u64::MAX;

/// `services.loopDetection.contentMinSpan` (the key `contentChunkSize`) and
/// `contentRepeatThreshold`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContentSettings {
    /// Characters the repeated occurrences must cover together.
    pub min_span: usize,
    /// Occurrences in a row that make a loop; below 2 turns detection off.
    pub threshold: usize,
}

impl From<&crate::config::LoopDetectionConfig> for ContentSettings {
    fn from(c: &crate::config::LoopDetectionConfig) -> ContentSettings {
        use crate::config::{
            MAX_CONTENT_CHUNK_SIZE, MAX_CONTENT_REPEAT_THRESHOLD, MIN_CONTENT_CHUNK_SIZE,
        };
        ContentSettings {
            min_span: c
                .content_chunk_size
                .clamp(MIN_CONTENT_CHUNK_SIZE, MAX_CONTENT_CHUNK_SIZE)
                as usize,
            threshold: c.content_repeat_threshold.min(MAX_CONTENT_REPEAT_THRESHOLD) as usize,
        }
    }
}

impl ContentSettings {
    pub fn enabled(&self) -> bool {
        self.threshold >= 2
    }
}

/// The first loop in a whole text, if any.
pub fn find(text: &str, settings: ContentSettings) -> Option<Repetition> {
    ContentTracker::default().push(text, settings)
}

/// A loop found in the output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repetition {
    /// Occurrences of the passage in a row so far.
    pub count: u64,
    /// The passage's length, in normalised characters.
    pub period: u64,
    /// The end of the raw text, about one period of it.
    pub unit: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct Candidate {
    /// In units.
    period: u64,
    /// Consecutive units equal to the unit `period` places before them.
    run: u64,
}

/// The tracking state; serializable for `--state`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ContentTracker {
    /// The settings this state was built with (other settings start afresh).
    min_span: usize,
    threshold: usize,
    /// The current line's first characters, while its kind is undecided.
    head: String,
    /// The current line's kind, once decided.
    line: Option<LineKind>,
    /// Inside a fenced code block.
    in_code: bool,
    /// The current word, normalised.
    word: String,
    in_digits: bool,
    /// The current unit: its hash so far, its characters, whether it has a
    /// letter or digit.
    unit: u64,
    unit_chars: u64,
    unit_words: u32,
    unit_alnum: bool,
    /// The hashes of the units kept; `hashes[0]` is unit number `first`.
    hashes: VecDeque<u64>,
    /// `ends[k]`: normalised characters up to the end of `hashes[k]`.
    ends: VecDeque<u64>,
    first: u64,
    /// Normalised characters of all units so far.
    chars: u64,
    candidates: Vec<Candidate>,
    /// The last raw characters tracked, for the preview.
    tail: String,
    #[serde(skip)]
    index: Index,
    /// Whether `index` has been built from `hashes` (not after loading).
    #[serde(skip)]
    indexed: bool,
}

impl PartialEq for ContentTracker {
    /// The index is derived from the rest, so it takes no part.
    fn eq(&self, other: &Self) -> bool {
        let key = |t: &Self| {
            (
                (t.min_span, t.threshold, t.head.clone(), t.line, t.in_code),
                (
                    t.word.clone(),
                    t.in_digits,
                    t.unit,
                    t.unit_chars,
                    t.unit_words,
                    t.unit_alnum,
                ),
                (t.hashes.clone(), t.ends.clone(), t.first, t.chars),
                (t.candidates.clone(), t.tail.clone()),
            )
        };
        key(self) == key(other)
    }
}

/// Where each unit occurred: derived from the hashes, never saved.
#[derive(Debug, Clone, Default)]
struct Index {
    /// The newest unit number of each hash (the keys are hashes already).
    newest: HashMap<u64, u64, BuildHasherDefault<Unhashed>>,
    /// `previous[k]`: the unit number of the previous occurrence of
    /// `hashes[k]`, or `NONE`.
    previous: VecDeque<u64>,
    /// `sums[k]`: the wrapping sum of the hashes up to `hashes[k]`, so the
    /// units between two positions have a form (a sum) found in O(1).
    sums: VecDeque<u64>,
}

impl ContentTracker {
    /// Forgets everything: a new output (a turn, a tool call, a user
    /// message).
    pub fn reset(&mut self) {
        let (min_span, threshold) = (self.min_span, self.threshold);
        *self = ContentTracker {
            min_span,
            threshold,
            indexed: true,
            ..ContentTracker::default()
        };
    }

    /// Feeds the next piece of an output; returns the loop it completes or
    /// continues, if any.
    pub fn push(&mut self, piece: &str, settings: ContentSettings) -> Option<Repetition> {
        if !settings.enabled() {
            return None;
        }
        if (self.min_span, self.threshold) != (settings.min_span, settings.threshold) {
            *self = ContentTracker {
                min_span: settings.min_span,
                threshold: settings.threshold,
                ..ContentTracker::default()
            };
        }
        self.ensure_index();
        let mut found = None;
        for c in piece.chars() {
            self.push_char(c, &mut found);
        }
        found
    }

    fn push_char(&mut self, c: char, found: &mut Option<Repetition>) {
        let ended = c == '\n';
        if self.line.is_none() {
            if !ended {
                self.head.push(c);
            }
            if let Some(kind) = lines::classify(&self.head, ended) {
                self.decide(kind, found);
            }
            if !ended {
                return;
            }
        } else if !ended {
            if self.tracks() {
                self.feed(c, found);
            }
            return;
        }
        if self.tracks() {
            self.feed('\n', found);
        }
        self.line = None;
    }

    /// Whether the current line's characters are tracked.
    fn tracks(&self) -> bool {
        !self.in_code && matches!(self.line, Some(LineKind::Prose | LineKind::Element))
    }

    fn decide(&mut self, kind: LineKind, found: &mut Option<Repetition>) {
        if kind == LineKind::Fence {
            self.in_code = !self.in_code;
        }
        self.line = Some(kind);
        let head = std::mem::take(&mut self.head);
        if self.tracks() {
            for c in head.chars() {
                self.feed(c, found);
            }
        }
    }

    /// One character of tracked text, normalised into the current word.
    fn feed(&mut self, c: char, found: &mut Option<Repetition>) {
        self.keep_for_preview(c);
        if c.is_whitespace() {
            self.end_word(c == '\n', found);
        } else if c.is_numeric() {
            if !self.in_digits {
                self.in_digits = true;
                self.push_word('#', found);
            }
        } else {
            self.in_digits = false;
            for lower in c.to_lowercase() {
                self.push_word(lower, found);
            }
        }
    }

    fn push_word(&mut self, c: char, found: &mut Option<Repetition>) {
        self.word.push(c);
        if c.is_alphanumeric() || c == '#' {
            self.unit_alnum = true;
        }
        // Bytes, not characters: a word of wide characters is cut sooner,
        // the same way each time.
        if self.word.len() >= MAX_WORD {
            self.end_word(false, found);
        }
    }

    fn end_word(&mut self, line_end: bool, found: &mut Option<Repetition>) {
        if self.word.is_empty() {
            if line_end {
                self.end_unit(found);
            }
            return;
        }
        let word = normalise_ordinal(&self.word);
        let hash = fnv(word.as_bytes());
        self.unit = self.unit.wrapping_mul(0x100_0000_01b3).wrapping_add(hash);
        self.unit_chars += word.chars().count() as u64 + 1;
        self.unit_words += 1;
        let sentence_end = word
            .trim_end_matches(['"', '\'', ')', ']', '*', '_', '\u{201d}', '\u{2019}'])
            .ends_with(['.', '!', '?', ';', ':']);
        self.word.clear();
        self.in_digits = false;
        if line_end
            || sentence_end
            || hash.is_multiple_of(BREAK_MODULUS)
            || self.unit_words >= MAX_UNIT_WORDS
        {
            self.end_unit(found);
        }
    }

    fn end_unit(&mut self, found: &mut Option<Repetition>) {
        if self.unit_alnum {
            let hash = spread(self.unit);
            let chars = self.unit_chars;
            self.push_unit(hash, chars, found);
        }
        self.unit = 0;
        self.unit_chars = 0;
        self.unit_words = 0;
        self.unit_alnum = false;
    }

    fn unit_at(&self, number: u64) -> Option<u64> {
        let k = number.checked_sub(self.first)?;
        self.hashes.get(k as usize).copied()
    }

    /// Normalised characters up to the end of unit `number` (kept).
    fn end_of(&self, number: u64) -> Option<u64> {
        let k = number.checked_sub(self.first)?;
        self.ends.get(k as usize).copied()
    }

    fn push_unit(&mut self, hash: u64, chars: u64, found: &mut Option<Repetition>) {
        let i = self.first + self.hashes.len() as u64;
        self.chars += chars;
        self.hashes.push_back(hash);
        self.ends.push_back(self.chars);
        let previous = self.index_unit(hash, i);

        let mut candidates = std::mem::take(&mut self.candidates);
        candidates.retain_mut(|c| {
            let same = i
                .checked_sub(c.period)
                .and_then(|at| self.unit_at(at))
                .is_some_and(|h| h == hash);
            c.run += 1;
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
                let fresh = Candidate { period, run: 1 };
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

    fn index_unit(&mut self, hash: u64, i: u64) -> u64 {
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

    /// Characters, up to [`MIN_SENTENCE_CHARS`], of the units ending at
    /// `newer` that equal those ending at `older`.
    fn shared_tail(&self, newer: u64, older: u64) -> u64 {
        let mut shared = 0;
        let mut k = 0;
        while shared < MIN_SENTENCE_CHARS && k < older {
            let (a, b) = (newer - k, older - k);
            if b + k >= newer || self.unit_at(a) != self.unit_at(b) || self.unit_at(b).is_none() {
                break;
            }
            let start = self.end_of(a - 1).unwrap_or(self.chars);
            match self.end_of(a) {
                Some(end) if a > self.first => shared += end - start,
                _ => break,
            }
            k += 1;
        }
        shared
    }

    fn sum_at(&self, number: u64) -> Option<u64> {
        let k = number.checked_sub(self.first)?;
        self.index.sums.get(k as usize).copied()
    }

    /// Whether unit `i`, a sentence, is the `threshold`-th occurrence of
    /// itself within reach, with few different forms of text between.
    fn check_recurring(&self, i: u64) -> Option<Repetition> {
        let threshold = self.threshold as u64;
        let mut occurrences = vec![i];
        let mut q = i;
        while (occurrences.len() as u64) < threshold {
            q = self.previous_of(q);
            let within = q != NONE
                && self
                    .end_of(q)
                    .is_some_and(|end| self.chars - end <= MAX_PERIOD_CHARS);
            if !within {
                return None;
            }
            if self.shared_tail(*occurrences.last()?, q) < MIN_SENTENCE_CHARS {
                return None;
            }
            occurrences.push(q);
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
            unit: self.preview(period),
        })
    }

    fn previous_of(&self, number: u64) -> u64 {
        number
            .checked_sub(self.first)
            .and_then(|k| self.index.previous.get(k as usize).copied())
            .filter(|&p| p != NONE && p >= self.first)
            .unwrap_or(NONE)
    }

    /// The shortest candidate period repeated `threshold` times in a row,
    /// over at least `min_span` characters, ending at unit `i`.
    fn check(&self, i: u64) -> Option<Repetition> {
        self.candidates.iter().find_map(|c| {
            let count = c.run / c.period + 1;
            let period = self.chars - self.end_of(i - c.period)?;
            let enough = count >= self.threshold as u64
                && count.saturating_mul(period) >= self.min_span as u64;
            enough.then(|| Repetition {
                count,
                period,
                unit: self.preview(period),
            })
        })
    }

    /// About the last `period` characters of raw text.
    fn preview(&self, period: u64) -> String {
        let skip = self
            .tail
            .chars()
            .count()
            .saturating_sub(period as usize + 1);
        self.tail.chars().skip(skip).collect()
    }

    /// Drops units no period can reach back to, and stale index entries.
    fn trim(&mut self) {
        while self.hashes.len() > 1
            && (self.hashes.len() > MAX_UNITS || self.chars - self.ends[1] > MAX_PERIOD_CHARS)
        {
            self.hashes.pop_front();
            self.ends.pop_front();
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

    fn keep_for_preview(&mut self, c: char) {
        self.tail.push(c);
        if self.tail.len() > 8 * PREVIEW_CHARS {
            let count = self.tail.chars().count();
            let cut = self
                .tail
                .char_indices()
                .nth(count.saturating_sub(PREVIEW_CHARS))
                .map_or(0, |(at, _)| at);
            self.tail.drain(..cut);
        }
    }

    /// Builds the index from the hashes (after loading a saved state).
    fn ensure_index(&mut self) {
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

/// A hasher for keys that are well-mixed hashes already: it keeps them.
#[derive(Debug, Clone, Copy, Default)]
struct Unhashed(u64);

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

/// `#th`, `#st`, `#nd`, `#rd` (an ordinal after a number) read as `#`.
fn normalise_ordinal(word: &str) -> std::borrow::Cow<'_, str> {
    if let Some(rest) = word.strip_prefix('#') {
        for suffix in ["st", "nd", "rd", "th"] {
            if let Some(after) = rest.strip_prefix(suffix)
                && !after.starts_with(char::is_alphanumeric)
            {
                return format!("#{after}").into();
            }
        }
    }
    word.into()
}

/// FNV-1a, then mixed: a word's hash decides where units end, so it must
/// not depend on the platform or the process (a state is reloaded).
fn fnv(bytes: &[u8]) -> u64 {
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    spread(hash)
}

/// One multiply-xorshift, so every bit of the result depends on every input bit.
fn spread(n: u64) -> u64 {
    let x = (n ^ (n >> 31)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^ (x >> 29)
}

#[cfg(test)]
mod tests;
