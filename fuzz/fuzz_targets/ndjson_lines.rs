//! Any bytes as an NDJSON stream: each line parses or is a one-line error.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = ollm::input::for_each_line(data, "fuzz", |_, line| {
        if let Err(err) = ollm::input::parse_json::<serde_json::Value>(line, "fuzz") {
            assert!(!err.to_string().contains('\n'));
        }
        Ok(())
    });
});
