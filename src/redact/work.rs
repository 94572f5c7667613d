//! How much work the redaction of a text did, counted in the bytes its
//! loops and searches read: the tests compare the counts of two sizes of
//! one input to show that no input makes the work grow faster than the
//! text (issue 54). Counted in test builds only; elsewhere a no-op.

#[cfg(test)]
thread_local! {
    static READ: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Notes that `bytes` bytes of the text were read once more.
#[inline]
pub(crate) fn read(bytes: usize) {
    #[cfg(test)]
    READ.with(|read| read.set(read.get() + bytes as u64));
    #[cfg(not(test))]
    let _ = bytes;
}

/// The bytes read on this thread while `run` ran.
#[cfg(test)]
pub(crate) fn counted(run: impl FnOnce()) -> u64 {
    let before = READ.with(std::cell::Cell::get);
    run();
    READ.with(std::cell::Cell::get) - before
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::redact::Scrubber;

    /// `unit` repeated to about `size` bytes.
    fn repeated(unit: &str, size: usize) -> String {
        unit.repeat(size.div_ceil(unit.len().max(1)))
    }

    /// The bytes read to redact `text`, by the scrubber of a `record`, the
    /// one of a scan (`for_bulk`), and a scan's look at the raw JSON.
    fn work(text: &str) -> [u64; 3] {
        let raw = serde_json::to_vec(&serde_json::json!({ "text": text })).unwrap();
        [
            counted(|| drop(Scrubber::default().redact(text))),
            counted(|| drop(Scrubber::default().for_bulk().redact(text))),
            counted(|| {
                let _ = Scrubber::default().may_hold_credentials(&raw);
            }),
        ]
    }

    /// Twice the text costs at most a little more than twice the work.
    fn assert_linear(unit: &str, size: usize) {
        let (small, large) = (work(&repeated(unit, size)), work(&repeated(unit, 2 * size)));
        for (which, (small, large)) in ["record", "bulk", "raw"]
            .iter()
            .zip(small.iter().zip(large))
        {
            assert!(
                large * 10 <= small * 22,
                "{unit:?} repeated, {which}: {small} bytes read for {size} bytes, {large} for twice as many"
            );
        }
    }

    /// The families of issue 54, and the other inputs that once made a
    /// step of the scrubber read on to the end of a line or the text.
    #[test]
    fn redaction_work_grows_linearly_on_each_pathological_family() {
        for unit in [
            "ghp_",
            " key-",
            "-----BEGIN ",
            "password=",
            "-----BEGIN RSA PRIVATE KEY-----",
            "token=/-token=",
            "[REDACTED:",
            "secret: \"",
            "KEY_",
            "\"api_key_",
            "postgres://u:",
            "eyJabcdefghij.",
            "sk-a-",
        ] {
            assert_linear(unit, 64 << 10);
        }
    }

    /// Pieces of the texts the rules look for: triggers and their prefixes,
    /// secret words, assignment and JSON punctuation, markers.
    fn adversarial_unit() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let triggers: Vec<&'static str> = crate::redact::patterns::VALUE_PATTERNS
            .iter()
            .flat_map(|p| p.triggers.iter().copied())
            .collect();
        let piece = prop_oneof![
            (proptest::sample::select(triggers), 0..3usize)
                .prop_map(|(t, cut)| t[..t.len().saturating_sub(cut)].to_string()),
            proptest::sample::select(vec![
                "password",
                "token",
                "API_KEY",
                "secret",
                "PASS",
                "=",
                ":",
                " ",
                "\"",
                "'",
                "\n",
                "-",
                "/",
                "@",
                "[REDACTED:",
                "]",
                "-----BEGIN ",
                "PRIVATE KEY-----",
                "-----END ",
                "a1",
                "xxxx",
                "é",
            ])
            .prop_map(str::to_string),
            "[A-Za-z0-9_.-]{1,6}",
        ];
        proptest::collection::vec(piece, 1..6).prop_map(|pieces| pieces.concat())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        #[test]
        fn redaction_work_grows_linearly_on_adversarial_inputs(unit in adversarial_unit()) {
            assert_linear(&unit, 16 << 10);
        }
    }
}
