//! Repeated content inside one text (a model's output, a summary): used by
//! loopcheck's repeated-content rule and by compression, which refuses a
//! summary that loops. In the base layer, as two services need it.
//!
//! A small model that degenerates writes the same sentence, paragraph or
//! numbered item over and over until its token limit, sometimes with only
//! a counter changing ("Step 7: …", "in the 24th century …").
//!
//! How: the output's text is read word by word (letters lower-cased,
//! white space collapsed) and cut into *units*: a unit ends at the end of
//! a line, after a sentence's last word (`.`, `!`, `?`, `;`, `:`), and
//! after any word whose hash is a multiple of [`BREAK_MODULUS`]. That last
//! rule cuts on content, not on position, so a passage without
//! punctuation is cut the same way each time it recurs. Each unit is
//! hashed twice: as written, and with its *counters* read as `#` (below),
//! and the output becomes a sequence of unit hashes `u`. A loop of period
//! `d` units is a run of positions where `u[i] == u[i − d]`: candidate
//! periods come from where the newest unit occurred before (up to
//! [`CHAIN_DEPTH`] earlier occurrences, so a unit recurring inside the
//! period does not hide the period), and each candidate counts its run of
//! matches, dying at the first mismatch. A run of `(threshold − 1) × d`
//! matches is the passage occurring `threshold` times in a row; it is a
//! loop when those occurrences also cover at least `minSpan` characters
//! (so "Yes. Yes. Yes. Yes." is not one). Periods are found up to
//! [`MAX_PERIOD_CHARS`] characters.
//!
//! **Counters against names.** A degenerating model often repeats a body
//! with only a counter moving; a document lists things that differ only in
//! their numbers. The rule that separates them:
//!
//! - A number *standing alone* as a word (`7`, `7:`, `(24th`, `$5`, a time
//!   of day `9:01`) is a counter: read as `#`. A number *inside a name*
//!   (a version `0.4.31`, a date `2017-06-12`, a reference `#2884`, a URL,
//!   a path `services/12`, an id `us-central1`, `v2`) is what the name
//!   says: kept as written.
//! - A passage whose occurrences differ in their counters is a loop only if
//!   it is at least [`MIN_COUNTER_BODY_CHARS`] long: a body around a
//!   counter ("Step 7: Learn to Cook"), not a name with a number ("Item 7",
//!   "Day 7", "Chapter 7").
//! - An *outline number* at a tracked line's start (`1.1.7:`, `12.1.7.`)
//!   is a name (a version: "1.0.3: Bug fixes.") unless it *counts*: one
//!   part up by one from the outline number that started the last such
//!   line, the parts before it the same and those after it back to 0 or
//!   1 (`1.1.9` → `1.1.10`, `1.1.20` → `1.2.1`). Then it is a counter,
//!   and one that adds no characters: the body after it must be long
//!   enough by itself. A model numbering one sentence counts up ("1.1.12:
//!   Use `*` to split a list of strings into a tuple of strings" for
//!   every N, as SmolLM2 wrote it); a changelog lists its versions newest
//!   first and skips many, and where one counts up its notes are short
//!   ("1.0.4: Bug fixes.") or different. Across the registry's Markdown,
//!   every Debian doc, man page and Python source on the development
//!   machine (28,149 files), 187 places count up three times or more, and
//!   in none does a body of 16 characters or more come back three times.
//! - Lines of structure are not read for their words (see [`lines`]):
//!   fenced and indented code, table rows, dividers, headings, link
//!   reference definitions, HTML blocks, lines that start with a URL or a
//!   path, key/value lines, front matter, log records and the headers of a
//!   history (`commit …`, `Author:`, a ChangeLog's dated line, a diffstat).
//!   Each is one unit (its counters read as `#`) that counts no
//!   characters: it never makes a loop of its own, but different headings
//!   or records between two passages break their run, and the same ones
//!   repeat with them.
//!
//! Loops (reported): "Step 7: I will not give up on …" for steps 1 to 12;
//! "Step 7: Learn to Cook" for steps 1 to 40;
//! "In the 24th century, humanity …" for every century; "1. Rust is fast,
//! safe and productive …" with the number moving; a day log whose heading,
//! time (`9:01`) and count move while its paragraph and list stay; a
//! paragraph of any length up to 4 KB repeated verbatim; "1.1.N: Use
//! `*` to split a list of strings into a tuple of strings" for N counting
//! up. Not loops:
//! `[#2884]: https://github.com/…/pull/2884` lines, `[0.4.31]: …/compare/
//! 0.4.30...0.4.31` lines, `### 0.6.0 (2017-06-12)` headings over short
//! bodies, a `<details><summary>` block per release, `- projects/my-
//! project-12345/locations/us-central1/services/N` for each N, "Released
//! on 2026-03-01 as build 4.1.1" for each day, "Item N" for each N, a git
//! log whose commits touch the same files, `### Added` / `### Changed`
//! sections each holding "TODO", "1.0.N: Bug fixes." for N counting up,
//! "1.0.N: Maintenance release with updated dependencies only." for N
//! counting down.
//!
//! A model also loops less strictly: one sentence comes back again and
//! again with one or two variations between ("She loved to challenge the
//! old cat. She loved to challenge the old cat. Luna was …"). So a whole
//! sentence (from its start, [`MIN_SENTENCE_CHARS`] characters or more, the
//! same as written each time) that occurs `threshold` times, on average at
//! most [`MAX_AVERAGE_GAP`] characters apart, where the units between its
//! occurrences take at most `threshold / 2` different forms, is a loop too
//! (gemini-cli's rule, on units instead of fixed windows). Template lines
//! between different items (`#[derive(…)]` before each struct) have a
//! different form each time, a document that uses one phrase in two
//! places does not come back to it within a sentence or two, and two
//! sentences that merely end alike ("the copyright file is now installed
//! in …", "the changelog file is now installed in …") are not one.
//!
//! A unit with no letter or digit (`}`, `---`) is skipped.
//!
//! Cost and state: a constant amount of work per character (one hash
//! update; per unit, a bounded chain walk and at most [`MAX_CANDIDATES`]
//! comparisons), and a state bounded by [`MAX_UNITS`] unit hashes covering
//! the last [`MAX_PERIOD_CHARS`] characters or so (a unit ends after at most
//! [`MAX_UNIT_WORDS`] words of at most [`MAX_WORD`] characters), plus a short preview of
//! the raw text. The text is processed one character at a time, so where a
//! streamed output was cut into chunks changes nothing. The index from hash
//! to position is rebuilt from the saved hashes after loading a state.

use std::borrow::Cow;
use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

mod checks;
mod index;
pub(crate) mod lines;
mod words;

use self::index::Index;
use self::lines::LineKind;
use self::words::{WordKind, fnv, spread};

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

/// Raw characters kept for the preview of a repeated passage: enough for
/// a long paragraph's start to be recognised.
const PREVIEW_CHARS: usize = 1024;

/// The shortest passage, in normalised characters, whose occurrences may
/// differ in their numbers and still be a loop: a body around a counter
/// ("Step 7: Learn to cook", 21 characters with its line's end, as
/// SmolLM2 wrote it 40 times), not a name with a number ("Item 7",
/// "Day 7", "Chapter 7").
const MIN_COUNTER_BODY_CHARS: u64 = 16;

const NONE: u64 = u64::MAX;

/// The bit of a unit's written hash that says it starts a sentence or a line.
const SENTENCE_START: u64 = 1;

/// Units a sentence that comes back is followed back over to its start.
const MAX_SENTENCE_UNITS: u64 = 64;

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
    /// Whether its occurrences differ in their numbers (a counter).
    pub counter: bool,
    /// The passage's last occurrence as written (its last
    /// [`PREVIEW_CHARS`] characters at most).
    pub unit: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct Candidate {
    /// In units.
    period: u64,
    /// Consecutive units equal to the unit `period` places before them.
    run: u64,
    /// Of those, the last ones also equal as written (numbers included).
    exact: u64,
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
    /// A line has ended (so a `---` now is no longer front matter's start).
    started: bool,
    /// Inside front matter (`---` as the first line, then `key: value`
    /// lines up to `---`): not tracked.
    front_matter: bool,
    /// The current word, lower-cased.
    word: String,
    /// The current word is a piece of a word cut at [`MAX_WORD`].
    word_cut: bool,
    /// The current unit does not start a sentence or a line.
    mid_sentence: bool,
    /// A word of the current line has ended.
    line_has_word: bool,
    /// The last outline number (`1.1.7:`) that started a tracked line.
    outline: Vec<u32>,
    /// The current unit: its hash so far with its counters read as `#`
    /// and as written, its characters, its words, whether it has a letter
    /// or digit.
    unit: u64,
    unit_written: u64,
    unit_chars: u64,
    unit_words: u32,
    unit_alnum: bool,
    /// The hashes of the units kept; `hashes[0]` is unit number `first`.
    hashes: VecDeque<u64>,
    /// The same units' hashes with their numbers as written.
    written: VecDeque<u64>,
    /// `raw_ends[k]`: raw characters tracked up to the end of `hashes[k]`.
    raw_ends: VecDeque<u64>,
    /// Raw characters tracked so far.
    raw_chars: u64,
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
                    t.started,
                    t.front_matter,
                    t.line_has_word,
                    t.outline.clone(),
                ),
                (
                    t.word.clone(),
                    (t.word_cut, t.mid_sentence),
                    (t.unit, t.unit_written),
                    t.unit_chars,
                    t.unit_words,
                    t.unit_alnum,
                ),
                (t.hashes.clone(), t.ends.clone(), t.first, t.chars),
                (t.written.clone(), t.raw_ends.clone(), t.raw_chars),
                (t.candidates.clone(), t.tail.clone()),
            )
        };
        key(self) == key(other)
    }
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
        if self.front_matter {
            // Until `---`, `...` or a blank line: only the line's start is kept.
            if ended {
                let line = self.head.trim_end();
                self.front_matter = !matches!(line, "---" | "..." | "");
                self.head.clear();
            } else if self.head.len() < 8 {
                self.head.push(c);
            }
            return;
        }
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
            self.feed(c, found);
            return;
        }
        self.feed('\n', found);
        self.line = None;
        self.started = true;
    }

    /// Whether the current line is prose (tracked word by word), not
    /// structure (one unit of no length per line).
    fn tracks(&self) -> bool {
        !self.in_code && matches!(self.line, Some(LineKind::Prose | LineKind::Element))
    }

    fn decide(&mut self, kind: LineKind, found: &mut Option<Repetition>) {
        if kind == LineKind::Fence {
            self.in_code = !self.in_code;
        }
        self.line = Some(kind);
        let head = std::mem::take(&mut self.head);
        if !self.started && kind == LineKind::Structure && head.trim_end() == "---" {
            self.front_matter = true;
        }
        for c in head.chars() {
            self.feed(c, found);
        }
    }

    /// One character, lower-cased into the current word.
    fn feed(&mut self, c: char, found: &mut Option<Repetition>) {
        if self.tracks() {
            self.keep_for_preview(c);
        }
        if c.is_whitespace() {
            self.end_word(c == '\n', found);
            self.word_cut = false;
        } else {
            for lower in c.to_lowercase() {
                self.push_word(lower, found);
            }
        }
    }

    fn push_word(&mut self, c: char, found: &mut Option<Repetition>) {
        // An opening quote starts a sentence (`she said, "I'm …`).
        if self.word.is_empty() && matches!(c, '"' | '\u{201c}') && self.tracks() {
            if self.unit_words > 0 {
                self.end_unit(found);
            }
            self.mid_sentence = false;
        }
        self.word.push(c);
        if c.is_alphanumeric() {
            self.unit_alnum = true;
        }
        // Bytes, not characters: a word of wide characters is cut sooner,
        // the same way each time.
        if self.word.len() >= MAX_WORD {
            self.word_cut = true;
            self.end_word(false, found);
        }
    }

    fn end_word(&mut self, line_end: bool, found: &mut Option<Repetition>) {
        if self.word.is_empty() {
            if line_end {
                self.end_unit(found);
                self.mid_sentence = false;
                self.line_has_word = false;
            }
            return;
        }
        let written = fnv(self.word.as_bytes());
        let outline_counter = !std::mem::replace(&mut self.line_has_word, true)
            && self.tracks()
            && self.counts_on_outline();
        // Only a number standing alone, or an outline number counting up
        // at a line's start, is a counter; one inside a name (a version, a
        // date, a URL, an id) is what the name says.
        let word = if outline_counter || words::kind(&self.word, self.word_cut) == WordKind::Number
        {
            words::numbers_as_marks(&self.word)
        } else {
            Cow::Borrowed(self.word.as_str())
        };
        let hash = if word == self.word.as_str() {
            written
        } else {
            fnv(word.as_bytes())
        };
        self.unit = self.unit.wrapping_mul(0x100_0000_01b3).wrapping_add(hash);
        self.unit_written = self
            .unit_written
            .wrapping_mul(0x100_0000_01b3)
            .wrapping_add(written);
        // A counting outline number is no part of the body: the body must be
        // long enough to loop by itself (not "1.0.3: Bug fixes.").
        if !outline_counter {
            self.unit_chars += word.chars().count() as u64 + 1;
        }
        self.unit_words += 1;
        let sentence_end = word
            .trim_end_matches(['"', '\'', ')', ']', '*', '_', '\u{201d}', '\u{2019}'])
            .ends_with(['.', '!', '?', ';', ':']);
        self.word.clear();
        let prose_break =
            sentence_end || hash.is_multiple_of(BREAK_MODULUS) || self.unit_words >= MAX_UNIT_WORDS;
        if line_end || (prose_break && self.tracks()) {
            self.end_unit(found);
            self.mid_sentence = !(line_end || sentence_end);
        }
        if line_end {
            self.line_has_word = false;
        }
    }

    /// Whether the current word, the first of a tracked line, is an
    /// outline number one step after the last one that started a line.
    fn counts_on_outline(&mut self) -> bool {
        let Some(parts) = words::outline_number(&self.word) else {
            return false;
        };
        let counts = words::counts_on(&self.outline, &parts);
        self.outline = parts;
        counts
    }

    fn end_unit(&mut self, found: &mut Option<Repetition>) {
        if self.unit_alnum {
            let start = if self.mid_sentence { 0 } else { SENTENCE_START };
            let hash = spread(self.unit);
            let written = spread(self.unit_written) & !SENTENCE_START | start;
            // A line of structure takes part in runs (different headings
            // or log records between two passages break them) but counts
            // no characters: it never makes a loop of its own.
            let chars = if self.tracks() { self.unit_chars } else { 0 };
            self.push_unit(hash, written, chars, found);
        }
        self.unit = 0;
        self.unit_written = 0;
        self.unit_chars = 0;
        self.unit_words = 0;
        self.unit_alnum = false;
    }

    fn unit_at(&self, number: u64) -> Option<u64> {
        let k = number.checked_sub(self.first)?;
        self.hashes.get(k as usize).copied()
    }

    fn written_at(&self, number: u64) -> Option<u64> {
        let k = number.checked_sub(self.first)?;
        self.written.get(k as usize).copied()
    }

    /// Normalised characters up to the end of unit `number` (kept).
    fn end_of(&self, number: u64) -> Option<u64> {
        let k = number.checked_sub(self.first)?;
        self.ends.get(k as usize).copied()
    }

    fn push_unit(&mut self, hash: u64, written: u64, chars: u64, found: &mut Option<Repetition>) {
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

    fn previous_of(&self, number: u64) -> u64 {
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

    fn keep_for_preview(&mut self, c: char) {
        self.tail.push(c);
        self.raw_chars += 1;
        if self.tail.len() > 2 * PREVIEW_CHARS {
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

#[cfg(test)]
mod tests;
