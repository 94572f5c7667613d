//! Replacing a file that another program, which takes no lock, also
//! rewrites by renaming (the OLLM CLI's session documents): the new
//! version goes in only over the very file that was read.
//!
//! A check of the file's identity followed by `rename(2)` leaves a window
//! between the two in which the other program's newer file can be renamed
//! in and then replaced unseen. Here the new version is swapped in with
//! `renameat2(RENAME_EXCHANGE)`, which leaves what it displaced under the
//! temp file's name; when that is not the file that was read, it is
//! swapped back and the caller reads again. The window that remains is
//! the other program's own: it may rename over our version a file it
//! built from a read made before ours went in (see docs/ollm-cli.md).

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::Path;

use rustix::fs::{CWD, RenameFlags, renameat_with};

use super::{Durability, check_regular_or_absent, parent_dir, sync_dir, temp_beside};
use crate::error::{Error, Result};

/// A file's identity and state when it was read: its inode, size and
/// modification time (a program that renames a new version in changes the
/// inode; one that writes in place changes the size or the time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    dev: u64,
    ino: u64,
    size: u64,
    mtime_ns: i128,
}

impl Stamp {
    pub fn of(meta: &Metadata) -> Stamp {
        Stamp {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime_ns: i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
        }
    }

    /// The stamp of what is at `path` now (`lstat`), `None` when nothing is.
    pub fn at(path: &Path) -> Option<Stamp> {
        std::fs::symlink_metadata(path).ok().map(|m| Stamp::of(&m))
    }

    /// Whether `other` is the same file (device and inode), whatever its
    /// size and time.
    pub fn same_file(self, other: Option<Stamp>) -> bool {
        other.is_some_and(|o| o.dev == self.dev && o.ino == self.ino)
    }
}

/// Whether [`replace_if_unchanged`] put the new version in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Replaced {
    /// In: the new version is the file stamped so.
    Written(Stamp),
    /// What is at the path is no longer the file that was read (or is
    /// gone): nothing was changed; read it again.
    Changed,
    /// A newer file came in between the last look and the swap: the new
    /// version was at the path for a moment, long enough for the other
    /// program to read it, and the files swapped out by mistake (their
    /// stamps and contents, oldest first) were put back. Read again, and
    /// keep what these held: a version built from ours lacks it.
    Displaced(Vec<(Stamp, Vec<u8>)>),
}

/// How many times a newer file swapped out by mistake is swapped back in
/// before giving up (each retry means the other program renamed yet
/// another version in within microseconds).
const PUT_BACK_TRIES: usize = 16;

/// Replaces `path` with `bytes` (a 0600 temp file beside it, fsynced,
/// exchanged with the file, the directory fsynced) if what is at `path`
/// is still the file stamped `read`. Where the file system cannot exchange
/// (`EINVAL`: not every one supports it), the last check is made just
/// before a plain rename.
pub fn replace_if_unchanged(path: &Path, bytes: &[u8], read: Stamp) -> Result<Replaced> {
    let dir = parent_dir(path);
    check_regular_or_absent(path)?;
    let temp = temp_beside(path, bytes, Durability::Synced)?;
    let ours = Stamp::of(&temp.as_file().metadata().map_err(|e| Error::io(path, &e))?);
    // The last look before the swap, after the slow part (the fsync): a
    // newer file renamed in meanwhile is seen here, without a swap.
    if Stamp::at(path) != Some(read) {
        return Ok(Replaced::Changed);
    }
    match exchange(temp.path(), path) {
        Ok(()) => {}
        Err(e) if e.raw_os_error() == Some(libc::ENOENT) => return Ok(Replaced::Changed),
        Err(e) if e.raw_os_error() == Some(libc::EINVAL) => {
            check_regular_or_absent(path)?;
            if Stamp::at(path) != Some(read) {
                return Ok(Replaced::Changed);
            }
            temp.persist(path).map_err(|e| Error::io(path, &e.error))?;
            sync_dir(dir).map_err(|e| Error::io(dir, &e))?;
            return Ok(Replaced::Written(ours));
        }
        Err(e) => return Err(Error::io(path, &e)),
    }
    // Under the temp file's name now: what the swap displaced.
    let displaced = Swapped::open(temp.path());
    if displaced.stamp == Some(read) {
        // The name, which holds the old version, is removed before the
        // directory's fsync, which makes both changes durable at once: the
        // directory's last change is then a disk flush in the past, which a
        // writer that waits for the clock to pass it (the index's link of
        // its write, `watch`) seldom waits for. A crash before the fsync
        // leaves the old version or the new at the path, never neither: the
        // name removed holds the new one only if the swap was lost.
        let _ = temp.close();
        sync_dir(dir).map_err(|e| Error::io(dir, &e))?;
        return Ok(Replaced::Written(ours));
    }
    let put_back = put_back(temp.path(), path, ours, displaced)?;
    // Read once every file is back where it belongs, not while ours is
    // still visible at the path.
    Ok(Replaced::Displaced(
        put_back.into_iter().filter_map(Swapped::contents).collect(),
    ))
}

/// A file under the temp name, about to be swapped (or just swapped out):
/// its stamp, and the file held open so its contents can be read later,
/// once the swaps are done, wherever it ends up.
struct Swapped {
    stamp: Option<Stamp>,
    file: Option<File>,
}

impl Swapped {
    fn open(path: &Path) -> Swapped {
        let opened = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
            .open(path)
            .and_then(|file| file.metadata().map(|meta| (file, meta)));
        match opened {
            Ok((file, meta)) => Swapped {
                stamp: Some(Stamp::of(&meta)),
                file: meta.file_type().is_file().then_some(file),
            },
            // A link, or gone: only what `lstat` says of it.
            Err(_) => Swapped {
                stamp: Stamp::at(path),
                file: None,
            },
        }
    }

    /// The file's stamp and what it holds (`None`: not a regular file, or
    /// unreadable).
    fn contents(self) -> Option<(Stamp, Vec<u8>)> {
        let mut bytes = Vec::new();
        self.file?.read_to_end(&mut bytes).ok()?;
        Some((self.stamp?, bytes))
    }
}

/// Swaps the file displaced by mistake (under `temp`, `displaced`) back in
/// over `placed`, the version that went in: swapped again while another
/// version came in between, until what comes out is what went in. The
/// caller's temp file, removed when it drops, then holds that. Returns
/// every file swapped out of the path meanwhile but ours, oldest first.
fn put_back(
    temp: &Path,
    path: &Path,
    mut placed: Stamp,
    displaced: Swapped,
) -> Result<Vec<Swapped>> {
    let mut going_in = displaced;
    let mut swapped_out = Vec::new();
    for _ in 0..PUT_BACK_TRIES {
        match exchange(temp, path) {
            Ok(()) => {}
            // The file was removed meanwhile: gone is its newest state.
            Err(e) if e.raw_os_error() == Some(libc::ENOENT) => {
                swapped_out.push(going_in);
                return Ok(swapped_out);
            }
            Err(e) => return Err(Error::io(path, &e)),
        }
        let going_in_stamp = going_in.stamp;
        swapped_out.push(going_in);
        let out = Swapped::open(temp);
        if placed.same_file(out.stamp) {
            let dir = parent_dir(path);
            sync_dir(dir).map_err(|e| Error::io(dir, &e))?;
            return Ok(swapped_out);
        }
        // Another version was renamed in over what we placed: it is newer
        // than the one just swapped in, so it goes back in turn.
        match going_in_stamp {
            Some(stamp) => placed = stamp,
            None => return Ok(swapped_out),
        }
        going_in = out;
    }
    Err(Error::Io {
        path: path.to_path_buf(),
        message: format!(
            "another program kept renaming new versions in while ollm put its newer file back ({PUT_BACK_TRIES} tries); the newest may be at {}",
            temp.display()
        ),
    })
}

fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE).map_err(io::Error::from)
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::super::FILE_MODE;
    use super::*;

    #[test]
    fn an_unchanged_file_is_replaced_and_no_temp_file_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        std::fs::write(&path, "old").unwrap();
        let read = Stamp::at(&path).unwrap();
        let Replaced::Written(new) = replace_if_unchanged(&path, b"new", read).unwrap() else {
            panic!("not written");
        };
        assert!(new.same_file(Stamp::at(&path)));
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(crate::fs::names_in(dir.path()), ["s.json"]);
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, FILE_MODE);
    }

    #[test]
    fn a_file_renamed_in_after_the_read_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        std::fs::write(&path, "read").unwrap();
        let read = Stamp::at(&path).unwrap();
        let newer = dir.path().join("s.json.tmp");
        std::fs::write(&newer, "newer").unwrap();
        std::fs::rename(&newer, &path).unwrap();
        assert_eq!(
            replace_if_unchanged(&path, b"ours", read).unwrap(),
            Replaced::Changed
        );
        assert_eq!(std::fs::read(&path).unwrap(), b"newer");
        assert_eq!(crate::fs::names_in(dir.path()), ["s.json"]);
    }

    #[test]
    fn a_file_swapped_out_by_mistake_is_put_back_over_ours() {
        // The state the exchange leaves when a newer file came in between
        // the last look and the swap: ours at the path, the newer one
        // under the temp name.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        let temp = dir.path().join(".s.json.ollm-tmp-x");
        std::fs::write(&path, "ours").unwrap();
        std::fs::write(&temp, "newer").unwrap();
        let ours = Stamp::at(&path).unwrap();
        let swapped_out = put_back(&temp, &path, ours, Swapped::open(&temp)).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"newer");
        assert_eq!(std::fs::read(&temp).unwrap(), b"ours");
        let contents: Vec<_> = swapped_out
            .into_iter()
            .map(|file| file.contents().map(|(_, bytes)| bytes))
            .collect();
        assert_eq!(contents, [Some(b"newer".to_vec())]);
    }

    #[test]
    fn a_put_back_over_a_still_newer_file_swaps_that_one_back_in() {
        // A third version was renamed in over ours before the put-back:
        // the first swap brings out the third, which is newer than the one
        // it put in, so it goes in again.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        let temp = dir.path().join(".s.json.ollm-tmp-x");
        std::fs::write(&path, "ours").unwrap();
        let ours = Stamp::at(&path).unwrap();
        std::fs::write(path.with_extension("third"), "third").unwrap();
        std::fs::rename(path.with_extension("third"), &path).unwrap();
        std::fs::write(&temp, "second").unwrap();
        let swapped_out = put_back(&temp, &path, ours, Swapped::open(&temp)).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"third");
        assert_eq!(std::fs::read(&temp).unwrap(), b"second");
        // Both were swapped out of the path once: a program that read ours
        // meanwhile may have built the third from it, without the second's
        // last change.
        let contents: Vec<_> = swapped_out
            .into_iter()
            .map(|file| file.contents().map(|(_, bytes)| bytes))
            .collect();
        assert_eq!(
            contents,
            [Some(b"second".to_vec()), Some(b"third".to_vec())]
        );
    }
}
