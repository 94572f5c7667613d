//! The kinds of session store a configuration may name
//! (`services.session.store`): each kind's name and how a location names
//! it. The one table of them, read by the configuration's check and, with
//! each kind's opener, by the session service (`session/store/kinds.rs`).
//! Here in the base, not in the session service, because the
//! configuration's check (a base module) reads it too.

/// A kind of session store.
#[derive(Debug, PartialEq, Eq)]
pub struct StoreKind {
    /// Its name, and the location that names it when it takes no URL.
    pub name: &'static str,
    /// The URL schemes of its locations (`postgres://`).
    pub schemes: &'static [&'static str],
}

impl StoreKind {
    /// Whether `location` names a store of this kind: its name when it
    /// takes no URL, else a URL of one of its schemes.
    #[must_use]
    pub fn names(&self, location: &str) -> bool {
        if self.schemes.is_empty() {
            location == self.name
        } else {
            self.schemes.iter().any(|s| location.starts_with(s))
        }
    }

    /// How a location names it, for messages: `` `file` `` or
    /// `a postgres:// or postgresql:// URL`.
    #[must_use]
    pub fn described(&self) -> String {
        if self.schemes.is_empty() {
            format!("`{}`", self.name)
        } else {
            format!("a {} URL", self.schemes.join(" or "))
        }
    }
}

/// The data directory's store (the default).
pub const FILE: StoreKind = StoreKind {
    name: "file",
    schemes: &[],
};

/// A PostgreSQL database shared by many machines.
pub const POSTGRES: StoreKind = StoreKind {
    name: "postgres",
    schemes: &["postgres://", "postgresql://"],
};

/// Every kind a configuration may name, the default first.
pub const STORE_KINDS: &[StoreKind] = &[FILE, POSTGRES];

/// The kind `location` names.
#[must_use]
pub fn store_kind(location: &str) -> Option<&'static StoreKind> {
    STORE_KINDS.iter().find(|kind| kind.names(location))
}

/// What a store location may be, for messages:
/// `` `file` or a postgres:// or postgresql:// URL ``.
#[must_use]
pub fn store_locations() -> &'static str {
    static LOCATIONS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        let kinds: Vec<String> = STORE_KINDS.iter().map(StoreKind::described).collect();
        kinds.join(" or ")
    });
    &LOCATIONS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_location_names_the_file_store_by_name_and_postgres_by_url_only() {
        assert_eq!(store_kind("file"), Some(&FILE));
        for url in ["postgres://u@h/db", "postgresql:///ollm?host=/run"] {
            assert_eq!(store_kind(url), Some(&POSTGRES), "{url}");
        }
        // A directory that happens to be called like a kind is a directory.
        for other in [
            "postgres",
            "postgresql",
            "FILE",
            "./file",
            "",
            "mysql://h/db",
        ] {
            assert_eq!(store_kind(other), None, "{other}");
        }
    }

    #[test]
    fn the_locations_message_lists_every_kind_as_before() {
        assert_eq!(
            store_locations(),
            "`file` or a postgres:// or postgresql:// URL"
        );
    }
}
