//! A session written out for a person or another tool: the Markdown
//! transcript and the self-contained HTML page (and archive). The spec's
//! JSON is the session itself.

pub mod html;
mod markdown;

pub use markdown::markdown;
pub(crate) use markdown::{is_markdown_path, markdown_folded, messages_markdown};

/// Whether an output path names an HTML file (`.html`, `.htm`), so
/// `export --output chat.html` writes the page without `--format`.
pub(crate) fn is_html_path(path: &std::path::Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"))
}
