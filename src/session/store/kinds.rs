//! The kinds of store and how each is opened: the one table that
//! [`super::Store::open`] and [`super::Store::names_a_store`] read. A kind
//! a configuration may name is declared with its name and URL schemes in
//! the base ([`crate::config::store_kinds`], which the configuration's
//! check reads); a store is its folder plus one line here.

use std::path::PathBuf;
use std::sync::Arc;

#[cfg(test)]
#[path = "memory/mod.rs"]
mod memory;

use super::{SessionStore, StoreOptions, file, postgres};
use crate::config::store_kinds::{self, StoreKind};
use crate::error::Result;

/// Opens the store at a location of its kind, the data directory and the
/// options given.
pub(crate) type Open = fn(&str, PathBuf, StoreOptions) -> Result<Arc<dyn SessionStore>>;

/// A kind of store and how to open one.
pub(crate) struct Opener {
    pub(crate) kind: &'static StoreKind,
    pub(crate) open: Open,
}

impl Opener {
    const fn new(kind: &'static StoreKind, open: Open) -> Opener {
        Opener { kind, open }
    }
}

/// Every kind of store, the default first: a line each.
pub(crate) const OPENERS: &[Opener] = &[
    Opener::new(&store_kinds::FILE, file::open),
    Opener::new(&store_kinds::POSTGRES, postgres::open),
    #[cfg(test)]
    Opener::new(&memory::KIND, memory::open),
];

/// How `location` is opened, when it names a kind of store.
pub(crate) fn opener(location: &str) -> Option<&'static Opener> {
    OPENERS.iter().find(|opener| opener.kind.names(location))
}

/// What a location may be, for messages: `` `file` `` nor `a postgres://
/// or postgresql:// URL`, joined by `joiner`.
pub(crate) fn locations(joiner: &str) -> String {
    let kinds: Vec<String> = OPENERS.iter().map(|o| o.kind.described()).collect();
    kinds.join(joiner)
}
