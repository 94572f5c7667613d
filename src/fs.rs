//! The file-system layer under every store (sessions, snapshots, the
//! context store, loop state, the discover cache, exports).
//!
//! - **Atomic replace**: a new file is written under an unpredictable name
//!   created exclusively (`O_EXCL`) in the target's directory, fsynced,
//!   renamed over the target, and the directory fsynced.
//! - **Private**: directories are made 0700 and files 0600 whatever the
//!   umask; a store directory found open to others is tightened on its next
//!   write, with one notice.
//! - **No links, no special files**: nothing inside a store is read or
//!   written through a symbolic link (`O_NOFOLLOW`, `lstat`), and nothing
//!   that is not a regular file or directory (a device, FIFO, socket or
//!   link) is read, renamed or replaced: that is an error naming the path
//!   (exit code 4).
//! - **Temp files of killed writers** are named `.<target>.ollm-tmp-<random>`
//!   and removed by the next writer of that target holding its lock.

use std::ffi::OsString;
use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{Error, Result};

pub(crate) mod lock;
pub(crate) mod locked_file;
pub(crate) mod replace;
pub(crate) mod slots;
mod store_dir;

pub use store_dir::{create_store_dir, writable};

/// The mode of every directory a store creates.
pub const DIR_MODE: u32 = 0o700;
/// The mode of every file a store creates.
pub const FILE_MODE: u32 = 0o600;
/// What every temporary file's name holds after the target's name.
pub const TEMP_MARK: &str = ".ollm-tmp-";

/// How much a write must survive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// fsync the file and its directory: survives power loss.
    Synced,
    /// A cache that is checked before use: atomic, but not fsynced.
    Cache,
}

fn not_regular(path: &Path, meta: &Metadata) -> Error {
    Error::Io {
        path: path.to_path_buf(),
        message: format!(
            "is {}, not a regular file; it is left alone",
            describe_type(meta)
        ),
    }
}

/// What kind of entry `meta` describes, in words ("a FIFO").
pub fn describe_type(meta: &Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_file() {
        "a file"
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else {
        "a special file"
    }
}

/// What is at `path` (following links) when it is there and neither a
/// regular file nor a directory, in words ("a FIFO").
pub fn special_kind(path: &Path) -> Option<&'static str> {
    let meta = std::fs::metadata(path).ok()?;
    (!meta.is_file() && !meta.is_dir()).then(|| describe_type(&meta))
}

/// The error for `path` that is not a directory (a link, a file, a device).
fn not_a_dir(path: &Path, meta: &Metadata) -> Error {
    Error::Io {
        path: path.to_path_buf(),
        message: format!("is {}, not a directory; it is left alone", {
            if meta.is_file() {
                "a file"
            } else {
                describe_type(meta)
            }
        }),
    }
}

/// `lstat` of `path`: `None` when nothing is there.
pub fn entry(path: &Path) -> Result<Option<Metadata>> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) => Ok(Some(meta)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(path, &e)),
    }
}

/// Whether a regular file (not a link to one) is at `path`.
pub fn is_regular_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file())
}

/// Whether a directory (not a link to one) is at `path`.
pub fn is_real_dir(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_dir())
}

/// Refuses anything at `path` that is there and not a regular file.
pub fn check_regular_or_absent(path: &Path) -> Result<()> {
    match entry(path)? {
        Some(meta) if !meta.file_type().is_file() => Err(not_regular(path, &meta)),
        _ => Ok(()),
    }
}

/// Refuses anything at `path` that is there and not a directory.
pub fn check_dir_or_absent(path: &Path) -> Result<()> {
    match entry(path)? {
        Some(meta) if !meta.file_type().is_dir() => Err(not_a_dir(path, &meta)),
        _ => Ok(()),
    }
}

/// Opens a regular file for reading without following a link and without
/// blocking on a FIFO; `None` when it does not exist. Anything else at the
/// path is an error naming it.
pub fn open_regular(path: &Path) -> Result<Option<File>> {
    let mut options = OpenOptions::new();
    options.read(true);
    Ok(open_checked(path, &mut options)?.map(|(file, _)| file))
}

/// Opens `path` with `options` plus no-follow and non-blocking flags, and
/// keeps the file only when it is a regular one (then blocking again): a
/// link or a special file is an error naming it, a missing one `None`.
fn open_checked(path: &Path, options: &mut OpenOptions) -> Result<Option<(File, Metadata)>> {
    let file = match options
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
    {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return match entry(path)? {
                Some(meta) => Err(not_regular(path, &meta)),
                None => Ok(None),
            };
        }
        Err(e) => return Err(Error::io(path, &e)),
    };
    let meta = file.metadata().map_err(|e| Error::io(path, &e))?;
    if !meta.file_type().is_file() {
        return Err(not_regular(path, &meta));
    }
    clear_nonblock(&file);
    Ok(Some((file, meta)))
}

fn clear_nonblock(file: &File) {
    use std::os::fd::AsRawFd;
    let fd = file.as_raw_fd();
    // SAFETY: fcntl on a descriptor this function's caller owns.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags >= 0 {
            libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK);
        }
    }
}

/// Reads a whole regular file (see [`open_regular`]); `None` when missing.
pub fn read_regular(path: &Path) -> Result<Option<Vec<u8>>> {
    let Some(mut file) = open_regular(path)? else {
        return Ok(None);
    };
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, &e))?;
    Ok(Some(bytes))
}

/// Opens (creating, 0600) a regular file for appending and reading,
/// refusing a link or a special file.
pub fn open_append(path: &Path, create: bool) -> Result<Option<File>> {
    let mut options = OpenOptions::new();
    options
        .read(true)
        .append(true)
        .create(create)
        .mode(FILE_MODE);
    let Some((file, meta)) = open_checked(path, &mut options)? else {
        return Ok(None);
    };
    tighten_file(&file, &meta, path);
    Ok(Some(file))
}

/// Opens (creating, 0600) a lock file: never through a link, never a
/// special file.
pub fn open_lock_file(path: &Path) -> Result<File> {
    if let Some(dir) = path.parent() {
        create_private_dir_all(dir)?;
    }
    open_private_rw(path)
}

/// Opens (creating, 0600) a regular file for reading and writing in place:
/// never through a link, and a special file (a FIFO, a device) is refused
/// without blocking on its open.
pub fn open_private_rw(path: &Path) -> Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(FILE_MODE)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
        .map_err(|e| match (e.raw_os_error(), entry(path)) {
            (Some(libc::ELOOP), Ok(Some(meta))) => not_regular(path, &meta),
            _ => Error::io(path, &e),
        })?;
    let meta = file.metadata().map_err(|e| Error::io(path, &e))?;
    if !meta.file_type().is_file() {
        return Err(not_regular(path, &meta));
    }
    clear_nonblock(&file);
    Ok(file)
}

static NOTICE_GIVEN: AtomicBool = AtomicBool::new(false);

fn notice_tightened(path: &Path) {
    if !NOTICE_GIVEN.swap(true, Ordering::Relaxed) {
        crate::diag::warn(format!(
            "{} was readable by other users; its permissions are now owner-only (0700 for directories, 0600 for files)",
            path.display()
        ));
    }
}

fn tighten_file(file: &File, meta: &Metadata, path: &Path) {
    if meta.permissions().mode() & 0o077 != 0 {
        let _ = file.set_permissions(std::fs::Permissions::from_mode(FILE_MODE));
        notice_tightened(path);
    }
}

/// Makes an existing directory of a store owner-only (with one notice per
/// run), so a store made before modes were enforced is private after its
/// next write. Does nothing when it is missing or not ours to change.
pub fn tighten_dir(path: &Path) {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    // A shared directory (sticky, like /tmp) or someone else's is never ours.
    if let Ok(meta) = std::fs::symlink_metadata(path)
        && meta.is_dir()
        && meta.uid() == me
        && meta.permissions().mode() & 0o1000 == 0
        && meta.permissions().mode() & 0o077 != 0
        && std::fs::set_permissions(path, std::fs::Permissions::from_mode(DIR_MODE)).is_ok()
    {
        notice_tightened(path);
    }
}

/// Tightens a store's directory and, when it lies inside the ollm home,
/// every directory from the ollm home down to it.
pub fn tighten_store(dir: &Path) {
    let home = crate::paths::ollm_home();
    if let Ok(below) = dir.strip_prefix(&home) {
        let mut at = home.clone();
        tighten_dir(&at);
        for part in below.components() {
            at.push(part);
            tighten_dir(&at);
        }
    } else {
        tighten_dir(dir);
    }
}

/// Creates `dir` and its missing parents as 0700 directories; an existing
/// `dir` must be a directory (a link to one is accepted only for the
/// parents, which belong to the user, not to the store).
pub fn create_private_dir_all(dir: &Path) -> Result<()> {
    match entry(dir)? {
        Some(meta) if meta.is_dir() => return Ok(()),
        Some(meta) if meta.file_type().is_symlink() && dir.is_dir() => return Ok(()),
        Some(meta) => return Err(not_a_dir(dir, &meta)),
        None => {}
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(DIR_MODE)
        .create(dir)
        .map_err(|e| Error::io(dir, &e))?;
    // The umask may have taken bits away, never added: 0700 is exact.
    Ok(())
}

/// Creates one 0700 directory inside a store, refusing a link or a file
/// already at its place. Returns whether it was created.
pub fn create_private_dir(dir: &Path) -> Result<bool> {
    match std::fs::DirBuilder::new().mode(DIR_MODE).create(dir) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            check_dir_or_absent(dir)?;
            Ok(false)
        }
        Err(e) => Err(Error::io(dir, &e)),
    }
}

fn temp_prefix(path: &Path) -> OsString {
    let mut prefix = OsString::from(".");
    prefix.push(path.file_name().unwrap_or_default());
    prefix.push(TEMP_MARK);
    prefix
}

fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// Replaces `path` with `bytes` atomically, the new file 0600. Refuses a
/// target that is a link or not a regular file. Creates a missing parent
/// directory 0700.
pub fn write_atomic(path: &Path, bytes: &[u8], durability: Durability) -> Result<()> {
    let dir = parent_dir(path);
    create_private_dir_all(dir)?;
    check_regular_or_absent(path)?;
    let temp = temp_beside(path, bytes, durability)?;
    // Checked again just before the rename: a special file may have
    // appeared meanwhile (the temp file is removed when `temp` drops).
    check_regular_or_absent(path)?;
    temp.persist(path).map_err(|e| Error::io(path, &e.error))?;
    if durability == Durability::Synced {
        sync_dir(dir).map_err(|e| Error::io(dir, &e))?;
    }
    Ok(())
}

/// `bytes` in a private (0600) temp file beside `path`, named to be swept
/// as ours, fsynced when `durability` asks; removed when dropped unless
/// persisted.
pub(crate) fn temp_beside(
    path: &Path,
    bytes: &[u8],
    durability: Durability,
) -> Result<tempfile::NamedTempFile> {
    let dir = parent_dir(path);
    let mut temp = tempfile::Builder::new()
        .prefix(&temp_prefix(path))
        .rand_bytes(12)
        .permissions(std::fs::Permissions::from_mode(FILE_MODE))
        .tempfile_in(dir)
        .map_err(|e| Error::io(dir, &e))?;
    let written = temp.write_all(bytes).and_then(|()| match durability {
        Durability::Synced => temp.as_file().sync_all(),
        Durability::Cache => Ok(()),
    });
    written.map_err(|e| Error::io(path, &e))?;
    Ok(temp)
}

/// fsyncs a directory so a rename or a new file in it survives power loss.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Removes the temp files that killed writers of `target` left beside it
/// (ours, and the `.NAME.tmp-PID` of earlier versions). The caller holds
/// the lock that guards `target`, so no live writer's file is among them.
pub fn sweep_temps(target: &Path) {
    let dir = parent_dir(target);
    let Some(name) = target.file_name().and_then(|n| n.to_str()) else {
        return;
    };
    // Only hidden names with our marks: `NAME.tmp` beside a file the user
    // named (`--state notes.json`) may be the user's own.
    let ours = format!(".{name}{TEMP_MARK}");
    let old = format!(".{name}.tmp-");
    sweep_matching(dir, |entry| {
        entry.starts_with(&ours)
            || entry
                .strip_prefix(&old)
                .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
    });
}

/// Removes every temp file in `dir` (a directory whose every file is
/// guarded by one lock the caller holds).
pub fn sweep_all_temps(dir: &Path) {
    sweep_matching(dir, |name| {
        name.contains(TEMP_MARK)
            || name.ends_with(".json.tmp")
            || (name.starts_with('.')
                && name
                    .rsplit_once(".tmp-")
                    .is_some_and(|(_, pid)| pid.bytes().all(|b| b.is_ascii_digit())))
    });
}

fn sweep_matching(dir: &Path, matches: impl Fn(&str) -> bool) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        // A link planted at a temp name is removed, never followed.
        if matches(name)
            && entry
                .file_type()
                .is_ok_and(|t| t.is_file() || t.is_symlink())
        {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Renames `from` (a regular file or a directory, never a link or a
/// special file) to `to`, and fsyncs the directory holding `to`.
pub fn rename_entry(from: &Path, to: &Path) -> Result<()> {
    match entry(from)? {
        Some(meta) if meta.is_file() || meta.is_dir() => {}
        Some(meta) => return Err(not_regular(from, &meta)),
        None => {
            return Err(Error::io(from, &io::Error::from(io::ErrorKind::NotFound)));
        }
    }
    std::fs::rename(from, to).map_err(|e| Error::io(from, &e))?;
    sync_dir(parent_dir(to)).map_err(|e| Error::io(parent_dir(to), &e))
}

/// Removes what is at `path` (a directory tree, a file or a link, never
/// following links); missing is fine.
pub fn remove_any(path: &Path) -> io::Result<()> {
    let result = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(path),
        Ok(_) => std::fs::remove_file(path),
        Err(e) => Err(e),
    };
    match result {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

/// Where an export writes: a new or replaced regular file, or the stream
/// `/dev/stdout` (or `/dev/fd/1`) names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Stdout,
    File(PathBuf),
}

/// Decides where an export goes: `-`, `/dev/stdout` and `/dev/fd/1` are
/// standard output (written as a stream, never replaced); an existing
/// file is replaced only with `force`; anything that is not a regular file
/// is refused.
pub fn export_target(path: &Path, force: bool) -> Result<Target> {
    let text = path.as_os_str();
    if text == "-" || text == "/dev/stdout" || text == "/dev/fd/1" || text == "/proc/self/fd/1" {
        return Ok(Target::Stdout);
    }
    match entry(path)? {
        None => Ok(Target::File(path.to_path_buf())),
        Some(meta) if !meta.file_type().is_file() => Err(not_regular(path, &meta)),
        Some(_) if !force => Err(Error::usage(format!(
            "{} exists; pass --force to replace it",
            path.display()
        ))),
        Some(_) => Ok(Target::File(path.to_path_buf())),
    }
}

/// The names in `dir`, sorted: what tests compare before and after a
/// command to see that it created nothing.
#[cfg(test)]
pub(crate) fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read the directory")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

#[cfg(test)]
mod tests;
