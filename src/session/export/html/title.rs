//! The title a session's page (and the archive's index, from its data)
//! and its parent's note about it show.

use crate::output::escape_line;
use crate::session::model::{Loaded, Message};

/// The session's title as a page shows it.
pub(super) fn shown_title(loaded: &Loaded) -> String {
    escape_line(&title(loaded)).into_owned()
}

/// The session's title, else the start of its first prompt.
fn title(loaded: &Loaded) -> String {
    const LONGEST: usize = 80;
    if let Some(title) = &loaded.session.title {
        return title.clone();
    }
    let first = loaded
        .session
        .messages
        .iter()
        .find(|m| m.role() == "user" && !m.is_tool_result())
        .map(Message::text_content)
        .unwrap_or_default();
    let line = first.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(LONGEST) {
        _ if line.is_empty() => "Session".to_string(),
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line,
    }
}
