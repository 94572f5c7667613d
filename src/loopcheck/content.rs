//! Repeated content inside one model output: a small model that degenerates
//! writes the same sentence or paragraph over and over until its token
//! limit. The idea is gemini-cli's: every `chunk`-character window of the
//! output is hashed, and when one window has occurred `threshold` times,
//! on average at most five windows' length apart, and the text between its
//! occurrences takes at most `threshold / 2` different forms (a real loop
//! repeats one period; a list of items that share a prefix does not), the
//! output is looping.
//!
//! Legitimate repetition is left alone ([`super::lines`]): code blocks are
//! not tracked, and tracking starts afresh at every table row, divider,
//! list item, heading, block quote and log record. An output may arrive as
//! several chunks (a streamed answer); the text is processed one character
//! at a time, so where it was cut changes nothing.
//!
//! The state is bounded: the text of the last `5 × chunk × (threshold − 1)`
//! characters (plus as much slack), which is as far back as an occurrence can
//! count, the current line's first characters, and two counters. The index
//! of windows is rebuilt from that text after loading a saved state.

use serde::{Deserialize, Serialize};

use super::lines::{self, LineKind};

/// Average distance between occurrences, in windows, at which a repeated
/// window still counts as a loop (gemini-cli's factor).
const DISTANCE_FACTOR: usize = 5;

/// The text kept beyond the horizon before it is cut, at least.
const MIN_SLACK: usize = 1024;

/// Polynomial rolling-hash base (odd, so multiplication is invertible mod 2^64).
const BASE: u64 = 0x100_0000_01b3;

const NONE: u64 = u64::MAX;

/// `services.loopDetection.contentChunkSize` and `contentRepeatThreshold`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContentSettings {
    /// Characters per hashed window.
    pub chunk: usize,
    /// Occurrences of one window that make a loop; below 2 turns detection off.
    pub threshold: usize,
}

impl ContentSettings {
    pub fn enabled(&self) -> bool {
        self.threshold >= 2 && self.chunk >= 1
    }

    /// How far back an earlier occurrence still counts: `threshold`
    /// occurrences spread over more than this are not "close together".
    fn horizon(&self) -> u64 {
        (DISTANCE_FACTOR * self.chunk * self.threshold.saturating_sub(1)) as u64
    }
}

/// A loop found in the output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repetition {
    /// Occurrences of the repeated window within the horizon.
    pub count: u64,
    /// The text between the last two occurrences: one period of the loop.
    pub unit: String,
}

/// The tracking state; serializable for `--state`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContentTracker {
    /// The settings this state was built with (other settings start afresh).
    chunk: usize,
    threshold: usize,
    /// The tracked text still needed; its first character is at `base`.
    #[serde(with = "chars")]
    text: Vec<char>,
    base: u64,
    /// The start of the next window to examine.
    next: u64,
    /// The current line's first characters, while its kind is undecided.
    head: String,
    /// The current line's kind, once decided.
    line: Option<LineKind>,
    /// Inside a fenced code block.
    in_code: bool,
    #[serde(skip)]
    index: Index,
    /// Whether `index` has been built from `text` (not after loading).
    #[serde(skip)]
    indexed: bool,
}

impl PartialEq for ContentTracker {
    /// The index is derived from the rest, so it takes no part.
    fn eq(&self, other: &Self) -> bool {
        (
            self.chunk,
            self.threshold,
            &self.text,
            self.base,
            self.next,
            &self.head,
            self.line,
            self.in_code,
        ) == (
            other.chunk,
            other.threshold,
            &other.text,
            other.base,
            other.next,
            &other.head,
            other.line,
            other.in_code,
        )
    }
}

/// Where each window occurred: derived from the text, never saved.
#[derive(Debug, Clone, Default)]
struct Index {
    /// The newest position of each window hash.
    newest: Newest,
    /// `previous[p − base]`: the previous occurrence of the window at `p`
    /// within the horizon, or `NONE`.
    previous: Vec<u64>,
    /// The hash of the window at a position, to roll on from.
    rolled: Option<(u64, u64)>,
    /// `BASE^(chunk − 1)`.
    power: u64,
}

impl ContentTracker {
    /// Forgets everything: a new output (a turn, a tool call, a user
    /// message). Keeps the allocations, as a new output comes every turn.
    pub fn reset(&mut self) {
        self.restart();
        self.head.clear();
        self.line = None;
        self.in_code = false;
    }

    /// Feeds the next piece of an output; returns the loop it completes or
    /// continues, if any.
    pub fn push(&mut self, piece: &str, settings: ContentSettings) -> Option<Repetition> {
        if !settings.enabled() {
            return None;
        }
        if (self.chunk, self.threshold) != (settings.chunk, settings.threshold) {
            *self = ContentTracker {
                chunk: settings.chunk,
                threshold: settings.threshold,
                ..ContentTracker::default()
            };
        }
        self.ensure_index();
        let mut found = None;
        let mut rest = piece;
        while !rest.is_empty() {
            if self.line.is_some() {
                // The rest of a line whose kind is decided, taken at once.
                let end = crate::bytes::find_byte(b'\n', rest.as_bytes()).unwrap_or(rest.len());
                if end > 0 {
                    if self.tracks() {
                        self.feed_run(&rest[..end], &mut found);
                    }
                    rest = &rest[end..];
                    continue;
                }
            }
            let mut chars = rest.chars();
            if let Some(c) = chars.next() {
                self.push_char(c, &mut found);
            }
            rest = chars.as_str();
        }
        found
    }

    fn settings(&self) -> ContentSettings {
        ContentSettings {
            chunk: self.chunk,
            threshold: self.threshold,
        }
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
        match kind {
            LineKind::Fence => {
                self.in_code = !self.in_code;
                self.restart();
            }
            LineKind::Structure | LineKind::Element if !self.in_code => self.restart(),
            _ => {}
        }
        self.line = Some(kind);
        let head = std::mem::take(&mut self.head);
        if self.tracks() {
            for c in head.chars() {
                self.feed(c, found);
            }
        }
    }

    /// Starts tracking afresh at a new element of the output.
    fn restart(&mut self) {
        self.text.clear();
        self.base = 0;
        self.next = 0;
        self.index.newest.clear();
        self.index.previous.clear();
        self.index.rolled = None;
    }

    fn feed(&mut self, c: char, found: &mut Option<Repetition>) {
        self.text.push(c);
        self.examine_new(found);
    }

    fn feed_run(&mut self, run: &str, found: &mut Option<Repetition>) {
        self.text.extend(run.chars());
        self.examine_new(found);
    }

    /// Examines every window the text now holds that was not examined yet.
    fn examine_new(&mut self, found: &mut Option<Repetition>) {
        let end = self.base + self.text.len() as u64;
        while self.next + self.chunk as u64 <= end {
            self.examine(self.next, found);
            self.next += 1;
            self.trim();
        }
    }

    fn window(&self, at: u64) -> &[char] {
        let i = (at - self.base) as usize;
        &self.text[i..i + self.chunk]
    }

    fn hash_at(&mut self, at: u64) -> u64 {
        let index = &self.index;
        let hash = match index.rolled {
            Some((p, h)) if p + 1 == at => {
                let out = self.text[(p - self.base) as usize] as u64;
                let inn = self.text[(at - self.base) as usize + self.chunk - 1] as u64;
                h.wrapping_sub(out.wrapping_mul(index.power))
                    .wrapping_mul(BASE)
                    .wrapping_add(inn)
            }
            _ => self
                .window(at)
                .iter()
                .fold(0u64, |h, &c| h.wrapping_mul(BASE).wrapping_add(c as u64)),
        };
        self.index.rolled = Some((at, hash));
        hash
    }

    /// Indexes the window at `at` and, unless a loop was already found in
    /// this piece, checks whether it completes one.
    fn examine(&mut self, at: u64, found: &mut Option<Repetition>) {
        let previous = self.index_window(at);
        if found.is_none() && previous != NONE {
            *found = self.check(at);
        }
    }

    fn index_window(&mut self, at: u64) -> u64 {
        let hash = self.hash_at(at);
        let horizon = self.settings().horizon();
        let newest = self.index.newest.insert(hash, at);
        let previous = match newest {
            Some(q) if q >= self.base && q + horizon >= at && self.window(q) == self.window(at) => {
                q
            }
            _ => NONE,
        };
        self.index.previous.push(previous);
        previous
    }

    fn previous_of(&self, at: u64) -> u64 {
        self.index
            .previous
            .get((at - self.base) as usize)
            .copied()
            .unwrap_or(NONE)
    }

    /// Whether the window at `at` is the `threshold`-th close occurrence of
    /// a window whose periods take few forms.
    fn check(&self, at: u64) -> Option<Repetition> {
        let horizon = self.settings().horizon();
        let within = |q: u64| q != NONE && q + horizon >= at;
        let mut occurrences = vec![at];
        let mut q = at;
        while occurrences.len() < self.threshold {
            q = self.previous_of(q);
            if !within(q) {
                return None;
            }
            occurrences.push(q);
        }
        let slice =
            |from: u64, to: u64| &self.text[(from - self.base) as usize..(to - self.base) as usize];
        let mut periods: Vec<&[char]> = occurrences
            .windows(2)
            .map(|pair| slice(pair[1], pair[0]))
            .collect();
        let unit: String = periods[0].iter().collect();
        periods.sort_unstable();
        periods.dedup();
        if periods.len() > self.threshold / 2 {
            return None;
        }
        let mut count = occurrences.len() as u64;
        loop {
            q = self.previous_of(q);
            if !within(q) {
                break;
            }
            count += 1;
        }
        Some(Repetition { count, unit })
    }

    /// Drops text older than the horizon, in steps of at least the slack so
    /// the cost stays constant per character.
    fn trim(&mut self) {
        let horizon = self.settings().horizon();
        let keep_from = self.next.saturating_sub(horizon);
        let slack = horizon.max(MIN_SLACK as u64);
        if keep_from <= self.base + slack {
            return;
        }
        let cut = (keep_from - self.base) as usize;
        self.text.drain(..cut);
        self.base = keep_from;
        self.index.previous.drain(..cut);
        self.index.newest.retain_from(self.base);
    }

    /// Builds the index from the text (after loading a saved state).
    fn ensure_index(&mut self) {
        if self.indexed {
            return;
        }
        let power = (1..self.chunk).fold(1u64, |p, _| p.wrapping_mul(BASE));
        self.index = Index {
            power,
            ..Index::default()
        };
        self.indexed = true;
        for at in self.base..self.next {
            self.index_window(at);
        }
    }
}

/// The newest position of each window hash: an open-addressing table
/// (linear probing) of `(hash, position)`, `NONE` marking a free slot. The
/// keys are already hashes, so one multiply-xorshift spreads them; the
/// table is kept at most half full and is rebuilt when old text is cut.
#[derive(Debug, Clone, Default)]
struct Newest {
    slots: Vec<(u64, u64)>,
    len: usize,
}

impl Newest {
    const FREE: (u64, u64) = (0, NONE);

    #[cfg(test)]
    fn len(&self) -> usize {
        self.len
    }

    /// Records `at` as the newest position of `hash`; returns the one it replaces.
    fn insert(&mut self, hash: u64, at: u64) -> Option<u64> {
        if (self.len + 1) * 2 > self.slots.len() {
            self.rebuild((self.slots.len() * 2).max(64), 0);
        }
        let mask = self.slots.len() - 1;
        let mut i = spread(hash) as usize & mask;
        loop {
            let slot = &mut self.slots[i];
            if slot.1 == NONE {
                *slot = (hash, at);
                self.len += 1;
                return None;
            }
            if slot.0 == hash {
                return Some(std::mem::replace(&mut slot.1, at));
            }
            i = (i + 1) & mask;
        }
    }

    /// Forgets everything, keeping a small allocation (a new output comes
    /// every turn; a table grown for a long one is not cleared every time).
    fn clear(&mut self) {
        if self.slots.len() > 256 {
            self.slots = Vec::new();
        } else if self.len > 0 {
            self.slots.fill(Self::FREE);
        }
        self.len = 0;
    }

    /// Keeps only the positions at or after `base`.
    fn retain_from(&mut self, base: u64) {
        self.rebuild(self.slots.len(), base);
    }

    fn rebuild(&mut self, capacity: usize, base: u64) {
        let old = std::mem::replace(&mut self.slots, vec![Self::FREE; capacity]);
        self.len = 0;
        for (hash, at) in old {
            if at != NONE && at >= base {
                self.insert(hash, at);
            }
        }
    }
}

/// One multiply-xorshift: the rolling hash's low bits depend only on the
/// characters' low bits, so they are mixed before indexing the table.
fn spread(n: u64) -> u64 {
    let x = (n ^ (n >> 31)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^ (x >> 29)
}

/// The tracked text, saved as a string.
mod chars {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(text: &[char], s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&text.iter().collect::<String>())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<char>, D::Error> {
        Ok(String::deserialize(d)?.chars().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFAULT: ContentSettings = ContentSettings {
        chunk: 50,
        threshold: 10,
    };

    fn first_loop(text: &str) -> Option<Repetition> {
        ContentTracker::default().push(text, DEFAULT)
    }

    #[test]
    fn a_sentence_repeated_until_the_token_limit_is_a_loop() {
        let text = format!(
            "Sure! Here is the answer.\n{}",
            "The function returns the sum of the two numbers. ".repeat(15)
        );
        let found = first_loop(&text).expect("a loop");
        assert!(found.count >= 10, "{found:?}");
        assert!(found.unit.contains("returns the sum"), "{found:?}");
        assert!(first_loop(&"The function returns the sum. ".repeat(4)).is_none());
    }

    #[test]
    fn structured_repetition_is_not_a_loop() {
        let table: String = (0..40)
            .map(|i| format!("| row {i} | the same long cell text in every row of the table |\n"))
            .collect();
        let list: String = (0..40)
            .map(|i| format!("- item {i}: the same long description text in every list item\n"))
            .collect();
        let code = format!(
            "```\n{}```\n",
            "println!(\"the same line of code over and over\");\n".repeat(40)
        );
        let logs: String = (0..40)
            .map(|i| {
                format!(
                    "2026-11-22T10:00:{:02}Z WARN connection to db.internal refused, retrying\n",
                    i % 60
                )
            })
            .collect();
        let same_logs =
            "ERROR: connection to db.internal:5432 refused, retrying in 5s\n".repeat(40);
        let indented = "    let x = compute_the_same_value_again(input, options);\n".repeat(40);
        for text in [table, list, code, logs, same_logs, indented] {
            assert_eq!(first_loop(&text), None, "{text}");
        }
    }

    #[test]
    fn items_sharing_a_long_prefix_are_not_a_loop() {
        // The windows recur, but the text between them is different every time.
        let text: String = (0..30)
            .map(|i| {
                format!("The test suite for module number {i} passed without any failures today. ")
            })
            .collect();
        assert_eq!(first_loop(&text), None);
    }

    #[test]
    fn where_the_output_was_cut_changes_nothing() {
        let text = format!(
            "Intro line.\n| a | b |\n{}\n- item\n{}",
            "I am sorry, I cannot help with that request. ".repeat(6),
            "Let me try again with the same approach as before. ".repeat(14)
        );
        let whole = {
            let mut t = ContentTracker::default();
            let found = t.push(&text, DEFAULT);
            (found.is_some(), t)
        };
        let chars: Vec<char> = text.chars().collect();
        for size in [1, 2, 3, 7, 50, 333] {
            let mut t = ContentTracker::default();
            let mut any = false;
            for piece in chars.chunks(size) {
                any |= t.push(&piece.iter().collect::<String>(), DEFAULT).is_some();
            }
            assert_eq!((any, &t), (whole.0, &whole.1), "pieces of {size}");
        }
        assert!(whole.0);
    }

    #[test]
    fn a_saved_state_continues_exactly() {
        let text = "We need to check the configuration file first. ".repeat(30);
        let chars: Vec<char> = text.chars().collect();
        let mut live = ContentTracker::default();
        let mut reloaded = ContentTracker::default();
        for piece in chars.chunks(37) {
            let piece: String = piece.iter().collect();
            let a = live.push(&piece, DEFAULT);
            let saved = serde_json::to_string(&reloaded).unwrap();
            reloaded = serde_json::from_str(&saved).unwrap();
            let b = reloaded.push(&piece, DEFAULT);
            assert_eq!(a, b);
            assert_eq!(live, reloaded);
        }
    }

    #[test]
    fn the_state_stays_bounded() {
        let mut t = ContentTracker::default();
        let text: String = (0..20_000).map(|i| format!("word{i} ")).collect();
        t.push(&text, DEFAULT);
        let bound = 2 * DEFAULT.horizon() as usize + MIN_SLACK + DEFAULT.chunk;
        assert!(t.text.len() <= bound, "{} > {bound}", t.text.len());
        let index = &t.index;
        assert!(index.newest.len() <= bound && index.previous.len() <= bound);
        assert!(serde_json::to_string(&t).unwrap().len() < 4 * bound);
    }

    #[test]
    fn disabled_or_changed_settings() {
        let text = "again and again and again and again ".repeat(40);
        let off = ContentSettings {
            chunk: 50,
            threshold: 1,
        };
        assert_eq!(ContentTracker::default().push(&text, off), None);
        let mut t = ContentTracker::default();
        t.push("some text ", DEFAULT);
        let small = ContentSettings {
            chunk: 10,
            threshold: 3,
        };
        assert!(t.push(&text, small).is_some());
        assert_eq!(t.chunk, 10);
    }
}
