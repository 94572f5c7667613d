//! A whole file mapped read-only, so a prepared tokenizer (megabytes) is
//! used where the page cache holds it: no copy, and the kernel maps its
//! pages many at a time instead of a fault per page of a fresh buffer.
//! Only files that are replaced by rename, never rewritten in place (the
//! cache), are mapped: a mapped file that shrank would fault on access.

use std::fs::File;
use std::os::fd::AsRawFd;

pub struct Mapped {
    ptr: *const u8,
    len: usize,
}

// SAFETY: the mapping is private and read-only; nothing writes through it.
unsafe impl Send for Mapped {}
unsafe impl Sync for Mapped {}

impl Mapped {
    /// The first `len` bytes of `file` (its size), or None when they cannot
    /// be mapped.
    pub fn map(file: &File, len: usize) -> Option<Mapped> {
        if len == 0 {
            return None;
        }
        // SAFETY: a fresh private read-only mapping of an open descriptor;
        // the result is checked before use.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ,
                libc::MAP_PRIVATE,
                file.as_raw_fd(),
                0,
            )
        };
        (ptr != libc::MAP_FAILED).then_some(Mapped {
            ptr: ptr.cast(),
            len,
        })
    }
}

impl std::ops::Deref for Mapped {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        // SAFETY: `ptr` maps `len` readable bytes until `drop`.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl Drop for Mapped {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly the mapping `map` made, once.
        unsafe {
            libc::munmap(self.ptr.cast_mut().cast(), self.len);
        }
    }
}
