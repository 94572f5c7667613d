//! Reading an output into units: each character goes to its line's
//! kind, then to a word, and each word to the current unit, which ends at
//! a line's end, a sentence's end or a breaking word (see the module's
//! opening comment). Each finished unit goes to [`ContentTracker::push_unit`].

use std::borrow::Cow;

use super::lines::{self, LineKind};
use super::words::{self, WordKind, fnv, spread};
use super::{
    BREAK_MODULUS, ContentTracker, MAX_UNIT_WORDS, MAX_WORD, PREVIEW_CHARS, Repetition,
    SENTENCE_START,
};

impl ContentTracker {
    pub(super) fn push_char(&mut self, c: char, found: &mut Option<Repetition>) {
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
            // A decision taken on a line's first characters is the one a
            // longer head gets (lines.rs): asked only where a word ends (or
            // the head is whole), the same kind comes a few characters later
            // at a fraction of the cost, the head being read whole each time.
            let ask = ended || !c.is_alphanumeric() || self.head.len() >= lines::HEAD_LIMIT;
            if let Some(kind) = ask.then(|| lines::classify(&self.head, ended)).flatten() {
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
}
