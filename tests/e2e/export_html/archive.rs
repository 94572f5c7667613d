//! `export --all`: the index page's search across sessions, from file://.

use serde_json::{Value, json};

use super::browser::{Page, chromium};
use super::{file_url, real_session, record};
use crate::support::{Sandbox, json, stderr};

#[test]
fn the_archive_finds_a_rare_word_in_the_right_session_from_file_urls() {
    let Some(chromium) = chromium() else { return };
    let sb = Sandbox::new();
    let Some(real) = real_session(&sb) else {
        return;
    };
    // The rare word only in a tool output of one of three sessions.
    let mut ids = Vec::new();
    for (i, output) in [
        "ls: nothing here",
        "Quixotically zymurgic output",
        "42 files",
    ]
    .iter()
    .enumerate()
    {
        let id = sb.create_session_as(None, &["--title", &format!("session {i}")]);
        record(
            &sb,
            &id,
            &[
                json!({"role": "user", "parts": [{"type": "text", "text": "list the files"}]}),
                json!({"id": "c1", "name": "Bash", "args": {"command": "ls"}, "result": {"llmContent": output}}),
            ],
        );
        ids.push(id);
    }
    let archive = sb.work.join("archive");
    let out = sb
        .cmd("ollm-session")
        .args(["export", "--all", "--output"])
        .arg(&archive)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        json(&out)["exported"],
        6,
        "the three imported sessions and three"
    );
    for id in ids.iter().chain([&real]) {
        assert!(
            archive.join(format!("{id}.html")).is_file(),
            "no page for {id}"
        );
    }
    let mut page = Page::open(&chromium, 1280, 800);
    let index = file_url(&archive.join("index.html"));
    page.navigate(&index);
    let listed = page.eval("document.querySelectorAll('#projects a').length");
    assert_eq!(listed, 6, "every session on the index");
    page.eval(
        "(function () { var q = document.getElementById('q'); q.value = 'ZYMURGIC'; \
         q.dispatchEvent(new Event('input')); })()",
    );
    let hits = page.eval(
        "new Promise(function (done) { setTimeout(function () { done(Array.from(\
           document.querySelectorAll('#hits a')).map(function (a) { return a.getAttribute('href'); })); }, 600); })",
    );
    assert_eq!(
        hits,
        json!([format!("{}.html#q=zymurgic", ids[1])]),
        "the word's one session"
    );
    // Followed, the session's page finds it in the collapsed output.
    let target = format!(
        "{}#q=zymurgic",
        file_url(&archive.join(format!("{}.html", ids[1])))
    );
    page.navigate(&target);
    let found: Value = page.eval(
        "new Promise(function (done) { setTimeout(function () { var m = document.querySelector('mark.current'); \
           done(m ? {text: m.textContent, open: m.closest('details').open} : null); }, 600); })",
    );
    assert_eq!(found, json!({"text": "zymurgic", "open": true}));
    assert_eq!(page.requests().len(), 2, "{:?}", page.requests());
}
