//! Which `.rs` files under a test suite's folder its crate compiles: a file
//! that no `mod` declaration reaches is never built, so its tests fail
//! nothing (jj checks its test runner for the same reason).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Fails naming every `.rs` file under `dir` (recursively) that no `mod`
/// declaration reaches from `dir/main.rs`.
pub fn assert_every_file_is_reached(dir: &Path) {
    let unreached = unreached_files(dir);
    assert!(
        unreached.is_empty(),
        "these files are in no `mod` declaration, so their tests never run \
         (add `mod NAME;` to main.rs or to the folder's mod.rs): {}",
        unreached
            .iter()
            .map(|path| path.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
}

/// The `.rs` files under `dir` that `dir/main.rs` does not reach, relative
/// to `dir`, in order.
pub fn unreached_files(dir: &Path) -> Vec<PathBuf> {
    let mut reached = BTreeSet::new();
    let mut pending = vec![dir.join("main.rs")];
    while let Some(file) = pending.pop() {
        let Ok(file) = file.canonicalize() else {
            continue;
        };
        if !reached.insert(file.clone()) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        pending.extend(declared_files(&file, &text));
    }
    let mut unreached: Vec<PathBuf> = rust_files(dir)
        .into_iter()
        .filter(|path| {
            !path
                .canonicalize()
                .is_ok_and(|path| reached.contains(&path))
        })
        .map(|path| path.strip_prefix(dir).unwrap_or(&path).to_path_buf())
        .collect();
    unreached.sort();
    unreached
}

/// The files that the out-of-line `mod` declarations of `file` (at the
/// start of a line, as rustfmt puts them) name, as rustc finds them: a
/// `#[path]` relative to the file's folder; otherwise `NAME.rs` or
/// `NAME/mod.rs` next to a `main.rs` or `mod.rs`, and under a folder named
/// after any other file.
fn declared_files(file: &Path, text: &str) -> Vec<PathBuf> {
    let folder = file.parent().unwrap_or(Path::new("."));
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let children = if matches!(stem, "main" | "mod" | "lib") {
        folder.to_path_buf()
    } else {
        folder.join(stem)
    };
    let mut files = Vec::new();
    let mut path_attribute: Option<String> = None;
    for line in text.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("#[path") {
            path_attribute = rest.split('"').nth(1).map(str::to_string);
            continue;
        }
        let declaration = ["mod ", "pub mod ", "pub(crate) mod ", "pub(super) mod "]
            .iter()
            .find_map(|prefix| line.strip_prefix(prefix));
        match declaration.and_then(|rest| rest.strip_suffix(';')) {
            Some(name) => match path_attribute.take() {
                Some(path) => files.push(folder.join(path)),
                None => {
                    files.push(children.join(format!("{name}.rs")));
                    files.push(children.join(name).join("mod.rs"));
                }
            },
            None if line.starts_with("#[") => {}
            None => path_attribute = None,
        }
    }
    files
}

/// Writes `text` at `relative` below `dir`, making its folders: a test's
/// planted tree of source files.
pub(crate) fn plant(dir: &Path, relative: &str, text: &str) {
    let path = dir.join(relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Every `.rs` file under `dir`, in any folder; none when it cannot be read.
pub(crate) fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return files;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
    files
}

#[test]
fn a_file_no_mod_declaration_reaches_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let write = |relative: &str, text: &str| plant(dir.path(), relative, text);
    write(
        "main.rs",
        "mod flat;\nmod folder;\n#[path = \"elsewhere/renamed.rs\"]\nmod renamed;\n\
         // mod commented;\nmod inline {\n}\n",
    );
    write("flat.rs", "#[cfg(test)]\nmod nested;\n");
    write("flat/nested.rs", "");
    write("folder/mod.rs", "pub mod inner;\n");
    write("folder/inner.rs", "");
    write("elsewhere/renamed.rs", "");
    write("commented.rs", "");
    write("forgotten.rs", "");
    write("folder/forgotten_too.rs", "");
    write("flat/deeper/mod.rs", "");
    assert_eq!(
        unreached_files(dir.path()),
        [
            PathBuf::from("commented.rs"),
            PathBuf::from("flat/deeper/mod.rs"),
            PathBuf::from("folder/forgotten_too.rs"),
            PathBuf::from("forgotten.rs"),
        ]
    );
}
