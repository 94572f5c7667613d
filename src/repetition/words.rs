//! One word of tracked text: its two forms (as written, and with its
//! numbers read as `#`) and what it is made of, which decides whether its
//! numbers are a counter or its identity (see the module's opening
//! comment).

use std::borrow::Cow;

/// What a word is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordKind {
    /// Letters only, maybe joined by `'` or `-` (`don't`, `well-known`).
    Plain,
    /// A number standing alone, maybe an ordinal or a time of day (`7`,
    /// `7:`, `(24th`, `$5`, `9:01`): a counter when the text around it
    /// repeats.
    Number,
    /// Anything else with a letter or digit: a version (`0.4.31`), a date
    /// (`2017-06-12`), a reference (`#2884`), a URL, a path, a code name
    /// (`std::io`, `--stream`), or a piece of a word too long to keep
    /// whole.
    Identifier,
    /// No letter or digit (`-`, `|`, `—`).
    Mark,
}

/// Characters that may open a word without being part of it.
const OPENERS: &[char] = &[
    '(', '[', '{', '"', '\'', '*', '_', '$', '+', '-', '~', '\u{201c}', '\u{2018}', '\u{ab}',
    '\u{20ac}', '\u{a3}',
];

/// The form of `word` (lower-cased already) with every run of digits, and
/// an ordinal suffix after a number standing alone, read as `#`.
pub fn numbers_as_marks(word: &str) -> Cow<'_, str> {
    if !word.contains(|c: char| c.is_numeric()) {
        return Cow::Borrowed(word);
    }
    let mut out = String::with_capacity(word.len());
    let mut in_digits = false;
    for c in word.chars() {
        if c.is_numeric() {
            if !in_digits {
                out.push('#');
            }
            in_digits = true;
        } else {
            in_digits = false;
            out.push(c);
        }
    }
    match normalise_ordinal(&out) {
        Cow::Owned(shorter) => Cow::Owned(shorter),
        Cow::Borrowed(_) => Cow::Owned(out),
    }
}

/// What `word` (lower-cased) is made of; `cut` says it is a piece of a
/// word longer than the longest kept whole.
pub fn kind(word: &str, cut: bool) -> WordKind {
    let core = word
        .trim_start_matches(OPENERS)
        .trim_end_matches(|c: char| !c.is_alphanumeric());
    if core.is_empty() {
        return if word.contains(char::is_alphanumeric) {
            WordKind::Identifier
        } else {
            WordKind::Mark
        };
    }
    if cut {
        return WordKind::Identifier;
    }
    let digits = core.chars().take_while(|c| c.is_numeric()).count();
    if digits > 0 {
        let suffix: String = core.chars().skip(digits).collect();
        let ordinal = suffix.is_empty() || ["st", "nd", "rd", "th"].contains(&suffix.as_str());
        return if ordinal || is_time_of_day(core) {
            WordKind::Number
        } else {
            WordKind::Identifier
        };
    }
    let plain = core.starts_with(char::is_alphabetic)
        && core
            .chars()
            .all(|c| c.is_alphabetic() || matches!(c, '\'' | '-' | '\u{2019}'));
    if plain {
        WordKind::Plain
    } else {
        WordKind::Identifier
    }
}

/// The parts of an outline number (`1.1.7:`, `12.1.7.`, `**2.3**`): two
/// or more runs of digits joined by single dots, between openers and
/// closing punctuation.
pub fn outline_number(word: &str) -> Option<Vec<u32>> {
    let core = word
        .trim_start_matches(OPENERS)
        .trim_end_matches(|c: char| !c.is_alphanumeric());
    let parts = core
        .split('.')
        .map(|part| {
            let digits = !part.is_empty() && part.chars().all(|c| c.is_ascii_digit());
            digits.then(|| part.parse().ok()).flatten()
        })
        .collect::<Option<Vec<u32>>>()?;
    (parts.len() >= 2).then_some(parts)
}

/// Whether outline number `next` is the step after `previous` in a count:
/// one part up by one, those before it the same, those after it back to
/// 0 or 1 (`1.1.9` → `1.1.10`, `1.1.20` → `1.2.1`, `1.2.1` → `2.1.1`). A
/// changelog lists its versions newest first and skips many; a model
/// numbering the same sentence counts up.
pub fn counts_on(previous: &[u32], next: &[u32]) -> bool {
    previous.len() == next.len()
        && (0..next.len()).any(|j| {
            previous[..j] == next[..j]
                && previous[j].checked_add(1) == Some(next[j])
                && next[j + 1..].iter().all(|&n| n <= 1)
        })
}

/// `9:01`, `10:00:01`: hours, then minutes and maybe seconds.
fn is_time_of_day(core: &str) -> bool {
    let mut parts = core.split(':');
    let hours = parts.next().unwrap_or_default();
    let rest: Vec<&str> = parts.collect();
    (1..=2).contains(&hours.len())
        && hours.chars().all(|c| c.is_ascii_digit())
        && (1..=2).contains(&rest.len())
        && rest
            .iter()
            .all(|p| p.len() == 2 && p.chars().all(|c| c.is_ascii_digit()))
}

/// `#th`, `#st`, `#nd`, `#rd` (an ordinal after a number) read as `#`.
fn normalise_ordinal(word: &str) -> Cow<'_, str> {
    let start = word.len() - word.trim_start_matches(OPENERS).len();
    if let Some(rest) = word[start..].strip_prefix('#') {
        for suffix in ["st", "nd", "rd", "th"] {
            if let Some(after) = rest.strip_prefix(suffix)
                && !after.starts_with(char::is_alphanumeric)
            {
                return format!("{}#{after}", &word[..start]).into();
            }
        }
    }
    word.into()
}

/// FNV-1a, then mixed: a word's hash decides where units end, so it must
/// not depend on the platform or the process (a state is reloaded).
pub fn fnv(bytes: &[u8]) -> u64 {
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    spread(hash)
}

/// One multiply-xorshift, so every bit of the result depends on every input bit.
pub fn spread(n: u64) -> u64 {
    let x = (n ^ (n >> 31)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^ (x >> 29)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_standing_alone_is_a_counter_and_one_inside_a_name_is_not() {
        for word in [
            "7", "7:", "7.", "(24th", "21st,", "**3.**", "12)", "9:01,", "10:00:01", "$5", "-3",
        ] {
            assert_eq!(kind(word, false), WordKind::Number, "{word}");
        }
        for word in [
            "0.4.31",
            "(2017-06-12)",
            "#2884",
            "[#2884]:",
            "https://github.com/x/y/pull/2884",
            "us-central1",
            "v2",
            "1.5",
            "x86_64",
            "std::io",
            "123:45",
            "9:1",
            "9:0a",
            "1a:23",
            "9:01:02:03",
            "John:3",
        ] {
            assert_eq!(kind(word, false), WordKind::Identifier, "{word}");
        }
        for word in [
            "the",
            "don't",
            "well-known",
            "century,",
            "\"quoted\"",
            "(see",
        ] {
            assert_eq!(kind(word, false), WordKind::Plain, "{word}");
        }
        assert_eq!(kind("—", false), WordKind::Mark);
        assert_eq!(kind("12345", true), WordKind::Identifier);
    }

    #[test]
    fn outline_numbers_count_up_one_step_at_a_time() {
        assert_eq!(outline_number("1.1.7:"), Some(vec![1, 1, 7]));
        assert_eq!(outline_number("**12.1.7.**"), Some(vec![12, 1, 7]));
        assert_eq!(outline_number("(2.3)"), Some(vec![2, 3]));
        for word in [
            "7:",
            "1.5x",
            "v1.2.3",
            "1..2",
            "2017-06-12",
            "1.2.3-rc1",
            "a.b",
        ] {
            assert_eq!(outline_number(word), None, "{word}");
        }
        for (previous, next) in [
            (&[1, 1, 9][..], &[1, 1, 10][..]),
            (&[1, 1, 20], &[1, 2, 1]),
            (&[1, 2, 1], &[2, 1, 1]),
            (&[0, 9, 3], &[0, 10, 0]),
        ] {
            assert!(counts_on(previous, next), "{previous:?} → {next:?}");
        }
        for (previous, next) in [
            // Newest first, as a changelog lists them.
            (&[1, 0, 3][..], &[1, 0, 2][..]),
            (&[1, 0, 3], &[1, 0, 3]),
            (&[1, 0, 3], &[1, 0, 5]),
            (&[1, 0, 3], &[1, 1, 3]),
            (&[6, 1, 1], &[7, 1, 2]),
            (&[1, 2], &[1, 2, 1]),
        ] {
            assert!(!counts_on(previous, next), "{previous:?} → {next:?}");
        }
    }

    #[test]
    fn numbers_read_as_marks() {
        assert_eq!(numbers_as_marks("24th"), "#");
        assert_eq!(numbers_as_marks("(21st,"), "(#,");
        assert_eq!(numbers_as_marks("0.4.31"), "#.#.#");
        assert_eq!(numbers_as_marks("4th-floor"), "#-floor");
        assert_eq!(numbers_as_marks("word"), "word");
    }
}
