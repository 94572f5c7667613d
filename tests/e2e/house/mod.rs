//! The house rules of `src/` that no compiler checks (DESIGN.md,
//! "Architecture"): the top-level modules import each other without a
//! cycle, no two files of a crate import each other in a circle, only
//! `src/output/` writes to stdout, no importer's kind is named outside
//! its own folder ([`importers`]), and no concrete store outside the store
//! module ([`stores`]). Tests (`#[cfg(test)]` items and the
//! files they declare) are left out of all of them.

mod importers;
mod imports;
mod source;
mod stores;

use std::path::{Path, PathBuf};

use crate::modules::plant;
use imports::{describe, file_graph, find_cycle, top_level};
use source::{code_files, code_only};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn the_top_level_modules_of_src_import_each_other_without_a_cycle() {
    let graph = top_level(&file_graph(&src()));
    assert!(graph.len() > 10, "{graph:?}");
    if let Some(cycle) = find_cycle(&graph) {
        panic!(
            "an import cycle between modules of src/ (move the shared piece down a layer, \
             DESIGN.md \"Architecture\"): {}",
            describe(&graph, &cycle)
        );
    }
}

/// Within a folder too: two files that import each other are one piece
/// (merge them) or share a piece that belongs in a lower file.
#[test]
fn no_two_files_of_a_crate_import_each_other_in_a_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for crate_src in [
        root.join("src"),
        root.join("mcp/src"),
        root.join("xtask/src"),
    ] {
        let graph = file_graph(&crate_src);
        assert!(!graph.is_empty(), "no files under {}", crate_src.display());
        if let Some(cycle) = find_cycle(&graph) {
            panic!(
                "an import circle between files of {} (move the shared piece to the lower \
                 file or a new one): {}",
                crate_src.display(),
                describe(&graph, &cycle)
            );
        }
    }
}

/// Siblings using each other are a circle; a folder's `mod.rs` reaching
/// into its own files is not, nor is a `super::` inside an inline module
/// that names its own file; an item a `mod.rs` re-exports is the file it
/// comes from.
#[test]
fn a_planted_circle_between_two_files_is_found_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let write = |relative: &str, text: &str| plant(dir.path(), relative, text);
    write("lib.rs", "pub mod tool;\npub mod clock;\n");
    write(
        "clock.rs",
        "pub fn now() {}\npub(crate) mod millis {\n    fn f() { super::now() }\n}\n",
    );
    write(
        "tool/mod.rs",
        "mod parse;\nmod plan;\nmod run;\npub use plan::Plan;\n\
         pub struct Args;\npub fn main() { run::go(plan::make()) }\n",
    );
    write("tool/parse.rs", "use super::Args;\n");
    write(
        "tool/plan.rs",
        "use super::{\n    Args,\n    parse::{self},\n};\npub struct Plan;\n",
    );
    write(
        "tool/run.rs",
        "pub fn go() { let _ = crate::clock::now(); }\n",
    );
    let graph = file_graph(dir.path());
    assert_eq!(find_cycle(&graph), None, "{graph:?}");
    assert!(
        graph["tool/plan.rs"].contains_key("tool/parse.rs"),
        "{graph:?}"
    );
    assert!(graph["tool/run.rs"].contains_key("clock.rs"), "{graph:?}");

    write(
        "tool/parse.rs",
        "use super::Args;\n\nfn f() -> crate::tool::Plan { todo!() }\n",
    );
    let graph = file_graph(dir.path());
    let cycle = find_cycle(&graph).expect("the planted circle");
    assert_eq!(cycle, ["tool/parse.rs", "tool/plan.rs", "tool/parse.rs"]);
    let named = describe(&graph, &cycle);
    assert!(
        named.contains("tool/parse.rs -> tool/plan.rs (tool/parse.rs:3)"),
        "{named}"
    );
    assert!(
        named.contains("tool/plan.rs -> tool/parse.rs (tool/plan.rs:3)"),
        "{named}"
    );
}

#[test]
fn only_src_output_writes_to_stdout() {
    let src = src();
    let mut found = Vec::new();
    for (file, code) in code_files(&src) {
        let relative = file.strip_prefix(&src).unwrap_or(&file);
        if relative.starts_with("output") {
            continue;
        }
        for (number, line) in code.lines().enumerate() {
            if STDOUT_WRITES.iter().any(|w| contains_word(line, w)) {
                found.push(format!("src/{}:{}", relative.display(), number + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "stdout written outside src/output/ (return a value and print it with the \
         output module): {found:#?}"
    );
}

/// tokio is linked for the postgres client; the keeper alone drives it
/// (Cargo.toml says why), so no other module starts a runtime or awaits.
#[test]
fn only_the_keeper_uses_tokio_itself() {
    let src = src();
    let keeper = Path::new("session/store/postgres/keeper");
    let mut found = Vec::new();
    for (file, code) in code_files(&src) {
        let relative = file.strip_prefix(&src).unwrap_or(&file);
        if relative.starts_with(keeper) {
            continue;
        }
        for (number, line) in code.lines().enumerate() {
            if contains_word(line, "tokio::") || contains_word(line, "tokio;") {
                found.push(format!("src/{}:{}", relative.display(), number + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "tokio used outside src/{}/: {found:#?}",
        keeper.display()
    );
}

/// A cycle planted in a tree of files is found and named; edges inside
/// one folder, tests, comments and strings are not edges.
#[test]
fn a_planted_cycle_is_found_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let write = |relative: &str, text: &str| plant(dir.path(), relative, text);
    write("lib.rs", "pub mod base;\npub mod service;\npub mod top;\n");
    write(
        "base.rs",
        "// crate::top::x in a comment\nconst S: &str = \"crate::top\";\n\
         #[cfg(test)]\nmod tests {\n    use crate::service::Thing;\n    fn f() { let c = '}'; }\n}\n\
         #[cfg(test)]\nmod more;\n",
    );
    write("base/more.rs", "use crate::top;\n");
    write(
        "service/mod.rs",
        "mod inner;\nuse crate::{base, service::inner::X};\n",
    );
    write("service/inner.rs", "use crate::service::Y;\n");
    write("top.rs", "use crate::{service, base::{self, Z}};\n");
    let graph = top_level(&file_graph(dir.path()));
    assert_eq!(find_cycle(&graph), None, "{graph:?}");

    std::fs::remove_file(dir.path().join("base/more.rs")).unwrap();
    write(
        "base.rs",
        "pub fn f() { crate::top::g(); }\nfn g() -> String { format!(\"{}\", r#\"\"#) }\n",
    );
    let graph = top_level(&file_graph(dir.path()));
    let cycle = find_cycle(&graph).expect("the planted cycle");
    assert_eq!(cycle, ["base", "top", "base"]);
    let named = describe(&graph, &cycle);
    assert!(named.contains("base -> top (base.rs:1)"), "{named}");
    assert!(named.contains("top -> base (top.rs:1)"), "{named}");
}

#[test]
fn stdout_writes_are_found_in_code_only() {
    let code = code_only(
        "fn a() {\n    eprintln!(\"x\");\n    // println!(\"y\")\n    let s = \"print!(\";\n}\n\
         fn b() { println!(\"z\"); }\n",
    );
    let lines: Vec<usize> = code
        .lines()
        .enumerate()
        .filter(|(_, line)| STDOUT_WRITES.iter().any(|w| contains_word(line, w)))
        .map(|(n, _)| n + 1)
        .collect();
    assert_eq!(lines, [6]);
    assert!(contains_word("let out = std::io::stdout();", "io::stdout"));
}

/// What writes to stdout, as written in code.
const STDOUT_WRITES: &[&str] = &["println!", "print!", "io::stdout"];

/// Whether `line` holds `word` not preceded by a part of an identifier
/// (`eprintln!` is not `println!`).
pub(super) fn contains_word(line: &str, word: &str) -> bool {
    line.match_indices(word).any(|(at, _)| {
        !line[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}
