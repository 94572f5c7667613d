//! A listing as NDJSON pages from one statement: the rows stream in as
//! the server sends them, in one snapshot, with no page stepping over the
//! rows of the pages before it (`OFFSET`) or reading some of them again.

use postgres::fallible_iterator::FallibleIterator;

use super::{PgStore, listing, summary_of};
use crate::error::Result;
use crate::session::store::api::{JsonLines, ListQuery};

impl PgStore {
    /// See [`crate::session::store::SessionStore::list_json_pages`]: pages
    /// of `first` lines, then each twice the one before. The store's
    /// connection is held until the last page is taken.
    pub(super) fn stream_json_pages(
        &self,
        query: &ListQuery,
        first: usize,
        page: &mut dyn FnMut(JsonLines) -> bool,
    ) -> Result<()> {
        let Some((select, cut)) = listing::page(query) else {
            page(JsonLines::default());
            return Ok(());
        };
        self.with(|client| {
            let mut rows = client.query_typed_raw(select.sql.as_str(), select.typed())?;
            let mut lines = JsonLines::default();
            let (mut size, mut sent) = (first.max(1), false);
            // With `Cut::Confirm`, the rows are filtered and cut here.
            let (mut skip, mut left) = (query.offset, query.limit.unwrap_or(usize::MAX));
            while let Some(row) = rows.next()? {
                let summary = summary_of(&row);
                if let listing::Cut::Confirm = cut {
                    if !query.keeps(&summary) {
                        continue;
                    }
                    if skip > 0 {
                        skip -= 1;
                        continue;
                    }
                    if left == 0 {
                        break;
                    }
                    left -= 1;
                }
                lines.push(&summary)?;
                if lines.count >= size {
                    sent = true;
                    if !page(std::mem::take(&mut lines)) {
                        return Ok(());
                    }
                    size = size.saturating_mul(2);
                }
            }
            if lines.count > 0 || !sent {
                page(lines);
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::store::api::{SessionStore, StoreOptions};
    use crate::session::store::test_pg as pg;

    /// The pages `query` streams (the first of 16 lines), stopping after
    /// `stop` pages.
    fn streamed(store: &PgStore, query: &ListQuery, stop: usize) -> Vec<JsonLines> {
        let mut pages = Vec::new();
        store
            .stream_json_pages(query, 16, &mut |page| {
                pages.push(page);
                pages.len() < stop
            })
            .unwrap();
        pages
    }

    /// Every query's stream is its page (`list_where`) line for line, in
    /// pages that double from the first, and stops when told to.
    #[test]
    fn a_streamed_listing_is_the_listing_in_doubling_pages() {
        let Some(pg) = pg::TestPg::new() else { return };
        let store = PgStore::new(&pg.url, StoreOptions::default()).unwrap();
        assert_eq!(store.count().unwrap(), 0, "the schema made");
        // 300 sessions, lastActivity tied in pairs, three models.
        pg.client()
            .batch_execute(
                "INSERT INTO ollm_sessions (id, head, start_time, start_ms, last_activity, \
                     last_ms, model, provider) \
                 SELECT md5(i::text)::uuid::text, '{}', 's' || i, 1700000000000 + i * 30000, \
                        to_char(timestamp 'epoch' + (1700000000000 + (i / 2) * 60000) \
                                * interval '1 millisecond', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'), \
                        1700000000000 + (i / 2) * 60000, 'model' || (i % 3), 'p' \
                 FROM generate_series(1, 300) AS i",
            )
            .unwrap();
        let queries = [
            ListQuery::default(),
            ListQuery {
                offset: 10,
                limit: Some(100),
                ..ListQuery::default()
            },
            ListQuery {
                model: Some("model1".into()),
                ..ListQuery::default()
            },
            // Filtered and cut as rows come (`Cut::Confirm`).
            ListQuery {
                since: Some(0),
                offset: 5,
                limit: Some(40),
                ..ListQuery::default()
            },
            ListQuery::newest(0, None),
            ListQuery {
                model: Some("none".into()),
                ..ListQuery::default()
            },
        ];
        for query in &queries {
            let expected = JsonLines::of(store.list_where(query).unwrap()).unwrap();
            assert!(expected.count > 0 || query.limit == Some(0) || query.model.is_some());
            let pages = streamed(&store, query, usize::MAX);
            let text: Vec<u8> = pages.iter().flat_map(|p| p.text.clone()).collect();
            assert_eq!(
                String::from_utf8(text).unwrap(),
                String::from_utf8(expected.text.clone()).unwrap(),
                "{query:?}"
            );
            let sizes: Vec<usize> = pages.iter().map(|p| p.count).collect();
            assert_eq!(sizes.iter().sum::<usize>(), expected.count, "{query:?}");
            for (n, size) in sizes.iter().enumerate().take(sizes.len() - 1) {
                assert_eq!(*size, 16 << n, "{query:?}: {sizes:?}");
            }
            assert!(sizes.len() == 1 || sizes[sizes.len() - 1] > 0, "{sizes:?}");
        }
        assert_eq!(
            streamed(&store, &ListQuery::default(), 2)
                .iter()
                .map(|p| p.count)
                .collect::<Vec<_>>(),
            [16, 32]
        );
        // The connection is the store's again.
        assert_eq!(store.count().unwrap(), 300);
    }
}
