//! The paths git tracks, read from the work tree's index file (versions 2,
//! 3 and 4, SHA-1 or SHA-256), so files that are tracked although an ignore
//! rule matches them are listed, as `git ls-files --cached` lists them.

use std::path::{Path, PathBuf};

/// The work tree containing `start`: its top directory and its git directory.
pub fn find_work_tree(start: &Path) -> Option<(PathBuf, PathBuf)> {
    let dir = crate::paths::work_tree_top(start)?;
    let dot_git = dir.join(".git");
    if std::fs::metadata(&dot_git).ok()?.is_dir() {
        return Some((dir.to_path_buf(), dot_git));
    }
    // A linked worktree or a submodule: `.git` is a file naming the git
    // directory (a FIFO or device there is never opened).
    let bytes = crate::fs::read_regular(&dot_git).ok()??;
    let text = String::from_utf8(bytes).ok()?;
    let target = text.strip_prefix("gitdir:")?.trim();
    Some((dir.to_path_buf(), dir.join(target)))
}

/// Reads the tracked paths (relative to the work tree's top, as bytes) of
/// the index in `git_dir`. No index yet means nothing is tracked.
pub fn tracked_paths(git_dir: &Path) -> Result<Vec<Vec<u8>>, String> {
    let index = git_dir.join("index");
    if let Some(kind) = crate::fs::special_kind(&index) {
        return Err(format!(
            "its index is {kind}, not a regular file, and is never read"
        ));
    }
    let data = match std::fs::read(&index) {
        Ok(data) => data,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(err) => return Err(crate::error::describe_io(&err)),
    };
    parse(&data, hash_len(git_dir))
}

/// 32 bytes for a SHA-256 repository, else 20.
fn hash_len(git_dir: &Path) -> usize {
    let common = std::fs::read_to_string(git_dir.join("commondir"))
        .map_or_else(|_| git_dir.to_path_buf(), |c| git_dir.join(c.trim()));
    let config = std::fs::read_to_string(common.join("config")).unwrap_or_default();
    let sha256 = config.lines().any(|line| {
        let line = line.trim().to_ascii_lowercase();
        line.starts_with("objectformat") && line.ends_with("sha256")
    });
    if sha256 { 32 } else { 20 }
}

const SPARSE_DIR_MODE: u32 = 0o040000;

/// Parses an index file; entries of conflicted paths (stages 1–3) are listed once.
pub fn parse(data: &[u8], hash_len: usize) -> Result<Vec<Vec<u8>>, String> {
    let corrupt = |what: &str| format!("git index is not readable ({what})");
    if data.len() < 12 || &data[..4] != b"DIRC" {
        return Err(corrupt("no DIRC header"));
    }
    let version = be32(data, 4).ok_or_else(|| corrupt("short header"))?;
    if !(2..=4).contains(&version) {
        return Err(corrupt(&format!("version {version}")));
    }
    let count = be32(data, 8).ok_or_else(|| corrupt("short header"))?;
    let mut paths: Vec<Vec<u8>> = Vec::with_capacity(count.min(1 << 20) as usize);
    let mut previous: Vec<u8> = Vec::new();
    let mut pos = 12;
    for _ in 0..count {
        let start = pos;
        let fixed = 40 + hash_len;
        let mode = be32(data, pos + 24).ok_or_else(|| corrupt("truncated entry"))?;
        let flags = be16(data, pos + fixed).ok_or_else(|| corrupt("truncated entry"))?;
        pos += fixed + 2;
        if version >= 3 && flags & 0x4000 != 0 {
            pos += 2;
        }
        let name = if version == 4 {
            let (strip, used) = varint(data.get(pos..).unwrap_or_default())
                .ok_or_else(|| corrupt("bad path prefix"))?;
            pos += used;
            let keep = previous
                .len()
                .checked_sub(strip)
                .ok_or_else(|| corrupt("bad path prefix"))?;
            let (suffix, next) =
                until_nul(data, pos).ok_or_else(|| corrupt("unterminated path"))?;
            pos = next;
            let mut name = previous[..keep].to_vec();
            name.extend_from_slice(suffix);
            name
        } else {
            let (name, next) = until_nul(data, pos).ok_or_else(|| corrupt("unterminated path"))?;
            let length = next - start;
            pos = start + length.div_ceil(8) * 8;
            name.to_vec()
        };
        previous.clone_from(&name);
        if mode == SPARSE_DIR_MODE || paths.last() == Some(&name) {
            continue;
        }
        paths.push(name);
    }
    Ok(paths)
}

fn be32(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(data.get(at..at + 4)?.try_into().ok()?))
}

fn be16(data: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(data.get(at..at + 2)?.try_into().ok()?))
}

/// The bytes from `at` to the next NUL, and the position after the NUL.
fn until_nul(data: &[u8], at: usize) -> Option<(&[u8], usize)> {
    let rest = data.get(at..)?;
    let nul = rest.iter().position(|b| *b == 0)?;
    Some((&rest[..nul], at + nul + 1))
}

/// git's offset varint (each continuation adds one before shifting).
fn varint(bytes: &[u8]) -> Option<(usize, usize)> {
    let mut iter = bytes.iter();
    let mut c = *iter.next()?;
    let mut value = usize::from(c & 127);
    let mut used = 1;
    while c & 128 != 0 {
        c = *iter.next()?;
        used += 1;
        value = value.checked_add(1)?.checked_mul(128)? + usize::from(c & 127);
    }
    Some((value, used))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(parse(b"", 20).is_err());
        assert!(parse(b"DIRC\0\0\0\x02\0\0\0\x05", 20).is_err());
        assert!(parse(b"XXXX\0\0\0\x02\0\0\0\0", 20).is_err());
        assert_eq!(
            parse(b"DIRC\0\0\0\x02\0\0\0\0", 20).unwrap(),
            Vec::<Vec<u8>>::new()
        );
    }

    #[test]
    fn varints_follow_gits_encoding() {
        assert_eq!(varint(&[0x05]), Some((5, 1)));
        assert_eq!(varint(&[0x80, 0x00]), Some((128, 2)));
        assert_eq!(varint(&[0x81, 0x7f]), Some((383, 2)));
        assert_eq!(varint(&[0x80]), None);
    }
}
