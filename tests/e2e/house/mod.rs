//! The house rules of `src/` that no compiler checks (DESIGN.md,
//! "Architecture"): the top-level modules import each other without a
//! cycle, and only `src/output/` writes to stdout. Tests (`#[cfg(test)]`
//! items and the files they declare) are left out of both.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::modules::rust_files;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn the_top_level_modules_of_src_import_each_other_without_a_cycle() {
    let graph = import_graph(&src());
    assert!(graph.len() > 10, "{graph:?}");
    if let Some(cycle) = find_cycle(&graph) {
        panic!(
            "an import cycle between modules of src/ (move the shared piece down a layer, \
             DESIGN.md \"Architecture\"): {}",
            describe(&graph, &cycle)
        );
    }
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

/// A cycle planted in a tree of files is found and named; edges inside
/// one folder, tests, comments and strings are not edges.
#[test]
fn a_planted_cycle_is_found_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let write = |relative: &str, text: &str| {
        let path = dir.path().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
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
    let graph = import_graph(dir.path());
    assert_eq!(find_cycle(&graph), None, "{graph:?}");

    std::fs::remove_file(dir.path().join("base/more.rs")).unwrap();
    write(
        "base.rs",
        "pub fn f() { crate::top::g(); }\nfn g() -> String { format!(\"{}\", r#\"\"#) }\n",
    );
    let graph = import_graph(dir.path());
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
fn contains_word(line: &str, word: &str) -> bool {
    line.match_indices(word).any(|(at, _)| {
        !line[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// Module → the modules it imports, each with the first place it does.
type Graph = BTreeMap<String, BTreeMap<String, String>>;

/// The imports between the top-level modules of the crate at `src` (a
/// top-level file or folder; `lib.rs` declares them and is none).
fn import_graph(src: &Path) -> Graph {
    let modules: BTreeSet<String> = std::fs::read_dir(src)
        .unwrap()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().to_string();
            match name.strip_suffix(".rs") {
                Some("lib" | "main") => None,
                Some(stem) => Some(stem.to_string()),
                None => entry.path().is_dir().then_some(name),
            }
        })
        .collect();
    let mut graph: Graph = modules
        .iter()
        .map(|m| (m.clone(), BTreeMap::new()))
        .collect();
    for (file, code) in code_files(src) {
        let relative = file.strip_prefix(src).unwrap_or(&file);
        let Some(first) = relative.components().next() else {
            continue;
        };
        let first = first.as_os_str().to_string_lossy();
        let from = first.strip_suffix(".rs").unwrap_or(&first).to_string();
        if !modules.contains(&from) {
            continue;
        }
        for (number, line) in code.lines().enumerate() {
            for to in crate_references(line) {
                if to != from && modules.contains(&to) {
                    let place = format!("{}:{}", relative.display(), number + 1);
                    graph
                        .entry(from.clone())
                        .or_default()
                        .entry(to)
                        .or_insert(place);
                }
            }
        }
    }
    graph
}

/// The first segments of the `crate::` paths of one line of code:
/// `crate::config::load` and `use crate::{config::X, diag}` name `config`
/// (and `diag`).
fn crate_references(line: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (at, _) in line.match_indices("crate::") {
        let rest = &line[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut item_start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if item_start && (c.is_alphanumeric() || c == '_') => {
                        names.push(identifier(&group[i..]));
                        item_start = false;
                    }
                    _ => {}
                }
            }
        } else {
            names.push(identifier(rest));
        }
    }
    names
}

fn identifier(text: &str) -> String {
    text.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// A cycle of `graph` as the modules along it (the first again at the
/// end), or `None`.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &Graph,
        done: &mut BTreeSet<String>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flat_map(BTreeMap::keys) {
            if let Some(cycle) = visit(next, graph, done, path) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut done, &mut Vec::new()))
}

/// `base -> top (base.rs:1), top -> base (top.rs:1)`.
fn describe(graph: &Graph, cycle: &[String]) -> String {
    cycle
        .windows(2)
        .map(|pair| {
            let place = graph
                .get(&pair[0])
                .and_then(|edges| edges.get(&pair[1]))
                .map_or("?", String::as_str);
            format!("{} -> {} ({place})", pair[0], pair[1])
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every `.rs` file under `src` but those of tests, as [`code_only`].
fn code_files(src: &Path) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    let mut test_files = BTreeSet::new();
    let mut all = rust_files(src);
    all.sort();
    for file in &all {
        let text = std::fs::read_to_string(file).unwrap();
        let (code, test_modules) = without_tests(&code_only(&text));
        let folder = file.parent().unwrap();
        let stem = file.file_stem().unwrap().to_string_lossy();
        let children = if matches!(stem.as_ref(), "mod" | "lib" | "main") {
            folder.to_path_buf()
        } else {
            folder.join(stem.as_ref())
        };
        for name in test_modules {
            test_files.insert(children.join(format!("{name}.rs")));
            test_files.insert(children.join(&name).join("mod.rs"));
        }
        files.push((file.clone(), code));
    }
    // A test file's own `mod` declarations are tests too.
    files.retain(|(file, _)| {
        !file
            .ancestors()
            .any(|a| test_files.contains(a) || test_files.contains(&a.join("mod.rs")))
    });
    files
}

/// `code` with every `#[cfg(test)]` item blanked, and the names of the
/// out-of-line modules (`#[cfg(test)] mod tests;`) among them.
fn without_tests(code: &str) -> (String, Vec<String>) {
    let mut bytes = code.as_bytes().to_vec();
    let mut modules = Vec::new();
    let attribute = b"#[cfg(test)]";
    let mut from = 0;
    while let Some(at) = find(&bytes[from..], attribute).map(|i| i + from) {
        let start = at + attribute.len();
        let mut depth = 0usize;
        let mut end = bytes.len();
        for (i, &b) in bytes.iter().enumerate().skip(start) {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                b';' if depth == 0 => {
                    end = i + 1;
                    break;
                }
                _ => {}
            }
        }
        let item = String::from_utf8_lossy(&bytes[start..end]).to_string();
        let words: Vec<&str> = item
            .split(|c: char| c.is_whitespace() || c == ';')
            .filter(|w| !w.is_empty())
            .collect();
        if let [.., "mod", name] = words.as_slice() {
            modules.push((*name).to_string());
        }
        for b in &mut bytes[at..end] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
        from = end;
    }
    (String::from_utf8_lossy(&bytes).to_string(), modules)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// `text` with comments and the insides of string and character literals
/// blanked (newlines kept, so line numbers stay), leaving only code.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let after_ident = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if (c == 'r' || (c == 'b' && next == Some('r'))) && !after_ident && {
            let mut j = i + if c == 'b' { 2 } else { 1 };
            while chars.get(j) == Some(&'#') {
                j += 1;
            }
            chars.get(j) == Some(&'"')
        } {
            let mut j = i + if c == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while chars[j] == '#' {
                hashes += 1;
                j += 1;
            }
            out.extend(&chars[i..=j]);
            i = j + 1;
            while i < chars.len() {
                if chars[i] == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#')) {
                    out.push('"');
                    out.extend(std::iter::repeat_n('#', hashes));
                    i += 1 + hashes;
                    break;
                }
                out.push(blank(chars[i]));
                i += 1;
            }
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if let Some(&c) = chars.get(i) {
                    out.push(blank(c));
                }
                i += 1;
            }
            out.push('"');
            i += 1;
        } else if c == '\'' && next == Some('\\') {
            // An escaped character literal: '\n', '\'', '\u{1F600}'.
            out.push('\'');
            i += 2;
            out.push(' ');
            while i < chars.len() && chars[i] != '\'' {
                out.push(' ');
                i += 1;
            }
            out.push('\'');
            i += 1;
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            out.push_str("' '");
            i += 3;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}
