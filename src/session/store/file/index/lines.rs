//! A long listing as the NDJSON lines `list` writes, read from the text
//! each row keeps of itself: no summary is built and no JSON written for a
//! row whose journal is as its row says. Each page's rows are checked
//! against their journals' stamps on every core (one `stat` each, as for
//! any listing); a row whose journal changed behind the index's back is
//! read from its files, as [`derive::checked`] does.

use std::ops::Range;

use super::db::{self, Listed, next_page_size};
use super::derive::{self, Reread};
use super::stamp::DataDir;
use crate::error::Result;
use crate::session::store::api::{JsonLines, ListQuery};
use crate::session::store::file::FileStore;
use crate::threads::parallel_map;

/// The lines of the sessions `query` keeps, newest first, handed to `page`
/// in pages of `first` sessions, then twice as many each time, until it
/// returns false: from one snapshot of the index, or from one read of the
/// files when there is no index. The first page also holds the sessions
/// that could not be read; every page but the last holds sessions.
pub fn json_pages(
    store: &FileStore,
    query: &ListQuery,
    first: usize,
    mut page: impl FnMut(JsonLines) -> bool,
) -> Result<()> {
    let Some(db) = store.index_db()? else {
        page(JsonLines::of(query.page(store.scan()?))?);
        return Ok(());
    };
    let data_dir = DataDir::open(store.dir());
    let from_files = || JsonLines::of(query.page(store.scan()?));
    let mut problems = match store.index().problems(&db) {
        Ok(problems) => problems,
        Err(err) => {
            page(store.index().or_files(Err(err), from_files)?);
            return Ok(());
        }
    };
    let mut rows = Rows::default();
    let mut size = first.max(1);
    let mut given = false;
    let mut go_on = true;
    let listed = db.each_listed(query, |row| {
        rows.push(&row).map_err(db::sql)?;
        if rows.spans.len() < size {
            return Ok(true);
        }
        size = next_page_size(size, first);
        let mut lines = rows.checked(store, data_dir.as_ref(), query)?;
        lines.problems.splice(0..0, problems.drain(..));
        rows.clear();
        given = true;
        go_on = page(lines);
        Ok(go_on)
    });
    if let Err(err) = listed {
        // Said from the files only while no page was given.
        if given {
            return Err(err);
        }
        page(store.index().or_files(Err(err), from_files)?);
        return Ok(());
    }
    if go_on && (!given || !rows.spans.is_empty()) {
        let mut lines = rows.checked(store, data_dir.as_ref(), query)?;
        lines.problems.splice(0..0, problems);
        if !given || lines.count > 0 || !lines.problems.is_empty() {
            page(lines);
        }
    }
    Ok(())
}

/// A page's rows as the statement gave them, in one buffer.
#[derive(Default)]
struct Rows {
    text: String,
    spans: Vec<Span>,
}

/// Where one row's fields are in [`Rows::text`].
struct Span {
    id: Range<usize>,
    stamp: Range<usize>,
    json: Range<usize>,
    plain: bool,
    damaged: bool,
}

impl Rows {
    fn push(&mut self, row: &Listed<'_>) -> rusqlite::Result<()> {
        let mut add = |field: &str| {
            let start = self.text.len();
            self.text.push_str(field);
            start..self.text.len()
        };
        let span = Span {
            id: add(row.id()?),
            stamp: add(row.stamp()?),
            json: add(row.json()?),
            plain: row.plain()?,
            damaged: !row.intact(),
        };
        self.spans.push(span);
        Ok(())
    }

    fn clear(&mut self) {
        self.text.clear();
        self.spans.clear();
    }

    /// The rows' lines, each checked against its journal.
    fn checked(
        &self,
        store: &FileStore,
        data_dir: Option<&DataDir>,
        query: &ListQuery,
    ) -> Result<JsonLines> {
        let field = |range: &Range<usize>| &self.text[range.clone()];
        if self.spans.iter().any(|span| span.damaged) {
            store.index().damaged_row();
        }
        let stale = parallel_map(&self.spans, |span| {
            let id = field(&span.id);
            (span.damaged
                || !derive::is_current(store, data_dir, id, span.plain, field(&span.stamp)))
            .then(|| derive::derive(store, id))
        });
        let mut lines = JsonLines {
            text: Vec::with_capacity(self.text.len()),
            ..JsonLines::default()
        };
        for (span, stale) in self.spans.iter().zip(stale) {
            let Some(derived) = stale else {
                lines.push_line(field(&span.json));
                continue;
            };
            match derive::reread(store.index(), field(&span.id).to_string(), derived) {
                Reread::Summary(summary) if query.keeps(&summary) => lines.push(&summary)?,
                Reread::Summary(_) | Reread::Missing => {}
                Reread::Problem(problem) => lines.problems.push(problem),
            }
        }
        Ok(lines)
    }
}
