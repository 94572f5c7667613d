//! docs/import.md names the tools it imports from in prose, in its
//! examples and in its table: each list is the importers' table, in order.

use std::path::Path;

use ollm::session::import::{listed, tools};

fn page() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/import.md")).unwrap()
}

#[test]
fn the_import_page_lists_the_importers_of_the_table() {
    let page = page();
    let prose = page.split("\n\n").nth(1).unwrap().replace('\n', " ");
    assert!(
        prose.starts_with(&format!("Your history with {} can", listed())),
        "docs/import.md's opening should name {}: {prose}",
        listed()
    );

    let examples: Vec<&str> = page
        .lines()
        .filter_map(|line| line.strip_prefix("ollm session import --from "))
        .filter_map(|rest| rest.split_whitespace().next())
        .collect();
    let names: Vec<&str> = tools().map(|tool| tool.name()).collect();
    let mut first_use = examples.clone();
    first_use.dedup();
    first_use.truncate(names.len());
    assert_eq!(
        first_use, names,
        "the --from examples, one a tool, in order"
    );

    let rows: Vec<&str> = page
        .lines()
        .skip_while(|line| !line.starts_with("| tool |"))
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .filter_map(|line| line.split('|').nth(1))
        .map(str::trim)
        .collect();
    let titles: Vec<&str> = tools().map(|tool| tool.title()).collect();
    assert_eq!(rows, titles, "the table of docs/import.md, a row a tool");
}
