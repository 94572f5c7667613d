//! One session's page in the browser: no request, nothing run, tool
//! sections closed, search into them, deep links, two screen widths.

use std::process::Command;

use serde_json::Value;

use super::browser::{Page, base_args, chromium};
use super::{HOSTILE, export, file_url, hostile_session, real_session};
use crate::support::{Sandbox, json};

/// Waits (in the page) until `condition` holds, then returns its value.
fn settle(page: &mut Page, condition: &str) -> Value {
    page.eval(&format!(
        "new Promise(function (done) {{ var n = 0; (function poll() {{ var v = ({condition}); \
         if (v || ++n > 100) done(v); else setTimeout(poll, 50); }})(); }})"
    ))
}

/// Types `text` into the search box and waits for its verdict.
fn find(page: &mut Page, text: &str) -> Value {
    page.eval(&format!(
        "(function () {{ var q = document.getElementById('q'); q.value = {}; \
         q.dispatchEvent(new Event('input')); }})()",
        Value::from(text)
    ));
    settle(page, "document.getElementById('count').textContent")
}

#[test]
fn loading_searching_and_opening_everything_makes_no_request() {
    let Some(chromium) = chromium() else { return };
    let sb = Sandbox::new();
    let Some(id) = real_session(&sb) else { return };
    let path = export(&sb, &id);
    let mut page = Page::open(&chromium, 1280, 800);
    page.navigate(&file_url(&path));
    let at_load = page.eval("document.querySelectorAll('#turns > .turn > *').length");
    find(&mut page, "mix.exs");
    page.eval(
        "document.querySelectorAll('details').forEach(function (d) { d.open = true; }); \
         document.querySelectorAll('button.all').forEach(function (b) { b.click(); })",
    );
    // Once the opened sections have filled (their toggle events), to the end.
    page.eval(
        "new Promise(function (done) { setTimeout(function () { \
           window.scrollTo(0, document.documentElement.scrollHeight); done(); }, 200); })",
    );
    let more = settle(
        &mut page,
        &format!("document.querySelectorAll('#turns > .turn > *').length > {at_load}"),
    );
    let state = page.eval(
        "[scrollY, innerHeight, document.getElementById('more').getBoundingClientRect().top, \
          document.querySelectorAll('#turns > .turn > *').length]",
    );
    assert_eq!(
        more, true,
        "scrolling down rendered no more records: {state} from {at_load}"
    );
    let url = file_url(&path);
    let others: Vec<String> = page.requests().into_iter().filter(|u| *u != url).collect();
    assert_eq!(
        others,
        Vec::<String>::new(),
        "requests besides the page itself"
    );
    assert_eq!(page.requests().len(), 1, "{:?}", page.requests());
}

#[test]
fn hostile_text_in_outputs_and_titles_runs_nothing_and_shows_as_text() {
    let Some(chromium) = chromium() else { return };
    let sb = Sandbox::new();
    let id = hostile_session(&sb);
    let path = export(&sb, &id);
    let mut page = Page::open(&chromium, 1280, 800);
    page.navigate(&file_url(&path));
    // Every section opened, every long text shown, the search run over it.
    page.eval(
        "document.querySelectorAll('details').forEach(function (d) { d.open = true; }); \
         document.querySelectorAll('button.all').forEach(function (b) { b.click(); })",
    );
    find(&mut page, "onerror");
    page.eval("document.getElementById('next').click()");
    let state = page.eval(
        "({pwned: typeof window.pwned, parent: typeof window.parent.pwned, \
          markup: document.querySelectorAll('img, svg, iframe, meta[http-equiv=refresh], link, \
             a[href^=javascript], style:not(head style), [onerror], [onload], [onmouseover]').length, \
          scripts: document.scripts.length, title: document.title, \
          text: document.body.textContent, hidden: getComputedStyle(document.body).display})",
    );
    assert_eq!(state["pwned"], "undefined", "{state:?}");
    assert_eq!(state["parent"], "undefined");
    assert_eq!(state["markup"], 0, "hostile markup became elements");
    assert_eq!(state["scripts"], 1, "only the page's own script");
    assert_eq!(state["hidden"], "block");
    let text = state["text"].as_str().unwrap();
    for shown in [
        "<img src=x onerror=\"window.pwned=2\">",
        "</script><script>window.pwned=1</script>",
        "\\x1b]52;c;cHduZWQ=\\x07",
        "\\u{202e}txt.exe",
    ] {
        assert!(text.contains(shown), "{shown} not shown as text");
    }
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{202e}'),
        "a terminal escape or bidi override reached the page live"
    );
    assert!(state["title"].as_str().unwrap().starts_with("</script>"));
    assert_eq!(page.requests().len(), 1, "{:?}", page.requests());
}

#[test]
fn tool_sections_are_closed_on_load_and_search_opens_the_one_holding_the_hit() {
    let Some(chromium) = chromium() else { return };
    let sb = Sandbox::new();
    let Some(id) = real_session(&sb) else { return };
    let session = json(&sb.cmd("ollm-session").args(["get", &id]).output().unwrap());
    let word = word_only_in_a_late_tool_output(&session);
    let path = export(&sb, &id);
    let mut page = Page::open(&chromium, 1280, 800);
    page.navigate(&file_url(&path));
    let closed = page.eval(
        "({tools: document.querySelectorAll('details.tool').length, \
           open: document.querySelectorAll('details[open]').length, \
           word: document.body.textContent.toLowerCase().indexOf(WORD) >= 0})"
            .replace("WORD", &Value::from(word.clone()).to_string())
            .as_str(),
    );
    assert!(closed["tools"].as_u64().unwrap() > 10, "{closed:?}");
    assert_eq!(closed["open"], 0, "a section open on load");
    assert_eq!(closed["word"], false, "{word} already in the initial DOM");
    let count = find(&mut page, &word);
    assert!(
        count.as_str().unwrap().ends_with(" found") || count.as_str().unwrap().contains(" of "),
        "{count}"
    );
    let hit = page.eval(
        "(function () { var m = document.querySelector('mark.current'); if (!m) return null; \
           var d = m.closest('details.tool'); var r = m.getBoundingClientRect(); \
           return {text: m.textContent, open: !!(d && d.open), visible: r.top >= 0 && r.bottom <= innerHeight}; })()",
    );
    assert_eq!(
        hit["text"].as_str().unwrap().to_lowercase(),
        word,
        "{hit:?}"
    );
    assert_eq!(
        hit["open"], true,
        "the section holding the hit was not opened"
    );
    assert_eq!(hit["visible"], true, "the hit was not scrolled into view");
}

/// A word of the last tool output that no message, tool name or argument
/// of `session` contains (so the page can only find it in the output).
fn word_only_in_a_late_tool_output(session: &Value) -> String {
    let everything_else = {
        let mut s = serde_json::to_string(&session["messages"]).unwrap();
        for call in session["toolCalls"].as_array().unwrap() {
            s.push_str(&call["name"].to_string());
            s.push_str(&call["args"].to_string());
        }
        s.to_lowercase()
    };
    let calls = session["toolCalls"].as_array().unwrap();
    calls[calls.len() / 2..]
        .iter()
        .rev()
        .flat_map(|c| {
            c["result"]["llmContent"]
                .as_str()
                .unwrap_or("")
                .split(|ch: char| !ch.is_ascii_alphabetic())
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
        })
        .find(|w| w.len() >= 9 && !everything_else.contains(w.as_str()))
        .expect("a word only in a tool output")
}

#[test]
fn a_message_link_renders_and_scrolls_to_a_message_far_down() {
    let Some(chromium) = chromium() else { return };
    let sb = Sandbox::new();
    let Some(id) = real_session(&sb) else { return };
    let path = export(&sb, &id);
    let last = json(&sb.cmd("ollm-session").args(["get", &id]).output().unwrap())["messages"]
        .as_array()
        .unwrap()
        .len()
        - 1;
    let mut page = Page::open(&chromium, 1280, 800);
    page.navigate(&file_url(&path));
    let before = page.eval(&format!("!!document.getElementById('msg-{last}')"));
    assert_eq!(
        before, false,
        "message {last} rendered at load (not lazily)"
    );
    // A fresh page opened at the link (a fragment change would not load).
    let mut page = Page::open(&chromium, 1280, 800);
    page.navigate(&format!("{}#msg-{last}", file_url(&path)));
    let at = settle(
        &mut page,
        &format!(
            "(function () {{ var e = document.getElementById('msg-{last}'); if (!e) return null; \
              var r = e.getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight ? {{top: r.top}} : null; }})()"
        ),
    );
    assert!(at.is_object(), "#msg-{last} not scrolled into view: {at}");
}

#[test]
fn the_page_fits_a_desktop_and_a_phone_from_file_urls() {
    let Some(chromium) = chromium() else { return };
    let sb = Sandbox::new();
    let Some(id) = real_session(&sb) else { return };
    let hostile = hostile_session(&sb);
    for path in [export(&sb, &id), export(&sb, &hostile)] {
        for (width, height) in [(1280, 800), (390, 844)] {
            let mut page = Page::open(&chromium, width, height);
            page.navigate(&file_url(&path));
            page.eval(
                "document.querySelectorAll('details').forEach(function (d) { d.open = true; })",
            );
            let fits = page.eval(
                "({scroll: document.documentElement.scrollWidth, inner: innerWidth, \
                   turns: document.querySelectorAll('.turn').length, \
                   wide: Array.from(document.querySelectorAll('body *')).filter(function (e) { \
                     return e.getBoundingClientRect().right > innerWidth + 1; }).slice(0, 5) \
                     .map(function (e) { return e.tagName + '.' + e.className + ' ' + \
                       e.getBoundingClientRect().width + ' ' + e.textContent.slice(0, 40); })})",
            );
            assert!(fits["turns"].as_u64().unwrap() > 0, "{fits:?}");
            assert!(
                fits["scroll"].as_u64() <= fits["inner"].as_u64(),
                "{} overflows at {width}x{height}: {fits:?}",
                path.display()
            );
            // And as a person opens it: chromium's own screenshot of the file.
            let shot = sb.work.join(format!("shot-{width}.png"));
            let profile = tempfile::tempdir().unwrap();
            let out = Command::new(&chromium)
                .args(base_args(profile.path()))
                .arg(format!("--window-size={width},{height}"))
                .arg(format!("--screenshot={}", shot.display()))
                .arg(file_url(&path))
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let png = std::fs::read(&shot).unwrap();
            let png_width = u32::from_be_bytes(png[16..20].try_into().unwrap());
            assert_eq!(png_width, width, "the screenshot's width");
        }
    }
}

#[test]
fn the_dumped_dom_holds_the_first_turns_rendered_with_no_section_open() {
    let Some(chromium) = chromium() else { return };
    let sb = Sandbox::new();
    let id = hostile_session(&sb);
    let path = export(&sb, &id);
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(&chromium)
        .args(base_args(profile.path()))
        .arg("--dump-dom")
        .arg(file_url(&path))
        .output()
        .unwrap();
    let dom = String::from_utf8(out.stdout).unwrap();
    assert!(dom.contains("<section class=\"turn\""), "{dom}");
    assert!(dom.contains("<details class=\"tool\""), "no tool section");
    assert!(!dom.contains("<details class=\"tool\" id=\"tool-0\" open"));
    assert!(!dom.contains(" open=\"\""), "a section open on load");
    assert!(
        !dom.contains("id=\"data\""),
        "the data block stays in the DOM"
    );
    assert!(!dom.contains("<img"), "hostile markup became an element");
    assert!(dom.contains(&HOSTILE[1].replace('<', "&lt;").replace('>', "&gt;")));
}
