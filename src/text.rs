//! Text made to fit a message or a cell: one line, shortened, counted.

/// `count` with its noun in the right number: "1 message", "2 messages".
pub fn plural(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// At most `max` characters of `text`, control characters as spaces, with
/// `…` when cut.
pub fn shorten(text: &str, max: usize) -> String {
    // Counting characters is needed only when the prefix is not ASCII.
    let cut = if text.as_bytes()[..text.len().min(max)].is_ascii() {
        (text.len() > max).then_some(max)
    } else {
        text.char_indices().nth(max).map(|(at, _)| at)
    };
    let head = &text[..cut.unwrap_or(text.len())];
    let mut out = if head.chars().any(char::is_control) {
        head.chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect()
    } else {
        String::with_capacity(head.len() + 3) + head
    };
    if cut.is_some() {
        out.push('…');
    }
    out
}

/// Collapses a message to one line.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shorten_cuts_at_a_character_and_flattens_controls() {
        assert_eq!(shorten("héllo wörld", 4), "héll…");
        assert_eq!(shorten("a\nb", 10), "a b");
        assert_eq!(shorten("abcd", 4), "abcd");
        assert_eq!(shorten("abcde", 4), "abcd…");
        assert_eq!(shorten("", 0), "");
        assert_eq!(shorten("a", 0), "…");
        assert_eq!(shorten("ab\u{85}cd", 3), "ab …");
        assert_eq!(shorten("a\tb", 3), "a b");
    }

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(plural(1u64, "tool call", "tool calls"), "1 tool call");
        assert_eq!(plural(0u64, "time", "times"), "0 times");
        assert_eq!(plural(2u64, "time", "times"), "2 times");
    }
}
