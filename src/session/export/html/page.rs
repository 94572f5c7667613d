//! One self-contained HTML document: a static skeleton, the data as a
//! JSON script block, and the inline style and script, allowed by their
//! sha256 hashes in a Content-Security-Policy that forbids everything
//! else (no request of any kind can leave the page).
//!
//! Nothing taken from a session is ever written as HTML: it only goes
//! into the JSON block, escaped so that no `</script>` (or `<!--`) can end
//! it, and the script sets it as text.

use base64::Engine as _;
use sha2::{Digest, Sha256};

/// The stylesheet every page shares.
pub(super) const STYLE: &str = include_str!("view.css");
/// A session page's script (after the helpers both pages share).
pub(super) const SESSION_SCRIPT: &str = concat!(include_str!("common.js"), include_str!("view.js"));
/// An archive index's script.
pub(super) const INDEX_SCRIPT: &str = concat!(include_str!("common.js"), include_str!("index.js"));

/// The page whose body is `skeleton`, carrying `data` (JSON text) and run
/// by `script`.
pub(super) fn document(skeleton: &str, data: &str, script: &str) -> String {
    let csp = format!(
        "default-src 'none'; script-src '{}'; style-src '{}'; img-src data:; \
         base-uri 'none'; form-action 'none'",
        hash(script),
        hash(STYLE)
    );
    let mut out = String::with_capacity(data.len() + STYLE.len() + script.len() + 1024);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str(&format!(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">\n"
    ));
    out.push_str("<meta name=\"referrer\" content=\"no-referrer\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str("<title>ollm session</title>\n<style>");
    out.push_str(STYLE);
    out.push_str("</style>\n</head>\n<body>\n");
    out.push_str(skeleton);
    out.push_str("\n<script type=\"application/json\" id=\"data\">");
    script_data(data, &mut out);
    out.push_str("</script>\n<script>");
    out.push_str(script);
    out.push_str("</script>\n</body>\n</html>\n");
    out
}

/// A CSP source for an inline element's exact text.
fn hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    format!(
        "sha256-{}",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// JSON text made safe inside a `<script>` element: `<`, `>` and `&` as
/// `\u003c`…, and U+2028/U+2029 (line ends to older script parsers) as
/// escapes too. Each only ever stands inside a JSON string, where the
/// escape means the same character.
fn script_data(json: &str, out: &mut String) {
    use std::fmt::Write as _;
    // Each kind found by a vectorized search over the whole text, not a
    // character at a time: the data is most of a page's bytes.
    let bytes = json.as_bytes();
    let mut cuts: Vec<usize> = memchr::memchr3_iter(b'<', b'>', b'&', bytes).collect();
    for separator in ["\u{2028}", "\u{2029}"] {
        cuts.extend(memchr::memmem::find_iter(bytes, separator.as_bytes()));
    }
    cuts.sort_unstable();
    let mut from = 0;
    for at in cuts {
        out.push_str(&json[from..at]);
        let c = json[at..].chars().next().unwrap_or('<');
        let _ = write!(out, "\\u{:04x}", c as u32);
        from = at + c.len_utf8();
    }
    out.push_str(&json[from..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_in_the_data_can_end_its_script_element() {
        let json = serde_json::to_string(&serde_json::json!({
            "t": "</script><script>alert(1)</script><!-- & \u{2028}\u{2029}"
        }))
        .unwrap();
        let page = document("", &json, SESSION_SCRIPT);
        let start = page.find("id=\"data\">").unwrap() + 10;
        let end = start + page[start..].find("</script>").unwrap();
        let block = &page[start..end];
        assert!(
            !block.contains(['<', '>', '&', '\u{2028}', '\u{2029}']),
            "{block}"
        );
        let back: serde_json::Value = serde_json::from_str(block).unwrap();
        assert_eq!(
            back["t"],
            "</script><script>alert(1)</script><!-- & \u{2028}\u{2029}"
        );
    }

    #[test]
    fn the_policy_allows_exactly_the_inline_script_and_style() {
        let page = document("<main></main>", "{}", SESSION_SCRIPT);
        let csp = page
            .lines()
            .find(|l| l.contains("Content-Security-Policy"))
            .unwrap();
        assert!(csp.contains("default-src 'none'"), "{csp}");
        assert!(csp.contains(&hash(SESSION_SCRIPT)), "{csp}");
        assert!(csp.contains(&hash(STYLE)), "{csp}");
        assert!(!csp.contains("unsafe"), "{csp}");
        assert!(page.contains(&format!("<script>{SESSION_SCRIPT}</script>")));
        assert!(page.contains(&format!("<style>{STYLE}</style>")));
    }
}
