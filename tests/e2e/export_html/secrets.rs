//! An HTML export is made to be shared: no credential of the redaction
//! corpus reaches one, even from sessions stored unredacted.

use serde_json::json;

use super::{export, record};
use crate::redaction::secret_of;
use crate::support::{Sandbox, assert_one_line_error, json, stderr};

/// The corpus's values (`RULE<TAB>VALUE` lines).
fn values() -> Vec<String> {
    include_str!("../../data/credential-values.txt")
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .map(|(_, value)| value.to_string())
        .collect()
}

#[test]
fn a_session_stored_with_no_redact_is_refused_naming_the_record_not_the_secret() {
    let sb = Sandbox::new();
    let id = sb.create_session_as(None, &[]);
    let value = values().into_iter().next().unwrap();
    record(
        &sb,
        &id,
        &[json!({"role": "user", "parts": [{"type": "text", "text": "deploy it"}]})],
    );
    let out = sb
        .cmd("ollm-session")
        .args(["record", &id, "--no-redact", "--tool", "Bash", "--result"])
        .arg(format!("token: {value}"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    for args in [
        vec!["export", &id, "--format", "html"],
        vec!["--no-redact", "export", &id, "--output", "page.html"],
    ] {
        let out = sb
            .cmd("ollm-session")
            .current_dir(&sb.work)
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert_one_line_error(&out, "ollm-session");
        let err = stderr(&out);
        assert!(err.contains("tool call 0 (Bash)"), "{err}");
        assert!(!err.contains(&secret_of(&value)), "{err}");
        assert!(out.stdout.is_empty(), "a page went to stdout");
    }
    assert!(!sb.work.join("page.html").exists(), "a page was written");
    // The Markdown export is what it was (the person asked for the text).
    let out = sb
        .cmd("ollm-session")
        .args(["export", &id, "--format", "markdown"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn no_credential_of_the_corpus_reaches_any_file_of_an_archive() {
    let sb = Sandbox::new();
    // One session a credential, written as another tool stores it (no
    // redaction at write time), and one clean session.
    let dir = sb.sessions_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let values = values();
    for (i, value) in values.iter().enumerate() {
        let id = format!("00000000-0000-4000-8000-{i:012}");
        let doc = json!({
            "sessionId": id, "startTime": "2026-01-01T00:00:00Z",
            "lastActivity": "2026-01-01T00:00:00Z", "model": "m", "provider": "p",
            "messages": [{"role": "user", "parts": [{"type": "text", "text": "run it"}],
                          "timestamp": "2026-01-01T00:00:00Z"}],
            "toolCalls": [{"id": "c", "name": "Bash", "args": {"command": "env"},
                           "result": {"llmContent": format!("output: {value} end")},
                           "timestamp": "2026-01-01T00:00:01Z"}],
            "metadata": {"tokenCount": 0, "compressionCount": 0}
        });
        std::fs::write(dir.join(format!("{id}.json")), doc.to_string()).unwrap();
    }
    let clean = sb.create_session_as(None, &["--title", "clean"]);
    let archive = sb.work.join("archive");
    let out = sb
        .cmd("ollm-session")
        .arg("export")
        .arg("--all")
        .arg("--output")
        .arg(&archive)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let refused = stderr(&out).matches("holds a credential").count();
    assert_eq!(refused, values.len(), "{}", stderr(&out));
    assert_eq!(json(&out)["exported"], 1);
    let mut files: Vec<_> = std::fs::read_dir(&archive)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    let mut expected = ["index.html".to_string(), format!("{clean}.html")];
    expected.sort();
    assert_eq!(files, expected);
    for file in &files {
        let text = std::fs::read_to_string(archive.join(file)).unwrap();
        for value in &values {
            assert!(!text.contains(&secret_of(value)), "{file} holds {value}");
        }
    }
    // A single page of the clean session is written as ever.
    export(&sb, &clean);
}
