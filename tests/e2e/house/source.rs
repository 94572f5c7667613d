//! The code of a crate's files as the house checks read it: comments,
//! string contents and `#[cfg(test)]` items blanked (line numbers kept),
//! and the files that only tests declare left out.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::modules::rust_files;

/// Every `.rs` file under `src` but those of tests, as [`code_only`].
pub(super) fn code_files(src: &Path) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    let mut test_files = BTreeSet::new();
    let mut all = rust_files(src);
    all.sort();
    for file in &all {
        let text = std::fs::read_to_string(file).unwrap();
        let (code, test_modules) = without_tests(&code_only(&text));
        let folder = file.parent().unwrap();
        let stem = file.file_stem().unwrap().to_string_lossy();
        let children = if matches!(stem.as_ref(), "mod" | "lib" | "main") {
            folder.to_path_buf()
        } else {
            folder.join(stem.as_ref())
        };
        for name in test_modules {
            test_files.insert(children.join(format!("{name}.rs")));
            test_files.insert(children.join(&name).join("mod.rs"));
        }
        test_files.extend(test_paths(&text).map(|path| folder.join(path)));
        files.push((file.clone(), code));
    }
    // A test file's own `mod` declarations are tests too.
    files.retain(|(file, _)| {
        !file
            .ancestors()
            .any(|a| test_files.contains(a) || test_files.contains(&a.join("mod.rs")))
    });
    files
}

/// The `#[path]` files of the test modules of `text`
/// (`#[cfg(test)] #[path = "lines_tests.rs"] mod tests;`).
fn test_paths(text: &str) -> impl Iterator<Item = &str> {
    text.match_indices("#[cfg(test)]")
        .filter_map(|(at, attribute)| {
            let rest = text[at + attribute.len()..].trim_start();
            let quoted = rest
                .strip_prefix("#[path")?
                .trim_start()
                .strip_prefix('=')?;
            quoted.trim_start().strip_prefix('"')?.split('"').next()
        })
}

/// `code` with every `#[cfg(test)]` item blanked, and the names of the
/// out-of-line modules (`#[cfg(test)] mod tests;`) among them.
fn without_tests(code: &str) -> (String, Vec<String>) {
    let mut bytes = code.as_bytes().to_vec();
    let mut modules = Vec::new();
    let attribute = b"#[cfg(test)]";
    let mut from = 0;
    while let Some(at) = find(&bytes[from..], attribute).map(|i| i + from) {
        let start = at + attribute.len();
        let mut depth = 0usize;
        let mut end = bytes.len();
        for (i, &b) in bytes.iter().enumerate().skip(start) {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                b';' if depth == 0 => {
                    end = i + 1;
                    break;
                }
                _ => {}
            }
        }
        let item = String::from_utf8_lossy(&bytes[start..end]).to_string();
        let words: Vec<&str> = item
            .split(|c: char| c.is_whitespace() || c == ';')
            .filter(|w| !w.is_empty())
            .collect();
        if let [.., "mod", name] = words.as_slice() {
            modules.push((*name).to_string());
        }
        for b in &mut bytes[at..end] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
        from = end;
    }
    (String::from_utf8_lossy(&bytes).to_string(), modules)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// `text` with comments and the insides of string and character literals
/// blanked (newlines kept, so line numbers stay), leaving only code.
pub(super) fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let after_ident = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if (c == 'r' || (c == 'b' && next == Some('r'))) && !after_ident && {
            let mut j = i + if c == 'b' { 2 } else { 1 };
            while chars.get(j) == Some(&'#') {
                j += 1;
            }
            chars.get(j) == Some(&'"')
        } {
            let mut j = i + if c == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while chars[j] == '#' {
                hashes += 1;
                j += 1;
            }
            out.extend(&chars[i..=j]);
            i = j + 1;
            while i < chars.len() {
                if chars[i] == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#')) {
                    out.push('"');
                    out.extend(std::iter::repeat_n('#', hashes));
                    i += 1 + hashes;
                    break;
                }
                out.push(blank(chars[i]));
                i += 1;
            }
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if let Some(&c) = chars.get(i) {
                    out.push(blank(c));
                }
                i += 1;
            }
            out.push('"');
            i += 1;
        } else if c == '\'' && next == Some('\\') {
            // An escaped character literal: '\n', '\'', '\u{1F600}'.
            out.push('\'');
            i += 2;
            out.push(' ');
            while i < chars.len() && chars[i] != '\'' {
                out.push(' ');
                i += 1;
            }
            out.push('\'');
            i += 1;
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            out.push_str("' '");
            i += 3;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Every string literal of code in `root` (tests, comments left out)
/// that is one of `names` (in any case, so `"Claude"` counts too),
/// outside the folders of `allowed`, as `path:line: "literal"`.
pub(super) fn kind_names_outside(
    root: &Path,
    names: &[String],
    allowed: &[PathBuf],
) -> Vec<String> {
    let mut found = Vec::new();
    for (file, kept) in code_files(root) {
        let relative = file.strip_prefix(root).unwrap_or(&file);
        if allowed.iter().any(|place| relative.starts_with(place)) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let plain = code_only(&text);
        for (number, ((line, plain_line), kept_line)) in text
            .lines()
            .zip(plain.lines())
            .zip(kept.lines())
            .enumerate()
        {
            for literal in literals(line, plain_line, kept_line) {
                if names.iter().any(|name| name.eq_ignore_ascii_case(&literal)) {
                    found.push(format!(
                        "{}:{}: \"{literal}\"",
                        relative.display(),
                        number + 1
                    ));
                }
            }
        }
    }
    found
}

/// The string literals of one line: `plain` is the line with literal
/// contents blanked (quotes kept, characters aligned with `line`), `kept`
/// the same with tests blanked too (a literal of a test has no quotes
/// there).
fn literals(line: &str, plain: &str, kept: &str) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    let kept: Vec<char> = kept.chars().collect();
    let quotes: Vec<usize> = plain
        .chars()
        .enumerate()
        .filter(|&(_, c)| c == '"')
        .map(|(at, _)| at)
        .collect();
    quotes
        .chunks_exact(2)
        .filter(|pair| kept.get(pair[0]) == Some(&'"'))
        .filter_map(|pair| chars.get(pair[0] + 1..pair[1]))
        .map(|inside| inside.iter().collect())
        .collect()
}
