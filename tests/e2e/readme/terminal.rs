//! The README's tour as a person walks through it: pasted into a terminal
//! 80 and then 120 columns wide, in bash and in zsh (`zsh -f`), every
//! command succeeding and every table fitting the width.

use std::time::Duration;

use super::blocks::{Block, Mode};
use super::pages;
use super::run::{shells, stage};
use crate::support::test_path;

/// What the terminal showed, without colours and carriage returns.
fn plain(shown: &[u8]) -> String {
    let text = String::from_utf8_lossy(shown).replace('\r', "");
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            chars.next();
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// The lines of the tables the terminal showed: from a header row (`ID`,
/// `SESSION`) to the next line that is not a row.
fn table_lines(shown: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut inside = false;
    for line in shown.lines() {
        if line.starts_with("ID  ") || line.starts_with("SESSION  ") {
            inside = true;
        } else if line.trim().is_empty() || line.starts_with('{') || line.starts_with('[') {
            inside = false;
        }
        if inside {
            lines.push(line);
        }
    }
    lines
}

fn walk(shell: &str, args: &[&str], blocks: &[&Block], columns: usize) -> Result<(), String> {
    let staged = stage("README.md", blocks);
    let run = format!("{shell} {} {}", args.join(" "), staged.script.display());
    let out = staged
        .command(
            "script",
            format!("{}:{}", staged.bin.display(), test_path()),
        )
        .args(["-qec", &run, "/dev/null"])
        .env("COLUMNS", columns.to_string())
        .env("PAGER", "cat")
        .timeout(Duration::from_secs(300))
        .output()
        .expect("run script");
    let shown = plain(&out.stdout);
    let failed = shown.lines().find(|l| l.starts_with("readme-test: "));
    if let Some(failed) = failed {
        return Err(format!("{shell} at {columns}: {failed}\n{shown}"));
    }
    if !out.status.success() || shown.contains("panicked") {
        return Err(format!(
            "{shell} at {columns}: {:?}\n{shown}",
            out.status.code()
        ));
    }
    let tables = table_lines(&shown);
    if tables.len() < 2 {
        return Err(format!("{shell} at {columns}: no table shown\n{shown}"));
    }
    let wide: Vec<&&str> = tables
        .iter()
        .filter(|l| unicode_width::UnicodeWidthStr::width(**l) > columns)
        .collect();
    if !wide.is_empty() {
        return Err(format!(
            "{shell} at {columns}: wider than the terminal: {wide:#?}"
        ));
    }
    Ok(())
}

#[test]
fn the_tour_at_a_terminal_80_and_120_columns_wide_in_bash_and_zsh() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true and no `script` (util-linux)"
        );
        eprintln!("SKIPPED: no `script` (util-linux) to give the tour a terminal");
        return;
    }
    let all = pages();
    let (_, blocks) = all
        .iter()
        .find(|(page, _)| page == "README.md")
        .expect("the README");
    let tour: Vec<&Block> = blocks.iter().filter(|b| b.mode == Mode::Run).collect();
    let mut failures = Vec::new();
    for (shell, args) in shells() {
        for columns in [80, 120] {
            if let Err(failure) = walk(shell, args, &tour, columns) {
                failures.push(failure);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
