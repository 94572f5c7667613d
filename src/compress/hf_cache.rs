//! Where a prepared `tokenizer.json` (see `hf_bpe`) is kept:
//! `$OLLM_HOME/cache/tokenizers/<xxh3-128 of the file's bytes>.bin`, so an
//! edited file is prepared afresh and an unchanged one, from any path, is
//! not. The cache is written atomically, mapped to be read, and checked
//! (checksum, sizes) before use; a damaged entry is prepared again and replaced, and a cache
//! that cannot be written only costs the preparation in each process.

use std::path::{Path, PathBuf};

use super::hf_bpe::{self, Prepared};
use super::mapped::Mapped;
use crate::fs::{self, Durability};

/// `$OLLM_HOME/cache/tokenizers`.
pub fn default_dir() -> PathBuf {
    crate::paths::ollm_home().join("cache/tokenizers")
}

/// The entry in `dir` of the tokenizer.json whose bytes are `json`.
pub fn entry(dir: &Path, json: &[u8]) -> PathBuf {
    dir.join(format!("{:032x}.bin", xxhash_rust::xxh3::xxh3_128(json)))
}

/// The prepared form of the tokenizer.json whose bytes are `json`, from
/// the cache in `dir` or prepared now (and cached there); None when its
/// configuration is not one `hf_bpe` reproduces exactly.
pub fn load(dir: &Path, json: &[u8]) -> Option<Prepared> {
    let entry = entry(dir, json);
    if let Some(prepared) = read(&entry) {
        return Some(prepared);
    }
    let bytes = hf_bpe::prepare(json)?;
    // Not written (read-only home, a link in the way): counted all the same.
    let _ = fs::write_atomic(&entry, &bytes, Durability::Cache);
    Prepared::parse(bytes)
}

/// The entry, mapped (it is only ever replaced by rename, see `mapped`).
fn read(entry: &Path) -> Option<Prepared> {
    let file = fs::open_regular(entry).ok()??;
    let len = usize::try_from(file.metadata().ok()?.len()).ok()?;
    Prepared::parse(Mapped::map(&file, len)?)
}
