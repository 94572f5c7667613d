//! How every program speaks: one place renders results, so a terminal gets
//! the same shapes from every command and never a live control character.
//!
//! - [`escape`] (re-exported here): control characters made visible
//!   (`escape_text`, `escape_line`, `escape_json`, `escape_bytes`).
//! - [`Table`]: a header row, columns fitted to the terminal's width (the
//!   widest cells cut with `…`), display width of wide characters counted,
//!   every cell escaped; the header bold only where colour is allowed.
//! - [`Printer`]: made once per process ([`Printer::detect`]); commands hand
//!   it typed `Serialize` results and it picks the form:
//!   - [`Printer::list`] — a listing (items implement [`Tabular`]): a table at
//!     a terminal, a pretty JSON array when piped;
//!   - [`Printer::object`] — a result object: pretty JSON (escaped at a terminal);
//!   - [`Printer::object_or_table`] — a report made of lists: a table at a
//!     terminal, the object as pretty JSON when piped;
//!   - [`Printer::changed`] — a mutation: what it changed, as one compact JSON
//!     object line, at a terminal and piped alike;
//!   - [`Printer::record`] — one NDJSON record of a stream, flushed;
//!   - [`Printer::text`] — text (Markdown, content), escaped at a terminal;
//!   - [`Printer::list_as`] with a [`Format`] for commands that take `--format`.
//! - [`stdout`] (re-exported here): the functions below the printer, and the
//!   only writers of stdout (`print_json`, `print_json_line`,
//!   `print_json_lines`, `print_text`, `write_stdout`, [`stdout_is_terminal`]).
//! - [`blocks`]: large listings in 64 KiB blocks (`ollm-discover`).
//! - [`listing::ListWriter`] ([`Printer::list_stream`]): a listing written
//!   batch by batch as it is read (`ollm-session list`), the JSON array
//!   the same bytes as written whole.
//! - [`progress::Progress`]: a spinner line on stderr while a person waits
//!   on a model, or a bar while an import reads its sources, erased when
//!   the wait ends (nothing when stderr is piped).
//!
//! Piped output is JSON whatever the terminal would show, so scripts keep
//! working; human forms appear only at a terminal or when asked for.

pub(crate) mod blocks;
pub mod escape;
mod failure;
pub mod listing;
pub(crate) mod markdown;
mod parallel;
mod printer;
pub(crate) mod progress;
pub(crate) mod stdout;
mod table;

pub(crate) use escape::{escape_bytes, escape_json};
pub use escape::{escape_line, escape_text, is_hostile};
pub(crate) use printer::{Format, Printer, Tabular};
pub(crate) use stdout::{print_json_line, print_text, stdout_is_terminal, write_stdout};
pub(crate) use table::Table;
