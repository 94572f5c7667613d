//! The README and every page of `docs/`, held to what they show: every
//! command line of their `sh` blocks runs ([`run`]), every block pastes
//! safely into an interactive shell ([`paste`]), and every page is reached
//! from the README and every relative link resolves ([`links`]).
//!
//! - A block is run when its fence says `sh`; `text` and other blocks never.
//! - `<!-- readme-test: skip (why) -->` just above a fence skips the block,
//!   saying why; `<!-- readme-test: model -->` runs it only with a model
//!   (`real_model()`: SKIPPED without one, a failure under `CI=true`);
//!   `<!-- readme-test: only zsh (why) -->` runs it in that shell alone.
//! - Each page runs in bash and in zsh (`zsh -f`).
//! - Each page runs in a sandbox of its own, its blocks in order in one
//!   shell. Placeholders (`history.json`, `$ID`, `./tool`) are bound by the
//!   setup of the page or of the block's `## ` section, in `run::SETUPS`.
//! - Each command (a line, with its continuation lines, open quotes and
//!   `if … fi`) must exit 0; a failure names its page and line
//!   (`docs/ollm-env.md:12`).

mod blocks;
mod citations;
mod links;
mod paste;
mod run;
mod terminal;

use std::path::{Path, PathBuf};

use blocks::Block;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README.md, then every page of docs/ by name, each as its path from the
/// repository's root.
fn page_paths() -> Vec<String> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("read docs/")
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    let mut out = vec!["README.md".to_string()];
    out.extend(pages.iter().map(|path| {
        let name = path.file_name().expect("a name").to_string_lossy();
        format!("docs/{name}")
    }));
    out
}

fn read(page: &str) -> String {
    std::fs::read_to_string(root().join(page)).unwrap_or_else(|e| panic!("read {page}: {e}"))
}

/// Every page with its `sh` blocks, README.md first.
fn pages() -> Vec<(String, Vec<Block>)> {
    page_paths()
        .into_iter()
        .map(|page| {
            let blocks = blocks::blocks(&page, &read(&page));
            (page, blocks)
        })
        .collect()
}
