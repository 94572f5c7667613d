//! Which sessions a search reads: the index's [`grams`] of every session,
//! brought up to date first, then asked for the sessions that may hold a
//! match. The search confirms on those sessions' files, so its answer is
//! what reading every file gives.
//!
//! Upkeep is lazy, so that only a search pays for it: the database marks
//! a session whenever the fold writes or removes its row (a trigger), and
//! the next search reads what each marked session gained (a journal from
//! where its bits end, since it only grows; a whole-file session whole,
//! when its stamp changed) and frees the slots of sessions gone. Bits are
//! written before the database says what they cover, and made again
//! after a reboot.

use rusqlite::{Connection, OptionalExtension, params};

use super::bits::{Read, read};
use super::db::{self, Db};
use super::derive::file_of;
use super::grams::{Checked, Column, Condition, GramFile, SLOTS_PER_BLOCK};
use super::refresh;
use super::{GRAMS, GRAMS_LOCK, Index};
use crate::error::{Error, Result};
use crate::fs::lock::Lock;
use crate::session::query::{Query, stored_literals};
use crate::session::store::file::{FileStore, Kind};
use crate::threads::parallel_map;

/// The sessions that may hold a match of `query`, by id, with how each is
/// stored; `None` when the index cannot be used here (the caller reads
/// every session).
pub fn candidates(
    store: &FileStore,
    index: &Index,
    query: &Query,
) -> Result<Option<Vec<(String, Kind)>>> {
    let Some(mut db) = refresh::open_fresh(store, index)? else {
        return Ok(None);
    };
    let _lock = Lock::exclusive(&index.dir().join(GRAMS_LOCK))?;
    let condition = stored_literals(query).and_then(|l| Condition::of(&l, query.ignore_case));
    // Bits found damaged are made again once; damaged again, the search
    // reads every session.
    let mut remake = false;
    loop {
        let answer = match bring_up_to_date(&mut db, store, index, remake)? {
            Ok(file) => sessions_admitted(&db, &file, condition.as_ref())?,
            Err(damage) => Err(damage),
        };
        match answer {
            Ok(found) => return Ok(Some(found)),
            Err(damage) if !remake => {
                super::warn_once(format_args!(
                    "the search index was damaged ({}); it is made again from the sessions' files",
                    damage.0
                ));
                remake = true;
            }
            Err(damage) => return Err(Error::io(index.dir(), &std::io::Error::other(damage.0))),
        }
    }
}

/// The sessions whose bits in `file` admit `condition` (all of them when
/// there is none), and those whose bits could not be made.
fn sessions_admitted(
    db: &Db,
    file: &GramFile,
    condition: Option<&Condition>,
) -> Checked<Vec<(String, Kind)>> {
    // One snapshot for every statement below (and one read transaction
    // rather than one each).
    let read = db.conn().unchecked_transaction().map_err(db::sql)?;
    let conn: &Connection = &read;
    let mut found = match condition {
        None => select_ids(conn, "SELECT id, plain FROM sessions", [])?,
        Some(condition) => {
            let slots = slot_count(conn)?;
            let admitted = match file.candidates(condition, slots)? {
                Ok(admitted) => admitted,
                Err(damage) => return Ok(Err(damage)),
            };
            let mut found = if admitted.len() > slots as usize / MANY_SLOTS {
                sessions_in_slots(conn, &admitted, slots)?
            } else {
                sessions_in_each_slot(conn, &admitted)?
            };
            // Those whose bits could not be read are read by the search.
            found.extend(select_ids(
                conn,
                // CROSS JOIN: the marked few drive the lookup (SQLite
                // otherwise walked all 100,000 sessions to probe them).
                "SELECT d.id, s.plain FROM gram_dirty d CROSS JOIN sessions s ON s.id = d.id",
                [],
            )?);
            found
        }
    };
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found.dedup_by(|a, b| a.0 == b.0);
    Ok(Ok(found))
}

/// Above one slot in this many, the sessions of the admitted slots are
/// found in one pass over every slot's row rather than a lookup each (a
/// common word admits nearly all of them: 100,000 lookups took half a
/// second, the pass takes a tenth of that).
const MANY_SLOTS: usize = 16;

/// The sessions in `slots`, each looked up by its slot, in one statement
/// (a statement of its own each cost a read transaction each); the slots
/// in order, so the rows are read in the order they are kept (a lookup of
/// each one's row in `sessions` took half a search's time).
fn sessions_in_each_slot(conn: &Connection, slots: &[u32]) -> Result<Vec<(String, Kind)>> {
    let slots = serde_json::to_string(slots).map_err(|e| Error::input(e.to_string()))?;
    select_ids(
        conn,
        "SELECT g.id, g.plain FROM json_each(?1) j CROSS JOIN grams g ON g.slot = j.value",
        [slots],
    )
}

/// The sessions in `slots` (sorted, each below `slot_count`), from one
/// pass over the slots' rows. A row whose session is gone since the bits
/// were brought up to date is let through: the search finds no file and no
/// hit there, as it does for one deleted after this answer.
fn sessions_in_slots(
    conn: &Connection,
    slots: &[u32],
    slot_count: u32,
) -> Result<Vec<(String, Kind)>> {
    let mut admitted = vec![false; slot_count as usize];
    for &slot in slots {
        admitted[slot as usize] = true;
    }
    let mut statement = conn
        .prepare_cached("SELECT id, slot, plain FROM grams")
        .map_err(db::sql)?;
    let mut rows = statement.query([]).map_err(db::sql)?;
    let mut found = Vec::with_capacity(slots.len());
    while let Some(row) = rows.next().map_err(db::sql)? {
        let slot: u32 = row.get(1).map_err(db::sql)?;
        if admitted.get(slot as usize).copied().unwrap_or(false) {
            let id: String = row.get(0).map_err(db::sql)?;
            let plain = row.get::<_, i64>(2).map_err(db::sql)? != 0;
            found.push(kind_of((id, plain)));
        }
    }
    Ok(found)
}

/// Brings every session's bits up to date (after `reindex`, so that the
/// first search does not pay for them).
pub fn refresh_all(store: &FileStore, index: &Index) -> Result<()> {
    let Some(mut db) = refresh::open_fresh(store, index)? else {
        return Ok(());
    };
    let _lock = Lock::exclusive(&index.dir().join(GRAMS_LOCK))?;
    if bring_up_to_date(&mut db, store, index, false)?.is_err() {
        // `reindex`: damaged bits are simply made again.
        bring_up_to_date(&mut db, store, index, true)?
            .map_err(|damage| Error::io(index.dir(), &std::io::Error::other(damage.0)))?;
    }
    Ok(())
}

fn kind_of((id, plain): (String, bool)) -> (String, Kind) {
    (id, if plain { Kind::Plain } else { Kind::Journal })
}

fn select_ids(
    conn: &Connection,
    text: &str,
    values: impl rusqlite::Params,
) -> Result<Vec<(String, Kind)>> {
    let mut statement = conn.prepare_cached(text).map_err(db::sql)?;
    let rows = statement
        .query_map(values, |r| Ok((r.get(0)?, r.get::<_, i64>(1)? != 0)))
        .map_err(db::sql)?;
    rows.map(|row| row.map(kind_of))
        .collect::<rusqlite::Result<_>>()
        .map_err(db::sql)
}

/// One past the highest slot ever given.
fn slot_count(conn: &Connection) -> Result<u32> {
    conn.query_row(
        "SELECT coalesce(max(m) + 1, 0) FROM
             (SELECT max(slot) AS m FROM grams UNION ALL SELECT max(slot) FROM gram_free)",
        [],
        |r| r.get(0),
    )
    .map_err(db::sql)
}

/// What a marked session needs.
enum Work {
    /// Its row is gone: its slot is freed.
    Free { id: String, slot: u32 },
    /// Its file is read past `covered` (`<inode>:<bytes>` of a journal,
    /// or the stamp a whole-file session's bits were made at).
    Read {
        id: String,
        kind: Kind,
        slot: Option<u32>,
        covered: String,
    },
}

const BATCH: usize = SLOTS_PER_BLOCK;

/// Brings the bits of every marked session up to date; `remake` (or a
/// file that is not the one the rows describe) makes them all again.
fn bring_up_to_date(
    db: &mut Db,
    store: &FileStore,
    index: &Index,
    remake: bool,
) -> Checked<GramFile> {
    let (mut file, file_id) = GramFile::open(&index.dir().join(GRAMS))?;
    let tx = db.begin()?;
    let known = tx
        .query_row("SELECT value FROM meta WHERE key = 'grams'", [], |r| {
            r.get::<_, String>(0)
        })
        .optional()
        .map_err(db::sql)?;
    // The bits are not synced to the disk: after a reboot (a power
    // failure may have lost some that the database says it holds) they are
    // made again, as they are for a file that is new or not the one the
    // rows describe.
    let this_boot = refresh::boot_id();
    let expected = file_id.map(|id| format!("{id} {this_boot}"));
    if remake || expected.is_none() || known != expected {
        let id = format!("{} {this_boot}", file.reset()?);
        tx.execute_batch(
            "DELETE FROM grams; DELETE FROM gram_free;
             INSERT OR IGNORE INTO gram_dirty (id) SELECT id FROM sessions ORDER BY id;",
        )
        .map_err(db::sql)?;
        tx.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('grams', ?1)",
            [id],
        )
        .map_err(db::sql)?;
    }
    let marked: Vec<String> = {
        let mut statement = tx.prepare("SELECT id FROM gram_dirty").map_err(db::sql)?;
        let rows = statement.query_map([], |r| r.get(0)).map_err(db::sql)?;
        rows.collect::<rusqlite::Result<_>>().map_err(db::sql)?
    };
    for batch in marked.chunks(BATCH) {
        if let Err(damage) = update(&tx, store, &file, batch)? {
            return Ok(Err(damage));
        }
    }
    tx.commit().map_err(db::sql)?;
    db.settle()?;
    Ok(Ok(file))
}

fn update(conn: &Connection, store: &FileStore, file: &GramFile, ids: &[String]) -> Checked<()> {
    let mut work = Vec::with_capacity(ids.len());
    for id in ids {
        let plain: Option<bool> = conn
            .prepare_cached("SELECT plain FROM sessions WHERE id = ?1")
            .and_then(|mut s| s.query_row([id], |r| r.get::<_, i64>(0).map(|p| p != 0)))
            .optional()
            .map_err(db::sql)?;
        let gram: Option<(u32, String)> = conn
            .prepare_cached("SELECT slot, covered FROM grams WHERE id = ?1")
            .and_then(|mut s| s.query_row([id], |r| Ok((r.get(0)?, r.get(1)?))))
            .optional()
            .map_err(db::sql)?;
        work.push(match (plain, gram) {
            (None, Some((slot, _))) => Work::Free {
                id: id.clone(),
                slot,
            },
            (None, None) => {
                unmark(conn, id)?;
                continue;
            }
            (Some(plain), gram) => Work::Read {
                id: id.clone(),
                kind: if plain { Kind::Plain } else { Kind::Journal },
                slot: gram.as_ref().map(|g| g.0),
                covered: gram.map(|g| g.1).unwrap_or_default(),
            },
        });
    }
    let reads = parallel_map(&work, |w| match w {
        Work::Read {
            id, kind, covered, ..
        } => Some(read(&file_of(store, id, *kind), *kind, covered)),
        Work::Free { .. } => None,
    });
    let mut free: Vec<u32> = {
        let mut statement = conn
            .prepare("SELECT slot FROM gram_free ORDER BY slot DESC")
            .map_err(db::sql)?;
        let rows = statement.query_map([], |r| r.get(0)).map_err(db::sql)?;
        rows.collect::<rusqlite::Result<_>>().map_err(db::sql)?
    };
    let mut next = slot_count(conn)?;
    let mut columns = Vec::new();
    let mut rows = Vec::new();
    for (w, read) in work.iter().zip(reads) {
        match (w, read) {
            (Work::Free { id, slot }, _) => {
                conn.execute("DELETE FROM grams WHERE id = ?1", [id])
                    .map_err(db::sql)?;
                conn.execute("INSERT OR IGNORE INTO gram_free (slot) VALUES (?1)", [slot])
                    .map_err(db::sql)?;
                unmark(conn, id)?;
            }
            (Work::Read { id, slot, kind, .. }, Some(read)) => {
                let (column, covered, settled) = match read {
                    Read::Unchanged => {
                        // Its row was written again: how it is stored may
                        // be all that changed.
                        conn.execute(
                            "UPDATE grams SET plain = ?2 WHERE id = ?1",
                            params![id, *kind == Kind::Plain],
                        )
                        .map_err(db::sql)?;
                        unmark(conn, id)?;
                        continue;
                    }
                    Read::Grew { column, covered } => (*column, covered, true),
                    Read::Unreadable => (Column::full(), String::new(), false),
                };
                let (slot, reused) = match slot {
                    Some(slot) => (*slot, false),
                    None => match free.pop() {
                        Some(slot) => {
                            conn.execute("DELETE FROM gram_free WHERE slot = ?1", [slot])
                                .map_err(db::sql)?;
                            (slot, true)
                        }
                        None => {
                            next += 1;
                            (next - 1, false)
                        }
                    },
                };
                columns.push((slot, column, reused));
                rows.push((id.clone(), slot, covered, settled, *kind == Kind::Plain));
            }
            (Work::Read { .. }, None) => {}
        }
    }
    // The bits are written before the rows say what they cover.
    if let Err(damage) = file.write(&mut columns)? {
        return Ok(Err(damage));
    }
    for (id, slot, covered, settled, plain) in rows {
        conn.prepare_cached(
            "INSERT OR REPLACE INTO grams (id, slot, covered, plain) VALUES (?1, ?2, ?3, ?4)",
        )
        .and_then(|mut s| s.execute(params![id, slot, covered, plain]))
        .map_err(db::sql)?;
        if settled {
            unmark(conn, &id)?;
        }
    }
    Ok(Ok(()))
}

/// Run once per session (a `reindex` of 100,000 sessions took 22 s when
/// each of these statements was prepared anew for each), so cached.
fn unmark(conn: &Connection, id: &str) -> Result<()> {
    conn.prepare_cached("DELETE FROM gram_dirty WHERE id = ?1")
        .and_then(|mut s| s.execute([id]))
        .map(drop)
        .map_err(db::sql)
}
