//! Project commands. `cargo xtask gen-docs` writes the shell completions in
//! `completions/` and the man pages in `man/` from the clap definitions;
//! `cargo xtask gen-types` writes the Python and TypeScript clients' types
//! from the wire types' JSON Schemas. `check-docs` and `check-types` fail
//! when the checked-in files are stale (the tests below run the same checks
//! in `cargo test --workspace`).

mod types;

use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from(".."))
}

fn generate() -> Vec<(PathBuf, Vec<u8>)> {
    ollm::ollm::docs::generate()
}

/// Files that differ from what would be generated, and generated-looking
/// files no program produces any more.
fn stale_files(root: &Path) -> Vec<String> {
    let files = generate();
    let mut stale = Vec::new();
    for (path, contents) in &files {
        if std::fs::read(root.join(path)).ok().as_deref() != Some(contents.as_slice()) {
            stale.push(path.display().to_string());
        }
    }
    for dir in ["completions", "man"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = PathBuf::from(dir).join(entry.file_name());
            if !files.iter().any(|(p, _)| *p == path) {
                stale.push(format!("{} (no longer generated)", path.display()));
            }
        }
    }
    stale.sort();
    stale
}

fn write_all(root: &Path) -> std::io::Result<usize> {
    for dir in ["completions", "man"] {
        let dir = root.join(dir);
        if dir.exists() {
            std::fs::remove_dir_all(&dir)?;
        }
        std::fs::create_dir_all(&dir)?;
    }
    let files = generate();
    for (path, contents) in &files {
        std::fs::write(root.join(path), contents)?;
    }
    Ok(files.len())
}

/// The generated client type files that differ from what would be generated.
fn stale_types(root: &Path) -> Result<Vec<String>, types::Unsupported> {
    Ok(types::generate()?
        .into_iter()
        .filter(|(path, contents)| std::fs::read(root.join(path)).ok().as_ref() != Some(contents))
        .map(|(path, _)| path.display().to_string())
        .collect())
}

fn write_types(root: &Path) -> Result<usize, String> {
    let files = types::generate().map_err(|e| e.to_string())?;
    for (path, contents) in &files {
        std::fs::write(root.join(path), contents)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(files.len())
}

fn main() {
    let root = repo_root();
    match std::env::args().nth(1).as_deref() {
        Some("gen-types") => match write_types(&root) {
            Ok(count) => println!("xtask: wrote {count} client type files"),
            Err(err) => {
                eprintln!("xtask: {err}");
                std::process::exit(4);
            }
        },
        Some("check-types") => match stale_types(&root) {
            Ok(stale) if stale.is_empty() => {}
            Ok(stale) => {
                eprintln!(
                    "xtask: stale generated client types (run `cargo xtask gen-types`): {}",
                    stale.join(", ")
                );
                std::process::exit(1);
            }
            Err(err) => {
                eprintln!("xtask: {err}");
                std::process::exit(2);
            }
        },
        Some("gen-docs") => match write_all(&root) {
            Ok(count) => println!("xtask: wrote {count} files to completions/ and man/"),
            Err(err) => {
                eprintln!("xtask: {err}");
                std::process::exit(4);
            }
        },
        Some("check-docs") => {
            let stale = stale_files(&root);
            if !stale.is_empty() {
                eprintln!(
                    "xtask: stale generated docs (run `cargo xtask gen-docs`): {}",
                    stale.join(", ")
                );
                std::process::exit(1);
            }
        }
        _ => {
            eprintln!("usage: cargo xtask gen-docs | check-docs | gen-types | check-types");
            std::process::exit(2);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_completions_and_man_pages_are_current() {
        let stale = stale_files(&repo_root());
        assert!(
            stale.is_empty(),
            "run `cargo xtask gen-docs`; stale: {stale:?}"
        );
    }

    #[test]
    fn generated_client_types_are_current() {
        let stale = stale_types(&repo_root()).unwrap();
        assert!(
            stale.is_empty(),
            "run `cargo xtask gen-types`; stale: {stale:?}"
        );
    }

    #[test]
    fn every_program_has_completions_for_five_shells_and_a_man_page() {
        let files = generate();
        for (name, _) in ollm::ollm::programs::all() {
            let for_program = files
                .iter()
                .filter(|(p, _)| p.to_string_lossy().contains(name))
                .count();
            assert!(for_program >= 6, "{name}: {for_program} files");
        }
    }

    /// Every program and subcommand shows an example and the exit codes in
    /// its help (DESIGN.md: help for every subcommand, with an example).
    #[test]
    fn every_command_and_subcommand_has_examples_in_its_help() {
        fn check(command: &clap::Command, path: &str, missing: &mut Vec<String>) {
            let path = format!("{path} {}", command.get_name()).trim().to_string();
            let help = command
                .get_after_help()
                .or(command.get_after_long_help())
                .map(|h| h.to_string())
                .unwrap_or_default();
            if !help.contains("Examples:") || !help.contains("Exit codes:") {
                missing.push(path.clone());
            }
            for sub in command.get_subcommands() {
                if sub.get_name() != "help" {
                    check(sub, &path, missing);
                }
            }
        }
        let mut missing = Vec::new();
        for (_, command) in ollm::ollm::programs::all() {
            check(&command, "", &mut missing);
        }
        assert!(
            missing.is_empty(),
            "no examples in the help of: {missing:?}"
        );
    }
}
