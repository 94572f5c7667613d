//! The interactive session picker of `resume` (dialoguer's fuzzy select on
//! the terminal of stderr): newest first, arrow keys, type to filter.

use std::io::IsTerminal;

use dialoguer::FuzzySelect;
use dialoguer::console::Term;
use dialoguer::theme::{ColorfulTheme, SimpleTheme, Theme};

use super::rows::{SessionRow, short};
use super::when;
use crate::error::{Error, Result};
use crate::output::escape_line;

/// Rows shown at once.
const VISIBLE: usize = 12;

/// Whether a picker can be shown: stdin and stderr are terminals (stdout
/// may be captured, as in `id=$(ollm-session resume)`).
pub(crate) fn available() -> bool {
    std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
}

/// One line of the picker: when, how long, what, where; escaped and cut to
/// the terminal's width.
fn line(row: &SessionRow, width: usize) -> String {
    let s = &row.summary;
    let mut text = format!(
        "{}  {:<12} {:>4} msgs  {}",
        short(&s.session_id),
        when::ago(&s.last_activity, row.now),
        s.message_count,
        row.label()
    );
    if let Some(workspace) = &s.workspace {
        text.push_str(&format!("  [{}]", home_relative(workspace)));
    }
    let text = escape_line(&text).into_owned();
    let room = width.saturating_sub(4).max(20);
    if text.chars().count() > room {
        let cut: String = text.chars().take(room - 1).collect();
        format!("{cut}…")
    } else {
        text
    }
}

fn home_relative(path: &str) -> String {
    match crate::paths::home_dir() {
        Some(home) => match std::path::Path::new(path).strip_prefix(&home) {
            Ok(rest) => format!("~/{}", rest.display()),
            Err(_) => path.to_string(),
        },
        None => path.to_string(),
    }
}

/// Lets the person choose one of `rows`; its index, or `None` when they
/// leave with Esc or q.
pub(crate) fn pick(rows: &[SessionRow]) -> Result<Option<usize>> {
    let term = Term::stderr();
    let width = usize::from(term.size().1);
    let items: Vec<String> = rows.iter().map(|row| line(row, width)).collect();
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let colorful = ColorfulTheme::default();
    let theme: &dyn Theme = if no_color { &SimpleTheme } else { &colorful };
    FuzzySelect::with_theme(theme)
        .with_prompt(
            "Resume which session? (type to filter, ↑↓ to move, Enter to choose, Esc to leave)",
        )
        .items(&items)
        .default(0)
        .max_length(VISIBLE)
        .interact_on_opt(&term)
        .map_err(|e| match e {
            dialoguer::Error::IO(err) => Error::io("the terminal", &err),
        })
}
