//! Shell completions and man pages generated from the clap definitions:
//! checked in by `cargo xtask gen-docs`, and printed at run time by
//! `ollm completions SHELL` and `ollm man PAGE` for those who installed
//! with `cargo install` (as `rg --generate` does).

use std::path::PathBuf;

use clap::Command;
use clap_complete::Shell;

use crate::error::EXIT_CODE_TABLE;

/// The shells completions are generated for, with their file names.
pub(crate) const SHELLS: &[Shell] = &[
    Shell::Bash,
    Shell::Zsh,
    Shell::Fish,
    Shell::PowerShell,
    Shell::Elvish,
];

/// The file a shell loads `program`'s completions from.
pub(crate) fn completion_file(shell: Shell, program: &str) -> String {
    match shell {
        Shell::Bash => format!("{program}.bash"),
        Shell::Zsh => format!("_{program}"),
        Shell::Fish => format!("{program}.fish"),
        Shell::PowerShell => format!("_{program}.ps1"),
        _ => format!("{program}.elv"),
    }
}

/// The `ollm` dispatcher's command for completions: its own options plus
/// every tool as a subcommand, so `ollm env run --<TAB>` completes.
pub(crate) fn dispatcher_with_tools(programs: &[(&'static str, Command)]) -> Command {
    let mut ollm = programs
        .iter()
        .find(|(name, _)| *name == "ollm")
        .map_or_else(|| Command::new("ollm"), |(_, cmd)| cmd.clone());
    for (name, command) in programs {
        if let Some(tool) = name.strip_prefix("ollm-") {
            let mut sub = command
                .clone()
                .name(tool.to_string())
                .bin_name(format!("ollm {tool}"));
            for (alias, target) in super::tools::ALIASES {
                if *target == tool {
                    sub = sub.alias(*alias);
                }
            }
            ollm = ollm.subcommand(sub);
        }
    }
    ollm
}

/// `program`'s completion script for `shell`.
pub fn completions(shell: Shell, program: &str) -> Option<Vec<u8>> {
    let programs = super::programs::all();
    let mut command = if program == "ollm" {
        dispatcher_with_tools(&programs)
    } else {
        programs.into_iter().find(|(name, _)| *name == program)?.1
    };
    command.build();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, program, &mut out);
    Some(out)
}

/// Every man page: (page name, the command it documents). A program has a
/// page, and so has each of its subcommands (`ollm-session-list`).
pub(crate) fn man_pages() -> Vec<(String, Command)> {
    let mut pages = Vec::new();
    for (name, mut command) in super::programs::all() {
        command.build();
        for sub in command.get_subcommands() {
            if sub.get_name() == "help" {
                continue;
            }
            let page = format!("{name}-{}", sub.get_name());
            pages.push((page.clone(), sub.clone().name(page)));
        }
        pages.push((name.to_string(), command));
    }
    pages.sort_by(|a, b| a.0.cmp(&b.0));
    pages
}

/// The roff man page of `command`: clap_mangen's sections, with a SYNOPSIS
/// that shows each option's value, the examples kept line for line
/// (never refilled to the width), and the exit codes once.
pub(crate) fn man_page(command: &Command) -> Vec<u8> {
    let examples = examples_of(command);
    let man = clap_mangen::Man::new(
        command
            .clone()
            .after_help(None::<&str>)
            .after_long_help(None::<&str>),
    );
    let mut out = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = man.render(&mut out);
    let page = String::from_utf8_lossy(&out);
    let mut sections = split_sections(&page);
    for (heading, body) in &mut sections {
        if heading == "SYNOPSIS" {
            *body = synopsis_line(command);
        }
    }
    if let Some(examples) = examples {
        let at = sections
            .iter()
            .position(|(heading, _)| heading == "VERSION")
            .unwrap_or(sections.len());
        sections.insert(at, ("EXAMPLES".into(), examples_body(&examples)));
    }
    sections.push(("\"EXIT STATUS\"".into(), exit_status_body()));
    sections
        .into_iter()
        .map(|(heading, body)| {
            if heading.is_empty() {
                body
            } else {
                format!(".SH {heading}\n{body}")
            }
        })
        .collect::<String>()
        .into_bytes()
}

/// A roff page cut at its `.SH` lines: (heading, the lines below it); the
/// preamble before the first section has an empty heading.
fn split_sections(page: &str) -> Vec<(String, String)> {
    let mut sections = vec![(String::new(), String::new())];
    for line in page.split_inclusive('\n') {
        match line.strip_prefix(".SH ") {
            Some(heading) => sections.push((heading.trim_end().to_string(), String::new())),
            None => {
                if let Some((_, body)) = sections.last_mut() {
                    body.push_str(line);
                }
            }
        }
    }
    sections
}

/// The example lines of a command's help footer (`Examples:` up to the
/// exit-code table), as written.
pub fn examples_of(command: &Command) -> Option<String> {
    let footer = command
        .get_after_long_help()
        .or(command.get_after_help())?
        .to_string();
    let start = footer.find("Examples:\n")? + "Examples:\n".len();
    let end = footer.find("\n\nExit codes:").unwrap_or(footer.len());
    Some(footer.get(start..end)?.trim_end().to_string())
}

/// Text for roff: every character that roff would interpret escaped, and
/// `-`, `'` and `` ` `` as the ASCII characters a pasted command needs.
fn roff_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '\\' => out.push_str("\\e"),
            '-' => out.push_str("\\-"),
            '\'' => out.push_str("\\(aq"),
            '`' => out.push_str("\\(ga"),
            '^' => out.push_str("\\(ha"),
            '~' => out.push_str("\\(ti"),
            _ => out.push(ch),
        }
    }
    out
}

/// A line of roff text that starts with neither a request nor a control.
fn roff_line(text: &str) -> String {
    let escaped = roff_escape(text);
    if escaped.starts_with('.') || escaped.starts_with('\'') {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}

fn examples_body(examples: &str) -> String {
    let mut roff = String::from(".nf\n");
    for line in examples.lines() {
        roff.push_str(&roff_line(line.strip_prefix("  ").unwrap_or(line)));
        roff.push('\n');
    }
    roff.push_str(".fi\n");
    roff
}

fn exit_status_body() -> String {
    let mut roff = String::new();
    for (code, meaning) in EXIT_CODE_TABLE {
        roff.push_str(&format!(
            ".TP\n\\fB{}\\fR\n{}\n",
            roff_escape(code),
            roff_line(meaning)
        ));
    }
    roff
}

/// The label an option's value is shown with: its value name, or its
/// id in capitals.
fn value_label(arg: &clap::Arg) -> String {
    match arg.get_value_names() {
        Some(names) => names
            .iter()
            .map(clap::builder::Str::as_str)
            .collect::<Vec<_>>()
            .join(" "),
        None => arg.get_id().as_str().to_uppercase(),
    }
}

fn synopsis_line(command: &Command) -> String {
    let name = command.get_bin_name().unwrap_or(command.get_name());
    let mut words = vec![format!("\\fB{}\\fR", roff_escape(name))];
    let takes_values =
        |arg: &clap::Arg| arg.get_num_args().is_some_and(|range| range.takes_values());
    let repeats = |arg: &clap::Arg| {
        matches!(
            arg.get_action(),
            clap::ArgAction::Append | clap::ArgAction::Count
        )
    };
    for arg in command.get_arguments().filter(|a| !a.is_hide_set()) {
        if arg.is_positional() {
            continue;
        }
        let flag = match (arg.get_short(), arg.get_long()) {
            (Some(short), Some(long)) => {
                format!("\\fB\\-{short}\\fR|\\fB\\-\\-{}\\fR", roff_escape(long))
            }
            (Some(short), None) => format!("\\fB\\-{short}\\fR"),
            (None, Some(long)) => format!("\\fB\\-\\-{}\\fR", roff_escape(long)),
            (None, None) => continue,
        };
        let value = if takes_values(arg) {
            format!(" \\fI{}\\fR", roff_escape(&value_label(arg)))
        } else {
            String::new()
        };
        let more = if repeats(arg) { "..." } else { "" };
        words.push(if arg.is_required_set() {
            format!("{flag}{value}{more}")
        } else {
            format!("[{flag}{value}]{more}")
        });
    }
    for arg in command.get_positionals().filter(|a| !a.is_hide_set()) {
        let value = format!("\\fI{}\\fR", roff_escape(&value_label(arg)));
        let more = if arg.get_num_args().is_some_and(|r| r.max_values() > 1) {
            "..."
        } else {
            ""
        };
        let value = if arg.is_last_set() {
            format!("\\fB\\-\\-\\fR {value}{more}")
        } else {
            format!("{value}{more}")
        };
        words.push(if arg.is_required_set() {
            value
        } else {
            format!("[{value}]")
        });
    }
    if command.get_subcommands().any(|s| s.get_name() != "help") {
        let value = "\\fICOMMAND\\fR".to_string();
        words.push(if command.is_subcommand_required_set() {
            value
        } else {
            format!("[{value}]")
        });
    }
    format!("{}\n", words.join(" "))
}

/// Every generated file: (path relative to the repository, contents).
pub fn generate() -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    for (name, _) in super::programs::all() {
        for shell in SHELLS {
            if let Some(script) = completions(*shell, name) {
                files.push((
                    PathBuf::from("completions").join(completion_file(*shell, name)),
                    script,
                ));
            }
        }
    }
    for (page, command) in man_pages() {
        files.push((
            PathBuf::from("man").join(format!("{page}.1")),
            man_page(&command),
        ));
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(name: &str) -> String {
        let (_, command) = man_pages()
            .into_iter()
            .find(|(page, _)| page == name)
            .unwrap();
        String::from_utf8(man_page(&command)).unwrap()
    }

    #[test]
    fn man_pages_show_the_exit_codes_once_without_the_help_footer() {
        let text = page("ollm-loopcheck");
        assert_eq!(text.matches("EXIT STATUS").count(), 1, "{text}");
        assert!(!text.contains(".SH EXTRA"), "{text}");
        assert!(!text.contains("Exit codes:"), "{text}");
        assert!(text.contains("\\fB128+N\\fR\nthe child process"), "{text}");
        assert!(!text.contains("+N:"), "{text}");
    }

    #[test]
    fn man_page_examples_are_kept_line_for_line() {
        let text = page("ollm-loopcheck");
        let examples = text.split(".SH EXAMPLES\n.nf\n").nth(1).unwrap();
        let first = examples.lines().next().unwrap();
        assert!(
            first.starts_with("printf \\(aq%s\\en\\(aq") && first.ends_with("| ollm\\-loopcheck"),
            "{first}"
        );
        assert!(examples.contains("\n.fi\n"), "{examples}");
    }

    #[test]
    fn the_synopsis_shows_each_option_with_its_value() {
        let text = page("ollm-loopcheck");
        let synopsis = text
            .split(".SH SYNOPSIS\n")
            .nth(1)
            .unwrap()
            .lines()
            .next()
            .unwrap();
        assert!(
            synopsis.contains("[\\fB\\-\\-config\\fR \\fIFILE\\fR]"),
            "{synopsis}"
        );
        assert!(
            synopsis.contains("[\\fB\\-\\-max\\-turns\\fR \\fIN\\fR]"),
            "{synopsis}"
        );
        assert!(synopsis.contains("[\\fB\\-\\-stream\\fR]"), "{synopsis}");
        assert!(
            !synopsis.contains("\\-\\-format"),
            "hidden alias shown: {synopsis}"
        );
        let run = page("ollm-env-run");
        let synopsis = run
            .split(".SH SYNOPSIS\n")
            .nth(1)
            .unwrap()
            .lines()
            .next()
            .unwrap();
        assert!(synopsis.ends_with(" \\fICMD\\fR..."), "{synopsis}");
    }

    #[test]
    fn completions_are_generated_for_every_program_and_shell() {
        for (name, _) in crate::ollm::programs::all() {
            for shell in SHELLS {
                let script = completions(*shell, name).unwrap();
                assert!(!script.is_empty(), "{name} {shell}");
            }
        }
        assert!(completions(Shell::Bash, "ollm-nothing").is_none());
    }
}
