//! Where a prepared `tokenizer.json` (see `hf_bpe`) is kept:
//! `$OLLM_HOME/cache/tokenizers/<xxh3-128 of the file's bytes>.bin`, so an
//! edited file is prepared afresh and an unchanged one, from any path, is
//! not. The cache is written atomically, mapped to be read, and checked
//! (checksum, sizes) before use; a damaged entry is prepared again and replaced, and a cache
//! that cannot be written only costs the preparation in each process.

use std::path::{Path, PathBuf};

use super::hf_bpe::{self, Prepared};
use crate::fs::{self, Durability};

/// `$OLLM_HOME/cache/tokenizers`.
pub fn default_dir() -> PathBuf {
    crate::paths::ollm_home().join("cache/tokenizers")
}

/// The xxh3-128 of the file at `path`, read in small pieces: the whole
/// file in a fresh buffer cost a page fault per 4 KB, most of a cached
/// count's system time.
pub fn file_hash(path: &Path) -> std::io::Result<u128> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match file.read(&mut buf) {
            Ok(0) => return Ok(hasher.digest128()),
            Ok(n) => hasher.update(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// The entry in `dir` of the tokenizer.json whose bytes hash to `hash`.
pub fn entry(dir: &Path, hash: u128) -> PathBuf {
    dir.join(format!("{hash:032x}.bin"))
}

/// The cached prepared form of the tokenizer.json whose bytes hash to
/// `hash`, when the cache in `dir` holds an intact one.
pub fn cached(dir: &Path, hash: u128) -> Option<Prepared> {
    read(&entry(dir, hash))
}

/// The prepared form of the tokenizer.json whose bytes are `json`, from
/// the cache in `dir` or prepared now (and cached there); None when its
/// configuration is not one `hf_bpe` reproduces exactly.
pub fn load(dir: &Path, json: &[u8]) -> Option<Prepared> {
    let entry = entry(dir, xxhash_rust::xxh3::xxh3_128(json));
    if let Some(prepared) = read(&entry) {
        return Some(prepared);
    }
    let bytes = hf_bpe::prepare(json)?;
    // Not written (read-only home, a link in the way): counted all the same.
    let _ = fs::write_atomic(&entry, &bytes, Durability::Cache);
    Prepared::parse(bytes)
}

/// The entry, mapped: no copy, and the kernel maps its pages many at a
/// time instead of a fault per page of a fresh buffer.
fn read(entry: &Path) -> Option<Prepared> {
    let file = fs::open_regular(entry).ok()??;
    // SAFETY: a mapped file that shrank would fault on access; cache
    // entries are only ever replaced by rename (`write_atomic`), never
    // rewritten in place, so the mapped file keeps its size. The bytes are
    // checked (checksum, sizes) before use.
    let map = unsafe { memmap2::Mmap::map(&file) }.ok()?;
    Prepared::parse(map)
}
