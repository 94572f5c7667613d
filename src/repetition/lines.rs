//! What each line of a model's output is, for repeated-content detection:
//! prose that may loop, or structure whose repetition is legitimate
//! (Markdown tables, headings, link reference definitions, HTML, lines
//! that start with a URL or a path, key/value lines, code, dividers, log
//! records).
//!
//! A line is classified from its first characters only, so the answer does
//! not depend on how a streamed output was cut into chunks.

/// How a line takes part in repeated-content tracking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LineKind {
    /// Ordinary text: tracked.
    Prose,
    /// A Markdown list item or block quote: tracked like prose.
    Element,
    /// A log record (`2026-11-22T10:00:01Z …`, `ERROR: …`): not tracked, as
    /// a log legitimately repeats one message.
    Record,
    /// A code fence (```` ``` ```` or `~~~`): opens or closes a code block,
    /// whose lines are not tracked.
    Fence,
    /// A table row, a divider, an indented code line, a heading, a link
    /// reference definition (`[0.4.31]: https://…`), an HTML line
    /// (`<details>`), a line starting with a URL or a path, a key/value
    /// line (`Signed-off-by: …`, `name = "x"`): not tracked. A document's
    /// skeleton legitimately repeats with only its names and numbers
    /// changing (one heading, one compare link per release).
    Structure,
}

/// Characters of a line's head after which it is classified even if no
/// rule has decided yet.
pub const HEAD_LIMIT: usize = 32;

/// Words that start a log record (`ERROR: …`, `[WARN] …`, `error: …`).
const LOG_LEVELS: &[&str] = &[
    "ERROR", "WARN", "WARNING", "INFO", "DEBUG", "TRACE", "FATAL", "CRITICAL", "error:",
    "warning:", "note:", "help:",
];

/// Classifies a line from its `head` (its first characters, at most
/// [`HEAD_LIMIT`] unless it ended earlier); `ended` says whether the line's
/// end is in `head`. `None` means the head is too short to tell yet.
pub fn classify(head: &str, ended: bool) -> Option<LineKind> {
    let last = ended || head.chars().count() >= HEAD_LIMIT;
    let mut indent = 0;
    for c in head.chars() {
        match c {
            ' ' => indent += 1,
            '\t' => indent += 4,
            _ => break,
        }
    }
    if indent >= 4 {
        return Some(LineKind::Structure);
    }
    match diffstat(head) {
        Match::Yes => return Some(LineKind::Record),
        Match::NeedMore if !last => return None,
        Match::NeedMore | Match::No => {}
    }
    let text = head.trim_start_matches([' ', '\t']);
    if text.is_empty() {
        return last.then_some(LineKind::Prose);
    }
    // The first rule that matches decides, once every rule before it has
    // ruled itself out: so a decision taken on a line's first characters
    // is the one its whole text would get.
    let rules: [(Rule, LineKind); 12] = [
        (fence, LineKind::Fence),
        (table, LineKind::Structure),
        (divider, LineKind::Structure),
        (list_item, LineKind::Element),
        (heading, LineKind::Structure),
        (quote, LineKind::Element),
        (link_reference, LineKind::Structure),
        (html, LineKind::Structure),
        (url_or_path, LineKind::Structure),
        (log_record, LineKind::Record),
        (history_header, LineKind::Record),
        (key_value, LineKind::Structure),
    ];
    for (i, (rule, kind)) in rules.iter().enumerate() {
        match rule(text) {
            Match::Yes => return Some(*kind),
            Match::NeedMore if !last => return None,
            // Seen to its end, a line of dividing characters is a divider.
            Match::NeedMore if i == 2 => return Some(LineKind::Structure),
            Match::NeedMore | Match::No => {}
        }
    }
    Some(LineKind::Prose)
}

/// A rule: whether a line's head is of its kind.
type Rule = fn(&str) -> Match;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Match {
    Yes,
    No,
    /// A longer head could still match.
    NeedMore,
}

/// Whether `text` starts with `pattern`, where `#` in the pattern stands
/// for an ASCII digit.
fn starts_like(text: &str, pattern: &str) -> Match {
    let mut t = text.chars();
    for p in pattern.chars() {
        match t.next() {
            None => return Match::NeedMore,
            Some(c) if p == '#' && c.is_ascii_digit() => {}
            Some(c) if p != '#' && c == p => {}
            Some(_) => return Match::No,
        }
    }
    Match::Yes
}

fn any_of(text: &str, patterns: &[&str]) -> Match {
    let mut result = Match::No;
    for pattern in patterns {
        match starts_like(text, pattern) {
            Match::Yes => return Match::Yes,
            Match::NeedMore => result = Match::NeedMore,
            Match::No => {}
        }
    }
    result
}

fn fence(text: &str) -> Match {
    any_of(text, &["```", "~~~"])
}

fn table(text: &str) -> Match {
    if text.starts_with('|') {
        Match::Yes
    } else {
        Match::No
    }
}

fn is_divider_char(c: char) -> bool {
    matches!(c, '-' | '_' | '=' | '*' | '+' | ' ' | '\t') || ('\u{2500}'..='\u{257F}').contains(&c)
}

/// A line of only `-_=*+` and box-drawing characters (a thematic break, a
/// Setext underline, a drawn rule): decided when the line ends.
fn divider(text: &str) -> Match {
    if text.chars().all(is_divider_char) {
        Match::NeedMore
    } else {
        Match::No
    }
}

/// `- `, `* `, `+ `, or up to nine digits and `.` or `)` then a space.
fn list_item(text: &str) -> Match {
    let mut chars = text.chars();
    match chars.next() {
        Some('-' | '*' | '+') => {
            return match chars.next() {
                None => Match::NeedMore,
                Some(' ' | '\t') => Match::Yes,
                Some(_) => Match::No,
            };
        }
        Some(c) if c.is_ascii_digit() => {}
        _ => return Match::No,
    }
    let digits = text.chars().take_while(char::is_ascii_digit).count();
    if digits > 9 {
        return Match::No;
    }
    let mut rest = text[digits..].chars();
    match (rest.next(), rest.next()) {
        (None, _) => Match::NeedMore,
        (Some('.' | ')'), None) => Match::NeedMore,
        (Some('.' | ')'), Some(' ' | '\t')) => Match::Yes,
        _ => Match::No,
    }
}

/// `#` to `######` then a space (or nothing: an empty heading).
fn heading(text: &str) -> Match {
    let hashes = text.chars().take_while(|&c| c == '#').count();
    if hashes == 0 || hashes > 6 {
        return Match::No;
    }
    match text[hashes..].chars().next() {
        None => Match::NeedMore,
        Some(' ' | '\t') => Match::Yes,
        Some(_) => Match::No,
    }
}

fn quote(text: &str) -> Match {
    if text.starts_with('>') {
        Match::Yes
    } else {
        Match::No
    }
}

/// `[label]: destination`, Markdown's link reference definition (the
/// `[#2884]: https://…/pull/2884` lines a changelog ends with).
fn link_reference(text: &str) -> Match {
    let Some(label) = text.strip_prefix('[') else {
        return Match::No;
    };
    let Some(close) = label.find(']') else {
        return Match::NeedMore;
    };
    if close == 0 {
        return Match::No;
    }
    match label[close + 1..].chars().next() {
        None => Match::NeedMore,
        Some(':') => Match::Yes,
        Some(_) => Match::No,
    }
}

/// `<tag`, `</tag`, `<!--`: an HTML block (`<details>`, `<summary>`,
/// `<img …>`, a comment).
fn html(text: &str) -> Match {
    let Some(rest) = text.strip_prefix('<') else {
        return Match::No;
    };
    match rest.chars().next() {
        None => Match::NeedMore,
        Some(c) if c.is_ascii_alphabetic() || c == '/' || c == '!' => Match::Yes,
        Some(_) => Match::No,
    }
}

/// A line that starts with a URL (`https://…`) or a path (`/usr/…`,
/// `./src/…`, `~/…`).
fn url_or_path(text: &str) -> Match {
    if let m @ (Match::Yes | Match::NeedMore) = any_of(
        text,
        &["http://", "https://", "file://", "www.", "./", "../", "~/"],
    ) {
        return m;
    }
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some('/'), None) => Match::NeedMore,
        (Some('/'), Some(c)) if !c.is_whitespace() => Match::Yes,
        _ => Match::No,
    }
}

/// `key: value` with a key of one word joined by `-`, `_` or `.`
/// (`Signed-off-by:`, `rust_version:`), or `key = value` / `key=value`
/// with a one-word key (TOML, INI, environment files).
fn key_value(text: &str) -> Match {
    let key_len = text
        .chars()
        .take_while(|&c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .count();
    let key = &text[..text
        .char_indices()
        .nth(key_len)
        .map_or(text.len(), |(at, _)| at)];
    let rest = &text[key.len()..];
    if key.is_empty() || !key.starts_with(char::is_alphabetic) {
        return Match::No;
    }
    let joined = key.contains(['-', '_', '.']);
    let mut after = rest.chars();
    match after.next() {
        None => Match::NeedMore,
        Some('=') => Match::Yes,
        Some(':') if joined => match after.next() {
            None => Match::NeedMore,
            Some(' ' | '\t') => Match::Yes,
            Some(_) => Match::No,
        },
        Some(' ') if after.as_str().trim_start_matches(' ').is_empty() => Match::NeedMore,
        Some(' ') => {
            let value = after.as_str().trim_start_matches(' ');
            if value.starts_with('=') && !value.starts_with("==") {
                Match::Yes
            } else {
                Match::No
            }
        }
        Some(_) => Match::No,
    }
}

/// A date (`2026-11-22…`), a time (`10:00:01…`), a bracketed date or level
/// (`[2026-…`, `[ERROR]`), or a level word (`ERROR:`, `warning:`).
fn log_record(text: &str) -> Match {
    let bracketed = text.strip_prefix('[');
    if let Some(inside) = bracketed {
        let progress = progress(inside);
        if progress != Match::No {
            return progress;
        }
    }
    let body = bracketed.unwrap_or(text);
    let mut result = any_of(body, &["####-##-##", "##:##:##"]);
    if result == Match::Yes {
        return Match::Yes;
    }
    for level in LOG_LEVELS {
        let m = starts_like(body, level);
        let m = match m {
            // A level word must end there (`ERROR:`, `ERROR `, `[ERROR]`), not run on (`ERRORS`).
            Match::Yes if level.ends_with(':') => Match::Yes,
            Match::Yes => match body[level.len()..].chars().next() {
                None => Match::NeedMore,
                Some(':' | ' ' | ']' | '\t') => Match::Yes,
                Some(_) => Match::No,
            },
            other => other,
        };
        match m {
            Match::Yes => return Match::Yes,
            Match::NeedMore => result = Match::NeedMore,
            Match::No => {}
        }
    }
    result
}

/// The header of an entry of a history: `commit 1a2b3c4…`, `Author:`,
/// `Date:`, `Merge:` (git log), `Sun Jun 11 03:04:18 2006  Name` (a GNU
/// ChangeLog).
fn history_header(text: &str) -> Match {
    let mut result = any_of(
        text,
        &[
            "Author: ",
            "Date: ",
            "Merge: ",
            "AuthorDate: ",
            "CommitDate: ",
        ],
    );
    if result == Match::Yes {
        return result;
    }
    if let Some(rest) = text.strip_prefix("commit ") {
        let hex = rest.chars().take_while(char::is_ascii_hexdigit).count();
        return match rest[hex..].chars().next() {
            None if hex < 7 => Match::NeedMore,
            _ if hex >= 7 => Match::Yes,
            _ => Match::No,
        };
    }
    if starts_like(text, "commit ") == Match::NeedMore {
        result = Match::NeedMore;
    }
    const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let Some(day) = DAYS.iter().find(|d| starts_like(text, d) != Match::No) else {
        return result;
    };
    let Some(rest) = text.strip_prefix(day) else {
        return Match::NeedMore;
    };
    let Some(rest) = rest.strip_prefix(' ') else {
        return if rest.is_empty() {
            Match::NeedMore
        } else {
            result
        };
    };
    let month = MONTHS.map(|m| format!("{m} "));
    let months: Vec<&str> = month.iter().map(String::as_str).collect();
    match any_of(rest, &months) {
        Match::No => result,
        m => m,
    }
}

/// A line of `git log --stat` or `diffstat`: one space, a path, spaces,
/// `|`, then a number (` src/main.rs | 12 ++--`); a path padded with two
/// spaces or more is taken for one before the `|` is seen (a column).
fn diffstat(head: &str) -> Match {
    let Some(rest) = head.strip_prefix(' ') else {
        return Match::No;
    };
    let path = rest.chars().take_while(|c| !c.is_whitespace()).count();
    if path == 0 {
        return if rest.is_empty() {
            Match::NeedMore
        } else {
            Match::No
        };
    }
    let padding = &rest[rest
        .char_indices()
        .nth(path)
        .map_or(rest.len(), |(at, _)| at)..];
    let after = padding.trim_start_matches(' ');
    if after.is_empty() && padding.len() >= 2 {
        return Match::Yes;
    }
    let mut chars = after.chars();
    match (chars.next(), chars.next(), chars.next()) {
        (None, _, _) | (Some('|'), None, _) | (Some('|'), Some(' '), None) => Match::NeedMore,
        (Some('|'), Some(' '), Some(c)) if c.is_ascii_digit() || c == 'B' => Match::Yes,
        _ => Match::No,
    }
}

/// A build tool's progress counter after `[`: `[ 21%]`, `[3/10]`.
fn progress(inside: &str) -> Match {
    let rest = inside.trim_start_matches(' ');
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    let rest = &rest[digits..];
    if digits == 0 {
        return if rest.is_empty() {
            Match::NeedMore
        } else {
            Match::No
        };
    }
    let mut chars = rest.chars();
    match chars.next() {
        None => Match::NeedMore,
        Some('%') => match chars.next() {
            None => Match::NeedMore,
            Some(']') => Match::Yes,
            Some(_) => Match::No,
        },
        Some('/') => {
            let rest = chars.as_str();
            let digits = rest.chars().take_while(char::is_ascii_digit).count();
            match rest[digits..].chars().next() {
                None => Match::NeedMore,
                Some(']') if digits > 0 => Match::Yes,
                Some(_) => Match::No,
            }
        }
        Some(_) => Match::No,
    }
}

#[cfg(test)]
#[path = "lines_tests.rs"]
mod tests;
