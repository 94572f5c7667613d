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
//!
//! The parts, in the order a character goes through them: [`lines`] (what
//! a line is), `units` (characters to words to units, with [`words`]
//! deciding what a number is), `periods` (each unit's earlier occurrences
//! and the candidate periods they give, kept in `index`), `checks` (a
//! period repeated in a row, a sentence coming back) and, here, the state
//! and its settings.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

mod checks;
mod index;
pub(crate) mod lines;
mod periods;
mod units;
mod words;

use self::index::Index;
use self::lines::LineKind;
use self::periods::Candidate;

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
}

#[cfg(test)]
mod tests;
