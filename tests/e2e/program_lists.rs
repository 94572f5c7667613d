//! The program names the packages carry, written down in several languages,
//! against the one list they all follow: `src/ollm/programs.rs`. The Python
//! wheel carries the root package's programs (maturin builds one package per
//! wheel); the npm package carries every program.

use std::collections::BTreeSet;
use std::path::Path;

type Names = BTreeSet<String>;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every program of the toolkit: `ollm::ollm::programs::all()`.
fn every_program() -> Names {
    ollm::ollm::programs::all()
        .into_iter()
        .map(|(name, _)| name.to_string())
        .collect()
}

/// The `name` of each `[[bin]]` table of the manifest at `path`.
fn manifest_programs(path: &str) -> Names {
    let text = read(path);
    let mut names = Names::new();
    let mut in_bin = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if in_bin && let Some(value) = line.strip_prefix("name = ") {
            names.insert(value.trim_matches('"').to_string());
        }
    }
    names
}

/// The programs of the root package, which the wheel carries.
pub fn wheel_programs() -> Names {
    manifest_programs("Cargo.toml")
}

/// The quoted strings between `start` and the first `end` after it in the
/// file at `path`.
fn quoted_between(path: &str, start: &str, end: char) -> Names {
    let text = read(path);
    let from = text
        .find(start)
        .unwrap_or_else(|| panic!("{path}: no `{start}`"))
        + start.len();
    let list = &text[from..from + text[from..].find(end).expect("the list's end")];
    list.split('"')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect()
}

/// "`what`: lacks …, has … too" when `found` is not `expected`.
fn difference(what: &str, expected: &Names, found: &Names) -> Option<String> {
    let lacks: Vec<_> = expected.difference(found).collect();
    let extra: Vec<_> = found.difference(expected).collect();
    (!lacks.is_empty() || !extra.is_empty())
        .then(|| format!("{what}: lacks {lacks:?}, has {extra:?} too"))
}

#[test]
fn every_list_of_programs_names_those_of_programs_rs() {
    let every = every_program();
    let wheel = wheel_programs();
    let mcp = manifest_programs("mcp/Cargo.toml");
    let package_json: serde_json::Value =
        serde_json::from_str(&read("npm/ollm-tools/package.json")).unwrap();
    let npm_bin = package_json["bin"]
        .as_object()
        .expect("package.json has a bin map");
    let launchers: Names = std::fs::read_dir(root().join("npm/ollm-tools/bin"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let wrong_launchers: Vec<String> = launchers
        .iter()
        .filter_map(|file| {
            let name = file.strip_suffix(".js")?;
            let text = read(&format!("npm/ollm-tools/bin/{file}"));
            (!text.contains(&format!("launch(\"{name}\")"))).then(|| file.clone())
        })
        .collect();
    let wrong_bin_paths: Vec<&String> = npm_bin
        .iter()
        .filter(|(name, path)| path.as_str() != Some(format!("bin/{name}.js").as_str()))
        .map(|(name, _)| name)
        .collect();
    let mut differences: Vec<String> = [
        difference(
            "the [[bin]] tables of Cargo.toml and mcp/Cargo.toml",
            &every,
            &wheel.union(&mcp).cloned().collect(),
        ),
        difference(
            "PROGRAMS in python/ollm_tools/_find.py (the wheel's: the root package's [[bin]])",
            &wheel,
            &quoted_between("python/ollm_tools/_find.py", "PROGRAMS = (", ')'),
        ),
        difference(
            "PROGRAMS in npm/ollm-tools/src/binary.ts",
            &every,
            &quoted_between("npm/ollm-tools/src/binary.ts", "PROGRAMS = [", ']'),
        ),
        difference(
            "\"bin\" in npm/ollm-tools/package.json",
            &every,
            &npm_bin.keys().cloned().collect(),
        ),
        difference(
            "the launchers in npm/ollm-tools/bin/",
            &every.iter().map(|name| format!("{name}.js")).collect(),
            &launchers,
        ),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !wrong_launchers.is_empty() {
        differences.push(format!(
            "npm/ollm-tools/bin/: launchers that do not launch the program they are named after: {wrong_launchers:?}"
        ));
    }
    if !wrong_bin_paths.is_empty() {
        differences.push(format!(
            "\"bin\" in npm/ollm-tools/package.json: programs not run by bin/NAME.js: {wrong_bin_paths:?}"
        ));
    }
    assert!(
        differences.is_empty(),
        "the program lists differ from src/ollm/programs.rs ({every:?}):\n{}",
        differences.join("\n")
    );
}
