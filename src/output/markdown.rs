//! Markdown made readable at a terminal that takes colour: headings bold
//! without their `#` marks (the first level also underlined), `**strong**`
//! bold, code blocks indented and dimmed without their fences, quotes and
//! the "… N more lines" notes dimmed. The text must already be escaped
//! ([`super::escape_text`]): the only control sequences in the result are
//! the styles added here.

const BOLD: &str = "\x1b[1m";
const UNDERLINE: &str = "\x1b[4m";
const DIM: &str = "\x1b[2m";
const RESET: &str = "\x1b[0m";

/// `text` (escaped Markdown) with terminal styles.
pub fn style(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut fence: Option<usize> = None;
    for line in text.split_inclusive('\n') {
        let (body, newline) = match line.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (line, ""),
        };
        let ticks = body.len() - body.trim_start_matches('`').len();
        match fence {
            Some(open) if ticks >= open && body[ticks..].trim().is_empty() => fence = None,
            Some(_) => out.push_str(&format!("    {DIM}{body}{RESET}{newline}")),
            None if ticks >= 3 => fence = Some(ticks),
            None => {
                out.push_str(&style_line(body));
                out.push_str(newline);
            }
        }
    }
    out
}

fn style_line(line: &str) -> String {
    let hashes = line.len() - line.trim_start_matches('#').len();
    if (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
        let title = strong(line[hashes + 1..].trim(), BOLD);
        let under = if hashes == 1 { UNDERLINE } else { "" };
        return format!("{BOLD}{under}{title}{RESET}");
    }
    if line.starts_with("> ") || line.starts_with('…') {
        return format!("{DIM}{line}{RESET}");
    }
    strong(line, "")
}

/// `**x**` made bold; `after` is the style to return to after each.
fn strong(line: &str, after: &str) -> String {
    let mut out = String::with_capacity(line.len() + 16);
    let mut rest = line;
    while let Some(start) = rest.find("**") {
        let Some(len) = rest[start + 2..].find("**") else {
            break;
        };
        out.push_str(&rest[..start]);
        out.push_str(BOLD);
        out.push_str(&rest[start + 2..start + 2 + len]);
        out.push_str(RESET);
        out.push_str(after);
        rest = &rest[start + 4 + len..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_lose_their_marks_and_are_bold() {
        assert_eq!(style("# Title\n"), "\x1b[1m\x1b[4mTitle\x1b[0m\n");
        assert_eq!(style("## User · #0\n"), "\x1b[1mUser · #0\x1b[0m\n");
        assert_eq!(style("#hashtag\n"), "#hashtag\n");
    }

    #[test]
    fn code_blocks_are_indented_and_dimmed_without_fences() {
        let text = "Result:\n\n```text\nok\n  two\n```\n\nafter\n";
        assert_eq!(
            style(text),
            "Result:\n\n    \x1b[2mok\x1b[0m\n    \x1b[2m  two\x1b[0m\n\nafter\n"
        );
        // A longer fence holds a shorter one.
        let nested = "````\n```\n````\n";
        assert_eq!(style(nested), "    \x1b[2m```\x1b[0m\n");
    }

    #[test]
    fn strong_quotes_and_notes() {
        assert_eq!(
            style("- **Model:** m (p)\n"),
            "- \x1b[1mModel:\x1b[0m m (p)\n"
        );
        assert_eq!(style("a ** b\n"), "a ** b\n");
        assert_eq!(style("> shown\n"), "\x1b[2m> shown\x1b[0m\n");
        assert_eq!(style("… 3 more lines\n"), "\x1b[2m… 3 more lines\x1b[0m\n");
    }

    #[test]
    fn escaped_text_stays_escaped() {
        let escaped = crate::output::escape_text("# \u{1b}]0;pwned\u{7}\n");
        let styled = style(&escaped);
        assert!(!styled.contains('\u{7}'));
        assert!(!styled.contains("\u{1b}]"), "{styled:?}");
        // Only the three styles added here: bold, underline, reset.
        assert_eq!(styled.matches('\u{1b}').count(), 3, "{styled:?}");
    }
}
