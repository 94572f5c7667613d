//! An importer's kind is named in one place (DESIGN.md, "each plug point
//! is one trait and one table"): its name as a string literal appears in
//! its own folder (`src/session/import/<name>/`, `<name>.rs`) and nowhere
//! else in code; everything else reads it from the table
//! (`ollm::session::import::tools()`). Tests are left out.

use std::path::{Path, PathBuf};

use super::source::kind_names_outside;
use crate::modules::plant;

fn names_and_folders() -> (Vec<String>, Vec<PathBuf>) {
    let names: Vec<String> = ollm::session::import::tools()
        .map(|tool| tool.name().to_string())
        .collect();
    let folders = names
        .iter()
        .flat_map(|name| {
            let dir = Path::new("session/import");
            [dir.join(name), dir.join(format!("{name}.rs"))]
        })
        .collect();
    (names, folders)
}

#[test]
fn no_importer_kind_is_named_in_code_outside_the_table_and_its_own_folder() {
    let (names, own) = names_and_folders();
    assert!(names.len() >= 5, "{names:?}");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for (crate_src, allowed) in [("src", own), ("mcp/src", vec![]), ("xtask/src", vec![])] {
        found.extend(
            kind_names_outside(&root.join(crate_src), &names, &allowed)
                .into_iter()
                .map(|at| format!("{crate_src}/{at}")),
        );
    }
    assert!(
        found.is_empty(),
        "an importer's kind named outside its folder (take it from \
         ollm::session::import::tools() or named()): {found:#?}"
    );
}

/// A kind named in code is found with its line; in a comment, a test, a
/// longer string, or its own folder it is not.
#[test]
fn a_planted_kind_name_is_found_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let write = |relative: &str, text: &str| plant(dir.path(), relative, text);
    write("lib.rs", "pub mod cli;\npub mod session;\n");
    write(
        "cli.rs",
        "// \"codex\" in a comment\nconst HELP: &str = \"--from codex\";\n\
         fn f(x: &str) -> bool { x == \"é\" || x == \"Codex\" }\n\
         #[cfg(test)]\nmod tests {\n    const C: &str = \"codex\";\n}\n",
    );
    write(
        "session/import/codex/mod.rs",
        "fn name() -> &'static str { \"codex\" }\n",
    );
    write(
        "session/import/table.rs",
        "static T: &[&str] = &[r#\"goose\"#];\n",
    );
    let names = vec!["codex".to_string(), "goose".to_string()];
    let own = vec![PathBuf::from("session/import/codex")];
    assert_eq!(
        kind_names_outside(dir.path(), &names, &own),
        [
            "cli.rs:3: \"Codex\"",
            "session/import/table.rs:1: \"goose\""
        ]
    );
}
