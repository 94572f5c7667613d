//! A session file's stamp: what tells the index that a file changed
//! since its row was made.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use crate::session::store::file::JOURNAL;

/// The stamp of a session's file as it is now: it changes with every
/// write, except two rewrites in place, of one size, in one tick of the
/// file system's clock (a journal only grows, or is replaced whole).
pub fn stamp_of(path: &Path) -> String {
    std::fs::symlink_metadata(path).map_or_else(|_| String::new(), |m| stamp_of_meta(&m))
}

/// [`stamp_of`] a file whose metadata is `meta`.
pub fn stamp_of_meta(m: &std::fs::Metadata) -> String {
    format!("{}:{}:{}.{}", m.ino(), m.len(), m.mtime(), m.mtime_nsec())
}

/// A session's whole file as [`DataDir::read_plain`] read it.
pub(crate) struct PlainFile {
    pub stamp: String,
    pub mtime_ms: i64,
    pub bytes: Vec<u8>,
}

/// The data directory held open, so that a journal's stamp is looked up
/// from it: two components of a path rather than the whole path, for
/// each of a listing's rows.
pub(crate) struct DataDir(std::os::fd::OwnedFd);

impl DataDir {
    pub(crate) fn open(dir: &Path) -> Option<DataDir> {
        use rustix::fs::{Mode, OFlags};
        rustix::fs::open(
            dir,
            OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .ok()
        .map(DataDir)
    }

    /// The bytes of session `id`'s journal, opened from the directory.
    pub(crate) fn read_journal(&self, id: &str) -> std::io::Result<Vec<u8>> {
        use rustix::fs::{Mode, OFlags};
        use std::io::Read;
        let fd = rustix::fs::openat(
            &self.0,
            format!("{id}/{JOURNAL}").as_str(),
            OFlags::RDONLY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        let mut file = std::fs::File::from(fd);
        let size = file.metadata().map_or(0, |m| m.len());
        let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
        file.read_to_end(&mut bytes)?;
        Ok(bytes)
    }

    /// Whether session `id`'s journal has `stamp` ([`stamp_of`]), compared
    /// without building the stamp's text.
    pub(super) fn journal_stamp_is(&self, id: &str, stamp: &str) -> bool {
        self.stamp_is(&format!("{id}/{JOURNAL}"), stamp)
    }

    /// Whether session `id`'s whole-file (OLLM CLI format) session has
    /// `stamp`.
    pub(super) fn plain_stamp_is(&self, id: &str, stamp: &str) -> bool {
        self.stamp_is(&format!("{id}.json"), stamp)
    }

    /// Session `id`'s whole-file (OLLM CLI format) session read from the
    /// directory, with its stamp ([`stamp_of`]) and change time (ms) as
    /// the open file has them; `None` when it is not there or not a
    /// regular file. Never through a link, never blocking on a FIFO, and
    /// half the system calls of an open by path, a `stat`, and a read to
    /// the end (which `stat`s again for the size): a first build makes
    /// one of these per session.
    pub(crate) fn read_plain(&self, id: &str) -> Option<PlainFile> {
        use rustix::fs::{FileType, Mode, OFlags};
        let fd = rustix::fs::openat(
            &self.0,
            format!("{id}.json").as_str(),
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .ok()?;
        let stat = rustix::fs::fstat(&fd).ok()?;
        if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
            return None;
        }
        let size = usize::try_from(stat.st_size).ok()?;
        // One byte more than its size, so that the read that finds the
        // end is the second, as with no size known.
        let mut bytes = vec![0u8; size + 1];
        let mut filled = 0;
        loop {
            if filled == bytes.len() {
                bytes.resize(filled * 2, 0);
            }
            match rustix::io::read(&fd, &mut bytes[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(rustix::io::Errno::INTR) => {}
                Err(_) => return None,
            }
        }
        bytes.truncate(filled);
        Some(PlainFile {
            stamp: format!(
                "{}:{}:{}.{}",
                stat.st_ino, stat.st_size, stat.st_mtime, stat.st_mtime_nsec
            ),
            mtime_ms: stat
                .st_mtime
                .saturating_mul(1000)
                .saturating_add(i64::try_from(stat.st_mtime_nsec / 1_000_000).unwrap_or(0)),
            bytes,
        })
    }

    fn stamp_is(&self, path: &str, stamp: &str) -> bool {
        use std::io::Write;
        let Ok(stat) = rustix::fs::statat(&self.0, path, rustix::fs::AtFlags::SYMLINK_NOFOLLOW)
        else {
            return stamp.is_empty();
        };
        let mut text = [0u8; 96];
        let mut out = &mut text[..];
        let written = write!(
            out,
            "{}:{}:{}.{}",
            stat.st_ino, stat.st_size, stat.st_mtime, stat.st_mtime_nsec
        );
        let len = 96 - out.len();
        written.is_ok() && &text[..len] == stamp.as_bytes()
    }
}

/// The running kernel's boot id (a reboot changes it).
pub fn boot_id() -> String {
    std::fs::read_to_string("/proc/sys/kernel/random/boot_id")
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_stamp_looked_up_from_the_data_directory_is_the_one_its_path_gives() {
        let dir = tempfile::tempdir().unwrap();
        let session = dir.path().join("abc");
        std::fs::create_dir(&session).unwrap();
        let journal = session.join(JOURNAL);
        std::fs::write(&journal, b"{}\n").unwrap();
        let data_dir = DataDir::open(dir.path()).unwrap();
        let stamp = stamp_of(&journal);
        assert!(data_dir.journal_stamp_is("abc", &stamp));
        assert!(!data_dir.journal_stamp_is("abc", &stamp[1..]));
        assert!(!data_dir.journal_stamp_is("abc", ""));
        std::fs::write(&journal, b"{}\n{}\n").unwrap();
        assert!(!data_dir.journal_stamp_is("abc", &stamp));
        assert!(data_dir.journal_stamp_is("abc", &stamp_of(&journal)));
        // A session with no journal has the empty stamp, as `stamp_of` says.
        assert_eq!(stamp_of(&dir.path().join("gone").join(JOURNAL)), "");
        assert!(data_dir.journal_stamp_is("gone", ""));
        assert!(!data_dir.journal_stamp_is("gone", &stamp));
        let plain = dir.path().join("abc.json");
        std::fs::write(&plain, b"{}").unwrap();
        assert!(data_dir.plain_stamp_is("abc", &stamp_of(&plain)));
        assert!(!data_dir.plain_stamp_is("abc", &stamp));
        let read = data_dir.read_plain("abc").unwrap();
        assert_eq!(read.stamp, stamp_of(&plain));
        assert_eq!(read.bytes, b"{}");
        let meta = std::fs::metadata(&plain).unwrap();
        assert_eq!(
            read.mtime_ms,
            meta.mtime() * 1000 + meta.mtime_nsec() / 1_000_000
        );
    }

    #[test]
    fn a_plain_file_read_from_the_data_directory_is_read_whole_and_only_when_regular() {
        let dir = tempfile::tempdir().unwrap();
        let data_dir = DataDir::open(dir.path()).unwrap();
        // Larger than a first read of its size hands back at once.
        let big: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
        std::fs::write(dir.path().join("big.json"), &big).unwrap();
        assert_eq!(data_dir.read_plain("big").unwrap().bytes, big);
        std::fs::write(dir.path().join("empty.json"), b"").unwrap();
        assert!(data_dir.read_plain("empty").unwrap().bytes.is_empty());
        assert!(data_dir.read_plain("gone").is_none());
        std::os::unix::fs::symlink(dir.path().join("big.json"), dir.path().join("link.json"))
            .unwrap();
        assert!(data_dir.read_plain("link").is_none());
        rustix::fs::mknodat(
            rustix::fs::CWD,
            dir.path().join("fifo.json"),
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        // Would block forever if opened without O_NONBLOCK.
        assert!(data_dir.read_plain("fifo").is_none());
        std::fs::create_dir(dir.path().join("dir.json")).unwrap();
        assert!(data_dir.read_plain("dir").is_none());
    }
}
