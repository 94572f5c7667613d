//! `ollm completions`, `ollm man` and `ollm help NAME…`: the generated
//! documentation for those who installed with `cargo install`, and help
//! for any command the dispatcher knows.

use std::ffi::OsString;
use std::io::Write;

use clap::CommandFactory;

use super::command::{Cli, CompletionsArgs, ManArgs, exec_tool};

use crate::error::{Error, ExitCode, Result};

pub fn completions(args: &CompletionsArgs) -> Result<ExitCode> {
    let programs: Vec<&str> = super::programs::all().iter().map(|(n, _)| *n).collect();
    let program = if programs.contains(&args.program.as_str()) {
        args.program.clone()
    } else {
        format!("ollm-{}", args.program)
    };
    let script = super::docs::completions(args.shell, &program).ok_or_else(|| {
        let names = programs
            .iter()
            .map(|n| n.strip_prefix("ollm-").unwrap_or(n));
        not_found("program", &args.program, names)
    })?;
    print(&script)
}

pub fn man(args: &ManArgs) -> Result<ExitCode> {
    let pages = super::docs::man_pages();
    if args.list {
        let names: String = pages.iter().map(|(name, _)| format!("{name}\n")).collect();
        crate::output::print_text(&names)?;
        return Ok(ExitCode::Success);
    }
    let wanted = [args.page.clone(), format!("ollm-{}", args.page)];
    let Some((_, command)) = pages.iter().find(|(name, _)| wanted.contains(name)) else {
        let names = pages
            .iter()
            .map(|(name, _)| name.strip_prefix("ollm-").unwrap_or(name));
        return Err(not_found("man page", &args.page, names));
    };
    let page = super::docs::man_page(command);
    if crate::output::stdout_is_terminal() && show_with_man(&page)? {
        return Ok(ExitCode::Success);
    }
    print(&page)
}

/// A person at a terminal reads the page through `man -l -` (its pager
/// and formatting), not as roff; `false` when there is no `man` to run.
fn show_with_man(page: &[u8]) -> Result<bool> {
    let Ok(mut man) = std::process::Command::new("man")
        .args(["-l", "-"])
        .stdin(std::process::Stdio::piped())
        .spawn()
    else {
        return Ok(false);
    };
    if let Some(mut stdin) = man.stdin.take() {
        // A reader who quits the pager early closes the pipe: not an error.
        let _ = stdin.write_all(page);
    }
    let status = man.wait().map_err(|e| Error::io("man", &e))?;
    Ok(status.success())
}

/// `ollm help [NAME [SUBCOMMAND…]]`: the dispatcher's own commands
/// (`config`, `trust`, …) are shown here; a tool shows its own help.
pub fn help(names: &[String], tools_found: &[String]) -> Result<ExitCode> {
    let mut root = Cli::command();
    root.build();
    let Some((first, rest)) = names.split_first() else {
        let mut text =
            crate::cli::with_verbatim_examples(&root.render_long_help().to_string(), &root);
        text.push_str("\nTools found:\n");
        for tool in tools_found {
            text.push_str(&format!("  {tool}\n"));
        }
        crate::output::print_text(&text)?;
        return Ok(ExitCode::Success);
    };
    if let Some(own) = root.find_subcommand(first) {
        let mut own = own.clone();
        for name in rest {
            let Some(sub) = own.find_subcommand(name) else {
                let names = own
                    .get_subcommands()
                    .map(|s| s.get_name().to_string())
                    .collect::<Vec<_>>();
                return Err(not_found(
                    "subcommand",
                    name,
                    names.iter().map(String::as_str),
                ));
            };
            own = sub.clone();
        }
        let text = own.render_long_help().to_string();
        crate::output::print_text(&crate::cli::with_verbatim_examples(&text, &root))?;
        return Ok(ExitCode::Success);
    }
    let mut args: Vec<OsString> = rest.iter().map(OsString::from).collect();
    args.push("--help".into());
    exec_tool(first, &args)
}

fn print(bytes: &[u8]) -> Result<ExitCode> {
    crate::output::print_text(&String::from_utf8_lossy(bytes))?;
    Ok(ExitCode::Success)
}

fn not_found<'a>(what: &str, name: &str, known: impl IntoIterator<Item = &'a str>) -> Error {
    match crate::suggest::closest(name, known) {
        Some(close) => Error::NotFound(format!("no {what} '{name}'; did you mean '{close}'?")),
        None => Error::NotFound(format!("no {what} '{name}'")),
    }
}
