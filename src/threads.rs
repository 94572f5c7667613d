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

/// Maps `f` over `items` on the machine's cores, keeping the order.
pub(crate) fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    if items.len() < 64 {
        return items.iter().map(&f).collect();
    }
    let threads = worker_threads();
    if threads <= 1 {
        return items.iter().map(&f).collect();
    }
    let chunk = items.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(|| part.iter().map(&f).collect::<Vec<R>>()))
            .collect();
        // A worker's panic is the caller's: its results are zipped with
        // the items, so a part left out would drop rows without a word.
        handles
            .into_iter()
            .flat_map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}
