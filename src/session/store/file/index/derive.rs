//! What a session's files say, for its row in the index ([`Derived`]):
//! read from the files (a whole-file session of the OLLM CLI's format
//! through [`plain_read`], without its document's tree), stamped so that
//! a later change is noticed, and written as its row; and the check of the
//! rows a command is about to answer with against their files ([`checked`]).

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use rusqlite::Connection;

use super::Index;
use super::db::{self, IndexRow};
use super::log::Change;
use super::stamp::{DataDir, stamp_of};
use crate::error::{Error, Result};
use crate::session::model::SessionSummary;
use crate::session::store::file::{FileStore, JOURNAL, Kind, plain_read};
use crate::threads::parallel_map;

/// A change time this close to now (ms) may be shared by a change still to
/// come in the same clock tick: the directory is looked at again next time.
/// File systems of unknown granularity (FAT's is two seconds) or clock (a
/// network server's) are given [`RACY_MS`]; the local file systems of
/// [`FINE_GRAINED`] stamp from the kernel's clock, whose tick is at most
/// 10 ms, and are given [`RACY_LOCAL_MS`]. A directory looked at again
/// reads every entry (80 ms at 100,000 sessions), so after a session is
/// made every command of the next two seconds paid for it.
const RACY_MS: i64 = 2_000;
const RACY_LOCAL_MS: i64 = 50;
/// `statfs(2)`'s magic numbers of ext4 (and ext2/3), XFS, Btrfs, tmpfs,
/// F2FS, overlayfs and ZFS.
const FINE_GRAINED: [i64; 7] = [
    0xEF53,
    0x5846_5342,
    0x9123_683E,
    0x0102_1994,
    0xF2F5_2010,
    0x794C_7630,
    0x2FC1_2FC1,
];

/// What a session's files say, for its row.
pub(super) enum Derived {
    Row {
        summary: Box<SessionSummary>,
        plain: bool,
        stamp: String,
    },
    Problem {
        plain: bool,
        stamp: String,
        why: String,
    },
    Missing,
}

/// The stamp to keep for a session's file: [`stamp_of`], or for a file
/// rewritten in place (`plain`) `racy` (which no file's stamp equals, so
/// it is read again) while its change time is recent enough to be shared
/// by a write still to come.
pub fn stamp_kept(path: &Path, plain: bool) -> String {
    let recent =
        plain && std::fs::symlink_metadata(path).is_ok_and(|m| is_recent(&m, racy_ms(path)));
    if recent {
        "racy".to_string()
    } else {
        stamp_of(path)
    }
}

/// Whether a file of `meta` changed within `racy_ms` of now.
fn is_recent(meta: &std::fs::Metadata, racy_ms: i64) -> bool {
    let ms = meta.mtime().saturating_mul(1000) + meta.mtime_nsec() / 1_000_000;
    crate::timestamp::now_millis().saturating_sub(ms) <= racy_ms
}

/// How recent a change time of a file at `path` may be shared by a change
/// still to come ([`RACY_MS`]).
// `f_type` is an `i64` on 64-bit Linux, and of other widths elsewhere.
#[allow(clippy::useless_conversion)]
pub(crate) fn racy_ms(path: &Path) -> i64 {
    let fine =
        rustix::fs::statfs(path).is_ok_and(|fs| FINE_GRAINED.contains(&i64::from(fs.f_type)));
    if fine { RACY_LOCAL_MS } else { RACY_MS }
}

/// The file that holds session `id` when it is stored as `kind`.
pub fn file_of(store: &FileStore, id: &str, kind: Kind) -> std::path::PathBuf {
    match kind {
        Kind::Journal => store.session_dir(id).join(JOURNAL),
        Kind::Plain => store.plain_path(id),
    }
}

/// [`derive`] of a session the data directory's listing just gave as
/// `kind` (a first build), on a file system whose change times are racy
/// for `racy_ms`: a session in the OLLM CLI's format has its file opened
/// once, from the open data directory ([`DataDir::read_plain`]), stamped
/// from the open file ([`stamp_kept`]'s stamp) and summarized as
/// [`plain_read`] does; any other, or one that is not the usual document,
/// is left to [`derive`].
pub(super) fn derive_listed(
    store: &FileStore,
    data_dir: Option<&DataDir>,
    id: &str,
    kind: Kind,
    racy_ms: i64,
) -> Derived {
    derive_listed_then(store, data_dir, id, kind, racy_ms, |_| ()).0
}

/// [`derive_listed`], and `then` of the bytes and stamp of the
/// CLI-format file it read (`None`: it read none, or not that way), so
/// that what else is made of a session's bytes reads them once.
pub(super) fn derive_listed_then<T>(
    store: &FileStore,
    data_dir: Option<&DataDir>,
    id: &str,
    kind: Kind,
    racy_ms: i64,
    then: impl FnOnce(Option<(&[u8], &str)>) -> T,
) -> (Derived, T) {
    let quick = || {
        let file = data_dir?.read_plain(id)?;
        let summary = plain_read::summary_of_bytes(id, &file.bytes)?;
        // Stamped as it was opened, before reading, as `derive` does.
        let recent = crate::timestamp::now_millis().saturating_sub(file.mtime_ms) <= racy_ms;
        let derived = Derived::Row {
            summary: Box::new(summary),
            plain: true,
            stamp: if recent {
                "racy".to_string()
            } else {
                file.stamp.clone()
            },
        };
        Some((derived, file))
    };
    match kind {
        Kind::Plain => match quick() {
            Some((derived, file)) => {
                let made = then(Some((&file.bytes, &file.stamp)));
                (derived, made)
            }
            None => (derive(store, id), then(None)),
        },
        Kind::Journal => (derive(store, id), then(None)),
    }
}

pub(super) fn derive(store: &FileStore, id: &str) -> Derived {
    let kind = match store.kind(id) {
        Ok(kind) => kind,
        Err(Error::NotFound(_)) => return Derived::Missing,
        Err(err) => {
            return Derived::Problem {
                plain: false,
                stamp: String::new(),
                why: err.to_string(),
            };
        }
    };
    let plain = kind == Kind::Plain;
    // Stamped before reading: a change in between makes the stamp stale,
    // so the session is read again, never the other way round.
    let path = file_of(store, id, kind);
    let stamp = stamp_kept(&path, plain);
    // The usual CLI-format file is read without its document's tree; any
    // other is read in full, which says what is wrong with it.
    let quick = if plain {
        plain_read::summary(id, &path)
    } else {
        None
    };
    match quick.map_or_else(|| store.summary(id), Ok) {
        Ok(summary) => Derived::Row {
            summary: Box::new(summary),
            plain,
            stamp,
        },
        Err(Error::NotFound(_)) => Derived::Missing,
        Err(err) => Derived::Problem {
            plain,
            stamp,
            why: err.to_string(),
        },
    }
}

/// Checks rows the index is about to answer with against their journals'
/// stamps (one `stat` each): a journal changed behind the index's back (by
/// hand, by an older ollm, by damage) is read again, and noted for the
/// next fold to store. Returns the rows as the files say and the sessions
/// that could not be read.
pub fn checked(
    store: &FileStore,
    index: &Index,
    rows: Vec<db::Found>,
) -> (Vec<SessionSummary>, Vec<crate::session::model::Problem>) {
    let data_dir = DataDir::open(store.dir());
    if rows.iter().any(|row| row.damaged) {
        index.damaged_row();
    }
    let fresh = parallel_map(&rows, |row| {
        let id = &row.summary.session_id;
        if !row.damaged && is_current(store, data_dir.as_ref(), id, row.plain, &row.stamp) {
            None
        } else {
            Some(derive(store, id))
        }
    });
    let mut sessions = Vec::with_capacity(rows.len());
    let mut problems = Vec::new();
    for (row, fresh) in rows.into_iter().zip(fresh) {
        let Some(derived) = fresh else {
            sessions.push(row.summary);
            continue;
        };
        match reread(index, row.summary.session_id, derived) {
            Reread::Summary(summary) => sessions.push(summary),
            Reread::Problem(problem) => problems.push(problem),
            Reread::Missing => {}
        }
    }
    (sessions, problems)
}

/// What the files of a session whose row was stale say.
pub(super) enum Reread {
    Summary(SessionSummary),
    Problem(crate::session::model::Problem),
    Missing,
}

/// `derived`, read from the files of session `id` because its row was
/// stale, noted for the next fold to store.
pub(super) fn reread(index: &Index, id: String, derived: Derived) -> Reread {
    index.note(&Change::Pending(id.clone()));
    match derived {
        Derived::Row { summary, .. } => Reread::Summary(*summary),
        Derived::Problem { why, .. } => Reread::Problem(crate::session::model::Problem {
            session_id: id,
            message: why,
        }),
        Derived::Missing => Reread::Missing,
    }
}

/// Whether a row's `stamp` is its file's: always for a plain file (each
/// fold compares those), else its journal's stamp, looked up from the
/// open data directory when there is one.
pub(super) fn is_current(
    store: &FileStore,
    data_dir: Option<&DataDir>,
    id: &str,
    plain: bool,
    stamp: &str,
) -> bool {
    plain
        || match data_dir {
            Some(dir) => dir.journal_stamp_is(id, stamp),
            None => stamp_of(&file_of(store, id, Kind::Journal)) == stamp,
        }
}

/// The change that a writer notes once it has changed session `id`.
pub fn settled(store: &FileStore, id: &str) -> Option<Change> {
    match derive(store, id) {
        Derived::Row {
            summary,
            plain,
            stamp,
        } => Some(Change::Put {
            summary,
            plain,
            stamp,
            dir: None,
        }),
        Derived::Missing => Some(Change::Gone(id.to_string())),
        // Left pending: the fold reads it again and keeps the problem.
        Derived::Problem { .. } => None,
    }
}

pub(super) fn write(conn: &Connection, id: &str, derived: &Derived) -> Result<()> {
    match derived {
        Derived::Row {
            summary,
            plain,
            stamp,
        } => db::put(
            conn,
            &IndexRow {
                summary,
                plain: *plain,
                stamp,
            },
        ),
        Derived::Problem { plain, stamp, why } => db::put_problem(conn, id, *plain, stamp, why),
        Derived::Missing => db::remove(conn, id),
    }
}

pub(super) fn derive_all(conn: &Connection, store: &FileStore, ids: &[String]) -> Result<()> {
    let ready = parallel_map(ids, |id| Ready::of(derive(store, id)));
    write_all(conn, ids.iter().zip(ready).collect())
}

/// A session's row as derived, with its [`db::RowValues`] made on the
/// thread that read it (of many reading, one writes).
pub(super) struct Ready {
    derived: Derived,
    values: Option<Result<db::RowValues>>,
}

impl Ready {
    pub(super) fn of(derived: Derived) -> Ready {
        let values = match &derived {
            Derived::Row {
                summary,
                plain,
                stamp,
            } => Some(db::row_values(&IndexRow {
                summary,
                plain: *plain,
                stamp,
            })),
            Derived::Problem { .. } | Derived::Missing => None,
        };
        Ready { derived, values }
    }

    fn key(&self) -> (i64, i64) {
        match &self.values {
            Some(Ok(values)) => values.key(),
            _ => db::PROBLEM_KEY,
        }
    }
}

/// Writes the rows in the table's order (newest first): rows written in
/// the order of their ids land on pages all over the table, and a build
/// wrote each page many times over (most of a first build's time).
pub(super) fn write_all(conn: &Connection, mut rows: Vec<(&String, Ready)>) -> Result<()> {
    rows.sort_unstable_by_key(|(id, ready)| (std::cmp::Reverse(ready.key()), *id));
    for (id, ready) in rows {
        match (&ready.derived, ready.values) {
            (
                Derived::Row {
                    summary,
                    plain,
                    stamp,
                },
                Some(values),
            ) => db::put_values(
                conn,
                &IndexRow {
                    summary,
                    plain: *plain,
                    stamp,
                },
                &values?,
            )?,
            (derived, _) => write(conn, id, derived)?,
        }
    }
    Ok(())
}
