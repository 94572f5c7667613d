//! The in-memory index of a watched tree and its reconciliation with the
//! disk. Events are derived by comparing what a directory holds now (listed
//! with the same walker and rules as the listing) with what the index
//! remembers, so a burst of raw notifications becomes at most one event per
//! path, and the paths added minus the paths unlinked always equal what a
//! fresh listing would print.

use std::collections::BTreeMap;
use std::ops::Bound;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use serde::Serialize;

use crate::discover::entry::{EntryType, text_and_bytes};
use crate::discover::options::Options;
use crate::discover::walk::{builder, describe_walk_error, level_below_root};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(rename = "WatchEventKind")]
#[serde(rename_all = "lowercase")]
pub enum EventKind {
    Add,
    Change,
    Unlink,
    /// The watch is in place (printed once, with `--ready`).
    Ready,
}

/// One change, as printed: `{event, path, relativePath, type}` (plus the
/// byte fields for names that are not valid UTF-8).
#[derive(Debug, Clone, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[schemars(transform = crate::schema::skipped_when_none)]
#[schemars(rename = "WatchEvent")]
#[serde(rename_all = "camelCase")]
pub struct Event {
    pub event: EventKind,
    pub path: String,
    pub relative_path: String,
    #[serde(rename = "type")]
    pub kind: EntryType,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_bytes: Option<Vec<u8>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relative_path_bytes: Option<Vec<u8>>,
}

impl Event {
    pub fn new(event: EventKind, root: &Path, relative: &Path, kind: EntryType) -> Event {
        let full = if relative.as_os_str().is_empty() {
            root.to_path_buf()
        } else {
            root.join(relative)
        };
        let (path, path_bytes) = text_and_bytes(&full);
        let (relative_path, relative_path_bytes) = text_and_bytes(relative);
        Event {
            event,
            path,
            relative_path,
            kind,
            path_bytes,
            relative_path_bytes,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Known {
    kind: EntryType,
    size: u64,
    modified: Option<SystemTime>,
    reported: bool,
}

/// The events a reconciliation found, in the order found.
#[derive(Debug, Default)]
pub struct Changes {
    pub events: Vec<Event>,
}

/// Where a reconciliation starts and stops watching directories. A new
/// directory is watched before it is read, so nothing created in it
/// between the read and the watch can be missed.
pub trait Dirs {
    fn watch(&mut self, dir: &Path);
    fn unwatch(&mut self, dir: &Path);
}

pub struct Tracker {
    opts: Arc<Options>,
    /// Every entry the walk keeps (reported or not), by path below the root.
    index: BTreeMap<PathBuf, Known>,
}

impl Tracker {
    /// Indexes the whole tree, watching every directory below the root
    /// (the caller watches the root itself first).
    pub fn new(opts: Arc<Options>, dirs: &mut dyn Dirs) -> Tracker {
        let mut tracker = Tracker {
            opts,
            index: BTreeMap::new(),
        };
        for (relative, known) in tracker.list(Path::new(""), true, dirs) {
            tracker.index.insert(relative, known);
        }
        tracker
    }

    /// How many entries the index holds.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether `dir` (below the root) is a directory whose entries are listed.
    pub fn is_tracked_dir(&self, dir: &Path) -> bool {
        dir.as_os_str().is_empty()
            || self
                .index
                .get(dir)
                .is_some_and(|k| k.kind == EntryType::Directory)
    }

    /// Whether the depth limit lets us list the entries of directory `relative`.
    fn enters(&self, relative: &Path) -> bool {
        let level = relative.components().count();
        self.opts.max_depth.is_none_or(|max| level <= max)
    }

    /// Brings the index up to date for `dir` (below the root): its own
    /// entries, or with `deep` its whole subtree (after an ignore file in it
    /// changed). New directories are always indexed in full.
    pub fn reconcile(
        &mut self,
        dir: &Path,
        deep: bool,
        changes: &mut Changes,
        dirs: &mut dyn Dirs,
    ) {
        if !self.is_tracked_dir(dir) {
            return;
        }
        let now: BTreeMap<PathBuf, Known> = self.list(dir, deep, dirs).into_iter().collect();
        let before: Vec<(PathBuf, Known)> = self
            .below(dir)
            .filter(|(p, _)| deep || p.parent() == Some(dir))
            .map(|(p, k)| (p.clone(), *k))
            .collect();
        for (path, old) in &before {
            match now.get(path) {
                None => self.remove(path, changes, dirs),
                Some(new) if new.kind != old.kind => {
                    self.remove(path, changes, dirs);
                }
                Some(new) => {
                    let changed = new.kind != EntryType::Directory
                        && (new.size != old.size || new.modified != old.modified);
                    if changed && new.reported {
                        changes
                            .events
                            .push(self.event(EventKind::Change, path, new.kind));
                    }
                    if new.reported != old.reported {
                        let kind = if new.reported {
                            EventKind::Add
                        } else {
                            EventKind::Unlink
                        };
                        changes.events.push(self.event(kind, path, new.kind));
                    }
                    self.index.insert(path.clone(), *new);
                }
            }
        }
        for (path, new) in now {
            if self.index.contains_key(&path) {
                continue;
            }
            if new.reported {
                changes
                    .events
                    .push(self.event(EventKind::Add, &path, new.kind));
            }
            self.index.insert(path.clone(), new);
            if new.kind == EntryType::Directory && !deep {
                self.reconcile(&path, true, changes, dirs);
            }
        }
    }

    /// Drops `path` and everything below it, unlinking what was reported.
    fn remove(&mut self, path: &Path, changes: &mut Changes, dirs: &mut dyn Dirs) {
        let doomed: Vec<(PathBuf, Known)> =
            self.below(path).map(|(p, k)| (p.clone(), *k)).collect();
        for (child, known) in doomed.iter().rev() {
            self.forget(child, *known, changes, dirs);
        }
        if let Some(known) = self.index.get(path).copied() {
            self.forget(path, known, changes, dirs);
        }
    }

    fn forget(&mut self, path: &Path, known: Known, changes: &mut Changes, dirs: &mut dyn Dirs) {
        self.index.remove(path);
        if known.kind == EntryType::Directory && self.enters(path) {
            dirs.unwatch(&self.opts.root.join(path));
        }
        if known.reported {
            changes
                .events
                .push(self.event(EventKind::Unlink, path, known.kind));
        }
    }

    /// Index entries strictly below `dir`, in order.
    fn below<'a>(&'a self, dir: &'a Path) -> impl Iterator<Item = (&'a PathBuf, &'a Known)> + 'a {
        let start = if dir.as_os_str().is_empty() {
            Bound::Unbounded
        } else {
            Bound::Excluded(dir.to_path_buf())
        };
        self.index
            .range((start, Bound::Unbounded))
            .take_while(move |(p, _)| p.starts_with(dir))
    }

    fn event(&self, kind: EventKind, relative: &Path, entry: EntryType) -> Event {
        Event::new(kind, &self.opts.root, relative, entry)
    }

    /// What the rules keep below `dir` now (its own entries, or the
    /// subtree). A directory not yet indexed is watched as soon as the walk
    /// meets it, before the walk reads it.
    fn list(&self, dir: &Path, deep: bool, dirs: &mut dyn Dirs) -> Vec<(PathBuf, Known)> {
        let start = self.opts.root.join(dir);
        let mut walker = builder(&self.opts, &start);
        if !deep {
            let allowed = self
                .opts
                .walker_depth_limit()
                .is_none_or(|limit| level_below_root(&self.opts, &start) < limit);
            walker.max_depth(Some(usize::from(allowed)));
        }
        let mut found = Vec::new();
        for result in walker.build() {
            let entry = match result {
                Ok(entry) => entry,
                Err(err) => {
                    crate::discover::warn(describe_walk_error(&err));
                    continue;
                }
            };
            if entry.depth() == 0 {
                continue;
            }
            let Some(file_type) = entry.file_type() else {
                continue;
            };
            let Ok(relative) = entry.path().strip_prefix(&self.opts.root) else {
                continue;
            };
            let Some(kind) = EntryType::of(file_type) else {
                continue;
            };
            if kind == EntryType::Directory
                && self.enters(relative)
                && !self.index.contains_key(relative)
            {
                dirs.watch(entry.path());
            }
            // A file that vanished since the directory was read is simply absent.
            let Ok(meta) = entry.metadata() else {
                continue;
            };
            found.push((
                relative.to_path_buf(),
                Known {
                    kind,
                    size: meta.len(),
                    modified: meta.modified().ok(),
                    reported: self.opts.reports(relative, kind),
                },
            ));
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::FileDiscoveryConfig;

    #[derive(Default)]
    struct Recorded {
        watched: Vec<PathBuf>,
        unwatched: Vec<PathBuf>,
    }

    impl Dirs for Recorded {
        fn watch(&mut self, dir: &Path) {
            self.watched.push(dir.to_path_buf());
        }
        fn unwatch(&mut self, dir: &Path) {
            self.unwatched.push(dir.to_path_buf());
        }
    }

    fn tracker(root: &Path) -> Tracker {
        let mut opts = Options::new(root, &FileDiscoveryConfig::default()).unwrap();
        opts.builtin = ignore::gitignore::Gitignore::empty();
        opts.builtin_names = None;
        Tracker::new(Arc::new(opts), &mut Recorded::default())
    }

    fn summary(changes: &Changes) -> Vec<String> {
        let mut list: Vec<String> = changes
            .events
            .iter()
            .map(|e| format!("{:?} {}", e.event, e.relative_path))
            .collect();
        list.sort();
        list
    }

    #[test]
    fn a_full_reconcile_finds_what_changed_without_any_notification() {
        // What an overflowed kernel queue leaves us with: no events, only a rescan.
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("keep.rs"), "a").unwrap();
        std::fs::write(root.join("gone.rs"), "a").unwrap();
        std::fs::write(root.join("edit.rs"), "a").unwrap();
        std::fs::create_dir(root.join("sub")).unwrap();
        std::fs::write(root.join("sub/old.rs"), "a").unwrap();
        let mut t = tracker(root);
        assert_eq!(t.len(), 5);
        std::fs::remove_file(root.join("gone.rs")).unwrap();
        std::fs::write(root.join("edit.rs"), "longer").unwrap();
        std::fs::remove_dir_all(root.join("sub")).unwrap();
        std::fs::create_dir_all(root.join("new/deeper")).unwrap();
        std::fs::write(root.join("new/deeper/n.rs"), "a").unwrap();
        std::fs::write(root.join(".gitignore"), "keep.rs\n").unwrap();
        let mut changes = Changes::default();
        let mut dirs = Recorded::default();
        t.reconcile(Path::new(""), true, &mut changes, &mut dirs);
        assert_eq!(
            summary(&changes),
            vec![
                "Add .gitignore",
                "Add new/deeper/n.rs",
                "Change edit.rs",
                "Unlink gone.rs",
                "Unlink keep.rs",
                "Unlink sub/old.rs",
            ]
        );
        assert_eq!(
            dirs.watched,
            vec![root.join("new"), root.join("new/deeper")]
        );
        assert_eq!(dirs.unwatched, vec![root.join("sub")]);
        let mut again = Changes::default();
        t.reconcile(Path::new(""), true, &mut again, &mut dirs);
        assert!(again.events.is_empty(), "{:?}", summary(&again));
    }

    #[test]
    fn a_shallow_reconcile_indexes_new_directories_in_full() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let mut t = tracker(root);
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        std::fs::write(root.join("a/b/c.rs"), "x").unwrap();
        std::fs::write(root.join("a/b/c.log"), "x").unwrap();
        std::fs::write(root.join("a/.gitignore"), "*.log\n").unwrap();
        let mut changes = Changes::default();
        t.reconcile(Path::new(""), false, &mut changes, &mut Recorded::default());
        assert_eq!(summary(&changes), vec!["Add a/.gitignore", "Add a/b/c.rs"]);
    }
}
