//! `--env-file FILE`: variables for the tool in the dotenv format docker and
//! compose read, so a value never has to appear on a command line.
//!
//! One `NAME=VALUE` a line; blank lines and lines starting with `#` are
//! skipped; `export ` before the name is allowed. A value in double quotes
//! may span lines and knows the escapes `\n`, `\t`, `\"`, `\\`; one in
//! single quotes is taken as written; an unquoted value is trimmed and ends
//! at ` #` (a comment). A line with a name alone takes the variable from
//! `ollm-env`'s own environment, as `docker run --env-file` does.

use crate::error::{Error, Result};

/// Reads and parses the file (`-` reads stdin).
pub fn read(path: &str) -> Result<Vec<(String, String)>> {
    let text = crate::input::read_text(path)?;
    parse(&text, path, |name| std::env::var(name).ok())
}

/// Parses dotenv text; `lookup` supplies the value of a bare `NAME` line.
pub fn parse(
    text: &str,
    file: &str,
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((index, raw)) = lines.next() {
        let line = raw.trim_start();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |what: &str| Error::usage(format!("{file}:{}: {what}", index + 1));
        let line = line.strip_prefix("export ").unwrap_or(line).trim_start();
        let (name, rest) = match line.split_once('=') {
            Some((name, rest)) => (name.trim_end(), Some(rest)),
            None => (line.trim_end(), None),
        };
        if !valid_name(name) {
            return Err(at(
                "expected NAME=VALUE with a name of letters, digits and _",
            ));
        }
        let Some(rest) = rest else {
            if let Some(value) = lookup(name) {
                out.push((name.to_string(), value));
            }
            continue;
        };
        let rest = rest.trim_start();
        let value = if let Some(quoted) = rest.strip_prefix('"') {
            let mut body = quoted.to_string();
            while !closes_double(&body) {
                let Some((_, next)) = lines.next() else {
                    return Err(at("unterminated double quote"));
                };
                body.push('\n');
                body.push_str(next);
            }
            unescape_double(&body)
        } else if let Some(quoted) = rest.strip_prefix('\'') {
            let end = quoted
                .find('\'')
                .ok_or_else(|| at("unterminated single quote"))?;
            quoted[..end].to_string()
        } else {
            let value = match rest.find(" #") {
                Some(cut) => &rest[..cut],
                None => rest,
            };
            value.trim_end().to_string()
        };
        out.push((name.to_string(), value));
    }
    Ok(out)
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether a double-quoted body has its closing quote (not escaped).
fn closes_double(body: &str) -> bool {
    let mut escaped = false;
    for ch in body.chars() {
        match ch {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return true,
            _ => {}
        }
    }
    false
}

/// The value up to the closing quote, with its escapes resolved.
fn unescape_double(body: &str) -> String {
    let mut out = String::new();
    let mut chars = body.chars();
    while let Some(ch) = chars.next() {
        match ch {
            '"' => break,
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            },
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_ok(text: &str) -> Vec<(String, String)> {
        parse(text, "t.env", |name| {
            (name == "FROM_ENV").then(|| "inherited".into())
        })
        .unwrap()
    }

    #[test]
    fn docker_and_compose_forms_are_read() {
        let text = "# comment\n\nA=1\nexport B = two words # note\nC=\"x\\ny \\\"q\\\"\"\nD='$not #expanded'\nE=\nFROM_ENV\nMISSING\nF=\"multi\nline\"\n";
        let pairs = parse_ok(text);
        let expected = [
            ("A", "1"),
            ("B", "two words"),
            ("C", "x\ny \"q\""),
            ("D", "$not #expanded"),
            ("E", ""),
            ("FROM_ENV", "inherited"),
            ("F", "multi\nline"),
        ];
        assert_eq!(pairs.len(), expected.len());
        for ((name, value), (n, v)) in pairs.iter().zip(expected) {
            assert_eq!((name.as_str(), value.as_str()), (n, v));
        }
    }

    #[test]
    fn bad_lines_name_the_file_and_line() {
        let err = parse("A=1\n1BAD=x\n", "t.env", |_| None)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("t.env:2:"), "{err}");
        assert!(parse("A=\"open\n", "t.env", |_| None).is_err());
        assert!(parse("A='open\n", "t.env", |_| None).is_err());
    }
}
