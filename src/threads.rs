//! How many threads work spread over the machine's cores uses: the one
//! rule of every parallel job (reading a store's sessions, importing
//! sources, rendering a long listing, counting tokens).

/// One thread per core, at most eight (the cap the jobs here were
/// measured with); one when the count of cores is unknown.
pub(crate) fn worker_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .min(8)
}
