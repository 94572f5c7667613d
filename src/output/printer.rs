//! The printer commands hand their typed results to: it knows whether stdout
//! is a terminal, how wide it is, and whether colour is allowed, and turns a
//! result into the one form the conventions give it there.

use serde::Serialize;

use super::escape::{escape_json, escape_line, escape_text};
use super::stdout;
use super::table::{Align, Table};
use crate::error::Result;

/// An output format a command can be asked for (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One pretty JSON document.
    Json,
    /// One compact JSON object a line.
    Ndjson,
    /// Aligned columns under a header row, fitted to the terminal.
    Table,
    /// Tab-separated cells, one item a line, no header.
    Text,
}

/// A result that is shown as a table row at a terminal.
pub trait Tabular {
    /// The column headings.
    fn headers() -> &'static [&'static str];
    /// This item's cells, one per heading (raw: the table escapes them).
    fn cells(&self) -> Vec<String>;
    /// The columns (from 0) holding numbers, right-aligned.
    fn numeric() -> &'static [usize] {
        &[]
    }
    /// The columns (from 0) cut last when the table is too wide: what a
    /// person reads the table for.
    fn whole() -> &'static [usize] {
        &[]
    }
    /// The column a row is read by and the width it keeps before other
    /// columns are cut.
    fn at_least() -> Option<(usize, usize)> {
        None
    }
    /// Columns left out, in this order, of a table too narrow for
    /// [`Tabular::at_least`].
    fn optional() -> &'static [usize] {
        &[]
    }
}

/// Where results go, and how they look there. Cheap to make: nothing is
/// asked of the terminal until a table is printed.
#[derive(Debug, Clone, Copy)]
pub struct Printer {
    terminal: bool,
    color: bool,
    width: Option<usize>,
}

impl Printer {
    /// For this process's stdout: colour only at a terminal whose `TERM` is
    /// set and not `dumb`, and never when `NO_COLOR` is set (no-color.org).
    pub fn detect() -> Printer {
        let terminal = stdout::stdout_is_terminal();
        let color = terminal && color_allowed(|name| std::env::var_os(name));
        Printer {
            terminal,
            color,
            width: None,
        }
    }

    /// A printer with fixed answers (tests, or `--format` forcing a form).
    pub fn fixed(terminal: bool, color: bool, width: Option<usize>) -> Printer {
        Printer {
            terminal,
            color,
            width,
        }
    }

    /// Whether stdout is a terminal (a person reading, not a script).
    pub fn is_terminal(&self) -> bool {
        self.terminal
    }

    /// Whether colour may be used.
    pub fn color(&self) -> bool {
        self.color
    }

    /// The width tables are fitted to: `COLUMNS`, else the terminal's size,
    /// else 80 at a terminal; no limit when piped.
    pub fn width(&self) -> Option<usize> {
        if self.width.is_some() {
            return self.width;
        }
        if let Some(columns) = std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.trim().parse::<usize>().ok())
            .filter(|&c| c > 0)
        {
            return Some(columns);
        }
        if !self.terminal {
            return None;
        }
        let size = terminal_size::terminal_size_of(std::io::stdout())
            .map(|(w, _)| usize::from(w.0))
            .filter(|&w| w > 0);
        Some(size.unwrap_or(80))
    }

    /// The form a command's output takes: what was asked for, else `at_terminal`
    /// at a terminal, else JSON.
    pub fn choose(&self, requested: Option<Format>, at_terminal: Format) -> Format {
        requested.unwrap_or(if self.terminal {
            at_terminal
        } else {
            Format::Json
        })
    }

    /// A result object: pretty JSON (its hostile characters escaped at a terminal).
    pub fn object<T: Serialize + ?Sized>(&self, value: &T) -> Result<()> {
        stdout::print_json(value)
    }

    /// What a mutation changed: one compact JSON object line, the same at a
    /// terminal (escaped) and piped.
    pub fn changed<T: Serialize + ?Sized>(&self, value: &T) -> Result<()> {
        stdout::print_json_line(value)
    }

    /// One record of an NDJSON stream, flushed at once.
    pub fn record<T: Serialize + ?Sized>(&self, value: &T) -> Result<()> {
        stdout::print_json_line(value)
    }

    /// Text as is when piped, its control characters made visible at a terminal.
    pub fn text(&self, text: &str) -> Result<()> {
        if self.terminal {
            return stdout::write_stdout(&[escape_text(text).as_bytes()]);
        }
        stdout::write_stdout(&[text.as_bytes()])
    }

    /// A status line at a terminal, redrawn in place (`\r`, then erased to
    /// its end), its control characters made visible.
    pub fn status(&self, line: &str) -> Result<()> {
        let line = crate::output::escape_line(line);
        stdout::write_stdout(&[b"\r", line.as_bytes(), b"\x1b[K"])
    }

    /// A listing: a table at a terminal, a pretty JSON array when piped.
    pub fn list<T: Serialize + Tabular + Sync>(&self, items: &[T]) -> Result<()> {
        self.list_as(None, items)
    }

    /// A listing in the format asked for (`None`: as [`Printer::list`]).
    pub fn list_as<T: Serialize + Tabular + Sync>(
        &self,
        format: Option<Format>,
        items: &[T],
    ) -> Result<()> {
        match self.choose(format, Format::Table) {
            Format::Json => stdout::print_json_array(items),
            Format::Ndjson => stdout::print_json_lines(items),
            Format::Table => self.table(&table_of(items)),
            Format::Text => self.text_rows(items),
        }
    }

    /// A result object whose terminal form is a table (a report holding
    /// lists): `table` at a terminal, pretty JSON of `value` when piped.
    pub fn object_or_table<T: Serialize + ?Sized>(
        &self,
        value: &T,
        table: impl FnOnce() -> Table,
    ) -> Result<()> {
        if self.terminal {
            return self.table(&table());
        }
        self.object(value)
    }

    /// A table, fitted to [`Printer::width`].
    pub fn table(&self, table: &Table) -> Result<()> {
        stdout::write_stdout(&[table.render(self.width(), self.color).as_bytes()])
    }

    /// The rendered form of a listing at a terminal (for tests and pagers).
    pub fn render_table<T: Tabular>(&self, items: &[T]) -> String {
        table_of(items).render(self.width(), self.color)
    }

    /// Compact JSON of a value, escaped for a terminal (a cell showing JSON).
    pub fn json_cell<T: Serialize + ?Sized>(value: &T) -> String {
        let json = serde_json::to_string(value).unwrap_or_default();
        escape_json(&json).into_owned()
    }

    fn text_rows<T: Tabular + Sync>(&self, items: &[T]) -> Result<()> {
        if !super::parallel::worth_it(items) {
            return stdout::write_stdout(&[render_text_rows(items).as_bytes()]);
        }
        let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        super::parallel::write_chunks(items, &mut out, |_, chunk| {
            Ok(render_text_rows(chunk).into_bytes())
        })?;
        std::io::Write::flush(&mut out).map_err(super::failure::stdout_error)
    }
}

/// `--format text`: one item a line, its cells tab-separated and escaped
/// (so a tab or newline in a cell cannot shift a column or add a line).
pub(super) fn render_text_rows<T: Tabular>(items: &[T]) -> String {
    let mut out = String::new();
    for item in items {
        let cells: Vec<String> = item
            .cells()
            .iter()
            .map(|c| escape_line(c).into_owned())
            .collect();
        out.push_str(&cells.join("\t"));
        out.push('\n');
    }
    out
}

pub(super) fn table_of<T: Tabular>(items: &[T]) -> Table {
    let mut table = Table::new(T::headers().iter().copied());
    for &column in T::numeric() {
        table = table.align(column, Align::Right);
    }
    for &column in T::whole() {
        table = table.whole(column);
    }
    if let Some((column, min)) = T::at_least() {
        table = table.at_least(column, min);
    }
    for &column in T::optional() {
        table = table.optional(column);
    }
    for item in items {
        table.row(item.cells());
    }
    table
}

fn color_allowed(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> bool {
    // NO_COLOR "when present and not an empty string" (no-color.org).
    if var("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        return false;
    }
    var("TERM").is_some_and(|term| !term.is_empty() && term != "dumb")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Row {
        name: String,
        size: u64,
    }

    impl Tabular for Row {
        fn headers() -> &'static [&'static str] {
            &["NAME", "SIZE"]
        }
        fn cells(&self) -> Vec<String> {
            vec![self.name.clone(), self.size.to_string()]
        }
        fn numeric() -> &'static [usize] {
            &[1]
        }
    }

    #[test]
    fn no_color_wins_and_a_dumb_terminal_gets_none() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| std::ffi::OsString::from(v))
            }
        };
        assert!(color_allowed(env(&[("TERM", "xterm-256color")])));
        assert!(!color_allowed(env(&[("TERM", "xterm"), ("NO_COLOR", "1")])));
        assert!(color_allowed(env(&[("TERM", "xterm"), ("NO_COLOR", "")])));
        assert!(!color_allowed(env(&[("TERM", "dumb")])));
        assert!(!color_allowed(env(&[])));
    }

    #[test]
    fn a_listing_is_a_table_at_a_terminal_and_json_when_piped() {
        let at_terminal = Printer::fixed(true, false, Some(80));
        let piped = Printer::fixed(false, false, None);
        assert_eq!(at_terminal.choose(None, Format::Table), Format::Table);
        assert_eq!(piped.choose(None, Format::Table), Format::Json);
        assert_eq!(
            piped.choose(Some(Format::Table), Format::Table),
            Format::Table
        );
        let rows = [Row {
            name: "a\u{1b}[2J".into(),
            size: 12,
        }];
        assert_eq!(
            at_terminal.render_table(&rows),
            "NAME      SIZE\na\\x1b[2J    12\n"
        );
    }

    #[test]
    fn text_rows_are_tab_separated_and_a_cell_cannot_add_a_column_or_line() {
        let rows = [
            Row {
                name: "a\tb\nc".into(),
                size: 1,
            },
            Row {
                name: "d".into(),
                size: 22,
            },
        ];
        assert_eq!(render_text_rows(&rows), "a\\tb\\nc\t1\nd\t22\n");
    }

    #[test]
    fn a_json_cell_keeps_hostile_characters_escaped() {
        assert_eq!(Printer::json_cell("a\u{202e}b"), "\"a\\u202eb\"");
    }
}
