//! A listing read page by page, newest first, so that whoever shows it
//! (the picker, an NDJSON or JSON listing) can show the first sessions
//! while the rest are still being read.
//!
//! Each page is one [`Store::list_where`] with an offset and a limit, which
//! both stores answer from an index (`LIMIT … OFFSET …`). Pages double in
//! size from [`FIRST_PAGE`]: the first comes at once, and the rows that the
//! offsets make a store step over add up to about the whole listing once,
//! not once per page.
//!
//! The store may change between two pages. Each page starts [`OVERLAP`]
//! rows before where the last one ended, so that sessions deleted from the
//! pages already read (which move every later row up) do not make the next
//! page skip a session, and a session already given is never given again
//! (a session created meanwhile moves every row down; a page with no
//! session not given before ends the listing, so more than a page of
//! sessions made while one page is read would end it early). A session that
//! becomes the newest while the listing is read is above every page still
//! to come, so it is not in this listing, as if the listing had been read
//! before it changed.

use std::collections::HashSet;

use super::model::Problem;
use super::store::{ListQuery, Listing, Store};
use crate::error::Result;

/// Sessions in the first page: about a screen of the picker.
pub const FIRST_PAGE: usize = 64;
/// Rows each page reads again from the end of the one before.
const OVERLAP: usize = 32;

/// The pages of `query`'s listing ([`Store::pages`]).
pub struct Pages {
    store: Store,
    query: ListQuery,
    /// Where the next page would start without the overlap.
    next: usize,
    /// Rows of the next page.
    size: usize,
    /// Sessions still to give (from `query.limit`).
    left: Option<usize>,
    seen: HashSet<String>,
    reported: HashSet<String>,
    done: bool,
}

impl Store {
    /// The sessions `query` keeps, newest first, as pages that are read one
    /// at a time; every page but the last holds sessions. They hold a
    /// handle of the store of their own, so another thread can read them.
    pub fn pages(&self, query: &ListQuery) -> Pages {
        Pages {
            store: self.clone(),
            next: query.offset,
            size: FIRST_PAGE,
            left: query.limit,
            query: query.clone(),
            seen: HashSet::new(),
            reported: HashSet::new(),
            done: false,
        }
    }
}

impl Pages {
    /// Reads the next page: its sessions not given before, and whether it
    /// is the last.
    fn read(&mut self) -> Result<(Listing, bool)> {
        let want = self.left.map_or(self.size, |left| left.min(self.size));
        let from = self
            .next
            .saturating_sub(OVERLAP)
            .max(self.query.offset)
            .min(self.next);
        let asked = want + (self.next - from);
        let listing = self.store.list_where(&ListQuery {
            offset: from,
            limit: Some(asked),
            ..self.query.clone()
        })?;
        let got = listing.sessions.len();
        self.next = from + got;
        self.size = self.size.saturating_mul(2);
        let mut sessions: Vec<_> = listing
            .sessions
            .into_iter()
            .filter(|s| self.seen.insert(s.session_id.clone()))
            .collect();
        if let Some(left) = &mut self.left {
            sessions.truncate(*left);
            *left -= sessions.len();
        }
        let problems: Vec<Problem> = listing
            .problems
            .into_iter()
            .filter(|p| self.reported.insert(p.session_id.clone()))
            .collect();
        // A store may give fewer rows than asked while more remain (a row
        // whose file was found gone), so the end is a page with no session
        // not given before: past the overlap, nothing was left.
        let last = sessions.is_empty() || self.left == Some(0);
        Ok((Listing { sessions, problems }, last))
    }
}

impl Iterator for Pages {
    type Item = Result<Listing>;

    fn next(&mut self) -> Option<Result<Listing>> {
        if self.done {
            return None;
        }
        let page = self.read();
        self.done = page.as_ref().is_ok_and(|(_, last)| *last) || page.is_err();
        Some(page.map(|(listing, _)| listing))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicI64, Ordering};

    use super::*;
    use crate::session::store::{NewSession, StoreOptions};

    /// A store of `n` sessions, each a second newer than the one before,
    /// and their ids newest first.
    fn store_of(n: usize) -> (tempfile::TempDir, Store, Vec<String>) {
        let dir = tempfile::tempdir().unwrap();
        let tick = AtomicI64::new(1_700_000_000_000);
        let store = Store::new(
            dir.path().join("sessions"),
            StoreOptions {
                max_sessions: 0,
                clock: Arc::new(move || tick.fetch_add(1000, Ordering::SeqCst)),
                ..StoreOptions::default()
            },
        );
        for i in 0..n {
            store
                .create(&NewSession {
                    model: "m".into(),
                    title: Some(format!("s{i}")),
                    ..NewSession::default()
                })
                .unwrap();
        }
        let ids = store
            .list()
            .unwrap()
            .sessions
            .into_iter()
            .map(|s| s.session_id)
            .collect();
        (dir, store, ids)
    }

    fn ids_of(pages: Pages) -> (Vec<String>, Vec<usize>) {
        let mut ids = Vec::new();
        let mut sizes = Vec::new();
        for page in pages {
            let page = page.unwrap();
            sizes.push(page.sessions.len());
            ids.extend(page.sessions.into_iter().map(|s| s.session_id));
        }
        (ids, sizes)
    }

    #[test]
    fn pages_give_the_whole_listing_in_order_in_growing_pages() {
        let (_dir, store, all) = store_of(200);
        let (ids, sizes) = ids_of(store.pages(&ListQuery::default()));
        assert_eq!(ids, all);
        assert_eq!(sizes[..2], [FIRST_PAGE, 2 * FIRST_PAGE]);
        assert_eq!(sizes.iter().sum::<usize>(), 200);
    }

    #[test]
    fn pages_keep_the_offset_and_limit_of_the_query() {
        let (_dir, store, all) = store_of(150);
        let query = ListQuery {
            offset: 10,
            limit: Some(100),
            ..ListQuery::default()
        };
        let (ids, _) = ids_of(store.pages(&query));
        assert_eq!(ids, all[10..110]);
        let (ids, sizes) = ids_of(store.pages(&ListQuery::newest(0, None)));
        assert!(ids.is_empty());
        assert_eq!(sizes, [0]);
    }

    #[test]
    fn a_session_deleted_between_pages_moves_no_other_out_of_the_listing() {
        let (_dir, store, all) = store_of(150);
        let mut pages = store.pages(&ListQuery::default());
        let first = pages.next().unwrap().unwrap();
        assert_eq!(first.sessions.len(), FIRST_PAGE);
        // Sessions of the first page go: every later row moves up.
        for id in &all[..5] {
            store.delete(id).unwrap();
        }
        let (rest, _) = ids_of(pages);
        assert_eq!(rest, all[FIRST_PAGE..]);
    }

    #[test]
    fn a_session_created_between_pages_gives_none_twice() {
        let (_dir, store, all) = store_of(150);
        let mut pages = store.pages(&ListQuery::default());
        pages.next().unwrap().unwrap();
        // A new session comes first: every later row moves down.
        store
            .create(&NewSession {
                model: "m".into(),
                ..NewSession::default()
            })
            .unwrap();
        let (rest, _) = ids_of(pages);
        assert_eq!(rest, all[FIRST_PAGE..]);
    }
}
