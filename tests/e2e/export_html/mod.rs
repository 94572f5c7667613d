//! `ollm-session export --format html` and `--all`, looked at in a real
//! browser (Debian's chromium, headless): real transcripts of
//! `shared/importer-fixtures` (imported at test time, read in place) and a
//! made-up corpus of hostile text.

mod archive;
mod browser;
mod images;
mod page;
mod secrets;
mod structure;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::support::{Sandbox, json, stderr};

/// Text that would run script, load something or rewrite what a reader
/// sees if any of it reached the page as markup. Each payload that could
/// run sets `window.pwned`.
const HOSTILE: &[&str] = &[
    "</script><script>window.pwned=1</script>",
    "<img src=x onerror=\"window.pwned=2\">",
    "<a href=\"javascript:window.pwned=3\">click</a>",
    "\"><svg onload=window.pwned=4>",
    "' onmouseover='window.pwned=5' x='",
    "<iframe srcdoc=\"<script>parent.pwned=6</script>\"></iframe>",
    "]]><!-- --><style>body{display:none}</style>",
    "\u{1b}[31mred\u{1b}[0m \u{1b}]0;title\u{7} \u{1b}]52;c;cHduZWQ=\u{7}",
    "\u{202e}txt.exe\u{202c} \u{2066}isolate\u{2069} \u{2028}line\u{2029}",
    "<meta http-equiv=\"refresh\" content=\"0;url=https://example.com/\">",
    "<link rel=stylesheet href=https://example.com/x.css>",
];

/// The Claude Code transcript with a compaction (163 messages, 242 tool
/// calls): imported into `sb`; its id.
fn real_session(sb: &Sandbox) -> Option<String> {
    let fixtures = crate::import::real::fixtures()?;
    let projects = fixtures.join("claude/spotter-compaction/projects");
    let out = sb
        .cmd("ollm-session")
        .arg("import")
        .arg(&projects)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let sessions = json(
        &sb.cmd("ollm-session")
            .args(["list", "--format", "json"])
            .output()
            .unwrap(),
    );
    sessions
        .as_array()
        .unwrap()
        .iter()
        .max_by_key(|s| s["toolCallCount"].as_u64())
        .map(|s| s["sessionId"].as_str().unwrap().to_string())
}

/// A session made of the hostile corpus: in its title, its prompts and
/// answers, tool arguments and results (an edit among them).
fn hostile_session(sb: &Sandbox) -> String {
    let title = HOSTILE.join(" ");
    let id = sb.create_session_as(None, &["--title", &title]);
    let mut records = Vec::new();
    for (i, text) in HOSTILE.iter().enumerate() {
        records.push(json!({"role": "user", "parts": [{"type": "text", "text": text}]}));
        records.push(
            json!({"id": format!("c{i}"), "name": text, "args": {"command": text, "file_path": text,
            "old_string": text, "new_string": format!("{text}\n{i}")},
            "result": {"llmContent": text.repeat(1 + i * 300), "returnDisplay": text}}),
        );
        records.push(json!({"role": "assistant", "parts": [{"type": "text", "text": text}]}));
    }
    record(sb, &id, &records);
    id
}

/// Records `records` into session `id` (NDJSON on stdin).
fn record(sb: &Sandbox, id: &str, records: &[Value]) {
    let lines: Vec<String> = records.iter().map(Value::to_string).collect();
    let out = sb
        .cmd("ollm-session")
        .args(["record", id])
        .write_stdin(lines.join("\n"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

/// `export ID --output <work>/<ID>.html`: the page's path.
fn export(sb: &Sandbox, id: &str) -> PathBuf {
    let path = sb.work.join(format!("{id}.html"));
    let out = sb
        .cmd("ollm-session")
        .args(["export", id, "--output"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    path
}

fn file_url(path: &Path) -> String {
    format!("file://{}", path.display())
}
