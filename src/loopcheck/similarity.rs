//! Whether two model outputs are "the same or similar" (Requirement 4.5).
//!
//! Outputs are compared with the `similar` crate's diff ratio
//! (2 × matched / total length). Short outputs (both at most
//! [`CHAR_LEVEL_MAX`] characters) are diffed character by character, so a
//! changed counter or timestamp costs only a few characters; longer ones word
//! by word, which keeps the diff cheap. Outputs longer than [`SAMPLE_BYTES`]
//! are compared on their first and last halves of that size (plus an exact
//! hash of the whole text), so the state kept between calls stays bounded.

use serde::{Deserialize, Serialize};
use similar::TextDiff;

use super::canon::hash_hex;

/// Largest output kept whole for comparison; longer ones keep head and tail.
pub const SAMPLE_BYTES: usize = 8 * 1024;

/// Outputs up to this many characters are diffed per character, longer per word.
pub const CHAR_LEVEL_MAX: usize = 1000;

/// What is remembered of an output to compare the next one against.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OutputSample {
    /// Hash of the whole text: equal hashes are identical outputs.
    pub hash: String,
    /// Length of the whole text in characters.
    pub chars: u64,
    /// The text, or its head and tail when longer than [`SAMPLE_BYTES`].
    pub sample: String,
}

impl OutputSample {
    pub fn new(text: &str) -> OutputSample {
        OutputSample {
            hash: hash_hex(&[text]),
            chars: text.chars().count() as u64,
            sample: head_and_tail(text, SAMPLE_BYTES),
        }
    }
}

fn head_and_tail(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let half = max / 2;
    let mut head_end = half;
    while !text.is_char_boundary(head_end) {
        head_end -= 1;
    }
    let mut tail_start = text.len() - half;
    while !text.is_char_boundary(tail_start) {
        tail_start += 1;
    }
    format!("{}\n…\n{}", &text[..head_end], &text[tail_start..])
}

/// The similarity ratio of two outputs, from 0 (nothing shared) to 1 (identical).
pub fn ratio(a: &OutputSample, b: &OutputSample) -> f64 {
    if a.hash == b.hash {
        return 1.0;
    }
    let (la, lb) = (
        a.sample.chars().count() as f64,
        b.sample.chars().count() as f64,
    );
    if la + lb == 0.0 {
        return 1.0;
    }
    let longest = la.max(lb) as usize;
    let ratio = if longest <= CHAR_LEVEL_MAX {
        TextDiff::from_chars(a.sample.as_str(), b.sample.as_str()).ratio()
    } else {
        TextDiff::from_words(a.sample.as_str(), b.sample.as_str()).ratio()
    };
    f64::from(ratio)
}

/// Whether `b` repeats `a` at `threshold` (a ratio in (0, 1]).
pub fn is_similar(a: &OutputSample, b: &OutputSample, threshold: f64) -> bool {
    if a.hash == b.hash {
        return true;
    }
    if threshold >= 1.0 {
        return false;
    }
    // The ratio can never exceed 2·min/(la+lb); skip the diff when even that
    // falls short, which makes very different lengths cheap to reject.
    let (la, lb) = (
        a.sample.chars().count() as f64,
        b.sample.chars().count() as f64,
    );
    if la + lb > 0.0 && 2.0 * la.min(lb) / (la + lb) < threshold {
        return false;
    }
    ratio(a, b) >= threshold
}

#[cfg(test)]
mod tests {
    use super::*;

    fn similar(a: &str, b: &str) -> bool {
        is_similar(&OutputSample::new(a), &OutputSample::new(b), 0.9)
    }

    #[test]
    fn a_changing_counter_or_timestamp_is_still_a_repeat() {
        assert!(similar(
            "Checking build status... attempt 1 of 100, still pending",
            "Checking build status... attempt 2 of 100, still pending"
        ));
        assert!(similar(
            "[2026-11-22T04:10:01Z] Waiting for the server to start on port 8080",
            "[2026-11-22T04:10:07Z] Waiting for the server to start on port 8080"
        ));
    }

    #[test]
    fn different_file_contents_are_not_repeats() {
        let a = "use std::io;\n\nfn main() {\n    let mut line = String::new();\n    io::stdin().read_line(&mut line).unwrap();\n    println!(\"{}\", line.trim());\n}\n";
        let b = "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nserde = \"1\"\n";
        assert!(!similar(a, b));
        assert!(!similar(
            "The file a.txt contains: alpha",
            "The file b.txt contains: omega beta gamma delta"
        ));
    }

    #[test]
    fn long_outputs_are_compared_by_word_and_sampled() {
        let base: String = (0..3000).map(|i| format!("word{i} ")).collect();
        let changed = base.replace("word1500 ", "word1500x ");
        assert!(similar(&base, &changed));
        let other: String = (0..3000).map(|i| format!("other{} ", i * 7)).collect();
        assert!(!similar(&base, &other));
        assert!(OutputSample::new(&base).sample.len() <= SAMPLE_BYTES + 8);
    }

    #[test]
    fn identical_outputs_match_at_threshold_one() {
        let a = OutputSample::new("same");
        assert!(is_similar(&a, &OutputSample::new("same"), 1.0));
        assert!(!is_similar(&a, &OutputSample::new("samE"), 1.0));
    }

    #[test]
    fn sampling_keeps_char_boundaries() {
        let text = "é".repeat(10_000);
        let sample = OutputSample::new(&text);
        assert!(sample.sample.starts_with('é') && sample.sample.ends_with('é'));
    }
}
