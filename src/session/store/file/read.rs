//! Reading the file store: a session's kind, summary and records, and the
//! listings of every session.

use std::fs::File;
use std::path::Path;

use super::index::log::Change;
use super::index::refresh;
use super::index::{self, Index};
use super::journal::{self, Stop};
use super::search;
use super::{
    FileStore, JOURNAL, Kind, io, newer, not_found, read_range, read_summary, sort_newest_first,
};
use crate::error::{Error, Result};
use crate::fs::replace::Stamp;
use crate::fs::{self as sfs};
use crate::session::model::{
    Loaded, Problem, Session, SessionHead, SessionSummary, is_uuid, rebuild,
};
use crate::session::query::{Found, Query};
use crate::session::store::api::{JsonLines, ListQuery, Listing, Naming};
use crate::session::store::cli::{self};
use crate::threads::parallel_map;

impl FileStore {
    /// The summary of a journal's first `size` bytes and where its good
    /// records end. Reads only what the summary file does not cover. A
    /// corrupt journal is moved aside (taking the lock unless `held`).
    pub(super) fn summarize_journal(
        &self,
        id: &str,
        file: &File,
        size: u64,
        writer: bool,
    ) -> Result<(SessionSummary, u64)> {
        self.summarize_journal_covered(id, file, size, writer)
            .map(|(summary, end, _)| (summary, end))
    }

    /// [`Self::summarize_journal`], and how many of the journal's bytes the
    /// summary file covered (0 when it was missing or did not fit).
    pub(super) fn summarize_journal_covered(
        &self,
        id: &str,
        file: &File,
        size: u64,
        writer: bool,
    ) -> Result<(SessionSummary, u64, u64)> {
        let dir = self.session_dir(id);
        let cached = read_summary(&dir).filter(|s| {
            s.format == journal::FORMAT
                && s.summary.session_id == id
                && s.journal_bytes <= size
                && s.journal_bytes > 0
        });
        if let Some(cached) = &cached
            && cached.journal_bytes == size
        {
            return Ok((cached.summary.clone(), size, size));
        }
        let path = dir.join(JOURNAL);
        if let Some(cached) = cached {
            // Read from the byte before the cached end: it must end a line,
            // or the cache does not describe this journal.
            let start = cached.journal_bytes;
            let bytes = read_range(file, start - 1, size).map_err(io(&path))?;
            if bytes.first() == Some(&b'\n') {
                let mut summary = Some(cached.summary);
                let scan = journal::scan(&bytes[1..], false, |line| {
                    journal::tally_line(&mut summary, line)
                });
                if scan.stop.is_none()
                    && let Some(summary) = summary
                {
                    return Ok((summary, start + scan.valid_end as u64, start));
                }
            }
            // The cache did not fit the journal: read it all.
        }
        let bytes = read_range(file, 0, size).map_err(io(&path))?;
        let mut summary = None;
        let scan = journal::scan(&bytes, true, |line| journal::tally_line(&mut summary, line));
        match (scan.stop, summary) {
            (None, Some(summary)) => Ok((summary, scan.valid_end as u64, 0)),
            (Some(Stop::Newer(format)), _) => Err(newer(&path, format)),
            (Some(Stop::Corrupt(why)), _) => Err(self.corrupt_journal(id, &why, writer)),
            (None, None) => Err(self.corrupt_journal(id, "the journal is empty", writer)),
        }
    }

    /// The summary of one session, reading only its summary file when it
    /// is current.
    pub fn summary(&self, id: &str) -> Result<SessionSummary> {
        match self.kind(id)? {
            Kind::Journal => {
                let path = self.session_dir(id).join(JOURNAL);
                let Some(file) = sfs::open_regular(&path)? else {
                    return Err(not_found(id));
                };
                let size = file.metadata().map_err(io(&path))?.len();
                Ok(self.summarize_journal(id, &file, size, false)?.0)
            }
            Kind::Plain => Ok(self.read_plain(id)?.summary()),
        }
    }

    /// The session, by a caller holding its lock when `held`.
    pub(crate) fn load_held(&self, id: &str, writer: bool) -> Result<Loaded> {
        match self.kind(id)? {
            Kind::Journal => self.load_journal(id, writer),
            Kind::Plain => Ok(Loaded::from_session(self.read_plain(id)?)),
        }
    }

    pub(super) fn load_journal(&self, id: &str, writer: bool) -> Result<Loaded> {
        let path = self.session_dir(id).join(JOURNAL);
        let Some(bytes) = sfs::read_regular(&path)? else {
            return Err(not_found(id));
        };
        let mut head: Option<SessionHead> = None;
        let mut records = Vec::new();
        let scan = journal::scan(&bytes, true, |line| {
            match journal::parse_line(line, head.is_none())?.into_stored() {
                Ok(record) => records.push(record),
                Err(h) => head = Some(*h),
            }
            Ok(())
        });
        let head = match (scan.stop, head) {
            (None, Some(head)) => head,
            (Some(Stop::Newer(format)), _) => return Err(newer(&path, format)),
            (Some(Stop::Corrupt(why)), _) => {
                return Err(self.corrupt_journal(id, &why, writer));
            }
            (None, None) => {
                return Err(self.corrupt_journal(id, "the journal is empty", writer));
            }
        };
        Ok(rebuild(head, records))
    }

    /// Reads a session stored in the OLLM CLI's format. One that does not
    /// parse is reported and left where it is: it is not ours to move.
    pub(super) fn read_plain(&self, id: &str) -> Result<Session> {
        let path = self.plain_path(id);
        match cli::read_with_session(id, &path)? {
            Some((_, session)) => Ok(session),
            None => Err(not_found(id)),
        }
    }

    /// The error for a journal that cannot be parsed. A writer (holding
    /// the session's lock: `held`) moves it aside to `<id>.corrupt`, never
    /// deleting or overwriting it; a reader changes nothing and says so.
    pub(super) fn corrupt_journal(&self, id: &str, why: &str, writer: bool) -> Error {
        let from = self.session_dir(id);
        if !writer {
            return Error::Corrupt(format!(
                "session {id} is corrupt ({why}); {} is left as it is until a command writes to the session, which sets it aside",
                from.display()
            ));
        }
        // Left pending: the next fold finds the session gone.
        self.index.note(&Change::Pending(id.to_string()));
        let base = format!("{id}.corrupt");
        let mut to = self.dir.join(&base);
        let mut n = 2;
        while sfs::entry(&to).ok().flatten().is_some() {
            to = self.dir.join(format!("{base}-{n}"));
            n += 1;
        }
        match sfs::rename_entry(&from, &to) {
            Ok(()) => Error::Corrupt(format!(
                "session {id} is corrupt ({why}); it was moved aside to {}",
                to.display()
            )),
            Err(err) => Error::Corrupt(format!(
                "session {id} is corrupt ({why}); moving it aside failed: {err}"
            )),
        }
    }

    /// Every session id in the store with how it is stored. A session with
    /// both a directory and a plain file (an import cut short) is the
    /// directory's.
    pub fn ids(&self) -> Result<Vec<(String, Kind)>> {
        Ok(self
            .entries()?
            .into_iter()
            .map(|(id, kind, _)| (id, kind))
            .collect())
    }

    /// [`FileStore::ids`] with each entry's inode number, as the directory
    /// gives it (no `stat`): a plain file replaced by a rename has another.
    pub(crate) fn entries(&self) -> Result<Vec<(String, Kind, u64)>> {
        use std::os::unix::fs::DirEntryExt;
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(Error::io(&self.dir, &e)),
        };
        let mut dirs = Vec::new();
        let mut plain = Vec::new();
        for entry in entries {
            let entry = entry.map_err(io(&self.dir))?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if is_dir && is_uuid(name) {
                dirs.push((name.to_string(), entry.ino()));
            } else if let Some(id) = name.strip_suffix(".json")
                && is_uuid(id)
                && !is_dir
            {
                plain.push((id.to_string(), entry.ino()));
            }
        }
        dirs.sort_unstable();
        let mut ids = Vec::with_capacity(plain.len() + dirs.len());
        for (id, ino) in plain {
            if dirs.binary_search_by(|(dir, _)| dir.cmp(&id)).is_err() {
                ids.push((id, Kind::Plain, ino));
            }
        }
        ids.extend(dirs.into_iter().map(|(id, ino)| (id, Kind::Journal, ino)));
        Ok(ids)
    }

    /// Tells the index what session `id` is now (a writer's last step,
    /// holding the session's lock). On failure the `pending` noted before
    /// stays, and the next fold reads the session itself.
    pub(super) fn settle(&self, id: &str) {
        self.settle_linked(id, None);
    }

    /// [`Self::settle`] after a write that made or removed entries of the
    /// data directory, with what the directory saw of it (`link`).
    pub(super) fn settle_linked(&self, id: &str, link: Option<index::log::DirLink>) {
        match refresh::settled(self, id) {
            Some(Change::Put {
                summary,
                plain,
                stamp,
                dir: _,
            }) => self.index.note(&Change::Put {
                summary,
                plain,
                stamp,
                dir: link,
            }),
            Some(change) => {
                self.index.note(&change);
                if let Some(link) = link {
                    self.index.note(&Change::Dir(link));
                }
            }
            None => {}
        }
    }

    /// [`Self::settle`] after a rewrite of the plain file at `path` whose
    /// result is `written` with `summary`: told without reading the file
    /// again while the file there is still the one written (stamped
    /// before that look, so that a version renamed in later makes the
    /// stamp stale, never the summary), with what the data directory saw
    /// of the write (`link`).
    pub(super) fn settle_written(
        &self,
        id: &str,
        path: &Path,
        written: Option<Stamp>,
        summary: Option<&SessionSummary>,
        link: Option<index::log::DirLink>,
    ) {
        let stamp = refresh::stamp_kept(path, true);
        match (written, summary) {
            (Some(written), Some(summary)) if written.same_file(Stamp::at(path)) => {
                self.index.note(&Change::Put {
                    summary: Box::new(summary.clone()),
                    plain: true,
                    stamp,
                    dir: link,
                });
            }
            _ => self.settle(id),
        }
    }

    /// The index, brought up to date (`None`: it cannot be used here, and
    /// the files are read instead).
    pub(crate) fn index_db(&self) -> Result<Option<index::db::Db>> {
        refresh::open_fresh(self, &self.index)
    }

    /// Builds the index anew from the sessions' files; returns how many
    /// sessions and unreadable sessions it holds.
    pub fn reindex(&self) -> Result<(usize, usize)> {
        self.ensure_dir()?;
        let counts = refresh::rebuild(self, &self.index)?;
        index::prefilter::refresh_all(self, &self.index)?;
        Ok(counts)
    }

    /// [`Self::reindex`] from the files alone, the change log emptied:
    /// what the index kept of the sessions before `redact` scrubbed them
    /// is gone from the disk.
    pub fn reindex_forgetting(&self) -> Result<(usize, usize)> {
        self.ensure_dir()?;
        let counts = refresh::rebuild_forgetting(self, &self.index)?;
        index::prefilter::refresh_all(self, &self.index)?;
        Ok(counts)
    }

    pub(crate) fn index(&self) -> &Index {
        &self.index
    }

    /// Searches reading every session, without the index (what the index's
    /// answers are checked against).
    pub fn search_every_session(&self, query: &Query) -> Result<Found> {
        search::search_every_session(self, query)
    }

    /// Summaries of every session, newest `lastActivity` first.
    pub fn list(&self) -> Result<Listing> {
        self.list_where(&ListQuery::default())
    }

    /// The page of sessions `query` keeps, from the index.
    pub fn list_where(&self, query: &ListQuery) -> Result<Listing> {
        match self.index_db()? {
            Some(db) => {
                let listed = db
                    .list(query)
                    .and_then(|rows| Ok((rows, self.index.problems(&db)?)));
                let (rows, mut problems) = match listed {
                    Ok(found) => found,
                    Err(err) => {
                        return self
                            .index
                            .or_files(Err(err), || Ok(query.page(self.scan()?)));
                    }
                };
                let (mut sessions, found) = refresh::checked(self, &self.index, rows);
                sessions.retain(|s| query.keeps(s));
                problems.extend(found);
                Ok(Listing { sessions, problems })
            }
            None => Ok(query.page(self.scan()?)),
        }
    }

    /// The sessions `query` keeps, newest first, handed to `page` a page at
    /// a time (`first` sessions, then twice as many each time) until it
    /// returns false; the first page also holds the sessions that could not
    /// be read. From one snapshot of the index when there is one, else from
    /// one read of the files. Every page but the last holds sessions.
    pub fn list_pages(
        &self,
        query: &ListQuery,
        first: usize,
        mut page: impl FnMut(Listing) -> bool,
    ) -> Result<()> {
        let Some(db) = self.index_db()? else {
            let listing = query.page(self.scan()?);
            page(listing);
            return Ok(());
        };
        let mut problems = match self.index.problems(&db) {
            Ok(problems) => Some(problems),
            Err(err) => {
                let listing = self
                    .index
                    .or_files(Err(err), || Ok(query.page(self.scan()?)))?;
                page(listing);
                return Ok(());
            }
        };
        let mut given = false;
        let listed = db.list_pages(query, first, |rows| {
            let (mut sessions, found) = refresh::checked(self, &self.index, rows);
            sessions.retain(|s| query.keeps(s));
            let mut all_problems = problems.take().unwrap_or_default();
            all_problems.extend(found);
            given = true;
            page(Listing {
                sessions,
                problems: all_problems,
            })
        });
        if let Err(err) = listed {
            // Said from the files only while no page was given.
            if given {
                return Err(err);
            }
            let listing = self
                .index
                .or_files(Err(err), || Ok(query.page(self.scan()?)))?;
            page(listing);
            return Ok(());
        }
        if !given {
            page(Listing {
                sessions: Vec::new(),
                problems: problems.unwrap_or_default(),
            });
        }
        Ok(())
    }

    /// What [`FileStore::list_pages`] gives, as the NDJSON lines `list`
    /// writes, each read as the index keeps it ([`index::lines`]).
    pub fn list_json_pages(
        &self,
        query: &ListQuery,
        first: usize,
        page: impl FnMut(JsonLines) -> bool,
    ) -> Result<()> {
        index::lines::json_pages(self, query, first, page)
    }

    /// The sessions `naming` may mean, from the index.
    pub fn named(&self, naming: &Naming<'_>) -> Result<Vec<SessionSummary>> {
        match self.index_db()? {
            Some(db) => {
                let rows = match db.named(naming) {
                    Ok(rows) => rows,
                    Err(err) => {
                        return self.index.or_files(Err(err), || {
                            let mut sessions = self.scan()?.sessions;
                            sessions.retain(|s| naming.keeps(s));
                            Ok(sessions)
                        });
                    }
                };
                let (mut sessions, _) = refresh::checked(self, &self.index, rows);
                sessions.retain(|s| naming.keeps(s));
                Ok(sessions)
            }
            None => {
                let mut sessions = self.scan()?.sessions;
                sessions.retain(|s| naming.keeps(s));
                Ok(sessions)
            }
        }
    }

    /// The sessions branched from `id`, from the index.
    pub fn children(&self, id: &str) -> Result<Vec<SessionSummary>> {
        match self.index_db()? {
            Some(db) => Ok(refresh::checked(self, &self.index, db.children(id)?).0),
            None => {
                let mut sessions = self.scan()?.sessions;
                sessions.retain(|s| s.parent_session_id.as_deref() == Some(id));
                Ok(sessions)
            }
        }
    }

    /// Summaries of every session read from their files, newest
    /// `lastActivity` first: what the index is built from and checked
    /// against. Reads each session's small summary file (and a journal
    /// only past what that file covers); plain spec files are parsed
    /// whole. A session that cannot be read is reported in `problems`.
    pub fn scan(&self) -> Result<Listing> {
        let ids = self.ids()?;
        let results = parallel_map(&ids, |(id, kind)| {
            let result = match kind {
                Kind::Journal => {
                    let path = self.session_dir(id).join(JOURNAL);
                    match sfs::open_regular(&path) {
                        Ok(Some(file)) => file
                            .metadata()
                            .map_err(io(&path))
                            .and_then(|m| self.summarize_journal(id, &file, m.len(), false))
                            .map(|(s, _)| s),
                        Ok(None) => Err(not_found(id)),
                        Err(e) => Err(e),
                    }
                }
                Kind::Plain => self.read_plain(id).map(|s| s.summary()),
            };
            (id.clone(), result)
        });
        let mut listing = Listing::default();
        for (id, result) in results {
            match result {
                Ok(summary) => listing.sessions.push(summary),
                Err(Error::NotFound(_)) => {} // deleted while listing
                Err(err) => listing.problems.push(Problem {
                    session_id: id,
                    message: err.to_string(),
                }),
            }
        }
        sort_newest_first(&mut listing.sessions);
        Ok(listing)
    }
}
