//! What a user reads cites nothing a user does not have: the pages, help
//! texts, man pages and completions name no requirement, property or
//! document of the specification and no issue of this project (the
//! developers' page, docs/development.md, may).

use std::path::Path;

use regex::Regex;

use super::{page_paths, read, root};

/// "Requirement 10.3", "Req 6.6", "Property 9", "Properties 1–9",
/// "document 003", "issue 31", "issue #31".
fn citation() -> Regex {
    Regex::new(
        r"(?i)\b(requirements?|req\.?|property|properties) \d+|\bdocument 00\d|\bissues? #?\d+",
    )
    .unwrap()
}

fn files_under(dir: &str) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("read {dir}: {e}"))
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.is_file())
        .map(|path| {
            let name = path.file_name().expect("a name").to_string_lossy();
            format!("{dir}/{name}")
        })
        .collect();
    files.sort();
    files
}

/// Each `FILE:LINE: text` where `text` cites.
fn cited(files: &[String], citation: &Regex) -> Vec<String> {
    files
        .iter()
        .flat_map(|file| {
            let text = std::fs::read_to_string(root().join(file)).unwrap_or_default();
            text.lines()
                .enumerate()
                .filter(|(_, line)| citation.is_match(line))
                .map(|(n, line)| format!("{file}:{}: {}", n + 1, line.trim()))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn pages_help_and_man_pages_cite_no_requirement_or_issue_numbers() {
    let mut files: Vec<String> = page_paths()
        .into_iter()
        .filter(|page| page != "docs/development.md")
        .collect();
    files.extend(files_under("man"));
    files.extend(files_under("completions"));
    assert!(Path::new(&root().join("man/ollm.1")).is_file());
    let found = cited(&files, &citation());
    assert!(found.is_empty(), "cited:\n{}", found.join("\n"));
    // What the check looks for is found where it is.
    let planted = read("README.md")
        + "\nas Requirement 10.3 says (issue 31)\nProperties 1–9 hold\n(Req 6.6)\n";
    assert_eq!(
        planted.lines().filter(|l| citation().is_match(l)).count(),
        3
    );
}
