//! Retention and the disk budget. Per session, only the newest `keepTurns`
//! manifests are kept; over the budget, the oldest turns of all sessions
//! go (never a session's latest) until the objects still named fit. The
//! collector only deletes, manifests before the objects they name, so it
//! needs no free space and a crash leaves unreferenced objects at worst.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::manifest::{self, Manifest};
use super::store::Store;
use super::tree;
use crate::config::Config;
use crate::error::{Error, Result};

/// What a collection removed and what the store holds after it.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Collected {
    pub turns_removed: u64,
    pub objects_removed: u64,
    pub bytes_freed: u64,
    /// The objects' bytes on disk after the collection.
    pub bytes_kept: u64,
}

/// Drops a session's turns beyond `keep` (0: keep all), oldest first.
pub(crate) fn retain(store: &Store, session: &str, keep: u64) -> Result<u64> {
    let turns = manifest::turns(store, session)?;
    let keep = usize::try_from(keep).unwrap_or(usize::MAX);
    if keep == 0 || turns.len() <= keep {
        return Ok(0);
    }
    let excess = &turns[..turns.len() - keep];
    for &turn in excess {
        manifest::remove(store, session, turn)?;
    }
    Ok(excess.len() as u64)
}

/// Every object in the store with its size.
fn objects(store: &Store) -> Result<HashMap<String, u64>> {
    let mut found = HashMap::new();
    let root = store.objects();
    let fans = std::fs::read_dir(&root).map_err(|e| Error::io(&root, &e))?;
    for fan in fans.flatten() {
        let prefix = fan.file_name().to_string_lossy().into_owned();
        let Ok(entries) = std::fs::read_dir(fan.path()) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
            if tree::is_hash(&name)
                && let Ok(meta) = entry.metadata()
            {
                found.insert(name, meta.len());
            }
        }
    }
    Ok(found)
}

/// The objects a manifest names: its tree's (one per directory) and every
/// content in it.
fn named_by(store: &Store, m: &Manifest, trees: &mut HashMap<String, Vec<String>>) -> Result<()> {
    if !trees.contains_key(&m.tree) {
        let (tree, mut hashes) = manifest::tree_and_objects(store, m)?;
        hashes.extend(tree.values().filter_map(|n| n.hash.clone()));
        trees.insert(m.tree.clone(), hashes);
    }
    Ok(())
}

/// Collects: drops the oldest turns while the named objects exceed
/// `budgetBytes`, then removes every object no manifest names. The caller
/// holds the lock.
pub(crate) fn collect(store: &Store, config: &Config) -> Result<Collected> {
    collect_to(store, config.services.checkpoint.budget_bytes)
}

/// [`collect`] down to `budget` bytes.
fn collect_to(store: &Store, budget: u64) -> Result<Collected> {
    let sizes = objects(store)?;
    let mut trees = HashMap::new();
    let mut kept: Vec<Manifest> = Vec::new();
    let mut latest: HashSet<(String, u64)> = HashSet::new();
    for session in manifest::sessions(store)? {
        let turns = manifest::turns(store, &session)?;
        if let Some(&last) = turns.last() {
            latest.insert((session.clone(), last));
        }
        for turn in turns {
            let m = manifest::read(store, &session, turn)?;
            named_by(store, &m, &mut trees)?;
            kept.push(m);
        }
    }
    // Oldest first; a session's latest turn is never dropped.
    kept.sort_by(|a, b| a.time.cmp(&b.time).then(a.turn.cmp(&b.turn)));
    let mut out = Collected::default();
    let live_size = |kept: &[Manifest]| -> u64 {
        let mut live: HashSet<&str> = HashSet::new();
        for m in kept {
            live.insert(&m.tree);
            if let Some(hashes) = trees.get(&m.tree) {
                live.extend(hashes.iter().map(String::as_str));
            }
        }
        live.iter().filter_map(|h| sizes.get(*h)).sum()
    };
    let mut size = live_size(&kept);
    while size > budget {
        let Some(at) = kept
            .iter()
            .position(|m| !latest.contains(&(m.session_id.clone(), m.turn)))
        else {
            break;
        };
        let dropped = kept.remove(at);
        manifest::remove(store, &dropped.session_id, dropped.turn)?;
        out.turns_removed += 1;
        size = live_size(&kept);
    }
    let mut live: HashSet<&str> = HashSet::new();
    for m in &kept {
        live.insert(&m.tree);
        if let Some(hashes) = trees.get(&m.tree) {
            live.extend(hashes.iter().map(String::as_str));
        }
    }
    for (hash, bytes) in &sizes {
        if live.contains(hash.as_str()) {
            out.bytes_kept += bytes;
            continue;
        }
        let path = store.object_path(hash);
        std::fs::remove_file(&path).map_err(|e| Error::io(&path, &e))?;
        out.objects_removed += 1;
        out.bytes_freed += bytes;
    }
    if out.objects_removed > 0 {
        // A stat cache may name a removed object: start the caches afresh
        // (a session's state, and a workspace's from before the states).
        for (dir, file) in [("workspaces", "stat-cache"), ("sessions", "state")] {
            if let Ok(entries) = std::fs::read_dir(store.root.join(dir)) {
                for entry in entries.flatten() {
                    let _ = std::fs::remove_file(entry.path().join(file));
                }
            }
        }
    }
    Ok(out)
}

/// After a snapshot: retention for its session, and a collection when the
/// store may be over its budget (its objects' total is read from a running
/// count kept beside them, so a snapshot under budget walks nothing).
pub(crate) fn after_snapshot(
    store: &Store,
    config: &Config,
    session: &str,
    stored: u64,
) -> Result<Option<Collected>> {
    retain(store, session, config.services.checkpoint.keep_turns)?;
    let usage_path = store.root.join("usage");
    let usage: u64 = crate::fs::read_regular(&usage_path)?
        .and_then(|b| String::from_utf8(b).ok())
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or(0)
        + stored;
    let collected = if usage > config.services.checkpoint.budget_bytes {
        // Down to nine tenths, so the next snapshots do not collect again.
        let budget = config.services.checkpoint.budget_bytes;
        let collected = collect_to(store, budget - budget / 10)?;
        let total = collected.bytes_kept;
        write_usage(store, total)?;
        Some(collected)
    } else {
        // Nothing stored, the count is what it was: no rewrite per turn.
        if stored > 0 {
            write_usage(store, usage)?;
        }
        None
    };
    Ok(collected)
}

fn write_usage(store: &Store, bytes: u64) -> Result<()> {
    crate::fs::write_atomic(
        &store.root.join("usage"),
        format!("{bytes}\n").as_bytes(),
        crate::fs::Durability::Cache,
    )
}
