//! A first build of the index from the sessions' files, on every core:
//! each session's row, and for `reindex` its bits for search ([`grams`])
//! made in the same pass, from the bytes its row was read from. A second
//! pass over every file for the bits made `reindex` of 100,000 sessions in
//! the OLLM CLI's format read 789 MB twice.

use rusqlite::Connection;

use super::bits::{self, Read};
use super::derive::{
    Derived, Ready, derive_listed, derive_listed_then, file_of, racy_ms, write_all,
};
use super::grams::{Column, GramFile, SLOTS_PER_BLOCK};
use super::stamp::DataDir;
use super::{GRAMS, GRAMS_LOCK, Index};
use crate::error::Result;
use crate::fs::lock::Lock;
use crate::session::store::file::{FileStore, Kind};
use crate::threads::parallel_map;

use super::db::{self, Db};

/// A first build of at least this many sessions says what it is doing.
const PROGRESS_FROM: usize = 2_000;
/// The sessions read before the rest's time is estimated.
const SAMPLE: usize = 400;
const _: () = assert!(SAMPLE < PROGRESS_FROM);

/// Search's bits being made by a build: the bits file, emptied, held
/// under its lock until the build's database names it.
pub(super) struct Bits {
    file: GramFile,
    /// What the database's `grams` meta is to say: the file's new id and
    /// the boot (bits are not synced, so a reboot makes them again).
    names: String,
    _lock: Lock,
}

impl Bits {
    /// The index's bits file emptied for a build to fill; `None` when it
    /// cannot be had (the bits are then made by the first search, or by
    /// `reindex`'s own pass after the build, as before).
    pub(super) fn empty(index: &Index) -> Option<Bits> {
        let lock = Lock::exclusive(&index.dir().join(GRAMS_LOCK)).ok()?;
        let (mut file, _) = GramFile::open(&index.dir().join(GRAMS)).ok()?;
        let id = file.reset().ok()?;
        Some(Bits {
            file,
            names: format!("{id} {}", super::stamp::boot_id()),
            _lock: lock,
        })
    }
}

/// Where a session's bits went: its slot, what they cover, and whether
/// they are made (else the next search reads it again).
struct Slot {
    slot: u32,
    covered: String,
    made: bool,
}

/// Reads every session of `ids` into the index being built (with `bits`,
/// its bits too); a store large enough to keep a person waiting shows a
/// progress line (at a terminal only) with the count and the time its
/// first sessions say the rest takes.
pub(super) fn build(
    conn: &Connection,
    store: &FileStore,
    ids: &[(String, Kind)],
    bits: Option<&Bits>,
) -> Result<()> {
    let racy = racy_ms(store.dir());
    let data_dir = DataDir::open(store.dir());
    let with_bits = bits.is_some();
    let derive = |(id, kind): &(String, Kind)| {
        if !with_bits {
            let derived = derive_listed(store, data_dir.as_ref(), id, *kind, racy);
            return (Ready::of(derived), None);
        }
        let (derived, read) = derive_listed_then(
            store,
            data_dir.as_ref(),
            id,
            *kind,
            racy,
            |file| match file {
                Some((bytes, stamp)) => bits::read_bytes(bytes, stamp),
                None => bits::read(&file_of(store, id, *kind), *kind, ""),
            },
        );
        let has_row = !matches!(derived, Derived::Missing);
        (Ready::of(derived), Some((read, has_row)))
    };
    let mut slots = Vec::new();
    let mut written = true;
    // Reads `part` of `ids` (from `from` on) into `ready`, writing its
    // bits to their slots a block at a time, so that a build holds one
    // block's columns.
    let mut read_part = |part: &[(String, Kind)],
                         from: usize,
                         ready: &mut Vec<Ready>|
     -> Result<()> {
        let block = if with_bits {
            SLOTS_PER_BLOCK
        } else {
            part.len().max(1)
        };
        for (n, part) in part.chunks(block).enumerate() {
            let from = from + n * block;
            let mut columns = Vec::new();
            for (at, (row, read)) in parallel_map(part, derive).into_iter().enumerate() {
                ready.push(row);
                let Some((read, has_row)) = read else {
                    continue;
                };
                let slot = u32::try_from(from + at).unwrap_or(u32::MAX);
                let (column, covered, made) = match read {
                    Read::Grew { column, covered } => (*column, covered, true),
                    Read::Unchanged | Read::Unreadable => (Column::full(), String::new(), false),
                };
                columns.push((slot, column, false));
                slots.push(has_row.then_some(Slot {
                    slot,
                    covered,
                    made,
                }));
            }
            if let Some(bits) = bits {
                written &= bits.file.write(&mut columns)?.is_ok();
            }
        }
        Ok(())
    };
    Db::bulk_load(conn, || {
        let mut ready = Vec::with_capacity(ids.len());
        if ids.len() < PROGRESS_FROM {
            read_part(ids, 0, &mut ready)?;
        } else {
            let started = std::time::Instant::now();
            let (first, rest) = ids.split_at(SAMPLE);
            read_part(first, 0, &mut ready)?;
            // The rest's time, from the sample's (its rows written once all
            // are read, as the sample's are).
            #[allow(clippy::cast_precision_loss)]
            let estimate = started.elapsed().as_secs_f64() * (rest.len() as f64) / (SAMPLE as f64);
            let progress = crate::output::progress::Progress::start(&format!(
                "building the session index of {} sessions (once; about {estimate:.0} s)",
                ids.len()
            ));
            read_part(rest, SAMPLE, &mut ready)?;
            drop(progress);
        }
        write_all(conn, ids.iter().map(|(id, _)| id).zip(ready).collect())
    })?;
    match bits {
        // Bits the file would not take (found damaged: changed behind its
        // lock) are left unnamed: the next search makes them all again.
        Some(bits) if written => keep_bits(conn, ids, &slots, &bits.names),
        _ => Ok(()),
    }
}

/// Notes where each session's bits are (after [`Db::bulk_load`], which
/// marked every session as wanting them): those made are unmarked, the
/// slots of sessions gone before they were read are free, and the
/// database names the bits file.
fn keep_bits(
    conn: &Connection,
    ids: &[(String, Kind)],
    slots: &[Option<Slot>],
    names: &str,
) -> Result<()> {
    let mut put = conn
        .prepare("INSERT OR REPLACE INTO grams (id, slot, covered, plain) VALUES (?1, ?2, ?3, ?4)")
        .map_err(db::sql)?;
    let mut unmark = conn
        .prepare("DELETE FROM gram_dirty WHERE id = ?1")
        .map_err(db::sql)?;
    let mut free = conn
        .prepare("INSERT OR IGNORE INTO gram_free (slot) VALUES (?1)")
        .map_err(db::sql)?;
    for ((id, kind), slot) in ids.iter().zip(slots) {
        let Some(slot) = slot else {
            continue;
        };
        put.execute(rusqlite::params![
            id,
            slot.slot,
            slot.covered,
            *kind == Kind::Plain
        ])
        .map_err(db::sql)?;
        if slot.made {
            unmark.execute([id]).map_err(db::sql)?;
        }
    }
    // Slots of sessions gone between the listing and their read.
    for (at, slot) in slots.iter().enumerate() {
        if slot.is_none() {
            free.execute([u32::try_from(at).unwrap_or(u32::MAX)])
                .map_err(db::sql)?;
        }
    }
    conn.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('grams', ?1)",
        [names],
    )
    .map(drop)
    .map_err(db::sql)
}
