//! A listing: plain relative paths or NDJSON entries, each walker thread
//! filling blocks that [`crate::output::blocks`] writes out, or collected and
//! sorted by path bytes (git's order).

use std::collections::HashSet;
use std::fs::Metadata;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use super::cache;
use super::entry::{Entry, EntryType};
use super::options::Options;
use super::tracked::Tracked;
use super::walk::{Found, describe_walk_error, walk_dir};
use crate::error::{Error, Result};
use crate::output::blocks::{self, BLOCK, BlockWriter};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Relative paths, raw bytes, one per line (or NUL-terminated).
    Paths { nul: bool },
    /// One JSON entry per line.
    Json,
    /// Entries kept in memory and returned sorted ([`collect`]), for a table.
    Collect,
    /// Relative path bytes with the walk's own `lstat` ([`collect_stated`]),
    /// for a caller that needs every file's metadata: each file is stat'ed
    /// once, by the walker threads in parallel.
    Stated,
}

type Row = (Vec<u8>, Vec<u8>);

/// A listed path's relative bytes and its `lstat` (an error when it could
/// not be taken, e.g. the file vanished after the walk read its directory).
pub type Stated = (Vec<u8>, std::io::Result<Metadata>);

/// What the walker threads share.
struct Shared {
    format: Format,
    sort: bool,
    failure: Mutex<Option<Error>>,
    sorted: Mutex<Vec<Row>>,
    collected: Mutex<Vec<Entry>>,
    stated: Mutex<Vec<Stated>>,
    count: AtomicU64,
    tracked: Option<Tracked>,
    /// Tracked paths the walk listed.
    seen: Mutex<HashSet<Vec<u8>>>,
    /// Whether to collect what the cache needs: entered directories and printed paths.
    record: bool,
    entered: Mutex<Vec<PathBuf>>,
    printed: Mutex<Vec<Vec<u8>>>,
}

/// Lists the tree below the root on stdout, from the cache in `cache_dir`
/// when a valid one exists (and into it otherwise). Returns how many
/// entries were printed.
pub fn list(
    opts: &Arc<Options>,
    format: Format,
    sort: bool,
    cache_dir: Option<&Path>,
) -> Result<u64> {
    walk(opts, format, sort, cache_dir).map(|(count, _, _)| count)
}

/// The listing's entries, sorted by relative path bytes (git's order),
/// for a person to read (a table) rather than a stream.
pub fn collect(opts: &Arc<Options>) -> Result<Vec<Entry>> {
    let (_, mut entries, _) = walk(opts, Format::Collect, false, None)?;
    entries.sort_unstable_by(|a, b| a.relative_bytes().cmp(b.relative_bytes()));
    Ok(entries)
}

/// The listing's relative paths, each with its `lstat` taken by the walk
/// (so with `follow_symlinks` off), in no particular order.
pub fn collect_stated(opts: &Arc<Options>) -> Result<Vec<Stated>> {
    let (_, _, stated) = walk(opts, Format::Stated, false, None)?;
    Ok(stated)
}

fn walk(
    opts: &Arc<Options>,
    format: Format,
    sort: bool,
    cache_dir: Option<&Path>,
) -> Result<(u64, Vec<Entry>, Vec<Stated>)> {
    let key = cache_dir.map(|dir| cache::Key::new(opts, dir));
    if let Some(paths) = key.as_ref().and_then(cache::load) {
        return replay(paths, format, sort).map(|count| (count, Vec::new(), Vec::new()));
    }
    let started = SystemTime::now();
    let shared = Shared {
        record: key.is_some(),
        entered: Mutex::new(Vec::new()),
        printed: Mutex::new(Vec::new()),
        format,
        sort,
        failure: Mutex::new(None),
        sorted: Mutex::new(Vec::new()),
        collected: Mutex::new(Vec::new()),
        stated: Mutex::new(Vec::new()),
        count: AtomicU64::new(0),
        tracked: Tracked::load(opts),
        seen: Mutex::new(HashSet::new()),
    };
    walk_dir(opts, &opts.root, || ThreadOut::new(&shared).into_visitor());
    if let Some(err) = shared.failure.lock().map_or(None, |mut f| f.take()) {
        return Err(err);
    }
    // Tracked files that ignore rules hid from the walk.
    let mut rest = ThreadOut::new(&shared);
    if let Some(tracked) = &shared.tracked {
        let seen = shared.seen.lock().map(|s| s.clone()).unwrap_or_default();
        for (relative, kind, meta) in tracked.missing(&seen, opts) {
            // Their directories were not entered; the cache must stamp them too.
            if shared.record {
                rest.entered
                    .extend(relative.ancestors().skip(1).map(Path::to_path_buf));
            }
            rest.emit(&opts.root.join(&relative), &relative, kind, || Ok(meta));
        }
    }
    rest.finish();
    drop(rest);
    if let Some(err) = shared.failure.lock().map_or(None, |mut f| f.take()) {
        return Err(err);
    }
    blocks::flush()?;
    if sort {
        let mut rows = shared.sorted.into_inner().unwrap_or_default();
        rows.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut out = BlockWriter::new();
        for (_, line) in &rows {
            out.write(line)?;
        }
        out.finish()?;
    }
    if let Some(key) = &key
        && !super::warned()
    {
        let mut entered = shared.entered.into_inner().unwrap_or_default();
        entered.retain(|d| !d.as_os_str().is_empty());
        entered.sort_unstable();
        entered.dedup();
        let printed = shared.printed.into_inner().unwrap_or_default();
        cache::store(key, opts, started, &entered, &printed);
    }
    let collected = shared.collected.into_inner().unwrap_or_default();
    let stated = shared.stated.into_inner().unwrap_or_default();
    Ok((shared.count.into_inner(), collected, stated))
}

/// A path as printed: raw bytes when piped (what `xargs` needs) or with
/// `--null`; at a terminal, control characters in a name are made visible.
fn shown(path: &[u8], nul: bool) -> std::borrow::Cow<'_, [u8]> {
    if nul || !crate::output::stdout_is_terminal() {
        return std::borrow::Cow::Borrowed(path);
    }
    crate::output::escape_bytes(path)
}

/// A JSON line as printed: at a terminal with the controls JSON leaves raw escaped.
fn escape_json_for(json: &str) -> std::borrow::Cow<'_, str> {
    if !crate::output::stdout_is_terminal() {
        return std::borrow::Cow::Borrowed(json);
    }
    crate::output::escape_json(json)
}

/// Prints a cached listing.
fn replay(mut paths: Vec<Vec<u8>>, format: Format, sort: bool) -> Result<u64> {
    let end = match format {
        Format::Paths { nul: true } => 0,
        _ => b'\n',
    };
    if sort {
        paths.sort_unstable();
    }
    let mut out = BlockWriter::new();
    for path in &paths {
        out.write(&shown(path, end == 0))?;
        out.write(&[end])?;
    }
    out.finish()?;
    Ok(paths.len() as u64)
}

/// One walker thread's output buffer; flushed to stdout when full and when
/// the thread ends.
struct ThreadOut<'a> {
    buf: Vec<u8>,
    rows: Vec<Row>,
    entries: Vec<Entry>,
    stated: Vec<Stated>,
    seen: Vec<Vec<u8>>,
    entered: Vec<PathBuf>,
    paths: Vec<Vec<u8>>,
    shared: &'a Shared,
    printed: u64,
}

impl<'a> ThreadOut<'a> {
    fn new(shared: &'a Shared) -> ThreadOut<'a> {
        ThreadOut {
            buf: Vec::with_capacity(BLOCK),
            rows: Vec::new(),
            entries: Vec::new(),
            stated: Vec::new(),
            seen: Vec::new(),
            entered: Vec::new(),
            paths: Vec::new(),
            shared,
            printed: 0,
        }
    }

    fn into_visitor(mut self) -> impl FnMut(Found<'_>) -> bool + Send + 'a {
        move |found| self.visit(found)
    }

    fn visit(&mut self, found: Found<'_>) -> bool {
        if let Some(tracked) = &self.shared.tracked
            && found.kind != EntryType::Directory
            && tracked.contains(found.relative)
        {
            self.seen
                .push(found.relative.as_os_str().as_bytes().to_vec());
        }
        if self.shared.record && found.kind == EntryType::Directory && found.entered {
            self.entered.push(found.relative.to_path_buf());
        }
        if !found.reported {
            return true;
        }
        let entry = found.entry;
        self.emit(entry.path(), found.relative, found.kind, || {
            entry.metadata()
        })
    }

    fn emit(
        &mut self,
        path: &Path,
        relative: &Path,
        kind: EntryType,
        metadata: impl FnOnce() -> std::result::Result<Metadata, ignore::Error>,
    ) -> bool {
        let start = self.buf.len();
        match self.shared.format {
            Format::Paths { nul } => {
                self.buf
                    .extend_from_slice(&shown(relative.as_os_str().as_bytes(), nul));
                self.buf.push(if nul { 0 } else { b'\n' });
            }
            Format::Stated => {
                let meta = metadata().map_err(|err| match err.into_io_error() {
                    Some(io) => io,
                    None => std::io::Error::other("no metadata"),
                });
                let relative = relative.as_os_str().as_bytes().to_vec();
                self.stated.push((relative, meta));
                self.printed += 1;
                return true;
            }
            Format::Json | Format::Collect => {
                let meta = match metadata() {
                    Ok(meta) => meta,
                    Err(err) => {
                        super::warn(describe_walk_error(&err));
                        return true;
                    }
                };
                let entry = Entry::new(path, relative, kind, &meta);
                if self.shared.format == Format::Collect {
                    self.entries.push(entry);
                    self.printed += 1;
                    return true;
                }
                let Ok(json) = serde_json::to_string(&entry) else {
                    return true;
                };
                self.buf
                    .extend_from_slice(escape_json_for(&json).as_bytes());
                self.buf.push(b'\n');
            }
        }
        self.printed += 1;
        if self.shared.record {
            self.paths.push(relative.as_os_str().as_bytes().to_vec());
        }
        if self.shared.sort {
            let line = self.buf.split_off(start);
            let key = relative.as_os_str().as_bytes().to_vec();
            self.rows.push((key, line));
            return true;
        }
        if self.buf.len() >= BLOCK {
            return self.flush();
        }
        true
    }

    fn flush(&mut self) -> bool {
        if self.buf.is_empty() {
            return true;
        }
        let result = blocks::write_block(&self.buf);
        self.buf.clear();
        match result {
            Ok(()) => true,
            Err(err) => {
                if let Ok(mut slot) = self.shared.failure.lock() {
                    slot.get_or_insert(err);
                }
                false
            }
        }
    }

    /// Hands over what this thread collected; called once, when it ends.
    fn finish(&mut self) {
        self.shared.count.fetch_add(self.printed, Ordering::Relaxed);
        self.printed = 0;
        if !self.seen.is_empty()
            && let Ok(mut seen) = self.shared.seen.lock()
        {
            seen.extend(self.seen.drain(..));
        }
        if self.shared.record {
            if let Ok(mut entered) = self.shared.entered.lock() {
                entered.append(&mut self.entered);
            }
            if let Ok(mut printed) = self.shared.printed.lock() {
                printed.append(&mut self.paths);
            }
        }
        if !self.entries.is_empty()
            && let Ok(mut all) = self.shared.collected.lock()
        {
            all.append(&mut self.entries);
        }
        if !self.stated.is_empty()
            && let Ok(mut all) = self.shared.stated.lock()
        {
            all.append(&mut self.stated);
        }
        if self.shared.sort {
            if let Ok(mut all) = self.shared.sorted.lock() {
                all.append(&mut self.rows);
            }
        } else {
            let failed = self.shared.failure.lock().map_or(true, |f| f.is_some());
            if !failed {
                self.flush();
            }
        }
    }
}

impl Drop for ThreadOut<'_> {
    fn drop(&mut self) {
        self.finish();
    }
}
