//! Branches and sub-agents' runs as structure: in an archive, a child's
//! page links to its parent where it started, the parent shows and links
//! each child after the record it started at, and the index nests children
//! under their parent; followed by clicking, from `file://`.

use serde_json::{Value, json};

use super::browser::{Page, chromium};
use super::{export, file_url, real_session};
use crate::support::{Sandbox, json, stderr};

/// Clicks the first element `selector` matches, a link to another page,
/// and waits for that page to load.
fn click_away(page: &mut Page, selector: &str) {
    page.follow(&format!(
        "document.querySelector({}).click()",
        Value::from(selector)
    ));
}

/// Waits until the note of child `id` is rendered and in view, then says
/// what it is after and where it links.
fn note_in_view(page: &mut Page, id: &str) -> Value {
    page.eval(&format!(
        "new Promise(function (done) {{ var n = 0; (function poll() {{ \
           var note = document.getElementById('from-{id}'); \
           var r = note && note.getBoundingClientRect(); \
           if (r && r.top >= 0 && r.bottom <= innerHeight) done({{ \
             after: note.previousElementSibling.id, \
             href: note.querySelector('a') && note.querySelector('a').getAttribute('href')}}); \
           else if (++n > 100) done({{missing: location.href, found: !!note, top: r && r.top, \
             bottom: r && r.bottom, height: innerHeight}}); else setTimeout(poll, 50); }})(); }})"
    ))
}

#[test]
fn branches_and_subagents_link_both_ways_and_nest_on_the_index() {
    let Some(chromium) = chromium() else { return };
    let sb = Sandbox::new();
    // The Claude Code session and the two sub-agents that ran in it.
    let Some(main) = real_session(&sb) else {
        return;
    };
    let listed = json(&sb.session(&["list", "--format", "json"]));
    let subagents: Vec<String> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["sessionId"].as_str().unwrap().to_string())
        .filter(|id| *id != main)
        .collect();
    assert_eq!(subagents.len(), 2, "{listed}");
    let out = sb.session(&["branch", &main, "--at", "7"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let branch = json(&out)["sessionId"].as_str().unwrap().to_string();

    let archive = sb.work.join("archive");
    let out = sb
        .cmd("ollm-session")
        .args(["export", "--all", "--output"])
        .arg(&archive)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));

    // The index: the three children nested under the session, and only there.
    let mut page = Page::open(&chromium, 1280, 800);
    page.navigate(&file_url(&archive.join("index.html")));
    let nested = page.eval(&format!(
        "Array.from(document.querySelectorAll('#projects li')).filter(function (li) {{ \
           return li.querySelector(':scope > a').getAttribute('href') === '{main}.html'; }})\
           .map(function (li) {{ return Array.from(li.querySelectorAll(':scope > ul > li.sub > a'))\
           .map(function (a) {{ return a.getAttribute('href'); }}).sort(); }})"
    ));
    let mut children: Vec<String> = subagents
        .iter()
        .chain([&branch])
        .map(|id| format!("{id}.html"))
        .collect();
    children.sort();
    assert_eq!(
        nested,
        json!([children]),
        "one row of the session, its children under it"
    );
    assert_eq!(
        page.eval("document.querySelectorAll('#projects a').length"),
        4
    );

    // From the branch's page to the parent, at the message it was cut after.
    page.navigate(&file_url(&archive.join(format!("{branch}.html"))));
    click_away(&mut page, "#facts a[href*='#from-']");
    assert_eq!(
        note_in_view(&mut page, &branch),
        json!({"after": "msg-6", "href": format!("{branch}.html")}),
        "the branch is shown after the last message it copied"
    );
    // And back down, by the note's link.
    click_away(&mut page, &format!("#from-{branch} a"));
    let here = page.eval("location.pathname.split('/').pop()");
    assert_eq!(here, json!(format!("{branch}.html")));

    // Each sub-agent's page links to where it started in the session's.
    for sub in &subagents {
        page.navigate(&file_url(&archive.join(format!("{sub}.html"))));
        let up =
            page.eval("(document.querySelector('#facts a[href*=\"#from-\"]') || {}).textContent");
        assert!(up.is_string(), "no link to the session it ran in: {up}");
        click_away(&mut page, "#facts a[href*='#from-']");
        let note = note_in_view(&mut page, sub);
        assert_eq!(note["href"], json!(format!("{sub}.html")), "{note}");
        let after = note["after"].as_str().unwrap_or_default();
        assert!(
            after.starts_with("msg-") || after.starts_with("tool-"),
            "a sub-agent's note follows the record it started after: {note}"
        );
    }
    // The session's header lists them, each linking to its page.
    let listed = page.eval(
        "Array.from(document.querySelectorAll('#facts .children a:not([href^=\"#\"])'))\
           .map(function (a) { return a.getAttribute('href'); }).sort()",
    );
    assert_eq!(listed, json!(children));
    assert_eq!(
        page.requests()
            .iter()
            .filter(|url| !url.starts_with("file://"))
            .count(),
        0,
        "{:?}",
        page.requests()
    );

    // One page alone names its children (no page to link to) where they started.
    let path = export(&sb, &main);
    page.navigate(&format!("{}#from-{branch}", file_url(&path)));
    let note = note_in_view(&mut page, &branch);
    assert_eq!(note["after"], "msg-6", "{note}");
    assert_eq!(note["href"], Value::Null, "{note}");
    let named = page.eval("document.querySelectorAll('#facts .children span').length");
    assert_eq!(named, 3, "the branch and both sub-agents named");
}

#[test]
fn a_compression_is_marked_where_it_happened_and_nothing_stored_is_hidden() {
    let Some(chromium) = chromium() else { return };
    let sb = Sandbox::new();
    let (id, fixture) = crate::compress::stored_session(&sb);
    let out = crate::compress::compress_stored_session(&sb, &id);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["compressionCount"], 1, "{}", stderr(&out));
    // The conversation goes on after it.
    let prompt =
        json!({"role": "user", "parts": [{"type": "text", "text": "after the compression"}]});
    super::record(&sb, &id, &[prompt]);

    let messages = fixture["messages"].as_array().unwrap().len();
    let calls = fixture["toolCalls"].as_array().unwrap().len();
    let path = export(&sb, &id);
    let mut page = Page::open(&chromium, 1280, 800);
    page.navigate(&format!("{}#compressed-0", file_url(&path)));
    let note = page.eval(
        "new Promise(function (done) { var n = 0; (function poll() { \
           var note = document.getElementById('compressed-0'); \
           var r = note && note.getBoundingClientRect(); \
           if (r && r.top >= 0 && r.bottom <= innerHeight) { \
             var next = note.closest('section').nextElementSibling; \
             done({text: note.textContent, after: note.previousElementSibling.id, \
               last: note.nextElementSibling === null, \
               next: next && next.querySelector('.msg, details').id}); } \
           else if (++n > 100) done({missing: true}); else setTimeout(poll, 50); })(); })",
    );
    let text = note["text"].as_str().unwrap_or_default();
    assert!(
        text.starts_with("Compressed here: truncate at ")
            && text.contains(" tokens sent")
            && text.contains("records left out"),
        "{note}"
    );
    let after = note["after"].as_str().unwrap_or_default();
    assert!(
        after == format!("msg-{}", messages - 1) || after == format!("tool-{}", calls - 1),
        "after the last record made before it: {note}"
    );
    assert_eq!(note["last"], true, "{note}");
    assert_eq!(
        note["next"],
        json!(format!("msg-{messages}")),
        "the prompt recorded after it comes next: {note}"
    );
    let records = page.eval(
        "Array.from(document.querySelectorAll('#facts div')).filter(function (d) { \
           return d.querySelector('dt').textContent === 'Records'; })[0].textContent",
    );
    assert_eq!(
        records,
        json!(format!(
            "Records{} messages, {calls} tool calls",
            messages + 1
        )),
        "every stored record is on the page"
    );
    // The header lists it, linking to the mark (the page the deep link opened).
    let listed = page.eval(
        "Array.from(document.querySelectorAll('#facts div')).filter(function (d) { \
           return d.querySelector('dt').textContent === 'Compressions'; })\
           .map(function (d) { return Array.from(d.querySelectorAll('a'))\
           .map(function (a) { return [a.textContent, a.getAttribute('href')]; }); })",
    );
    assert_eq!(listed, json!([[["truncate", "#compressed-0"]]]));
}
