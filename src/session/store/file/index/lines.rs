//! A long listing as the NDJSON lines `list` writes, read from the text
//! each row keeps of itself: no summary is built and no JSON written for a
//! row whose journal is as its row says (one `stat` each, as for any
//! listing). A row whose journal changed behind the index's back is read
//! from its files, as [`refresh::checked`] does.

use super::db::{self, next_page_size};
use super::refresh;
use super::stamp::DataDir;
use crate::error::Result;
use crate::session::store::api::{JsonLines, ListQuery};
use crate::session::store::file::FileStore;

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
    let mut lines = JsonLines {
        problems: db.problems()?,
        ..JsonLines::default()
    };
    let mut size = first.max(1);
    let mut given = false;
    db.each_listed(query, |row| {
        let id = row.id().map_err(db::sql)?;
        let plain = row.plain().map_err(db::sql)?;
        let stamp = row.stamp().map_err(db::sql)?;
        if refresh::is_current(store, data_dir.as_ref(), id, plain, stamp) {
            lines.push_line(row.json().map_err(db::sql)?);
        } else {
            let found = row.found().map_err(db::sql)?;
            let (sessions, problems) = refresh::checked(store, store.index(), vec![found]);
            for summary in sessions.iter().filter(|s| query.keeps(s)) {
                lines.push(summary)?;
            }
            lines.problems.extend(problems);
        }
        if lines.count < size {
            return Ok(true);
        }
        size = next_page_size(size, first);
        given = true;
        Ok(page(std::mem::take(&mut lines)))
    })?;
    if !given || lines.count > 0 || !lines.problems.is_empty() {
        page(lines);
    }
    Ok(())
}
