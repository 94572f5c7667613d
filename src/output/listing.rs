//! A listing written as its rows come, a batch at a time, so that a reader
//! of a long listing sees its first rows while the rest are still being
//! read: NDJSON and text lines, and the pretty JSON array too, which comes
//! out byte for byte as [`super::Printer::list_as`] writes it whole. Each
//! batch goes out through a buffer of [`super::blocks::BLOCK`] bytes and is
//! flushed. A table is laid out once every row is known (its columns fit
//! the widest cell), so it is written at the end.

use std::io::{self, BufWriter, Write};

use serde::Serialize;

use super::blocks::BLOCK;
use super::escape::escape_json;
use super::failure::stdout_error;
use super::printer::{Format, Printer, Tabular, render_text_rows, table_of};
use super::stdout::stdout_is_terminal;
use crate::error::{Error, Result};

/// A listing being written ([`Printer::list_stream`]).
pub struct ListWriter<'p, T> {
    printer: &'p Printer,
    format: Format,
    /// The rows of a table, kept until [`ListWriter::finish`].
    table: Vec<T>,
    /// Rows written so far.
    written: usize,
}

impl Printer {
    /// A listing in the format asked for (`None`: a table at a terminal,
    /// JSON when piped), written batch by batch ([`ListWriter::rows`]).
    pub fn list_stream<T: Serialize + Tabular>(&self, format: Option<Format>) -> ListWriter<'_, T> {
        ListWriter {
            printer: self,
            format: self.choose(format, Format::Table),
            table: Vec::new(),
            written: 0,
        }
    }
}

impl<T: Serialize + Tabular> ListWriter<'_, T> {
    /// Whether the listing is a table (written only at the end).
    pub fn is_table(&self) -> bool {
        self.format == Format::Table
    }

    /// Writes `rows` (a table keeps them for the end) and flushes.
    pub fn rows(&mut self, rows: Vec<T>) -> Result<()> {
        if self.format == Format::Table {
            self.table.extend(rows);
            return Ok(());
        }
        let escape = stdout_is_terminal();
        let mut out = BufWriter::with_capacity(BLOCK, io::stdout().lock());
        for row in &rows {
            if self.format == Format::Ndjson && !escape {
                // Straight into the buffer: no line of its own per row.
                crate::lossless::to_writer(&mut out, row).map_err(|e| {
                    if e.is_io() {
                        stdout_error(io::Error::from(e))
                    } else {
                        encode_error(e)
                    }
                })?;
                out.write_all(b"\n").map_err(stdout_error)?;
                self.written += 1;
                continue;
            }
            let bytes = match self.format {
                Format::Json => self.array_element(row)?,
                Format::Ndjson => {
                    let mut line = crate::lossless::to_vec(row).map_err(encode_error)?;
                    line.push(b'\n');
                    line
                }
                Format::Text | Format::Table => {
                    render_text_rows(std::slice::from_ref(row)).into_bytes()
                }
            };
            let bytes = match (escape, self.format) {
                (true, Format::Json | Format::Ndjson) => {
                    escape_json(&String::from_utf8_lossy(&bytes))
                        .into_owned()
                        .into_bytes()
                }
                _ => bytes,
            };
            out.write_all(&bytes).map_err(stdout_error)?;
            self.written += 1;
        }
        out.flush().map_err(stdout_error)
    }

    /// Whether [`ListWriter::lines`] can take the listing: NDJSON or a JSON
    /// array, not at a terminal (where JSON's text is escaped).
    pub fn takes_lines(&self) -> bool {
        matches!(self.format, Format::Json | Format::Ndjson) && !stdout_is_terminal()
    }

    /// Writes `count` rows given as compact JSON text, a line each (as
    /// `crate::lossless::to_writer` writes them), and flushes: NDJSON as
    /// they are, a JSON array's elements as [`ListWriter::rows`] writes them.
    pub fn lines(&mut self, text: &[u8], count: usize) -> Result<()> {
        let mut out = BufWriter::with_capacity(BLOCK, io::stdout().lock());
        if self.format == Format::Ndjson {
            out.write_all(text).map_err(stdout_error)?;
            self.written += count;
        } else {
            let mut element = Vec::with_capacity(1024);
            for line in text.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
                element.clear();
                element.extend_from_slice(self.element_start());
                pretty_element(line, &mut element);
                out.write_all(&element).map_err(stdout_error)?;
                self.written += 1;
            }
        }
        out.flush().map_err(stdout_error)
    }

    /// How [`ListWriter::elements`] wants each row rendered, when it can
    /// take the listing that way ([`ListWriter::takes_lines`]): the renderer
    /// may run on any thread.
    pub fn element_renderer(&self) -> Option<ElementRenderer> {
        self.takes_lines().then_some(ElementRenderer {
            format: self.format,
        })
    }

    /// Writes rows rendered by [`ListWriter::element_renderer`], in order,
    /// and flushes: the listing's bytes are those [`ListWriter::rows`]
    /// writes of the same rows. A long listing's bytes are gathered on
    /// every core (its rows lie all over memory; a thread gathering a
    /// million of them waits on each).
    pub fn elements(&mut self, elements: &[&[u8]]) -> Result<()> {
        let mut out = BufWriter::with_capacity(BLOCK, io::stdout().lock());
        let json = self.format == Format::Json;
        let first = self.written == 0;
        let gather = |i: usize, chunk: &[&[u8]]| {
            let size: usize = chunk.iter().map(|e| e.len() + 4).sum();
            let mut bytes = Vec::with_capacity(size);
            for (j, element) in chunk.iter().enumerate() {
                if json {
                    let start: &[u8] = if first && i == 0 && j == 0 {
                        b"[\n  "
                    } else {
                        b",\n  "
                    };
                    bytes.extend_from_slice(start);
                }
                bytes.extend_from_slice(element);
            }
            Ok(bytes)
        };
        if super::parallel::worth_it(elements) {
            super::parallel::write_chunks(elements, &mut out, gather)?;
        } else {
            out.write_all(&gather(0, elements)?).map_err(stdout_error)?;
        }
        self.written += elements.len();
        out.flush().map_err(stdout_error)
    }

    /// What comes before an element of the JSON array.
    fn element_start(&self) -> &'static [u8] {
        if self.written == 0 {
            b"[\n  "
        } else {
            b",\n  "
        }
    }

    /// `row` as an element of a pretty JSON array: after `[` or a comma,
    /// indented one level (a JSON string holds no raw newline, so every
    /// newline of the pretty text starts a line to indent).
    fn array_element(&self, row: &T) -> Result<Vec<u8>> {
        let mut pretty = Vec::with_capacity(512);
        crate::lossless::to_writer_pretty(&mut pretty, row).map_err(encode_error)?;
        let mut element = Vec::with_capacity(pretty.len() + 64);
        element.extend_from_slice(self.element_start());
        for (i, line) in pretty.split(|&b| b == b'\n').enumerate() {
            if i > 0 {
                element.extend_from_slice(b"\n  ");
            }
            element.extend_from_slice(line);
        }
        Ok(element)
    }

    /// What closes the JSON array.
    fn array_end(&self) -> &'static [u8] {
        if self.written == 0 { b"[]\n" } else { b"\n]\n" }
    }

    /// Ends the listing: a table is written now (`empty` when it has no
    /// rows), a JSON array is closed.
    pub fn finish(self, empty: &str) -> Result<()> {
        match self.format {
            Format::Table if self.table.is_empty() => self.printer.text(&format!("{empty}\n")),
            Format::Table => self.printer.table(&table_of(&self.table)),
            Format::Json => super::stdout::write_stdout(&[self.array_end()]),
            Format::Ndjson | Format::Text => Ok(()),
        }
    }
}

/// Renders a row as [`ListWriter::elements`] writes it: an NDJSON line, or
/// a pretty JSON array's element without what separates it from the one
/// before.
#[derive(Debug, Clone, Copy)]
pub struct ElementRenderer {
    format: Format,
}

impl ElementRenderer {
    /// Renders the row that `write` appends as compact JSON (what
    /// `crate::lossless::to_writer` writes of it).
    pub fn render_compact(
        &self,
        out: &mut Vec<u8>,
        write: impl FnOnce(&mut Vec<u8>) -> serde_json::Result<()>,
    ) -> Result<()> {
        if self.format == Format::Ndjson {
            write(out).map_err(encode_error)?;
            out.push(b'\n');
            return Ok(());
        }
        thread_local! {
            static COMPACT: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        COMPACT.with_borrow_mut(|compact| {
            compact.clear();
            write(compact).map_err(encode_error)?;
            pretty_element(compact, out);
            Ok(())
        })
    }
}

/// Compact JSON text (serde_json's: no space outside strings) as
/// `to_writer_pretty` writes it, indented one level further, as an element
/// of a pretty array is: two spaces a level, a newline before each member
/// and after the last, and `{}` or `[]` for an empty container.
fn pretty_element(compact: &[u8], out: &mut Vec<u8>) {
    let newline = |out: &mut Vec<u8>, depth: usize| {
        out.push(b'\n');
        out.resize(out.len() + 2 * (depth + 1), b' ');
    };
    let mut depth = 0;
    let mut opened = false;
    let mut in_string = false;
    let mut escaped = false;
    let mut rest = compact;
    while let Some((&b, tail)) = rest.split_first() {
        rest = tail;
        if in_string {
            out.push(b);
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            } else {
                // The string's bytes up to its next quote or backslash.
                let run = memchr::memchr2(b'"', b'\\', rest).unwrap_or(rest.len());
                out.extend_from_slice(&rest[..run]);
                rest = &rest[run..];
            }
            continue;
        }
        let closing = matches!(b, b'}' | b']');
        if opened && !closing {
            newline(out, depth);
        }
        match b {
            b'{' | b'[' => {
                out.push(b);
                depth += 1;
                opened = true;
                continue;
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if !opened {
                    newline(out, depth);
                }
                out.push(b);
            }
            b',' => {
                out.push(b);
                newline(out, depth);
            }
            b':' => out.extend_from_slice(b": "),
            b'"' => {
                in_string = true;
                out.push(b);
            }
            _ => out.push(b),
        }
        opened = false;
    }
}

fn encode_error(err: serde_json::Error) -> Error {
    Error::input(format!("cannot encode output: {err}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Row {
        name: String,
        tags: Vec<u32>,
        nested: serde_json::Value,
    }

    impl Tabular for Row {
        fn headers() -> &'static [&'static str] {
            &["NAME"]
        }
        fn cells(&self) -> Vec<String> {
            vec![self.name.clone()]
        }
    }

    /// The bytes of the array written row by row.
    fn streamed(rows: Vec<Row>) -> Vec<u8> {
        let printer = Printer::fixed(false, false, None);
        let mut writer = printer.list_stream::<Row>(Some(Format::Json));
        let mut out = Vec::new();
        for row in rows {
            out.extend(writer.array_element(&row).unwrap());
            writer.written += 1;
        }
        out.extend_from_slice(writer.array_end());
        out
    }

    fn whole(rows: &[Row]) -> Vec<u8> {
        let mut out = Vec::new();
        crate::lossless::to_writer_pretty(&mut out, rows).unwrap();
        out.push(b'\n');
        out
    }

    fn rows() -> Vec<Row> {
        (0..3)
            .map(|i| Row {
                name: format!("row {i}\nwith \"quotes\" and a newline"),
                tags: (0..i).collect(),
                nested: serde_json::json!({"a": [1, {"b": []}], "e": {}}),
            })
            .collect()
    }

    /// The bytes of the array written from each row's compact line.
    fn from_lines(rows: &[Row]) -> Vec<u8> {
        let mut out = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            out.extend_from_slice(if i == 0 { b"[\n  " } else { b",\n  " });
            pretty_element(&crate::lossless::to_vec(row).unwrap(), &mut out);
        }
        out.extend_from_slice(if rows.is_empty() { b"[]\n" } else { b"\n]\n" });
        out
    }

    #[test]
    fn a_json_array_written_from_compact_lines_is_the_same_bytes_as_written_whole() {
        assert_eq!(from_lines(&rows()), whole(&rows()));
        assert_eq!(from_lines(&[]), whole(&[]));
        let tricky = Row {
            name: "a \\\" b, {c}: [d] \u{10f800} é".into(),
            tags: vec![],
            nested: serde_json::json!([[], {}, [{}], {"k": [[1], {"x": null}]}, "s,:{}[]\\"]),
        };
        assert_eq!(from_lines(std::slice::from_ref(&tricky)), whole(&[tricky]));
    }

    #[test]
    fn a_json_array_written_row_by_row_is_the_same_bytes_as_written_whole() {
        assert_eq!(streamed(rows()), whole(&rows()));
        assert_eq!(streamed(Vec::new()), whole(&[]));
        assert_eq!(
            streamed(rows().into_iter().take(1).collect()),
            whole(&rows()[..1])
        );
    }
}
