//! What `ollm-context`, `ollm-env`, `ollm-discover` and `ollm` (`config`,
//! `trust`, `--list`) show at a terminal, through a real pseudo-terminal:
//! a listing is a table fitted to the width, a result object pretty JSON, a
//! mutation one JSON line; hostile text never arrives live; piped output
//! keeps its machine-readable shape.

use serde_json::Value;
use unicode_width::UnicodeWidthStr;

use crate::support::{Sandbox, json, stdout, terminal_bytes};
use crate::terminal::{HOSTILE, hostile_text, live_controls};

const BOLD: &str = "\u{1b}[1m";
const RESET: &str = "\u{1b}[0m";

/// The lines a terminal received, without the tty's `\r` line ends.
fn lines(received: &str) -> Vec<String> {
    received
        .split('\n')
        .map(|l| l.trim_end_matches('\r').to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// Runs `argv` at a terminal (a colour terminal unless `env` says
/// otherwise) and checks that nothing but the header's bold reached it
/// live; the text received, with the bold taken out.
fn shown(sb: &Sandbox, argv: &str, env: &[(&str, &str)]) -> Option<String> {
    let mut all = vec![("TERM", "xterm-256color")];
    all.extend_from_slice(env);
    let (received, code) = terminal_bytes(sb, argv, &all)?;
    let text = String::from_utf8_lossy(&received).into_owned();
    let plain = text.replace(BOLD, "").replace(RESET, "");
    let live = live_controls(plain.as_bytes());
    assert!(
        live.is_empty(),
        "`{argv}` sent live control characters to the terminal: {live:?}\n{text}"
    );
    assert_eq!(code, Some(0), "`{argv}`: {text}");
    Some(plain)
}

fn add(sb: &Sandbox, key: &str, content: &str, extra: &[&str]) {
    let out = sb
        .cmd("ollm-context")
        .args(["add", key, "-"])
        .args(extra)
        .write_stdin(content.to_string())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
}

#[test]
fn context_list_at_a_terminal_is_a_table_fitted_to_80_and_120_columns() {
    let sb = Sandbox::new();
    add(
        &sb,
        "rules",
        "Use tabs, never spaces.",
        &["--priority", "80"],
    );
    let long = "The whole specification, which goes on well past the edge of any terminal a person uses, as specifications do, and then some more.";
    add(&sb, "spec", long, &["--ttl", "1h"]);
    add(&sb, "日本語", "幅の広い文字", &[]);
    for columns in [80usize, 120] {
        let Some(text) = shown(
            &sb,
            "ollm-context list",
            &[("COLUMNS", &columns.to_string())],
        ) else {
            return;
        };
        let rows = lines(&text);
        assert_eq!(rows.len(), 4, "{text}");
        assert!(
            rows[0].starts_with("KEY")
                && rows[0].contains("PRIORITY")
                && rows[0].ends_with("CONTENT"),
            "{text}"
        );
        assert!(rows.iter().all(|r| r.width() <= columns), "{text}");
        assert_eq!(
            rows[2].width(),
            columns,
            "the long row fills the width: {text}"
        );
        assert!(rows[2].ends_with('…'), "{text}");
        assert!(rows[1].contains("Use tabs, never spaces."), "{text}");
        assert!(rows[3].starts_with("日本語"), "{text}");
    }
}

#[test]
fn the_header_is_bold_only_at_a_colour_terminal_without_no_color() {
    let sb = Sandbox::new();
    add(&sb, "k", "v", &[]);
    let Some((colour, _)) = terminal_bytes(&sb, "ollm-context list", &[("TERM", "xterm-256color")])
    else {
        return;
    };
    assert!(String::from_utf8_lossy(&colour).starts_with(BOLD));
    for env in [
        &[("TERM", "xterm-256color"), ("NO_COLOR", "1")][..],
        &[("TERM", "dumb")][..],
        &[][..],
    ] {
        let (plain, _) = terminal_bytes(&sb, "ollm-context list", env).unwrap();
        assert!(!plain.contains(&0x1b), "{env:?}: {plain:?}");
    }
    // Piped: JSON, never colour, whatever the terminal variables say.
    let out = sb
        .cmd("ollm-context")
        .arg("list")
        .env("TERM", "xterm-256color")
        .output()
        .unwrap();
    assert_eq!(json(&out)[0]["key"], "k");
}

#[test]
fn hostile_text_reaches_no_terminal_view_of_context_env_discover_or_ollm() {
    let sb = Sandbox::new();
    let evil = hostile_text().replace('\0', "");
    add(&sb, "evil", &hostile_text(), &[]);
    for (i, sample) in HOSTILE.iter().enumerate() {
        add(&sb, &format!("k{i}"), sample, &[]);
    }
    // A file name, a workspace path and a configured value carrying them too.
    let name = "\u{1b}]0;PWNED\u{7}\u{202e}gpj.exe";
    sb.write(name, "x");
    let workspace = sb.work.join(format!("ws\u{1b}[2J{}", "\u{202e}"));
    std::fs::create_dir_all(workspace.join(".ollm")).unwrap();
    let trusted = sb
        .cmd("ollm")
        .args(["trust"])
        .arg(&workspace)
        .output()
        .unwrap();
    assert!(trusted.status.success(), "{trusted:?}");
    std::fs::write(
        sb.ollm_home.join("config.yaml"),
        "services:\n  session:\n    dataDir: \"/tmp/\\e]52;c;ZXZpbA==\\a\\u202e\"\n",
    )
    .unwrap();
    let env = [
        ("EVIL", evil.as_str()),
        ("COLUMNS", "80"),
        ("WS", workspace.to_str().unwrap()),
        // Keys hold no control character, but may hold bidi controls.
        ("EVIL_KEY", "key\u{202e}\u{2066}evil"),
        // A variable whose very name is hostile, for `ollm-env report`.
        ("X\u{1b}]0;PWNED\u{7}\u{202e}", "1"),
    ];
    for argv in [
        "ollm-context list",
        "ollm-context list --format table",
        "ollm-context list --format text",
        "ollm-context list --format ndjson",
        "ollm-context get evil",
        "ollm-context get evil --content",
        "ollm-context prompt",
        "ollm-context prompt --json",
        "ollm-context add \"$EVIL_KEY\" x",
        "ollm-context delete \"$EVIL_KEY\"",
        "ollm-context clear",
        "EVIL_VAR=\"$EVIL\" ollm-env report",
        "ollm-env explain \"$EVIL\"",
        "ollm-discover",
        "ollm-discover --format json",
        "ollm-discover --paths",
        "ollm trust --list",
        "ollm config",
        "ollm config --show-origin",
        "ollm-context config --show-origin",
        "ollm --list",
        "ollm trust \"$WS\"",
        "ollm trust --revoke \"$WS\"",
    ] {
        let Some(text) = shown(&sb, argv, &env) else {
            return;
        };
        if argv.starts_with("ollm-discover") {
            assert!(
                text.contains("\\x1b]0;PWNED") || text.contains("\\u001b]0;PWNED"),
                "`{argv}` hid the name: {text}"
            );
        }
        if argv.ends_with("--show-origin") {
            assert!(
                text.lines().any(|l| l.trim_end() == "default") && text.contains("\\x1b]52"),
                "{text}"
            );
        }
    }
}

#[test]
fn env_report_and_trust_list_at_a_terminal_are_tables() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.work.join(".ollm")).unwrap();
    assert!(
        sb.cmd("ollm")
            .arg("trust")
            .output()
            .unwrap()
            .status
            .success()
    );
    let Some(report) = shown(
        &sb,
        "GITHUB_TOKEN=ghp_x ollm-env report",
        &[("COLUMNS", "100")],
    ) else {
        return;
    };
    let rows = lines(&report);
    assert_eq!(
        rows[0].split_whitespace().collect::<Vec<_>>(),
        ["NAME", "DECISION", "RULE"]
    );
    assert!(
        rows.iter()
            .any(|r| r.starts_with("GITHUB_TOKEN") && r.contains("removed")),
        "{report}"
    );
    assert!(!report.contains("ghp_x"), "a value was shown: {report}");
    let trusted = shown(&sb, "ollm trust --list", &[]).unwrap();
    let rows = lines(&trusted);
    assert!(rows[0].starts_with("WORKSPACE"), "{trusted}");
    assert!(rows[1].contains("yes"), "{trusted}");
}

#[test]
fn discover_at_a_terminal_is_a_sorted_table_and_piped_stays_ndjson() {
    let sb = Sandbox::new();
    sb.write("b.txt", "hello");
    sb.write("a/nested.rs", "fn main() {}");
    let Some(text) = shown(&sb, "ollm-discover --no-cache", &[]) else {
        return;
    };
    let rows = lines(&text);
    assert_eq!(
        rows[0], "TYPE  SIZE  MODIFIED                  PATH",
        "{text}"
    );
    assert!(rows[1].starts_with("file    12  ") && rows[1].ends_with("a/nested.rs"));
    assert!(rows[2].starts_with("file     5  ") && rows[2].ends_with("b.txt"));
    let out = sb
        .cmd("ollm-discover")
        .args(["--no-cache", "--sort"])
        .output()
        .unwrap();
    let piped: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(piped.len(), 2);
    assert_eq!(piped[0]["relativePath"], "a/nested.rs");
    let array = json(
        &sb.cmd("ollm-discover")
            .args(["--format", "json"])
            .output()
            .unwrap(),
    );
    assert_eq!(array[1]["relativePath"], "b.txt");
}

#[test]
fn piped_listings_keep_their_json_shapes() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.work.join(".ollm")).unwrap();
    let trust = sb.cmd("ollm").arg("trust").output().unwrap();
    // A mutation: one compact JSON line, as before.
    assert_eq!(stdout(&trust).lines().count(), 1);
    assert!(json(&trust)["path"].is_string());
    let list = json(&sb.cmd("ollm").args(["trust", "--list"]).output().unwrap());
    assert_eq!(list[0]["current"], true);
    let report = json(&sb.cmd("ollm-env").arg("report").output().unwrap());
    assert!(report["kept"].is_array() && report["removed"].is_array());
    let origins = json(
        &sb.cmd("ollm")
            .args(["config", "--show-origin"])
            .output()
            .unwrap(),
    );
    assert_eq!(origins[0]["origin"], "default");
    let tools = json(&sb.cmd("ollm").arg("--list").output().unwrap());
    assert!(
        tools
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "context")
    );
}
