//! The process's environment block, read where the C library keeps it.
//!
//! std's `vars_os` copies every variable (two allocations each) before a
//! caller can look at one: asking whether any `OLLM_*` name is set took
//! ~37,000 instructions of every `session record` with 40 variables.
//! Nothing in these programs changes the environment while it reads it:
//! `ollm-env run` swaps the block only around its exec, and its supervisor
//! removes variables after the configuration has been read.

use std::ffi::CStr;

/// The entries (`NAME=VALUE`) of this process's environment block.
pub fn entries() -> impl Iterator<Item = &'static CStr> {
    // SAFETY: environ is a null-terminated array of NUL-terminated strings;
    // nothing in this process changes it while the iterator is read.
    let mut entry = unsafe { libc::environ };
    std::iter::from_fn(move || unsafe {
        if entry.is_null() || (*entry).is_null() {
            return None;
        }
        let text = CStr::from_ptr(*entry);
        entry = entry.add(1);
        Some(text)
    })
}

/// `NAME=VALUE` split as std's `vars_os` splits it: the name is what comes
/// before the first `=` after its first byte; an entry without one is not
/// a variable.
pub fn split_entry(entry: &[u8]) -> Option<(&[u8], &[u8])> {
    let eq = entry.get(1..)?.iter().position(|&b| b == b'=')? + 1;
    Some((&entry[..eq], &entry[eq + 1..]))
}

/// The names of the variables set, as std's `vars_os` names them.
pub fn names() -> impl Iterator<Item = &'static [u8]> {
    entries().filter_map(|entry| split_entry(entry.to_bytes()).map(|(name, _)| name))
}

#[cfg(test)]
mod tests {
    use std::os::unix::ffi::OsStrExt;

    use super::*;

    #[test]
    fn the_names_are_the_ones_std_sees() {
        let std_names: Vec<Vec<u8>> = std::env::vars_os()
            .map(|(name, _)| name.as_bytes().to_vec())
            .collect();
        let ours: Vec<Vec<u8>> = names().map(<[u8]>::to_vec).collect();
        assert_eq!(ours, std_names);
        assert!(ours.iter().any(|name| name == b"PATH"));
    }

    #[test]
    fn an_entry_splits_at_its_first_equals_sign_after_the_first_byte() {
        assert_eq!(split_entry(b"A=b=c"), Some((&b"A"[..], &b"b=c"[..])));
        assert_eq!(split_entry(b"=C:=x"), Some((&b"=C:"[..], &b"x"[..])));
        assert_eq!(split_entry(b"EMPTY="), Some((&b"EMPTY"[..], &b""[..])));
        assert_eq!(split_entry(b"novalue"), None);
        assert_eq!(split_entry(b""), None);
    }
}
