//! Bringing the index up to date before it answers, under its exclusive
//! lock: the log's new changes are applied in order; a `pending` left
//! unanswered is read from the session's files (and kept for the next
//! fold while a writer still holds the session); when the data directory
//! changed since the last look, its entries are compared with the rows
//! (sessions another program added, removed, or, as the OLLM CLI does
//! without our lock, rewrote through a rename); a directory unchanged,
//! or changed only by ollm's own rewrites (their `put` lines link its
//! stamps: see `watch`), costs no look at any session file. After a reboot (a
//! transaction lost to a power failure is possible: commits do not wait
//! for an fsync) every row is checked against its files once. An index
//! with no complete build is built from the files.

use std::collections::{BTreeSet, HashMap};
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use rusqlite::Connection;

use super::Index;
use super::build::{Bits, build};
use super::db::{self, Db};
use super::derive::{Derived, derive, derive_all, file_of, racy_ms, write};
pub use super::derive::{checked, settled, stamp_kept};
use super::log::{self, Change};
use super::stamp::DataDir;
pub use super::stamp::{boot_id, stamp_of};
use crate::error::{Error, Result};
use crate::fs as sfs;
use crate::fs::lock::Lock;
use crate::session::store::api::ListQuery;
use crate::session::store::file::{FileStore, Kind};
use crate::threads::parallel_map;

/// Past this size the log is replaced by an empty one after a fold.
const COMPACT_BYTES: usize = 1 << 20;
const _: () = assert!(COMPACT_BYTES as u64 <= super::FOLD_BYTES);

/// The data directory's change time, and whether it is old enough to trust.
fn dir_stamp(dir: &Path) -> (String, bool) {
    match std::fs::metadata(dir) {
        Ok(m) => {
            let ms = m.mtime().saturating_mul(1000) + m.mtime_nsec() / 1_000_000;
            let settled = crate::timestamp::now_millis().saturating_sub(ms) > racy_ms(dir);
            (super::watch::dir_stamp(&m), settled)
        }
        Err(_) => (String::new(), false),
    }
}

/// A log's id (its first line, when it has one), where its changes start,
/// and whether its lines carry checksums ([`log::CHECKED`]).
fn log_header(bytes: &[u8]) -> (String, usize, bool) {
    #[derive(serde::Deserialize)]
    struct Header {
        log: String,
        #[serde(default)]
        v: u32,
    }
    let end = memchr::memchr(b'\n', bytes).unwrap_or(bytes.len());
    match serde_json::from_slice::<Header>(&bytes[..end]) {
        Ok(header) => (
            header.log,
            (end + 1).min(bytes.len()),
            header.v >= log::CHECKED,
        ),
        Err(_) => (String::new(), 0, false),
    }
}

fn new_log_bytes() -> Vec<u8> {
    let mut bytes =
        serde_json::json!({ "log": uuid::Uuid::new_v4().to_string(), "v": log::CHECKED })
            .to_string()
            .into_bytes();
    bytes.push(b'\n');
    bytes
}

/// Opens the index of `store`, up to date, or `None` when it cannot be
/// used (no data directory yet, one this user cannot write, or an index
/// that cannot be opened or brought up to date: said once): the caller
/// reads the files instead.
pub fn open_fresh(store: &FileStore, index: &Index) -> Result<Option<Db>> {
    if !sfs::is_real_dir(store.dir()) {
        return Ok(None);
    }
    if let Some(why) = index.unusable() {
        super::warn_once(format_args!(
            "the session index cannot be used ({why}); the sessions' files are read instead until `ollm-session reindex` repairs it"
        ));
        return Ok(None);
    }
    let Ok(lock) = index.lock_file() else {
        return Ok(None);
    };
    lock.lock()
        .map_err(|e| Error::io(index.lock_path_for_errors(), &e))?;
    let stale = index.take_stale();
    if stale {
        super::warn_once(
            "the session index missed a change; it is built again from the sessions' files",
        );
        index.remove_db();
    }
    let opened = open_folded(store, index);
    match opened {
        Ok(Some(db)) => Ok(Some(db)),
        Ok(None) | Err(_) if stale => {
            index.mark_stale();
            Ok(None)
        }
        Ok(None) => Ok(None),
        Err(err) => {
            super::warn_once(format_args!(
                "the session index cannot be brought up to date ({err}); the sessions' files are read instead"
            ));
            Ok(None)
        }
    }
}

/// [`open_fresh`]'s work under the index's lock: the database opened
/// (made again when of another version or damaged) and brought up to date.
fn open_folded(store: &FileStore, index: &Index) -> Result<Option<Db>> {
    let db = match Db::open(&index.db_path()) {
        Ok(Some(db)) => db,
        Ok(None) => {
            index.remove_db();
            match Db::open(&index.db_path())? {
                Some(db) => db,
                None => return Ok(None),
            }
        }
        Err(_) => return Ok(None),
    };
    match fold(db, store, index, false) {
        Ok(db) => Ok(Some(db)),
        Err(err @ Error::Io { .. }) if !damaged(&err) => Err(err),
        Err(_) => {
            // A damaged database: built again from the files.
            index.remove_db();
            let Some(db) = Db::open(&index.db_path())? else {
                return Ok(None);
            };
            fold(db, store, index, false).map(Some)
        }
    }
}

fn damaged(err: &Error) -> bool {
    db::is_damaged(err)
        || matches!(err, Error::Io { path, .. } if path.as_os_str() == db::SQL_ERROR)
}

/// Builds the index of `store` anew from its files, search's bits too in
/// the same pass, first removing what the index never makes from its
/// place ([`Index::repair`]); returns how many sessions and problems it
/// holds.
pub fn rebuild(store: &FileStore, index: &Index) -> Result<(usize, usize)> {
    rebuild_from(store, index, false)
}

/// [`rebuild`], with the change log emptied first: after `redact`, whose
/// log and database still hold the summaries (titles, workspaces) of the
/// sessions as they were before they were scrubbed.
pub fn rebuild_forgetting(store: &FileStore, index: &Index) -> Result<(usize, usize)> {
    rebuild_from(store, index, true)
}

fn rebuild_from(store: &FileStore, index: &Index, forget: bool) -> Result<(usize, usize)> {
    index.repair()?;
    let lock = index.lock_file()?;
    lock.lock()
        .map_err(|e| Error::io(index.lock_path_for_errors(), &e))?;
    // Taken before the files are read: a change missed meanwhile marks it again.
    index.take_stale();
    index.remove_db();
    if forget {
        sfs::write_atomic(&index.log_path(), &new_log_bytes(), sfs::Durability::Cache)?;
    }
    let Some(db) = Db::open(&index.db_path())? else {
        return Err(Error::io(
            index.db_path(),
            &std::io::Error::other("cannot create the session index"),
        ));
    };
    let db = fold(db, store, index, true)?;
    let sessions = db.list(&ListQuery::default())?;
    Ok((sessions.len(), db.problems()?.0.len()))
}

/// Brings `db` up to date with the log and the data directory, or, when
/// it holds no complete build, replaces it by one built from the files
/// ([`db::Fresh`]; with `bits`, search's bits made in the same pass);
/// returns the database to answer from.
fn fold(mut db: Db, store: &FileStore, index: &Index, bits: bool) -> Result<Db> {
    let (dir_now, dir_settled) = dir_stamp(store.dir());
    let log_path = index.log_path();
    let log_bytes = sfs::read_regular(&log_path)?.unwrap_or_default();
    let (log_id, body, checked) = log_header(&log_bytes);
    let log_seen = db.meta("log")?;
    let seen = log_seen.as_deref().and_then(|v| v.rsplit_once(':'));
    // A log replaced since (emptied by the last fold) is noted as folded
    // to its end even when nothing else changed.
    let same_log = seen.is_some_and(|(id, _)| id == log_id);
    let from = match seen {
        Some((id, offset)) if id == log_id => offset
            .parse::<usize>()
            .ok()
            .filter(|&o| o >= body && o <= log_bytes.len())
            .unwrap_or(body),
        _ => body,
    };
    let log::Parsed {
        changes,
        damaged,
        named,
    } = log::parse(&log_bytes[from..], checked);
    if damaged > 0 {
        super::warn_once(format_args!(
            "the session index's change log has {damaged} damaged line(s), skipped; the sessions they may name are read from their files"
        ));
    }
    let built = db.meta("built")?.is_some();
    let boot = boot_id();
    let rebooted = db.meta("boot")?.as_deref() != Some(boot.as_str());
    let dir_seen = db.meta("dir")?;
    let kept: Vec<String> = db
        .meta("pending")?
        .and_then(|v| serde_json::from_str(&v).ok())
        .unwrap_or_default();
    let dir_changed = dir_seen.as_deref() != Some(dir_now.as_str());
    if built
        && checked
        && same_log
        && !rebooted
        && !dir_changed
        && changes.is_empty()
        && kept.is_empty()
        && named.is_empty()
    {
        return Ok(db);
    }
    let mut unresolved: BTreeSet<String> = kept.into_iter().chain(named).collect();
    let folded = Folded {
        boot: &boot,
        log: format!("{log_id}:{}", log_bytes.len()),
        compact: log_bytes.len() > COMPACT_BYTES || !checked,
        log_path: &log_path,
    };
    if !built {
        // Built from the files, which are newer than any change logged so
        // far; only what may still be under way is looked at again.
        drop(db);
        index.remove_db();
        let fresh = db::Fresh::create(&index.building_path())?;
        // Held until the database that names the bits is in place.
        let bits = if bits { Bits::empty(index) } else { None };
        build(fresh.conn(), store, &store.ids()?, bits.as_ref())?;
        unresolved.extend(unanswered(&changes));
        let trusted = if dir_settled { dir_now.as_str() } else { "" };
        folded.conclude(fresh.conn(), store, unresolved, trusted)?;
        let db = fresh.finish(&index.db_path())?;
        folded.compact_log();
        return Ok(db);
    }
    let tx = db.begin()?;
    // The directory's stamp as ollm's own writes lead from the one last
    // trusted (see `watch`), and the sessions others changed meanwhile.
    let mut linked = dir_seen.filter(|seen| !seen.is_empty());
    let mut touched = Vec::new();
    for change in changes {
        match change {
            Change::Pending(id) => {
                unresolved.insert(id);
            }
            Change::Put {
                summary,
                plain,
                stamp,
                dir,
            } => {
                follow(&mut linked, &mut touched, dir);
                let id = summary.session_id.clone();
                write(
                    &tx,
                    &id,
                    &Derived::Row {
                        summary,
                        plain,
                        stamp,
                    },
                )?;
                unresolved.remove(&id);
            }
            Change::Gone(id) => {
                db::remove(&tx, &id)?;
                unresolved.remove(&id);
            }
            Change::Dir(link) => follow(&mut linked, &mut touched, Some(link)),
        }
    }
    let by_own_writes = linked.as_deref() == Some(dir_now.as_str());
    let passed = rebooted || (dir_changed && !by_own_writes);
    if passed {
        reconcile(&tx, store, rebooted)?;
    } else {
        // Read again after every change logged: a later `put` of the
        // same session may have been made before the change the link saw.
        unresolved.extend(touched);
    }
    // A stamp reached by ollm's own writes is trusted before it settles:
    // the writer waited for the clock to pass it.
    let trusted = if dir_settled || !passed {
        dir_now.as_str()
    } else {
        ""
    };
    folded.conclude(&tx, store, unresolved, trusted)?;
    tx.commit().map_err(db::sql)?;
    db.settle()?;
    folded.compact_log();
    Ok(db)
}

/// The sessions of `changes` whose last change is a `pending` (a writer
/// that may still be at work, or was killed): a build, which read the
/// files after the log, looks only at those again. Every `pending` read
/// again made a rebuild read every session's file twice, its row and its
/// search bits, when the log still held the pending lines of sessions
/// written long before.
fn unanswered(changes: &[Change]) -> BTreeSet<String> {
    let mut pending = BTreeSet::new();
    for change in changes {
        match change {
            Change::Pending(id) => {
                pending.insert(id.clone());
            }
            Change::Put { summary, .. } => {
                pending.remove(&summary.session_id);
            }
            Change::Gone(id) => {
                pending.remove(id);
            }
            Change::Dir(_) => {}
        }
    }
    pending
}

/// What a fold notes once the rows are up to date.
struct Folded<'a> {
    boot: &'a str,
    /// The log's id and how far it was folded.
    log: String,
    /// The log is to be replaced by an empty one afterwards.
    compact: bool,
    log_path: &'a Path,
}

impl Folded<'_> {
    /// Reads the sessions of `unresolved` again, keeping those a writer
    /// still holds pending, and notes the fold's place: the boot, the data
    /// directory's stamp (`trusted`, or none), the log's end.
    fn conclude(
        &self,
        conn: &Connection,
        store: &FileStore,
        unresolved: BTreeSet<String>,
        trusted: &str,
    ) -> Result<()> {
        let mut still = Vec::new();
        for id in unresolved {
            if crate::session::model::check_id(&id, "session").is_err() {
                continue;
            }
            let lock = Lock::try_exclusive(&store.lock_path(&id))?;
            let derived = derive(store, &id);
            write(conn, &id, &derived)?;
            match lock {
                None => still.push(id),
                Some(lock) if matches!(derived, Derived::Missing) => lock.remove(),
                Some(_) => {}
            }
        }
        let set = |key: &str, value: &str| -> Result<()> {
            conn.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
                [key, value],
            )
            .map(drop)
            .map_err(db::sql)
        };
        set("built", "1")?;
        set("boot", self.boot)?;
        set("dir", trusted)?;
        set("log", &self.log)?;
        set(
            "pending",
            &serde_json::to_string(&still).unwrap_or_else(|_| "[]".into()),
        )
    }

    /// Everything in the log is in the database: an empty log with a new
    /// id replaces it when it grew long (writers wait on the lock the fold
    /// holds). A log of an older ollm, whose lines carry no checksum, is
    /// folded once and replaced by one whose header says they do.
    fn compact_log(&self) {
        if self.compact {
            let _ = sfs::write_atomic(self.log_path, &new_log_bytes(), sfs::Durability::Cache);
        }
    }
}

/// Follows `link` from the stamp `linked` (the directory's as ollm's own
/// writes lead from the one last trusted), adding the sessions others
/// changed meanwhile to `touched`; a link from another stamp proves nothing.
fn follow(linked: &mut Option<String>, touched: &mut Vec<String>, link: Option<log::DirLink>) {
    if let Some(link) = link
        && linked.as_deref() == Some(link.before.as_str())
    {
        *linked = Some(link.after);
        touched.extend(link.touched);
    }
}

/// Compares the rows with the data directory's entries: removes the rows
/// of sessions gone, reads the sessions that are new, changed from one
/// form to the other, or whose file changed. A plain file whose inode is
/// not its row's was replaced (the OLLM CLI writes by a rename); one
/// whose inode is its row's is still `stat`ed, as the file system hands a
/// freed inode out again (ext4 gives `<id>.json` its old inode back at
/// every second rename), and so is, after a reboot (`all_stamps`), every
/// journal.
fn reconcile(conn: &Connection, store: &FileStore, all_stamps: bool) -> Result<()> {
    // What is left of it once every row has taken its own: the new ones.
    let mut on_disk: HashMap<String, (Kind, u64)> = store
        .entries()?
        .into_iter()
        .map(|(id, kind, ino)| (id, (kind, ino)))
        .collect();
    let mut statement = conn
        .prepare("SELECT id, plain, CASE WHEN plain OR ?1 THEN stamp END FROM sessions")
        .map_err(db::sql)?;
    let rows: Vec<(String, bool, Option<String>)> = statement
        .query_map([all_stamps], |r| {
            Ok((r.get(0)?, r.get::<_, i64>(1)? != 0, r.get(2)?))
        })
        .and_then(|rows| rows.collect())
        .map_err(db::sql)?;
    let mut redo = Vec::new();
    let mut to_stat = Vec::new();
    for (id, plain, stamp) in rows {
        match on_disk.remove(&id) {
            None => db::remove(conn, &id)?,
            Some((kind, _)) if (kind == Kind::Plain) != plain => redo.push(id),
            Some((_, ino)) => match stamp {
                Some(stamp) if plain && !stamp_has_inode(&stamp, ino) => redo.push(id),
                Some(stamp) => to_stat.push((id, plain, stamp)),
                None => {}
            },
        }
    }
    let data_dir = DataDir::open(store.dir());
    let current = parallel_map(&to_stat, |(id, plain, stamp)| match &data_dir {
        Some(dir) if *plain => dir.plain_stamp_is(id, stamp),
        Some(dir) => dir.journal_stamp_is(id, stamp),
        None => {
            let kind = if *plain { Kind::Plain } else { Kind::Journal };
            stamp_of(&file_of(store, id, kind)) == *stamp
        }
    });
    for ((id, _, _), current) in to_stat.into_iter().zip(current) {
        if !current {
            redo.push(id);
        }
    }
    redo.extend(on_disk.into_keys());
    derive_all(conn, store, &redo)
}

/// Whether `stamp` ([`stamp_of`]) is of the inode numbered `ino`.
fn stamp_has_inode(stamp: &str, ino: u64) -> bool {
    stamp
        .split_once(':')
        .and_then(|(of, _)| of.parse::<u64>().ok())
        == Some(ino)
}
