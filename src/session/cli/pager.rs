//! Long output for a person goes through their pager, as git does:
//! `$PAGER`, else `less` (with `LESS=FRX` unless set: quit when it fits on
//! one screen, keep colours, leave the text on the screen). Only at a
//! terminal that can run one (`TERM` set and not `dumb`); piped output is
//! written as it is.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::error::Result;
use crate::output::{escape_text, markdown};

const DEFAULT: &str = "less -R";

/// Shows Markdown (its control characters made visible) through the
/// pager, styled for the terminal when colour is allowed
/// (`output::markdown`); written as it is when there is no pager (`PAGER`
/// empty or `cat`) or it cannot be started.
pub(crate) fn page_markdown(text: &str, color: bool) -> Result<()> {
    let escaped = escape_text(text);
    if color {
        show(&markdown::style(&escaped))
    } else {
        show(&escaped)
    }
}

/// Pages text that is already safe for the terminal.
fn show(text: &str) -> Result<()> {
    let pager = std::env::var("PAGER").unwrap_or_else(|_| DEFAULT.into());
    let pager = pager.trim();
    let dumb = std::env::var("TERM").map_or(true, |term| term.is_empty() || term == "dumb");
    if dumb || pager.is_empty() || pager == "cat" {
        return crate::output::write_stdout(&[text.as_bytes()]);
    }
    let mut command = Command::new("sh");
    command.arg("-c").arg(pager).stdin(Stdio::piped());
    if std::env::var_os("LESS").is_none() {
        command.env("LESS", "FRX");
    }
    let Ok(mut child) = command.spawn() else {
        return crate::output::write_stdout(&[text.as_bytes()]);
    };
    if let Some(mut stdin) = child.stdin.take() {
        // The person may quit the pager before reading everything.
        let _ = stdin.write_all(text.as_bytes());
    }
    let _ = child.wait();
    Ok(())
}
