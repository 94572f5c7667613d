//! Terminal safety: text from a model, a tool or a file never reaches a
//! terminal with its control characters live. Hostile sequences are stored
//! through pipes, then every human-readable view runs under a real
//! pseudo-terminal (`script`) and what the terminal received is checked.

use serde_json::json;

use crate::support::{Sandbox, json, terminal_bytes};

/// CSI, OSC (window title, OSC 52 clipboard write), 8-bit CSI, bidi
/// overrides and isolates, NUL, BEL, backspace, DEL and a lone CR.
pub(crate) const HOSTILE: &[&str] = &[
    "\u{1b}]0;PWNED\u{7}",
    "\u{1b}]52;c;ZXZpbCBjbGlwYm9hcmQ=\u{7}",
    "\u{1b}[2J\u{1b}[H",
    "\u{1b}[8mhidden\u{1b}[0m",
    "\u{9b}31mred",
    "\u{202e}gpj.exe",
    "\u{2066}isolate\u{2069}",
    "nul\u{0}byte",
    "bs\u{8}\u{8}del\u{7f}",
    "ok\rFAKE PROMPT $ ",
];

pub(crate) fn hostile_text() -> String {
    HOSTILE.join(" | ")
}

/// The raw control characters in what a terminal received. The terminal's
/// own line ends (`\r\n`, from the tty's output processing) are layout.
pub(crate) fn live_controls(received: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(received);
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    for (i, &c) in chars.iter().enumerate() {
        let layout = c == '\n' || c == '\t' || (c == '\r' && chars.get(i + 1) == Some(&'\n'));
        if layout {
            continue;
        }
        if ollm::output::is_hostile(c) {
            found.push(format!("U+{:04X} at char {i}", c as u32));
        }
    }
    found
}

fn assert_safe(sb: &Sandbox, argv: &str, env: &[(&str, &str)]) -> Option<String> {
    let (received, _) = terminal_bytes(sb, argv, env)?;
    let live = live_controls(&received);
    assert!(
        live.is_empty(),
        "`{argv}` sent live control characters to the terminal: {live:?}\n{}",
        String::from_utf8_lossy(&received)
    );
    Some(String::from_utf8_lossy(&received).into_owned())
}

fn hostile_session(sb: &Sandbox) -> String {
    let out = sb
        .cmd("ollm-session")
        .args([
            "create",
            "--model",
            "m",
            "--provider",
            "p",
            "--title",
            &hostile_text().replace('\0', ""),
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let id = json(&out)["sessionId"].as_str().unwrap().to_string();
    let record = json!({"role": "user", "parts": [{"type": "text", "text": hostile_text()}]});
    let out = sb
        .cmd("ollm-session")
        .args(["record", &id])
        .write_stdin(record.to_string())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    id
}

#[test]
fn session_views_at_a_terminal_show_control_characters_escaped() {
    let sb = Sandbox::new();
    let id = hostile_session(&sb);
    for argv in [
        "ollm-session list".to_string(),
        format!("ollm-session get {id}"),
        format!("ollm-session get {id} --format json"),
        format!("ollm-session export {id} --format markdown"),
        "ollm-session search PWNED".to_string(),
        "ollm-session search PWNED --format json".to_string(),
    ] {
        if let Some(shown) = assert_safe(&sb, &argv, &[]) {
            // Escaped visibly, not silently dropped.
            assert!(
                shown.contains("\\x1b") || shown.contains("\\u001b"),
                "`{argv}` hid the escape: {shown}"
            );
        }
    }
}

#[test]
fn piped_output_keeps_the_stored_text_byte_for_byte() {
    let sb = Sandbox::new();
    let id = hostile_session(&sb);
    let out = sb
        .cmd("ollm-session")
        .args(["get", &id, "--messages"])
        .output()
        .unwrap();
    let messages = json(&out);
    assert_eq!(messages[0]["parts"][0]["text"], hostile_text());
    let add = sb
        .cmd("ollm-context")
        .args(["add", "evil", "-"])
        .write_stdin(hostile_text())
        .output()
        .unwrap();
    assert!(add.status.success(), "{add:?}");
    let out = sb
        .cmd("ollm-context")
        .args(["get", "evil", "--content"])
        .output()
        .unwrap();
    assert!(
        out.stdout.starts_with(hostile_text().as_bytes()),
        "{:?}",
        out.stdout
    );
}

#[test]
fn context_views_at_a_terminal_show_control_characters_escaped() {
    let sb = Sandbox::new();
    let add = sb
        .cmd("ollm-context")
        .args(["add", "evil", "-"])
        .write_stdin(hostile_text())
        .output()
        .unwrap();
    assert!(add.status.success(), "{add:?}");
    for argv in [
        "ollm-context list",
        "ollm-context get evil --content",
        "ollm-context prompt",
        "ollm-context prompt --json",
    ] {
        assert_safe(&sb, argv, &[]);
    }
}

#[test]
fn diagnostics_quoting_user_text_show_control_characters_escaped() {
    let sb = Sandbox::new();
    let evil = "\u{1b}]0;PWNED\u{7}\u{1b}[2J\u{202e}";
    for argv in [
        "ollm-session get \"$EVIL\"",
        "ollm-context get \"$EVIL\"",
        "ollm-discover \"$EVIL\"",
        "ollm-compress count \"$EVIL\"",
    ] {
        assert_safe(&sb, argv, &[("EVIL", evil)]);
    }
}

#[test]
fn discover_at_a_terminal_shows_hostile_file_names_escaped() {
    let sb = Sandbox::new();
    sb.write("plain.txt", "x");
    sb.write("\u{1b}]0;PWNED\u{7}.txt", "x");
    sb.write("\u{202e}gpj.exe", "x");
    for argv in [
        "ollm-discover --paths --no-cache",
        "ollm-discover --paths",
        "ollm-discover --no-cache",
    ] {
        if let Some(shown) = assert_safe(&sb, argv, &[]) {
            assert!(shown.contains("plain.txt"), "{shown}");
        }
    }
    // Piped, the names stay exact bytes for xargs.
    let out = sb
        .cmd("ollm-discover")
        .args(["--paths", "--no-cache", "--sort"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\u{1b}]0;PWNED\u{7}.txt"), "{text:?}");
}
