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

//!
//! The file store does better: one statement reads its index in listing
//! order, on a thread of its own, so its pages are one snapshot, with no
//! offset to step over, read while the one before is shown ([`Streamed`]).

use std::collections::HashSet;
use std::sync::mpsc::{Receiver, sync_channel};

use super::{JsonLines, ListQuery, Listing, Store};
use crate::error::Result;
use crate::session::model::Problem;

/// Sessions in the first page: about a screen of the picker.
pub const FIRST_PAGE: usize = 64;
/// Rows each page reads again from the end of the one before.
const OVERLAP: usize = 32;

/// The pages of `query`'s listing ([`Store::pages`]).
pub enum Pages {
    /// Read page by page with offsets (PostgreSQL).
    Offsets(Box<Paged>),
    /// The file store's, read by one statement.
    Streamed(Streamed<Listing>),
}

/// The pages of `query`'s listing as the NDJSON lines `list` writes
/// ([`Store::json_pages`]), read on a thread of their own.
pub struct JsonPages(Streamed<JsonLines>);

/// Pages read one query each, with an offset and a limit.
pub struct Paged {
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
        if let Some(file) = self.as_file() {
            let (file, query) = (file.clone(), query.clone());
            return Pages::Streamed(Streamed::start(move |page| {
                file.list_pages(&query, FIRST_PAGE, page)
            }));
        }
        Pages::Offsets(Box::new(Paged::new(self, query)))
    }

    /// [`Store::pages`] as the NDJSON lines `list` writes: the file store
    /// writes each row's line as its index keeps it; PostgreSQL's pages
    /// are written a summary at a time.
    pub fn json_pages(&self, query: &ListQuery) -> JsonPages {
        if let Some(file) = self.as_file() {
            let (file, query) = (file.clone(), query.clone());
            return JsonPages(Streamed::start(move |page| {
                file.list_json_pages(&query, FIRST_PAGE, page)
            }));
        }
        let (store, query) = (self.clone(), query.clone());
        JsonPages(Streamed::start(move |page| {
            if let Some(streamed) = store.stream_json_pages(&query, FIRST_PAGE, page) {
                return streamed;
            }
            for listing in Paged::new(&store, &query) {
                if !page(JsonLines::of(listing?)?) {
                    break;
                }
            }
            Ok(())
        }))
    }
}

impl Paged {
    fn new(store: &Store, query: &ListQuery) -> Paged {
        Paged {
            store: store.clone(),
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

/// Pages read on a thread of their own (for the file store, from one
/// snapshot of its index: [`FileStore::list_pages`]) while the caller shows
/// the one before, and no further ahead: a listing of any length holds a
/// few pages in memory. The snapshot stays open while the caller waits (on
/// a pager); writers do not wait for it. The thread stops once the pages
/// are dropped.
///
/// [`FileStore::list_pages`]: super::FileStore::list_pages
pub struct Streamed<T> {
    pages: Receiver<Result<T>>,
}

impl<T: Send + 'static> Streamed<T> {
    /// Runs `read` on a thread, which hands it each page in turn: it goes
    /// on while the page is taken.
    fn start(
        read: impl FnOnce(&mut dyn FnMut(T) -> bool) -> Result<()> + Send + 'static,
    ) -> Streamed<T> {
        // One page read ahead: memory stays a few pages, whatever the
        // listing's length.
        let (send, pages) = sync_channel(1);
        std::thread::spawn(move || {
            if let Err(err) = read(&mut |page| send.send(Ok(page)).is_ok()) {
                let _ = send.send(Err(err));
            }
        });
        Streamed { pages }
    }
}

impl Paged {
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
        match self {
            Pages::Offsets(paged) => paged.next(),
            Pages::Streamed(streamed) => streamed.pages.recv().ok(),
        }
    }
}

impl Iterator for JsonPages {
    type Item = Result<JsonLines>;

    fn next(&mut self) -> Option<Result<JsonLines>> {
        self.0.pages.recv().ok()
    }
}

impl Iterator for Paged {
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
    use crate::session::store::{NewFormat, NewSession, StoreOptions};

    /// A store of `n` sessions, each a second newer than the one before,
    /// and their ids newest first.
    fn store_of(n: usize) -> (tempfile::TempDir, Store, Vec<String>) {
        store_in(n, NewFormat::default())
    }

    fn store_in(n: usize, format: NewFormat) -> (tempfile::TempDir, Store, Vec<String>) {
        let dir = tempfile::tempdir().unwrap();
        let tick = AtomicI64::new(1_700_000_000_000);
        let store = Store::new(
            dir.path().join("sessions"),
            StoreOptions {
                max_sessions: 0,
                format,
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

    /// The pages of `query` both ways: the file store's one statement, and
    /// pages by offset (as on PostgreSQL).
    fn both_ways(store: &Store, query: &ListQuery) -> [Pages; 2] {
        [
            store.pages(query),
            Pages::Offsets(Box::new(Paged::new(store, query))),
        ]
    }

    /// The whole listing's pages, the `way`th of [`both_ways`].
    fn way_of(store: &Store, way: usize) -> Pages {
        let [streamed, offsets] = both_ways(store, &ListQuery::default());
        if way == 0 { streamed } else { offsets }
    }

    #[test]
    fn pages_give_the_whole_listing_in_order_in_growing_pages() {
        let (_dir, store, all) = store_of(200);
        for pages in both_ways(&store, &ListQuery::default()) {
            let (ids, sizes) = ids_of(pages);
            assert_eq!(ids, all);
            assert_eq!(sizes[..2], [FIRST_PAGE, 2 * FIRST_PAGE]);
            assert_eq!(sizes.iter().sum::<usize>(), 200);
        }
    }

    #[test]
    fn pages_keep_the_offset_and_limit_of_the_query() {
        let (_dir, store, all) = store_of(150);
        let query = ListQuery {
            offset: 10,
            limit: Some(100),
            ..ListQuery::default()
        };
        for pages in both_ways(&store, &query) {
            let (ids, _) = ids_of(pages);
            assert_eq!(ids, all[10..110]);
        }
        for pages in both_ways(&store, &ListQuery::newest(0, None)) {
            let (ids, sizes) = ids_of(pages);
            assert!(ids.is_empty());
            assert_eq!(sizes, [0]);
        }
    }

    #[test]
    fn a_session_deleted_between_pages_moves_no_other_out_of_the_listing() {
        for way in 0..2 {
            let (_dir, store, all) = store_of(150);
            let mut pages = way_of(&store, way);
            let first = pages.next().unwrap().unwrap();
            assert_eq!(first.sessions.len(), FIRST_PAGE);
            // Sessions of the first page go: every later row moves up.
            for id in &all[..5] {
                store.delete(id).unwrap();
            }
            let (rest, _) = ids_of(pages);
            assert_eq!(rest, all[FIRST_PAGE..], "way {way}");
        }
    }

    #[test]
    fn a_session_created_between_pages_gives_none_twice() {
        for way in 0..2 {
            let (_dir, store, all) = store_of(150);
            let mut pages = way_of(&store, way);
            pages.next().unwrap().unwrap();
            // A new session comes first: every later row moves down.
            store
                .create(&NewSession {
                    model: "m".into(),
                    ..NewSession::default()
                })
                .unwrap();
            let (rest, _) = ids_of(pages);
            assert_eq!(rest, all[FIRST_PAGE..], "way {way}");
        }
    }

    #[test]
    fn the_file_stores_pages_are_read_as_they_are_asked_for() {
        let (_dir, store, all) = store_in(300, NewFormat::Journal);
        let file = store.as_file().unwrap();
        let oldest = all.last().unwrap();
        let mut sizes = Vec::new();
        file.list_pages(&ListQuery::default(), FIRST_PAGE, |page| {
            if sizes.is_empty() {
                // The oldest session goes while the first page is shown:
                // the pages read after it do not hold it.
                std::fs::remove_dir_all(file.session_dir(oldest)).unwrap();
            }
            sizes.push(page.sessions.len());
            true
        })
        .unwrap();
        assert_eq!(
            sizes,
            [FIRST_PAGE, 2 * FIRST_PAGE, 300 - 3 * FIRST_PAGE - 1]
        );
        // Asked for no more pages, it reads no more.
        let mut asked = 0;
        file.list_pages(&ListQuery::default(), FIRST_PAGE, |_| {
            asked += 1;
            false
        })
        .unwrap();
        assert_eq!(asked, 1);
    }
}
