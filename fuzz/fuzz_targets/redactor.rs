//! The redactor's output must not depend on how the child's output was split
//! into reads: any split gives the same bytes as one read.
#![no_main]
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use ollm::redact::Redactor;

/// The redactor as `ollm-env run` makes it once per run: compiling its
/// patterns costs tens of milliseconds, so each input gets a fresh clone
/// (the compiled patterns are shared, the buffers are new) instead of a
/// new compile, or the target ran a dozen inputs a second (issue 54).
fn redactor() -> Redactor {
    static REDACTOR: OnceLock<Redactor> = OnceLock::new();
    REDACTOR
        .get_or_init(|| Redactor::new(&["hunter2-correct-horse", "multi\nline-secret-value"]))
        .clone()
}

fuzz_target!(|input: (Vec<u8>, Vec<u8>)| {
    let (data, cuts) = input;
    let whole = {
        let mut redactor = redactor();
        let mut out = Vec::new();
        redactor.feed(&data, &mut out).unwrap();
        redactor.finish(&mut out).unwrap();
        out
    };
    let mut redactor = redactor();
    let mut out = Vec::new();
    let mut rest = &data[..];
    for cut in cuts {
        if rest.is_empty() {
            break;
        }
        let at = (cut as usize) % (rest.len() + 1);
        redactor.feed(&rest[..at], &mut out).unwrap();
        rest = &rest[at..];
    }
    redactor.feed(rest, &mut out).unwrap();
    redactor.finish(&mut out).unwrap();
    assert_eq!(whole, out);
});
