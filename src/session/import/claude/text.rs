//! What a user line's text is: Claude Code writes more than prompts as
//! `user` lines (slash commands, their output, shell escapes, interruption
//! markers), each wrapped in its own tags.

use crate::session::import::Role;

/// What one text of a `user` line (or a `system` `local_command` line)
/// becomes: a message of `role`, or nothing.
pub fn classify(text: &str) -> Option<(Role, String)> {
    let trimmed = text.trim();
    if trimmed.is_empty() || is_marker(trimmed) {
        return None;
    }
    if let Some(name) = tag(trimmed, "command-name") {
        // `<command-message>compact</command-message><command-name>/compact
        // </command-name><command-args>…</command-args>`: shown to the user
        // as the command they typed.
        let name = name.trim();
        let args = tag(trimmed, "command-args").unwrap_or("").trim();
        let slash = if name.starts_with('/') { "" } else { "/" };
        let typed = if args.is_empty() {
            format!("{slash}{name}")
        } else {
            format!("{slash}{name} {args}")
        };
        return Some((Role::User, typed));
    }
    if let Some(command) = tag(trimmed, "bash-input") {
        return Some((Role::User, format!("! {}", command.trim())));
    }
    let outputs: Vec<&str> = [
        "local-command-stdout",
        "local-command-stderr",
        "bash-stdout",
        "bash-stderr",
    ]
    .iter()
    .filter_map(|name| tag(trimmed, name))
    .map(str::trim)
    .filter(|out| !out.is_empty())
    .collect();
    if !outputs.is_empty() {
        return Some((Role::System, strip_ansi(&outputs.join("\n"))));
    }
    if has_tag(trimmed, "local-command-stdout")
        || has_tag(trimmed, "bash-stdout")
        || trimmed.starts_with("<local-command-caveat>")
    {
        // Empty output, or the caveat Claude Code adds before a command's
        // output (normally also `isMeta`).
        return None;
    }
    Some((Role::User, trimmed.to_owned()))
}

/// `[Request interrupted by user]`, `[Request interrupted by user for tool
/// use]`: Claude Code's note that the user pressed Esc, not a prompt.
pub fn is_marker(text: &str) -> bool {
    text.starts_with("[Request interrupted by user") && text.ends_with(']')
}

/// Whether `text` records a slash command (`<command-name>`).
pub fn is_command(text: &str) -> bool {
    tag(text.trim(), "command-name").is_some()
}

fn has_tag(text: &str, name: &str) -> bool {
    text.contains(&format!("<{name}>"))
}

/// The text between `<name>` and `</name>`, when `text` holds that tag.
fn tag<'t>(text: &'t str, name: &str) -> Option<&'t str> {
    let open = format!("<{name}>");
    let close = format!("</{name}>");
    let start = text.find(&open)? + open.len();
    let end = text[start..].find(&close)? + start;
    Some(&text[start..end])
}

/// `text` without terminal escape sequences (colours, cursor moves, OSC
/// titles and links), which command output recorded from a terminal holds.
pub fn strip_ansi(text: &str) -> String {
    if !text.contains('\u{1b}') && !text.contains('\u{9b}') {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.peek().copied() {
                Some('[') => {
                    chars.next();
                    skip_csi(&mut chars);
                }
                Some(']') => {
                    chars.next();
                    skip_osc(&mut chars);
                }
                Some(c) if ('@'..='_').contains(&c) => {
                    chars.next();
                }
                Some(c) if (' '..='/').contains(&c) => {
                    // ESC ( B and other character-set selections.
                    chars.next();
                    chars.next();
                }
                _ => {}
            },
            '\u{9b}' => skip_csi(&mut chars),
            c => out.push(c),
        }
    }
    out
}

/// A control sequence's parameters and its final byte (`@`..`~`).
fn skip_csi(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    for c in chars.by_ref() {
        if ('@'..='~').contains(&c) {
            break;
        }
    }
}

/// An operating system command, ended by BEL or ESC `\`.
fn skip_osc(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while let Some(c) = chars.next() {
        if c == '\u{7}' {
            break;
        }
        if c == '\u{1b}' {
            if chars.peek() == Some(&'\\') {
                chars.next();
            }
            break;
        }
    }
}
