//! Finding a byte in a short slice without asking the CPU what it can do.
//!
//! `memchr::memchr` picks AVX2 or SSE2 the first time it runs in a process,
//! and that first look (std's feature detection) executes a dozen `CPUID`
//! instructions. On a virtual machine each one traps to the hypervisor:
//! about 55 µs per process on the machines this toolkit is benchmarked on,
//! a sixth of what `ollm-session record` spends beyond starting up. The
//! per-turn programs look for a newline or a quote in one record or a short
//! journal tail, so they use SSE2 (which every x86_64 CPU has, known at
//! compile time) or the portable word-at-a-time search elsewhere. Long
//! searches (`session search`) keep `memchr::memmem`, which pays the
//! detection once for a scan of many megabytes.

/// The index of the first `needle` in `haystack`.
pub fn find_byte(needle: u8, haystack: &[u8]) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if let Some(one) = memchr::arch::x86_64::sse2::memchr::One::new(needle) {
        return one.find(haystack);
    }
    memchr::arch::all::memchr::One::new(needle).find(haystack)
}

/// The index of the first `a` or `b` in `haystack`.
pub fn find_either(a: u8, b: u8, haystack: &[u8]) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if let Some(two) = memchr::arch::x86_64::sse2::memchr::Two::new(a, b) {
        return two.find(haystack);
    }
    memchr::arch::all::memchr::Two::new(a, b).find(haystack)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #[test]
        fn find_byte_finds_the_first_as_a_scan_does(
            haystack in proptest::collection::vec(any::<u8>(), 0..300),
            needle in any::<u8>(),
        ) {
            let scan = haystack.iter().position(|&b| b == needle);
            prop_assert_eq!(find_byte(needle, &haystack), scan);
        }

        #[test]
        fn find_either_finds_the_first_of_two_as_a_scan_does(
            haystack in proptest::collection::vec(0u8..4, 0..300),
            a in 0u8..4,
            b in 0u8..4,
        ) {
            let scan = haystack.iter().position(|&x| x == a || x == b);
            prop_assert_eq!(find_either(a, b, &haystack), scan);
        }
    }
}
