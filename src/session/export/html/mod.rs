//! A session as one self-contained HTML page, and a folder of them with an
//! index (an archive): inline style and script only, no request of any
//! kind, working from `file://`. The page carries the session as JSON and
//! renders it lazily as the reader scrolls, so a very long session opens
//! quickly; its search box searches that data, collapsed tool output too.

mod archive;
mod compressions;
mod data;
mod diff;
mod guard;
mod page;
mod related;
mod title;

pub use archive::{Archive, Entry};
pub use related::{Child, Parent};

use crate::error::{Error, Result};
use crate::redact::Scrubber;
use crate::session::model::Loaded;

/// The body every session page starts from; the script fills it.
const SESSION_SKELETON: &str = r#"<header id="top"><nav id="links"></nav><h1 id="title"></h1><dl id="facts"></dl></header>
<div id="find" role="search"><input id="q" type="search" placeholder="Find in this session" aria-label="Find in this session" autocomplete="off"><button id="prev" type="button" aria-label="Previous match">&#8593;</button><button id="next" type="button" aria-label="Next match">&#8595;</button><span id="count"></span></div>
<main id="turns"></main>
<div id="more"></div>"#;

/// The page of one session, showing `children` (the sessions started from
/// it, [`Child::of`]) where they started. Fails (writing nothing) when
/// anything it would carry holds a credential `scrubber` finds.
pub fn page(loaded: &Loaded, mut children: Vec<Child>, scrubber: &Scrubber) -> Result<String> {
    let mut data = data::Page::of(loaded);
    for child in &mut children {
        child.place(loaded);
    }
    children.sort_by(|a, b| a.started.cmp(&b.started));
    data.children = children;
    session_page(&data, scrubber)
}

fn session_page(page: &data::Page, scrubber: &Scrubber) -> Result<String> {
    guard::check_page(scrubber, page)?;
    let json = serde_json::to_string(page)
        .map_err(|e| Error::input(format!("cannot encode session {}: {e}", page.id)))?;
    Ok(page::document(
        SESSION_SKELETON,
        &json,
        page::SESSION_SCRIPT,
    ))
}
