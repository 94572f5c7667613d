//! Printing a listing: plain relative paths or NDJSON entries, written by
//! each walker thread in large blocks (a listing is read to its end, so it is
//! not flushed per line), or collected and sorted by path bytes (git's order).

use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::sync::{Arc, Mutex};

use super::entry::Entry;
use super::options::Options;
use super::walk::{Found, describe_walk_error, walk_dir};
use crate::diag;
use crate::error::{Error, Result};
use crate::io_util::stdout_error;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Relative paths, raw bytes, one per line (or NUL-terminated).
    Paths { nul: bool },
    /// One JSON entry per line.
    Json,
}

const BLOCK: usize = 64 * 1024;

/// Lists the tree below the root on stdout. Returns how many entries were printed.
pub fn list(opts: &Arc<Options>, format: Format, sort: bool) -> Result<u64> {
    let failure: Mutex<Option<Error>> = Mutex::new(None);
    let sorted: Mutex<Vec<(Vec<u8>, Vec<u8>)>> = Mutex::new(Vec::new());
    let count = std::sync::atomic::AtomicU64::new(0);
    walk_dir(opts, &opts.root, || {
        ThreadOut {
            buf: Vec::with_capacity(BLOCK),
            rows: Vec::new(),
            format,
            sort,
            failure: &failure,
            sorted: &sorted,
            count: &count,
            printed: 0,
        }
        .into_visitor()
    });
    if let Some(err) = failure.into_inner().unwrap_or(None) {
        return Err(err);
    }
    std::io::stdout().flush().map_err(stdout_error)?;
    if sort {
        let mut rows = sorted.into_inner().unwrap_or_default();
        rows.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut out = std::io::BufWriter::with_capacity(BLOCK, std::io::stdout().lock());
        for (_, line) in &rows {
            out.write_all(line).map_err(stdout_error)?;
        }
        out.flush().map_err(stdout_error)?;
    }
    Ok(count.into_inner())
}

/// One walker thread's output buffer; flushed to stdout when full and when
/// the thread ends.
struct ThreadOut<'a> {
    buf: Vec<u8>,
    rows: Vec<(Vec<u8>, Vec<u8>)>,
    format: Format,
    sort: bool,
    failure: &'a Mutex<Option<Error>>,
    sorted: &'a Mutex<Vec<(Vec<u8>, Vec<u8>)>>,
    count: &'a std::sync::atomic::AtomicU64,
    printed: u64,
}

impl<'a> ThreadOut<'a> {
    fn into_visitor(mut self) -> impl FnMut(Found<'_>) -> bool + Send + 'a {
        move |found| self.visit(found)
    }

    fn visit(&mut self, found: Found<'_>) -> bool {
        if !found.reported {
            return true;
        }
        let start = self.buf.len();
        match self.format {
            Format::Paths { nul } => {
                self.buf
                    .extend_from_slice(found.relative.as_os_str().as_bytes());
                self.buf.push(if nul { 0 } else { b'\n' });
            }
            Format::Json => {
                let meta = match found.entry.metadata() {
                    Ok(meta) => meta,
                    Err(err) => {
                        diag::warn(describe_walk_error(&err));
                        return true;
                    }
                };
                let entry = Entry::new(found.entry.path(), found.relative, found.kind, &meta);
                if serde_json::to_writer(&mut self.buf, &entry).is_err() {
                    return true;
                }
                self.buf.push(b'\n');
            }
        }
        self.printed += 1;
        if self.sort {
            let line = self.buf.split_off(start);
            let key = found.relative.as_os_str().as_bytes().to_vec();
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
        let result = std::io::stdout().lock().write_all(&self.buf);
        self.buf.clear();
        match result {
            Ok(()) => true,
            Err(err) => {
                if let Ok(mut slot) = self.failure.lock() {
                    slot.get_or_insert(stdout_error(err));
                }
                false
            }
        }
    }
}

impl Drop for ThreadOut<'_> {
    fn drop(&mut self) {
        self.count
            .fetch_add(self.printed, std::sync::atomic::Ordering::Relaxed);
        if self.sort {
            if let Ok(mut all) = self.sorted.lock() {
                all.append(&mut self.rows);
            }
        } else {
            let failed = self.failure.lock().map(|f| f.is_some()).unwrap_or(true);
            if !failed {
                self.flush();
            }
        }
    }
}
