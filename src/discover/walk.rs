//! The parallel, ignore-aware walk: the `ignore` crate's walker configured for
//! git's semantics plus `.ollmignore`, the built-ins, globs and depth.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use ignore::{DirEntry, WalkBuilder, WalkState};

use super::entry::EntryType;
use super::options::{DEFAULT_OLLMIGNORE, Options};
use crate::error::describe_io;

/// A reported entry as the walker found it: `relative` is below the root.
pub struct Found<'a> {
    pub entry: &'a DirEntry,
    pub relative: &'a Path,
    pub kind: EntryType,
    /// Whether the type and include filters let it through; directories
    /// that are entered but not reported have this false.
    pub reported: bool,
    /// For a directory: whether the walk reads it (the depth limit allows).
    pub entered: bool,
}

/// A walker over `start` (the root or a directory below it) that applies
/// every rule of `opts`; depth limits count from the root.
pub fn builder(opts: &Arc<Options>, start: &Path) -> WalkBuilder {
    let mut builder = WalkBuilder::new(start);
    // The walker opens every ignore file it meets, and opening a FIFO
    // blocks: an ignore file above or at the start that is not a regular
    // file turns that kind of ignore file off for the walk, with a warning.
    let special = special_ignore_files(start);
    let kind_ok = |name: &str| !special.iter().any(|p| p.ends_with(name));
    builder
        .standard_filters(false)
        .hidden(!opts.include_hidden)
        .parents(true)
        .git_ignore(kind_ok(".gitignore"))
        .git_exclude(kind_ok("info/exclude"))
        .git_global(true)
        // Outside a git work tree `.gitignore` files still apply (Req 6.3).
        .require_git(false)
        .follow_links(opts.follow_symlinks)
        .threads(opts.threads);
    if kind_ok(DEFAULT_OLLMIGNORE) {
        builder.add_custom_ignore_filename(DEFAULT_OLLMIGNORE);
    }
    let start_level = level_below_root(opts, start);
    builder.max_depth(
        opts.walker_depth_limit()
            .map(|limit| limit.saturating_sub(start_level)),
    );
    let filter_opts = Arc::clone(opts);
    builder.filter_entry(move |entry| {
        let relative = filter_opts.relative(entry.path());
        if relative.as_os_str().is_empty() {
            return true;
        }
        let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
        if is_dir && let Some((file, kind)) = special_ignore_file_in(entry.path()) {
            super::warn(format!(
                "{} is {kind}, not a regular file, and is never read; {} is not listed, since its rules are unknown",
                file.display(),
                entry.path().display()
            ));
            return false;
        }
        filter_opts.keep(relative, is_dir)
    });
    builder
}

/// The first ignore file in `dir` that is not a regular file, and what it is.
fn special_ignore_file_in(dir: &Path) -> Option<(std::path::PathBuf, &'static str)> {
    [".gitignore", DEFAULT_OLLMIGNORE]
        .into_iter()
        .find_map(|name| {
            let path = dir.join(name);
            crate::fs::special_kind(&path).map(|kind| (path, kind))
        })
}

/// Ignore files in `start` and its ancestors (and the work tree's
/// `info/exclude`) that are not regular files, each warned about once.
fn special_ignore_files(start: &Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut candidates = Vec::new();
    for dir in start.ancestors() {
        candidates.push(dir.join(".gitignore"));
        candidates.push(dir.join(DEFAULT_OLLMIGNORE));
    }
    if let Some((_, git_dir)) = super::git_index::find_work_tree(start) {
        candidates.push(git_dir.join("info/exclude"));
    }
    for path in candidates {
        if let Some(kind) = crate::fs::special_kind(&path) {
            super::warn(format!(
                "{} is {kind}, not a regular file, and is never read; no file of that name applies to this listing",
                path.display()
            ));
            found.push(path);
        }
    }
    found
}

/// How many directory levels `dir` is below the root (the root is 0).
pub fn level_below_root(opts: &Options, dir: &Path) -> usize {
    dir.strip_prefix(&opts.root)
        .map_or(0, |rel| rel.components().count())
}

/// Walks `start` in parallel. `make_visitor` is called once per worker
/// thread; its visitor sees every entry below `start` that the rules keep
/// and returns false to stop the walk. Unreadable directories, unreadable
/// ignore files and symbolic-link loops are warnings; the walk goes on.
pub fn walk_dir<F, V>(opts: &Arc<Options>, start: &Path, make_visitor: F)
where
    F: Fn() -> V + Sync,
    V: FnMut(Found<'_>) -> bool + Send,
{
    // Directories at the depth limit are listed but not read; a listing
    // that silently lacks deep files would look complete, so say so.
    let truncated = Arc::new(AtomicUsize::new(0));
    let limit_here = opts
        .walker_depth_limit()
        .map(|limit| limit.saturating_sub(level_below_root(opts, start)));
    builder(opts, start).build_parallel().run(|| {
        let mut visit = make_visitor();
        let opts = Arc::clone(opts);
        let truncated = Arc::clone(&truncated);
        Box::new(move |result| match result {
            Ok(entry) => {
                if let Some(err) = entry.error() {
                    super::warn(describe_walk_error(err));
                }
                if entry.depth() == 0 {
                    return WalkState::Continue;
                }
                let Some(file_type) = entry.file_type() else {
                    return WalkState::Continue;
                };
                let relative = opts.relative(entry.path());
                let Some(kind) = EntryType::of(file_type) else {
                    return WalkState::Continue;
                };
                if kind == EntryType::File {
                    check_ignore_file(&entry);
                }
                let reported = opts.reports(relative, kind);
                let entered = kind == EntryType::Directory
                    && opts
                        .walker_depth_limit()
                        .is_none_or(|limit| entry.depth() < limit);
                if kind == EntryType::Directory
                    && limit_here.is_some_and(|limit| entry.depth() >= limit)
                {
                    truncated.fetch_add(1, Ordering::Relaxed);
                }
                let found = Found {
                    entry: &entry,
                    relative,
                    kind,
                    reported,
                    entered,
                };
                if visit(found) {
                    WalkState::Continue
                } else {
                    WalkState::Quit
                }
            }
            Err(err) => {
                super::warn(describe_walk_error(&err));
                WalkState::Continue
            }
        })
    });
    let truncated = truncated.load(Ordering::Relaxed);
    if truncated > 0 {
        let depth = opts.max_depth.unwrap_or_default();
        let (noun, verb) = if truncated == 1 {
            ("directory", "was")
        } else {
            ("directories", "were")
        };
        super::warn(format!(
            "{truncated} {noun} at the depth limit ({depth}) {verb} not read; \
             use --max-depth unlimited (or a larger N) to list what they hold"
        ));
    }
}

/// The walker skips an ignore file it cannot read without a word; we say
/// so, since its rules are then not applied.
fn check_ignore_file(entry: &DirEntry) {
    let name = entry.file_name();
    if name != ".gitignore" && name != DEFAULT_OLLMIGNORE {
        return;
    }
    if let Err(err) = std::fs::File::open(entry.path()) {
        super::warn(format!(
            "{}: {}; its rules are not applied",
            entry.path().display(),
            describe_io(&err)
        ));
    }
}

/// One line describing a walk problem, naming the path and what was done.
pub fn describe_walk_error(err: &ignore::Error) -> String {
    match err {
        ignore::Error::Loop { ancestor, child } => format!(
            "symbolic link loop: {} leads back to {}; not followed",
            child.display(),
            ancestor.display()
        ),
        ignore::Error::WithPath { path, err } => match err.as_ref() {
            ignore::Error::Io(io) => {
                format!("{}: {} (skipped)", path.display(), describe_io(io))
            }
            other => format!("{}: {}", path.display(), describe_walk_error(other)),
        },
        ignore::Error::WithDepth { err, .. } => describe_walk_error(err),
        ignore::Error::WithLineNumber { line, err } => {
            format!("line {line}: {}", describe_walk_error(err))
        }
        ignore::Error::Partial(errs) => errs
            .iter()
            .map(describe_walk_error)
            .collect::<Vec<_>>()
            .join("; "),
        ignore::Error::Io(io) => format!("{} (skipped)", describe_io(io)),
        other => other.to_string(),
    }
}

/// The files and links below `dir` (a directory under the root) that a
/// listing of the root reports, relative to the root: every level when
/// `recursive`, else `dir`'s own entries. For a caller that knows what
/// changed and re-lists only there; unreadable entries are left out.
pub fn list_below(opts: &Arc<Options>, dir: &Path, recursive: bool) -> Vec<Vec<u8>> {
    use std::os::unix::ffi::OsStrExt;
    let mut walker = builder(opts, dir);
    walker.max_depth(if recursive { None } else { Some(1) });
    let mut out = Vec::new();
    for entry in walker.build().flatten() {
        if entry.depth() == 0 {
            continue;
        }
        let Some(kind) = entry.file_type().and_then(EntryType::of) else {
            continue;
        };
        let relative = opts.relative(entry.path());
        if kind != EntryType::Directory && opts.reports(relative, kind) {
            out.push(relative.as_os_str().as_bytes().to_vec());
        }
    }
    out
}

/// Whether a listing of the root reads `dir` (a directory below it): no
/// directory on the way, `dir` included, is ignored or filtered out. A
/// walk started at `dir` itself would not know, since the walker never
/// matches its starting point against the ignore rules above it.
pub fn enters(opts: &Arc<Options>, dir: &Path) -> bool {
    let Ok(relative) = dir.strip_prefix(&opts.root) else {
        return false;
    };
    let mut parent = opts.root.clone();
    for part in relative.components() {
        let child = parent.join(part);
        let mut walker = builder(opts, &parent);
        walker.max_depth(Some(1));
        let listed = walker.build().flatten().any(|entry| {
            entry.depth() == 1
                && entry.path() == child
                && entry.file_type().is_some_and(|t| t.is_dir())
        });
        if !listed {
            return false;
        }
        parent = child;
    }
    true
}
