//! A store is reached through the one `Store` and the abilities of its
//! trait (`SessionStore`): outside `src/session/store/`, code names no
//! concrete store (`FileStore`, `PgStore`, their modules) and calls no
//! `as_file()`. Tests are left out. The filesystem base (`src/fs*`) is
//! left out too: it cannot reach a store (a base module imports no
//! service), and its `as_file()` is a temporary file's.

use std::path::{Path, PathBuf};

use super::contains_word;
use super::source::code_files;

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
    let write = |relative: &str, text: &str| {
        let path = dir.path().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
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
