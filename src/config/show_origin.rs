//! `config --show-origin`: every key, its value and where it came from.
//! Piped, a JSON array of rows (`origin` as `default`, `file:PATH`,
//! `env:NAME`, `flag:--NAME`, `ignored:file:PATH`, with the file's `line`).
//! At a terminal, the rows grouped by where they came from, in the order
//! the layers apply, each group headed in words a person recognises
//! (`~/.ollm/config.yaml`, `./.ollm/config.yaml (workspace, untrusted)`,
//! `env OLLM_…`, `flag --…`, `default`), a file's rows with their line
//! numbers, and long values and notes wrapped to the width, never cut.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use unicode_width::UnicodeWidthChar;

use super::key_lines::key_lines;
use super::load::{Loaded, Origin};
use super::tree;
use crate::output::{Printer, escape_line};

/// One row of `config --show-origin`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct OriginRow {
    pub key: String,
    pub value: Value,
    pub origin: String,
    /// The line of the file that set it, when it came from a file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// Set on the row of a value that was not applied, saying why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignored: Option<String>,
    #[serde(skip)]
    source: Source,
}

/// Where a row came from, for grouping, in the order the layers apply.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Source {
    Default,
    File(PathBuf),
    Env(String),
    Flag(String),
    Ignored(PathBuf),
}

impl Loaded {
    /// Every leaf key with its value and origin, in key order, then the
    /// keys of an untrusted workspace that were not applied.
    pub fn rows(&self) -> Vec<OriginRow> {
        let defaults;
        let tree = match &self.tree {
            Some(tree) => tree,
            None => {
                defaults = serde_json::to_value(&self.config).unwrap_or(Value::Null);
                &defaults
            }
        };
        let mut lines_of: BTreeMap<PathBuf, BTreeMap<String, usize>> = BTreeMap::new();
        let mut line = |file: &Path, key: &str| {
            lines_of
                .entry(file.to_path_buf())
                .or_insert_with(|| {
                    std::fs::read_to_string(file)
                        .map(|text| key_lines(&text))
                        .unwrap_or_default()
                })
                .get(key)
                .copied()
        };
        let mut rows: Vec<OriginRow> = tree::leaves(tree)
            .map(|(key, value)| {
                let origin = self.origins.get(&key).cloned().unwrap_or(Origin::Default);
                let (source, line) = match &origin {
                    Origin::Default => (Source::Default, None),
                    Origin::File(path) => (Source::File(path.clone()), line(path, &key)),
                    Origin::Env(name) => (Source::Env(name.clone()), None),
                    Origin::Flag(flag) => (Source::Flag(flag.clone()), None),
                };
                OriginRow {
                    key,
                    value: value.clone(),
                    origin: origin.to_string(),
                    line,
                    ignored: None,
                    source,
                }
            })
            .collect();
        rows.extend(self.ignored.iter().map(|ignored| OriginRow {
            key: ignored.key.clone(),
            value: ignored.value.clone(),
            origin: format!("ignored:file:{}", ignored.file.display()),
            line: line(&ignored.file, &ignored.key),
            ignored: Some(ignored.why.clone()),
            source: Source::Ignored(ignored.file.clone()),
        }));
        rows
    }

    /// The rows as a person reads them at a terminal `width` columns wide.
    pub fn render_origins(&self, rows: &[OriginRow], width: usize) -> String {
        let mut groups: BTreeMap<&Source, Vec<&OriginRow>> = BTreeMap::new();
        for row in rows {
            groups.entry(&row.source).or_default().push(row);
        }
        let key_width = rows.iter().map(|r| r.key.len()).max().unwrap_or(0);
        let gutter = rows
            .iter()
            .filter_map(|r| r.line)
            .max()
            .map_or(0, |l| l.to_string().len());
        let mut out = String::new();
        for (source, rows) in groups {
            out.push_str(&escape_line(&self.heading(source)));
            out.push('\n');
            for row in rows {
                let number = row.line.map(|l| l.to_string()).unwrap_or_default();
                let lead = format!("  {number:>gutter$}  {:<key_width$}  ", row.key);
                let value = shown_value(&row.value);
                push_wrapped(&mut out, &lead, &escape_line(&value), width);
                if let Some(why) = &row.ignored {
                    let indent = " ".repeat(gutter + 6);
                    push_wrapped(&mut out, &indent, &escape_line(why), width);
                }
            }
        }
        out
    }

    fn heading(&self, source: &Source) -> String {
        let workspace = |path: &Path| {
            self.workspace
                .as_ref()
                .filter(|ws| ws.config_file.as_deref() == Some(path))
        };
        match source {
            Source::Default => "default".into(),
            Source::Env(name) => format!("env {name}"),
            Source::Flag(flag) => format!("flag {flag}"),
            Source::File(path) => match workspace(path) {
                Some(ws) if ws.trusted() => format!("{} (workspace, trusted)", shown(path)),
                Some(_) => format!("{} (workspace, untrusted)", shown(path)),
                None => shown(path),
            },
            Source::Ignored(path) => format!("{} (workspace, untrusted): not applied", shown(path)),
        }
    }
}

/// A value as read at a terminal: text as it is, a list of texts one
/// after another (`a, b, c`, so a long list wraps between its items),
/// anything else as JSON.
fn shown_value(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Array(items) if items.iter().all(Value::is_string) => items
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(", "),
        other => Printer::json_cell(other),
    }
}

/// `path` as a person would type it: `./…` below the working directory,
/// `~/…` below the home directory, else as it is.
fn shown(path: &Path) -> String {
    let relative = |base: Option<PathBuf>, prefix: &str| {
        let base = base?;
        let rest = path.strip_prefix(&base).ok()?;
        Some(format!("{prefix}/{}", rest.display()))
    };
    relative(std::env::current_dir().ok(), ".")
        .or_else(|| relative(crate::paths::home_dir(), "~"))
        .unwrap_or_else(|| path.display().to_string())
}

/// `lead` then `text`, wrapped at `width` (at spaces where it can, within
/// a word where it must), each further line indented as wide as `lead`;
/// where that leaves fewer than 16 columns, the text starts on a line of its
/// own, indented by six.
fn push_wrapped(out: &mut String, lead: &str, text: &str, width: usize) {
    let lead_width = lead.chars().count();
    let (first, indent) = if width.saturating_sub(lead_width) >= 16 {
        (lead.to_string(), " ".repeat(lead_width))
    } else {
        out.push_str(lead.trim_end());
        out.push('\n');
        ("      ".to_string(), "      ".to_string())
    };
    let room = width.saturating_sub(indent.len()).max(16);
    for (i, line) in wrap(text, room).iter().enumerate() {
        let line = format!("{}{line}", if i == 0 { &first } else { &indent });
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

/// `text` in lines of at most `room` columns: broken at the last space
/// that fits, or inside a word longer than a line.
fn wrap(text: &str, room: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut line_width = 0;
    for word in text.split(' ') {
        let word_width: usize = word.chars().map(|c| c.width().unwrap_or(0)).sum();
        if line_width > 0 && line_width + 1 + word_width > room {
            lines.push(std::mem::take(&mut line));
            line_width = 0;
        }
        if line_width > 0 {
            line.push(' ');
            line_width += 1;
        }
        for c in word.chars() {
            let w = c.width().unwrap_or(0);
            if line_width + w > room && line_width > 0 {
                lines.push(std::mem::take(&mut line));
                line_width = 0;
            }
            line.push(c);
            line_width += w;
        }
    }
    lines.push(line);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_wraps_at_spaces_and_inside_a_word_longer_than_a_line() {
        assert_eq!(wrap("one two three", 7), ["one two", "three"]);
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 4), [""]);
        for line in wrap(&"word ".repeat(40), 16) {
            assert!(line.chars().count() <= 16, "{line:?}");
        }
    }

    #[test]
    fn a_long_value_wraps_under_itself_and_no_line_passes_the_width() {
        let mut out = String::new();
        let lead = format!("  3  {:<30}  ", "services.session.dataDir");
        push_wrapped(&mut out, &lead, &"a/".repeat(40), 60);
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines.len() > 1, "{out}");
        assert!(lines.iter().all(|l| l.chars().count() <= 60), "{out}");
        assert!(
            lines[0].starts_with("  3  services.session.dataDir"),
            "{out}"
        );
        assert!(lines[1].starts_with(&" ".repeat(lead.len())), "{out}");
        // Too narrow for the value beside the key: it starts below.
        let mut narrow = String::new();
        push_wrapped(&mut narrow, &lead, "value", 40);
        assert_eq!(narrow, format!("{}\n      value\n", lead.trim_end()));
    }
}
