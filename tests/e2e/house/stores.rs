//! A store is reached through the one `Store` and the abilities of its
//! trait (`SessionStore`): outside `src/session/store/`, code names no
//! concrete store (`FileStore`, `PgStore`, their modules) and calls no
//! `as_file()`. Tests are left out. The filesystem base (`src/fs*`) is
//! left out too: it cannot reach a store (a base module imports no
//! service), and its `as_file()` is a temporary file's.
//!
//! A store's kind is named in one place (DESIGN.md, "each plug point is
//! one trait and one table"): its name and URL schemes as string literals
//! appear in the table of kinds (`src/config/store_kinds.rs`) and the
//! store's own folder, nowhere else in code; everything else reads the
//! table (`ollm::config::store_kinds::STORE_KINDS`).

use std::path::{Path, PathBuf};

use super::contains_word;
use super::source::{code_files, kind_names_outside};
use crate::modules::plant;

/// What names a concrete store, as written in code.
const CONCRETE: &[&str] = &[
    "as_file()",
    "FileStore",
    "PgStore",
    "store::file",
    "store::postgres",
    "postgres::keeper",
    "postgres::url",
    "postgres::tls",
];

/// Where `root`'s code names a concrete store outside `allowed`, as
/// `path:line: what`.
fn concrete_stores_named(root: &Path, allowed: &[PathBuf]) -> Vec<String> {
    let mut found = Vec::new();
    for (file, code) in code_files(root) {
        let relative = file.strip_prefix(root).unwrap_or(&file);
        if allowed.iter().any(|place| relative.starts_with(place)) {
            continue;
        }
        for (number, line) in code.lines().enumerate() {
            for what in CONCRETE.iter().filter(|w| contains_word(line, w)) {
                found.push(format!("{}:{}: {what}", relative.display(), number + 1));
            }
        }
    }
    found
}

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn no_concrete_store_is_named_outside_the_store_module() {
    let src = manifest_dir().join("src");
    let allowed = [
        PathBuf::from("session/store"),
        PathBuf::from("fs"),
        PathBuf::from("fs.rs"),
    ];
    let mut found = concrete_stores_named(&src, &allowed);
    found.extend(concrete_stores_named(&manifest_dir().join("mcp/src"), &[]));
    assert!(
        found.is_empty(),
        "a concrete store named outside src/session/store/ (ask Store for the ability, \
         or add it to SessionStore): {found:#?}"
    );
}

#[test]
fn a_planted_reach_into_the_file_store_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let write = |relative: &str, text: &str| plant(dir.path(), relative, text);
    write(
        "session/store/mod.rs",
        "pub fn f(s: &Store) { s.as_file(); }\n",
    );
    write(
        "session/cli/reindex.rs",
        "// store.as_file() in a comment\nfn run(store: &Store) {\n    \
         let _ = \"FileStore\";\n    store.as_file().unwrap().reindex();\n}\n\
         #[cfg(test)]\nmod tests {\n    fn t(s: &Store) { s.as_file(); }\n}\n",
    );
    write(
        "session/copy.rs",
        "use crate::session::store::postgres::url;\n",
    );
    let found = concrete_stores_named(dir.path(), &[PathBuf::from("session/store")]);
    assert_eq!(
        found,
        [
            "session/cli/reindex.rs:4: as_file()",
            "session/copy.rs:1: store::postgres",
            "session/copy.rs:1: postgres::url",
        ]
    );
}

/// Where a kind's name that is also a plain word (`file`) names a store
/// when written in code: the session service but its importers (whose
/// transcripts have parts and entries of type `"file"`), and the
/// configuration. Elsewhere it means a file.
fn word_names_a_store(path: &str) -> bool {
    (path.starts_with("session/") && !path.starts_with("session/import/"))
        || path.starts_with("config/")
}

/// The names of the kinds that take a URL, their URL schemes and the
/// schemes' names (`postgresql`); and the names of those that take none
/// (`file`, a plain word too).
fn store_kind_names() -> (Vec<String>, Vec<String>) {
    let mut names = Vec::new();
    let mut words = Vec::new();
    for kind in ollm::config::store_kinds::STORE_KINDS {
        if kind.schemes.is_empty() {
            words.push(kind.name.to_string());
        } else {
            names.push(kind.name.to_string());
        }
        for scheme in kind.schemes {
            names.push((*scheme).to_string());
            names.push(scheme.trim_end_matches("://").to_string());
        }
    }
    names.sort();
    names.dedup();
    (names, words)
}

/// Where `root`'s code names a store kind outside the table and the
/// stores' folders, as `path:line: "literal"`: one of `names` (as written,
/// case and all), or of `words` where [`word_names_a_store`].
fn store_kinds_named(
    root: &Path,
    names: &[String],
    words: &[String],
    stores: &[&str],
) -> Vec<String> {
    let mut allowed = vec![PathBuf::from("config/store_kinds.rs")];
    allowed.extend(
        stores
            .iter()
            .map(|name| Path::new("session/store").join(name)),
    );
    let all: Vec<String> = names.iter().chain(words).cloned().collect();
    let mut found = kind_names_outside(root, &all, &allowed);
    found.retain(|at| {
        let literal = at.rsplit(": \"").next().unwrap_or_default();
        let literal = literal.strip_suffix('"').unwrap_or(literal);
        names.iter().any(|name| name == literal)
            || (words.iter().any(|word| word == literal) && word_names_a_store(at))
    });
    found
}

#[test]
fn no_store_kind_is_named_in_code_outside_the_table_and_its_own_folder() {
    let (names, words) = store_kind_names();
    assert!(names.len() >= 3 && !words.is_empty(), "{names:?} {words:?}");
    let stores: Vec<&str> = ollm::config::store_kinds::STORE_KINDS
        .iter()
        .map(|kind| kind.name)
        .collect();
    let mut found = Vec::new();
    for crate_src in ["src", "mcp/src", "xtask/src"] {
        let root = manifest_dir().join(crate_src);
        found.extend(
            store_kinds_named(&root, &names, &words, &stores)
                .into_iter()
                .map(|at| format!("{crate_src}/{at}")),
        );
    }
    assert!(
        found.is_empty(),
        "a store's kind named outside its table or folder (read it from \
         ollm::config::store_kinds): {found:#?}"
    );
}

/// A kind named in code is found with its line; in a comment, a test, a
/// longer string, another case, the table or a store's folder it is not,
/// nor a `"file"` that means a file.
#[test]
fn a_planted_store_kind_name_is_found_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let write = |relative: &str, text: &str| plant(dir.path(), relative, text);
    write(
        "lib.rs",
        "pub mod config;\npub mod session;\npub mod discover;\n",
    );
    write(
        "session/copy.rs",
        "// \"file\" in a comment\nfn f(x: &str) -> bool {\n    x == \"file\" || x.starts_with(\"postgresql://\")\n}\n\
         const HELP: &str = \"--to file\";\n#[cfg(test)]\nmod tests {\n    const F: &str = \"file\";\n}\n",
    );
    write("config/store_kinds.rs", "const N: &str = \"file\";\n");
    write(
        "session/store/postgres/url.rs",
        "const S: &str = \"postgres://\";\n",
    );
    write(
        "discover/entry.rs",
        "fn t() -> &'static str { \"file\" }\nconst P: &str = \"postgres\";\n\
         const V: &str = \"FILE\";\n",
    );
    write("session/import/tool.rs", "const PART: &str = \"file\";\n");
    let names = ["postgres", "postgres://", "postgresql://"].map(String::from);
    let words = ["file".to_string()];
    assert_eq!(
        store_kinds_named(dir.path(), &names, &words, &["file", "postgres"]),
        [
            "discover/entry.rs:2: \"postgres\"",
            "session/copy.rs:3: \"file\"",
            "session/copy.rs:3: \"postgresql://\"",
        ]
    );
}
