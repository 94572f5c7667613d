use super::*;

fn kind(line: &str) -> LineKind {
    classify(line, true).unwrap()
}

#[test]
fn markdown_structure_is_recognised() {
    assert_eq!(kind("```rust"), LineKind::Fence);
    assert_eq!(kind("  ~~~"), LineKind::Fence);
    assert_eq!(kind("| key | default |"), LineKind::Structure);
    assert_eq!(kind("|---|---|"), LineKind::Structure);
    assert_eq!(kind("---"), LineKind::Structure);
    assert_eq!(kind("* * *"), LineKind::Structure);
    assert_eq!(kind("─────────"), LineKind::Structure);
    assert_eq!(kind("    let x = 1;"), LineKind::Structure);
    assert_eq!(kind("\tfoo"), LineKind::Structure);
    assert_eq!(kind("- item"), LineKind::Element);
    assert_eq!(kind("* item"), LineKind::Element);
    assert_eq!(kind("12. item"), LineKind::Element);
    assert_eq!(kind("3) item"), LineKind::Element);
    assert_eq!(kind("## Heading"), LineKind::Structure);
    assert_eq!(kind("> quoted"), LineKind::Element);
}

#[test]
fn log_records_are_records() {
    for line in [
        "2026-11-22T10:00:01Z ERROR connection refused",
        "10:00:01.123 worker started",
        "[2026-11-22 10:00:01] retrying",
        "[ERROR] disk full",
        "[ 21%] Building CXX object src/CMakeFiles/llama.dir/unity_8.cxx.o",
        "[3/10] Compiling parser",
        "ERROR: disk full",
        "WARN retrying in 5s",
        "error: could not compile `ollm`",
        "warning: unused variable",
        "commit 3f2a9c1d0e",
        "Author: A. Person <a@example.org>",
        "Date:   Thu Jun 30 21:24:23 2022 +0900",
        "Sun Jun 11 03:04:18 2006  A. Person  <a@example.org>",
        " src/repetition/mod.rs | 126 +++++++++++----",
        " .../raw.csv | 157 ++++",
        " .../summary                               | 126 +++",
    ] {
        assert_eq!(kind(line), LineKind::Record, "{line}");
    }
}

#[test]
fn prose_is_prose() {
    for line in [
        "The parser fails on a BOM.",
        "**Bold** words first",
        "-- not a divider, a dash",
        "2026 was a good year",
        "ERRORS are counted",
        "[link](https://example.com) first",
        "[1] A footnote",
        "[ ] a task",
        "#hashtag",
        "",
        "1.5 times faster",
    ] {
        assert_eq!(kind(line), LineKind::Prose, "{line:?}");
    }
}

#[test]
fn a_short_head_waits_for_more_and_the_limit_decides() {
    for head in [
        "", " ", "-", "`", "``", "1", "12.", "#", "--", "[", "ERR", "2026-1",
    ] {
        assert_eq!(classify(head, false), None, "{head:?}");
    }
    assert_eq!(classify("The", false), None, "maybe a key: The = 1");
    assert_eq!(classify("The p", false), Some(LineKind::Prose));
    assert_eq!(classify("- ", false), None, "maybe a divider: - - -");
    assert_eq!(classify("- i", false), Some(LineKind::Element));
    let rule = "-".repeat(HEAD_LIMIT);
    assert_eq!(classify(&rule, false), Some(LineKind::Structure));
}

#[test]
fn the_answer_does_not_depend_on_where_the_head_was_cut() {
    for line in [
        "- item",
        "12. x",
        "```",
        "| a |",
        "---",
        "2026-11-22 x",
        "[WARN] y",
        "Plain text here",
        "    code",
        "#x",
        "ERRORS",
        "**b**",
    ] {
        let whole = classify(line, true);
        let mut decided = None;
        let mut head = String::new();
        for c in line.chars() {
            head.push(c);
            if let Some(kind) = classify(&head, false) {
                decided = Some(kind);
                break;
            }
        }
        let decided = decided.or_else(|| classify(line, true));
        assert_eq!(decided, whole, "{line:?}");
    }
}

#[test]
fn a_document_skeleton_is_structure() {
    for line in [
        "[#2884]: https://github.com/tokio-rs/tokio/pull/2884",
        "[0.4.31]: https://github.com/rust-lang/log/compare/0.4.30...0.4.31",
        "<details>",
        "</details>",
        "<!-- generated -->",
        "<summary>view details</summary>",
        "https://docs.rs/serde",
        "www.example.org/a",
        "./src/main.rs",
        "../README.md",
        "~/bin/tool",
        "/usr/share/doc",
        "Signed-off-by: A. Person <a@example.org>",
        "rust_version: 1.70",
        "name = \"ollm\"",
        "name=ollm",
        "key =",
        "###### Sixth level",
    ] {
        assert_eq!(kind(line), LineKind::Structure, "{line:?}");
    }
}

#[test]
fn text_that_only_looks_like_structure_is_prose() {
    for line in [
        "[]: not a reference",
        "[see below] for details",
        "[an unclosed bracket",
        "< 5 ms on a warm cache",
        "<= the limit",
        "/ a slash, then words",
        "Note: this is prose",
        "a == b holds",
        "####### seven hashes",
        "1234567890. ten digits",
        ". a stray dot",
        "commit to the plan",
        " src",
        "error:E0432 was the code",
    ] {
        let expected = if line.starts_with("error:") {
            LineKind::Record
        } else {
            LineKind::Prose
        };
        assert_eq!(kind(line), expected, "{line:?}");
    }
    assert_eq!(kind("123456789. nine digits"), LineKind::Element);
    assert_eq!(kind("warning:"), LineKind::Record);
    assert_eq!(kind("commit 1a2b3c4"), LineKind::Record, "seven hex digits");
    assert_eq!(kind("commit 1a2b3c"), LineKind::Prose, "six hex digits");
}

#[test]
fn a_head_that_could_still_become_structure_waits() {
    for head in [
        "/",
        "12345",
        "The ",
        " src",
        "commit abc",
        "commit abc12",
        "[#28",
        "<",
        "[0.4.31]",
    ] {
        assert_eq!(classify(head, false), None, "{head:?}");
    }
    assert_eq!(classify(" src", true), Some(LineKind::Prose));
    assert_eq!(classify("commit 1a2b3c4", false), Some(LineKind::Record));
}

#[test]
fn diffstat_and_progress_lines_are_records_and_their_look_alikes_prose() {
    assert_eq!(kind(" file.bin | Bin 0 -> 1024 bytes"), LineKind::Record);
    assert_eq!(
        classify(" src/main.rs     ", false),
        Some(LineKind::Record),
        "a padded path column"
    );
    assert_eq!(classify(" src/main.rs |", false), None);
    assert_eq!(classify(" src/main.rs | ", false), None);
    for line in [" src ", " a | b", "[3/] steps", "[/5] steps"] {
        assert_eq!(kind(line), LineKind::Prose, "{line:?}");
    }
}
