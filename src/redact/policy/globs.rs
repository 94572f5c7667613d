//! The allow, deny and built-in deny globs of a [`super::Policy`], indexed
//! so that a name is matched against all of them in one pass.

use std::borrow::Cow;

use globset::{Glob, GlobSet, GlobSetBuilder};

use crate::redact::literals::LiteralSet;
use crate::redact::{self, DEFAULT_DENY};

/// One list of globs in a [`Globs`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum List {
    Allow = 0,
    Deny = 1,
    /// The built-in extended and connection-string globs.
    Builtin = 2,
}

/// The globs of the allow, deny and built-in deny lists, indexed so that a
/// name is matched against all of them in one pass: each simple glob
/// (letters, digits, `_`, `*`, `[...]` classes: all the built-in ones) is
/// found through its longest literal part, and only a glob whose literal
/// occurs in the name is matched in full. The others go through a
/// `GlobSet` per list.
#[derive(Debug, Clone)]
pub(super) struct Globs {
    /// Every glob, list by list, each list in its order.
    pub(super) texts: Vec<Cow<'static, str>>,
    pub(super) list_of: Vec<List>,
    literals: LiteralSet,
    /// The glob each literal of `literals` is part of.
    glob_of_literal: Vec<usize>,
    /// Simple globs without a literal part (`*`, `[AB]*`).
    unindexed: Vec<usize>,
    /// Per list: the indices of its other globs, and their set.
    complex: [(Vec<usize>, GlobSet); 3],
}

/// The first glob of each list that matches a name.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct FirstMatches([Option<usize>; 3]);

impl FirstMatches {
    pub(super) fn offer(&mut self, list: List, glob: usize, matches: impl FnOnce() -> bool) {
        let best = &mut self.0[list as usize];
        if best.is_none_or(|first| glob < first) && matches() {
            *best = Some(glob);
        }
    }

    pub(super) fn get(self, list: List) -> Option<usize> {
        self.0[list as usize]
    }
}

impl Globs {
    /// The index of the three lists. A list whose complex globs cannot be
    /// put in one set is replaced by its fallback (no allow globs; the
    /// spec's deny globs).
    pub(super) fn build(
        allow: Vec<Cow<'static, str>>,
        deny: Vec<Cow<'static, str>>,
        builtin: Vec<Cow<'static, str>>,
    ) -> Globs {
        let mut texts = Vec::new();
        let mut list_of = Vec::new();
        let mut complex: [(Vec<usize>, GlobSet); 3] = Default::default();
        for (list, globs) in [
            (List::Allow, allow),
            (List::Deny, deny),
            (List::Builtin, builtin),
        ] {
            let (globs, set) = match complex_set(&globs) {
                Ok(set) => (globs, set),
                Err(_) if list == List::Allow => (Vec::new(), GlobSet::empty()),
                Err(_) => {
                    let defaults: Vec<Cow<'static, str>> =
                        DEFAULT_DENY.iter().map(|t| Cow::Borrowed(*t)).collect();
                    (defaults, GlobSet::empty())
                }
            };
            for text in globs {
                if !is_simple(&text) {
                    complex[list as usize].0.push(texts.len());
                }
                list_of.push(list);
                texts.push(text);
            }
            complex[list as usize].1 = set;
        }
        let mut literal_texts = Vec::new();
        let mut glob_of_literal = Vec::new();
        let mut unindexed = Vec::new();
        for (index, text) in texts.iter().enumerate() {
            if !is_simple(text) {
                continue;
            }
            match longest_literal(text.as_bytes()) {
                Some(literal) => {
                    literal_texts.push(literal);
                    glob_of_literal.push(index);
                }
                None => unindexed.push(index),
            }
        }
        Globs {
            literals: LiteralSet::new(literal_texts),
            glob_of_literal,
            unindexed,
            complex,
            list_of,
            texts,
        }
    }

    pub(super) fn text(&self, glob: usize) -> &str {
        &self.texts[glob]
    }

    /// The first glob of each list that matches `name`.
    pub(super) fn first_matches(&self, name: &str) -> FirstMatches {
        let mut first = FirstMatches::default();
        let mut offer_simple = |glob: usize| {
            first.offer(self.list_of[glob], glob, || {
                simple_match(self.texts[glob].as_bytes(), name.as_bytes())
            });
        };
        self.literals
            .for_each_occurrence(name.as_bytes(), |literal, _| {
                offer_simple(self.glob_of_literal[literal]);
            });
        for &glob in &self.unindexed {
            offer_simple(glob);
        }
        for (list, (globs, set)) in [List::Allow, List::Deny, List::Builtin]
            .into_iter()
            .zip(&self.complex)
        {
            if !globs.is_empty() {
                for hit in set.matches(name) {
                    first.offer(list, globs[hit], || true);
                }
            }
        }
        first
    }
}

/// The `GlobSet` of a list's globs that [`simple_match`] does not handle.
pub(super) fn complex_set(texts: &[Cow<'static, str>]) -> Result<GlobSet, String> {
    let mut builder = GlobSetBuilder::new();
    let mut any = false;
    for text in texts.iter().filter(|text| !is_simple(text)) {
        builder.add(compile(text)?);
        any = true;
    }
    if !any {
        return Ok(GlobSet::empty());
    }
    builder.build().map_err(|e| e.to_string())
}

/// The longest run of literal bytes of a simple glob (outside `*` and
/// `[...]`): every name the glob matches holds it, ignoring case.
pub(super) fn longest_literal(glob: &[u8]) -> Option<&[u8]> {
    let mut longest: Option<&[u8]> = None;
    let mut in_class = false;
    let mut run_start = 0;
    for (at, &b) in glob.iter().chain(std::iter::once(&b'*')).enumerate() {
        let literal = !in_class && b != b'*' && b != b'[';
        if !literal {
            if at > run_start && longest.is_none_or(|l| at - run_start > l.len()) {
                longest = Some(&glob[run_start..at]);
            }
            run_start = at + 1;
        }
        match b {
            b'[' if !in_class => in_class = true,
            b']' if in_class => {
                in_class = false;
            }
            _ => {}
        }
    }
    longest
}

/// Whether a glob uses only what [`simple_match`] knows.
pub(super) fn is_simple(text: &str) -> bool {
    let mut in_class = false;
    for b in text.bytes() {
        match b {
            b'[' if !in_class => in_class = true,
            b']' if in_class => in_class = false,
            b'*' if !in_class => {}
            b if b.is_ascii_alphanumeric() || b == b'_' => {}
            _ => return false,
        }
    }
    !in_class
}

/// Case-insensitive match of a simple glob (`*`, `[abc]`, literals), in
/// O(glob × name) steps whatever the stars: after a mismatch only the last
/// `*` is retried, one byte further.
pub(super) fn simple_match(glob: &[u8], name: &[u8]) -> bool {
    // One glob item at `g`: its length in the glob, and whether it takes `c`.
    let item = |g: usize, c: u8| -> (usize, bool) {
        if glob[g] == b'[' {
            let close = glob[g..]
                .iter()
                .position(|&b| b == b']')
                .map_or(glob.len(), |p| g + p);
            let takes = glob[g + 1..close]
                .iter()
                .any(|x| x.eq_ignore_ascii_case(&c));
            (close + 1 - g, takes)
        } else {
            (1, glob[g].eq_ignore_ascii_case(&c))
        }
    };
    let (mut g, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        if g < glob.len() && glob[g] == b'*' {
            star = Some((g, n));
            g += 1;
            continue;
        }
        if g < glob.len() {
            let (len, takes) = item(g, name[n]);
            if takes {
                g += len;
                n += 1;
                continue;
            }
        }
        match star {
            Some((star_g, star_n)) => {
                g = star_g + 1;
                n = star_n + 1;
                star = Some((star_g, star_n + 1));
            }
            None => return false,
        }
    }
    glob[g..].iter().all(|&b| b == b'*')
}

pub(super) fn compile(text: &str) -> Result<Glob, String> {
    redact::compile_glob(text)
}

pub(super) fn is_glob(text: &str) -> bool {
    text.contains(['*', '?', '[', '{'])
}
