//! The bits for search of one session's file: what it gained since the
//! bits that cover it were made (a journal past `<inode>:<bytes>`, a
//! whole-file session when its stamp moved), read a chunk at a time.
//! Below both the build that makes them in its one pass and the search
//! that brings marked sessions up to date.

use super::grams::Column;
use super::stamp::stamp_of;
use crate::error::Error;
use crate::session::store::file::Kind;

/// What reading a marked session gave.
pub(super) enum Read {
    /// Its bits cover its file as it is.
    Unchanged,
    /// Bits to add, and what they cover now.
    Grew {
        column: Box<Column>,
        covered: String,
    },
    /// It could not be read: always a candidate, and read again next time.
    Unreadable,
}

/// The bits of a whole-file session's `bytes`, read when it had `stamp`
/// ([`stamp_of`]), as [`read`] makes them from its file.
pub(super) fn read_bytes(bytes: &[u8], stamp: &str) -> Read {
    let mut column = Column::default();
    column.add(bytes);
    Read::Grew {
        column: Box::new(column),
        covered: stamp.to_string(),
    }
}

/// Reads what session file `path` gained since `covered`.
pub(super) fn read(path: &std::path::Path, kind: Kind, covered: &str) -> Read {
    match kind {
        Kind::Plain => {
            // Stamped before reading: a rewrite after it changes the stamp
            // again, so the next search reads the file again.
            let stamp = stamp_of(path);
            if stamp.is_empty() {
                return Read::Unreadable;
            }
            if stamp == covered {
                return Read::Unchanged;
            }
            let mut column = Column::default();
            let opened = std::fs::File::open(path)
                .and_then(|f| Ok((f.metadata()?.len(), f)))
                .and_then(|(size, f)| add_stream(f, size, &mut column));
            match opened {
                Ok(_) => Read::Grew {
                    column: Box::new(column),
                    covered: stamp,
                },
                Err(_) => Read::Unreadable,
            }
        }
        Kind::Journal => read_journal(path, covered).unwrap_or(Read::Unreadable),
    }
}

/// A journal only grows (a torn tail is cut back to a line's end first),
/// or is replaced whole (a new inode): its bits cover whole lines, and
/// `covered` is `<inode>:<bytes>`.
fn read_journal(path: &std::path::Path, covered: &str) -> std::result::Result<Read, Error> {
    use std::io::{Read as _, Seek, SeekFrom};
    use std::os::unix::fs::MetadataExt;
    let mut file = std::fs::File::open(path).map_err(|e| Error::io(path, &e))?;
    let meta = file.metadata().map_err(|e| Error::io(path, &e))?;
    let from = covered
        .split_once(':')
        .filter(|(ino, _)| ino.parse() == Ok(meta.ino()))
        .and_then(|(_, bytes)| bytes.parse::<u64>().ok())
        .filter(|&bytes| bytes <= meta.len())
        .unwrap_or(0);
    if from == meta.len() && !covered.is_empty() {
        return Ok(Read::Unchanged);
    }
    file.seek(SeekFrom::Start(from))
        .map_err(|e| Error::io(path, &e))?;
    // Bits past the last line's end (a torn write) do no harm; what they
    // are said to cover ends there.
    let mut column = Column::default();
    let (_, whole) = add_stream(file.take(meta.len() - from), meta.len() - from, &mut column)
        .map_err(|e| Error::io(path, &e))?;
    Ok(Read::Grew {
        column: Box::new(column),
        covered: format!("{}:{}", meta.ino(), from + whole),
    })
}

/// Adds the trigrams of everything `reader` holds (about `size` bytes), a
/// chunk at a time; returns its length and where its last line ends.
fn add_stream(
    mut reader: impl std::io::Read,
    size: u64,
    column: &mut Column,
) -> std::io::Result<(u64, u64)> {
    // Sized to the file (most are a few kilobytes), one more to see the end.
    let mut buf = vec![
        0u8;
        usize::try_from(size)
            .unwrap_or(usize::MAX)
            .clamp(64, 1 << 20)
            + 3
    ];
    // The last two bytes of a chunk begin trigrams that end in the next.
    let mut carry = 0;
    let (mut total, mut whole) = (0u64, 0u64);
    loop {
        let n = match reader.read(&mut buf[carry..]) {
            Ok(0) => return Ok((total, whole)),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let filled = carry + n;
        column.add(&buf[..filled]);
        if let Some(i) = buf[carry..filled].iter().rposition(|&b| b == b'\n') {
            whole = total + i as u64 + 1;
        }
        total += n as u64;
        carry = filled.min(2);
        buf.copy_within(filled - carry..filled, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trigrams_across_chunks_are_all_added_and_the_last_line_end_found() {
        // Chunks of 67 bytes: every trigram that spans two is kept.
        let text: Vec<u8> = (0..40)
            .flat_map(|i| format!("line {i} zanzibar\n").into_bytes())
            .chain(b"torn tail".iter().copied())
            .collect();
        let mut streamed = Column::default();
        let (total, whole) = add_stream(&text[..], 64, &mut streamed).unwrap();
        let mut at_once = Column::default();
        at_once.add(&text);
        assert!(streamed == at_once);
        assert_eq!(total, text.len() as u64);
        assert_eq!(whole, (text.len() - "torn tail".len()) as u64);
    }
}
