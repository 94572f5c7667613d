//! The redactor's output must not depend on how the child's output was split
//! into reads: any split gives the same bytes as one read.
#![no_main]
use std::cell::RefCell;

use libfuzzer_sys::fuzz_target;
use ollm::redact::Redactor;

thread_local! {
    /// The redactor as `ollm-env run` makes it once per run, used for every
    /// input (a finished redactor is as new): compiling its patterns, or
    /// a clone's first search making its caches, cost milliseconds, and
    /// the target ran a dozen inputs a second (issue 54).
    static REDACTOR: RefCell<Redactor> =
        RefCell::new(Redactor::new(&["hunter2-correct-horse", "multi\nline-secret-value"]));
}

fuzz_target!(|input: (Vec<u8>, Vec<u8>)| {
    let (data, cuts) = input;
    REDACTOR.with_borrow_mut(|redactor| check(redactor, &data, &cuts));
});

fn check(redactor: &mut Redactor, data: &[u8], cuts: &[u8]) {
    let whole = {
        let mut out = Vec::new();
        redactor.feed(data, &mut out).unwrap();
        redactor.finish(&mut out).unwrap();
        out
    };
    let mut out = Vec::new();
    let mut rest = data;
    for &cut in cuts {
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
}
