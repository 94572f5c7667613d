//! Which of a set of short literals occur in a text, ignoring ASCII case, in
//! one pass over the text.
//!
//! Used where a process checks a few hundred short strings once and exits
//! (`ollm-env run` decides every variable, diagnostics scrub one message):
//! building an Aho-Corasick automaton over the ~120 literals of the
//! credential shapes and deny globs ran ~2 million instructions and touched
//! ~30 heap pages, more than every search it would save. Here the literals
//! are only grouped by their first byte: a text position is compared with
//! the few literals that start with its byte.

/// A set of non-empty literals, each matched ignoring ASCII case.
#[derive(Debug, Clone)]
pub struct LiteralSet {
    literals: Vec<Box<[u8]>>,
    /// Literal indices ordered by their first byte, lower-cased.
    by_first: Vec<usize>,
    /// `by_first[first[b]..first[b + 1]]` are the literals starting with
    /// byte `b` (lower-cased).
    first: Box<[usize; 257]>,
    /// Bit `a * 256 + b`: a literal starts with bytes `a`, `b` (lower-cased),
    /// or with `a` alone, so most positions are passed over with one look.
    pairs: Box<[u64; 1024]>,
}

impl LiteralSet {
    /// The set of `literals`; their indices are the order given. Empty
    /// literals are never reported: callers check them without a search.
    pub fn new<I, S>(literals: I) -> LiteralSet
    where
        I: IntoIterator<Item = S>,
        S: AsRef<[u8]>,
    {
        let literals: Vec<Box<[u8]>> = literals
            .into_iter()
            .map(|literal| Box::from(literal.as_ref()))
            .collect();
        let key = |index: &usize| literals[*index][0].to_ascii_lowercase();
        let mut by_first: Vec<usize> = (0..literals.len())
            .filter(|&index| !literals[index].is_empty())
            .collect();
        by_first.sort_by_key(key);
        let mut first = Box::new([0usize; 257]);
        for index in &by_first {
            first[usize::from(key(index)) + 1] += 1;
        }
        for b in 1..first.len() {
            first[b] += first[b - 1];
        }
        let mut pairs = Box::new([0u64; 1024]);
        for index in &by_first {
            let literal = &literals[*index];
            let a = usize::from(literal[0].to_ascii_lowercase());
            let seconds = match literal.get(1) {
                Some(b) => vec![usize::from(b.to_ascii_lowercase())],
                None => (0..256).collect(),
            };
            for b in seconds {
                let bit = a * 256 + b;
                pairs[bit / 64] |= 1 << (bit % 64);
            }
        }
        LiteralSet {
            literals,
            by_first,
            first,
            pairs,
        }
    }

    /// The literal with this index, as given.
    pub fn literal(&self, index: usize) -> &[u8] {
        &self.literals[index]
    }

    /// Calls `found(index, start)` for every occurrence of every literal in
    /// `text` (ignoring ASCII case), in order of `start`.
    pub fn for_each_occurrence(&self, text: &[u8], mut found: impl FnMut(usize, usize)) {
        super::work::read(text.len());
        for (start, byte) in text.iter().enumerate() {
            let b = usize::from(byte.to_ascii_lowercase());
            let next = text
                .get(start + 1)
                .map_or(0, |n| usize::from(n.to_ascii_lowercase()));
            let bit = b * 256 + next;
            if self.pairs[bit / 64] & (1 << (bit % 64)) == 0 {
                continue;
            }
            for &index in &self.by_first[self.first[b]..self.first[b + 1]] {
                let literal = &self.literals[index];
                if text[start..]
                    .get(..literal.len())
                    .is_some_and(|here| here.eq_ignore_ascii_case(literal))
                {
                    found(index, start);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn occurrences(set: &LiteralSet, text: &str) -> Vec<(usize, usize)> {
        let mut all = Vec::new();
        set.for_each_occurrence(text.as_bytes(), |index, start| all.push((index, start)));
        all
    }

    /// The straightforward search the set must agree with.
    fn reference(literals: &[&str], text: &str) -> Vec<(usize, usize)> {
        let lower = text.to_ascii_lowercase();
        let mut all = Vec::new();
        for start in 0..text.len() {
            for (index, literal) in literals.iter().enumerate() {
                if !literal.is_empty()
                    && lower.as_bytes()[start..]
                        .starts_with(literal.to_ascii_lowercase().as_bytes())
                {
                    all.push((index, start));
                }
            }
        }
        all
    }

    #[test]
    fn every_occurrence_is_found_ignoring_case() {
        let literals = ["_KEY", "key", "", "K", "_key_id", "://", "a"];
        let set = LiteralSet::new(literals);
        for text in [
            "",
            "MY_KEY",
            "my_Key_ID_KEY",
            "kkk",
            "postgres://u:p@h",
            "ä_KEY",
            "_KE",
        ] {
            assert_eq!(
                occurrences(&set, text),
                reference(&literals, text),
                "{text}"
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn finds_what_a_scan_of_every_literal_finds(
            literals in proptest::collection::vec("[a-cA-C_:/é]{0,4}", 0..12),
            text in "[a-dA-D_:/é]{0,24}",
        ) {
            let literals: Vec<&str> = literals.iter().map(String::as_str).collect();
            let set = LiteralSet::new(&literals);
            proptest::prop_assert_eq!(occurrences(&set, &text), reference(&literals, &text));
        }
    }
}
