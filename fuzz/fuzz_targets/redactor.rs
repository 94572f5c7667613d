//! The redactor's output must not depend on how the child's output was split
//! into reads: any split gives the same bytes as one read.
#![no_main]
use libfuzzer_sys::fuzz_target;
use ollm::redact::Redactor;

fuzz_target!(|input: (Vec<u8>, Vec<u8>)| {
    let (data, cuts) = input;
    let secrets = ["hunter2-correct-horse", "multi\nline-secret-value"];
    let whole = {
        let mut redactor = Redactor::new(&secrets);
        let mut out = Vec::new();
        redactor.feed(&data, &mut out).unwrap();
        redactor.finish(&mut out).unwrap();
        out
    };
    let mut redactor = Redactor::new(&secrets);
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
