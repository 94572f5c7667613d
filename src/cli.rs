//! What every program's `main` shares: one-line diagnostics, the exit-code
//! table, clap errors as one line, the `--config` option, and the program
//! context ([`Ctx`]) every command's `run(ctx, args)` receives.
//!
//! ```ignore
//! pub fn run(ctx: &Ctx, args: &ListArgs) -> Result<ExitCode> {
//!     let config = &ctx.config()?.config;                      // loaded once, lazily
//!     let items: Vec<Item> = service::list(config)?;           // typed, Serialize + Tabular
//!     ctx.printer.list(&items)?;                               // table at a terminal, JSON piped
//!     Ok(ExitCode::Success)
//! }
//! ```

use std::cell::{OnceCell, RefCell};
use std::ffi::OsString;
use std::path::PathBuf;

use clap::{CommandFactory, Parser};

use crate::config::{self, ConfigArgs, FlagOverride, LoadOptions, Loaded};
use crate::diag;
use crate::error::{Error, ExitCode, Result};
use crate::output::Printer;

/// Options every program takes.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct GlobalOpts {
    /// Read this YAML configuration file after the user's, the workspace's
    /// and the environment's settings (flags still win).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// The program context: the global options, the printer, and the
/// configuration, loaded at most once per process and only by the commands
/// that ask for it (start-up is measured: `--version` and `context get`
/// read no configuration file), with the flags of the command line that
/// set configuration keys.
#[derive(Debug)]
pub struct Ctx {
    pub global: GlobalOpts,
    pub printer: Printer,
    flags: Vec<FlagOverride>,
    loaded: OnceCell<Loaded>,
}

impl Ctx {
    pub fn new(global: GlobalOpts) -> Ctx {
        Ctx {
            global,
            printer: Printer::detect(),
            flags: Vec::new(),
            loaded: OnceCell::new(),
        }
    }

    /// The context of a program whose command line set configuration keys:
    /// `flags` are [`config::overrides`] of the program's flag table.
    pub fn with_flags(mut self, flags: Vec<FlagOverride>) -> Ctx {
        self.flags = flags;
        self
    }

    /// The effective configuration (files, environment, `--config`, the
    /// command line's flags); the first call loads it.
    pub fn config(&self) -> Result<&Loaded> {
        if let Some(loaded) = self.loaded.get() {
            return Ok(loaded);
        }
        let loaded = config::load(&LoadOptions {
            config_file: self.global.config.clone(),
            flags: self.flags.clone(),
            ..LoadOptions::default()
        })?;
        Ok(self.loaded.get_or_init(|| loaded))
    }
}

/// The `config` subcommand every program has: the effective configuration
/// as JSON, or with `--show-origin` every key and where it came from.
pub fn show_config(ctx: &Ctx, args: &ConfigArgs) -> Result<ExitCode> {
    config::print_config_with(ctx.config()?, args, &ctx.printer)?;
    Ok(ExitCode::Success)
}

/// The C `main` of a program whose binary is `#![no_main]`. The programs
/// start once per agent turn each, and std's own start-up (finding the main
/// thread's stack guard, which parses /proc/self/maps: ~94,000 instructions,
/// a fifth of `--version`) is skipped; [`main_with`] does what the programs
/// need of it (a closed pipe is an error to report, not a signal).
#[macro_export]
macro_rules! program_main {
    ($program:literal, $body:path) => {
        #[unsafe(no_mangle)]
        extern "C" fn main() -> ::std::ffi::c_int {
            $crate::cli::main_with($program, $body)
        }
    };
}

/// Runs a program body and exits with its code. Errors become one line on
/// stderr prefixed with the program's name; a panic becomes one line too.
pub fn main_with(program: &'static str, body: impl FnOnce() -> Result<ExitCode>) -> ! {
    // As std's runtime does: writing to a closed pipe returns EPIPE, which
    // ends the program quietly (Error::BrokenPipe); std resets SIGPIPE for
    // the commands it spawns.
    // SAFETY: setting a signal's disposition to SIG_IGN installs no handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    diag::set_program(program);
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(std::string::ToString::to_string)
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown".into());
        diag::error(format!("internal error (please report): {message}"));
    }));
    let code = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)) {
        Ok(Ok(code)) => code.code(),
        Ok(Err(err)) => {
            if !matches!(err, Error::BrokenPipe | Error::ChildExit(_)) {
                diag::error(&err);
            }
            err.exit_code().code()
        }
        Err(_) => ExitCode::Internal.code(),
    };
    std::process::exit(code)
}

/// Answers a shell's completion request (`COMPLETE=bash program …`, see
/// docs/ollm.md) and exits; returns at once otherwise. clap_complete's own
/// `complete()` asks for the working directory and copies the arguments
/// before it looks at the variable, in every run of the program.
pub fn complete_if_asked(factory: fn() -> clap::Command) {
    if std::env::var_os("COMPLETE").is_some() {
        clap_complete::CompleteEnv::with_factory(factory).complete();
    }
}

/// Parses the command line; help and version print as usual, an error is one
/// line (`program: unexpected argument '--x' (try --help)`), exit code 2.
pub fn parse<C: Parser>() -> Result<C> {
    Ok(parse_matches::<C>()?.0)
}

/// [`parse`], also returning clap's matches: what a command reads its
/// configuration flags from ([`crate::config::overrides`]).
pub fn parse_matches<C: Parser>() -> Result<(C, clap::ArgMatches)> {
    let args: Vec<OsString> = std::env::args_os().collect();
    let (mut command, pruned) = command_for::<C>(&args);
    let mut parsed = command.try_get_matches_from_mut(&args);
    if pruned
        && parsed
            .as_ref()
            .is_err_and(|err| !pruned_tree_answers(err.kind()))
    {
        // An error is worded from the whole tree, whatever it says
        // (suggestions, usage): the pruned one only serves what succeeds and
        // the help of the subcommand it holds.
        std::mem::forget(command);
        command = C::command();
        parsed = command.try_get_matches_from_mut(&args);
    }
    let parsed = parsed.and_then(|matches| Ok((C::from_arg_matches(&matches)?, matches)));
    let parsed = parsed.map_err(|err| {
        use clap::error::ErrorKind;
        match err.kind() {
            ErrorKind::DisplayVersion => {
                let _ = err.print();
                std::process::exit(0);
            }
            ErrorKind::DisplayHelp => {
                print_help(&err, &command);
                std::process::exit(0);
            }
            ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                print_help(&err, &command);
                std::process::exit(ExitCode::Usage.code());
            }
            _ => Error::usage(clap_one_line(&err)),
        }
    });
    // The process ends soon after and its exit frees the command tree:
    // dropping it node by node cost ollm-session a tenth of its start-up.
    std::mem::forget(command);
    parsed
}

/// What the pruned tree answers as the whole one would: help, and the
/// version (which [`command_for`] prunes for).
fn pruned_tree_answers(kind: clap::error::ErrorKind) -> bool {
    use clap::error::ErrorKind;
    matches!(
        kind,
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            | ErrorKind::DisplayVersion
    )
}

thread_local! {
    /// While [`command_for`] builds a tree: the one subcommand to attach
    /// (read once, by the first [`subcommands!`](crate::subcommands) enum built).
    static ONLY: RefCell<Option<String>> = const { RefCell::new(None) };
}

#[doc(hidden)]
pub fn take_only_subcommand() -> Option<String> {
    ONLY.with(|only| only.borrow_mut().take())
}

/// `C`'s tree with only the subcommands a [`subcommands!`](crate::subcommands)
/// enum says `only` names (none when it names none).
fn with_only<C: CommandFactory>(only: &str) -> clap::Command {
    ONLY.with(|cell| *cell.borrow_mut() = Some(only.to_owned()));
    let command = C::command();
    take_only_subcommand();
    command
}

/// The tree to parse `args` with, and whether it is pruned. Building all of
/// a program's subcommands is most of its start-up (ollm-session has 16), so
/// when `args` name a subcommand first (after `--config FILE`, if given),
/// the root gets only that one: its help, usage and parse are the same (a
/// test compares them for every subcommand of every program), and an error
/// is worded from the whole tree ([`parse_matches`]). Anything else (no
/// subcommand, another option first, an alias, `help`, a misspelt name)
/// gets the whole tree, as do completions and man pages.
pub fn command_for<C: CommandFactory>(args: &[OsString]) -> (clap::Command, bool) {
    if asks_only_for_version(args) {
        // `--version` alone names no subcommand, yet needs none of them.
        let command = with_only::<C>("");
        if command.has_subcommands() {
            // Not a `subcommands!` enum: this is the whole tree already.
            return (command, false);
        }
        return (command, true);
    }
    let Some(name) = subcommand_word(args) else {
        return (C::command(), false);
    };
    let command = with_only::<C>(name);
    if command.get_subcommands().any(|sub| sub.get_name() == name) {
        return (command, true);
    }
    if command.has_subcommands() {
        // Not a `subcommands!` enum: this is the whole tree already.
        return (command, false);
    }
    std::mem::forget(command);
    (C::command(), false)
}

/// `program --version` or `program -V`, nothing else: the root alone
/// answers it, as the whole tree would.
fn asks_only_for_version(args: &[OsString]) -> bool {
    matches!(args, [_, flag] if flag == "--version" || flag == "-V")
}

/// The word of `args` that may name the subcommand: the first, or the one
/// after `--config FILE` (the one option every program's root takes). Found
/// without building the tree, so any other option first means `None`.
fn subcommand_word(args: &[OsString]) -> Option<&str> {
    let mut rest = args.iter().skip(1).map(|arg| arg.to_str());
    let mut word = rest.next()??;
    if word.starts_with("--config=") {
        word = rest.next()??;
    } else if word == "--config" {
        let file = rest.next()??;
        if file.starts_with('-') {
            return None;
        }
        word = rest.next()??;
    }
    (!word.starts_with('-')).then_some(word)
}

/// A program's subcommand enum, each variant a newtype over its arguments
/// (`Create(create::CreateArgs)`), with `#[command]` attributes and doc
/// comments as under `#[derive(clap::Subcommand)]`, which it replaces: the
/// enum gets clap's traits, and [`command_for`] can build any one of its
/// subcommands alone. Each variant is derived on its own (a one-variant enum
/// in a `one_subcommand` module), so the subcommand built alone is the one
/// the whole tree holds.
#[macro_export]
macro_rules! subcommands {
    (
        $(#[$attr:meta])*
        $vis:vis enum $name:ident {
            $(
                $(#[$variant_attr:meta])*
                $variant:ident($ty:ty)
            ),* $(,)?
        }
    ) => {
        $(#[$attr])*
        $vis enum $name {
            $($variant($ty),)*
        }

        mod one_subcommand {
            #[allow(clippy::wildcard_imports)]
            use super::*;
            $(
                #[derive(clap::Subcommand)]
                pub enum $variant {
                    $(#[$variant_attr])*
                    $variant($ty),
                }
            )*
        }

        impl clap::FromArgMatches for $name {
            fn from_arg_matches(matches: &clap::ArgMatches) -> ::std::result::Result<Self, clap::Error> {
                Self::from_arg_matches_mut(&mut matches.clone())
            }

            fn from_arg_matches_mut(
                matches: &mut clap::ArgMatches,
            ) -> ::std::result::Result<Self, clap::Error> {
                let Some(name) = matches.subcommand_name().map(str::to_owned) else {
                    return Err(clap::Error::raw(
                        clap::error::ErrorKind::MissingSubcommand,
                        "A subcommand is required but one was not provided.",
                    ));
                };
                $(
                    if <one_subcommand::$variant as clap::Subcommand>::has_subcommand(&name) {
                        let one_subcommand::$variant::$variant(args) =
                            <one_subcommand::$variant as clap::FromArgMatches>::from_arg_matches_mut(matches)?;
                        return Ok(Self::$variant(args));
                    }
                )*
                Err(clap::Error::raw(
                    clap::error::ErrorKind::InvalidSubcommand,
                    format!("The subcommand '{name}' wasn't recognized"),
                ))
            }

            fn update_from_arg_matches(
                &mut self,
                matches: &clap::ArgMatches,
            ) -> ::std::result::Result<(), clap::Error> {
                *self = Self::from_arg_matches(matches)?;
                Ok(())
            }
        }

        impl clap::Subcommand for $name {
            fn augment_subcommands(command: clap::Command) -> clap::Command {
                let only = $crate::cli::take_only_subcommand();
                $(
                    let command = if only.as_deref().is_none_or(
                        <one_subcommand::$variant as clap::Subcommand>::has_subcommand,
                    ) {
                        <one_subcommand::$variant as clap::Subcommand>::augment_subcommands(command)
                    } else {
                        command
                    };
                )*
                command
            }

            fn augment_subcommands_for_update(command: clap::Command) -> clap::Command {
                $(
                    let command = <one_subcommand::$variant as clap::Subcommand>::augment_subcommands_for_update(command);
                )*
                command
            }

            fn has_subcommand(name: &str) -> bool {
                false $(|| <one_subcommand::$variant as clap::Subcommand>::has_subcommand(name))*
            }
        }
    };
}

/// Prints the help clap rendered for `err`, its examples as written.
fn print_help(err: &clap::Error, root: &clap::Command) {
    // Plain text: print_text would show clap's colour codes as `\x1b`.
    let rendered = err.render().to_string();
    let _ = crate::output::print_text(&with_verbatim_examples(&rendered, root));
}

/// `rendered` help with its footer (examples and exit codes), which clap
/// re-wraps to the terminal's width, replaced by the footer as written: an
/// example is a command line to paste, and a wrapped one is two commands.
pub fn with_verbatim_examples(rendered: &str, root: &clap::Command) -> String {
    // The footer starts with the dispatcher's list of tools, or the examples.
    let Some(at) = ["\nTools:\n", "\nExamples:\n"]
        .iter()
        .find_map(|heading| rendered.find(heading).map(|at| at + 1))
        .or_else(|| rendered.starts_with("Examples:\n").then_some(0))
    else {
        return rendered.to_string();
    };
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let wrapped = words(&rendered[at..]);
    let mut footer = None;
    crate::command_tree::walk(root, "", &mut |_, command| {
        for after in [command.get_after_help(), command.get_after_long_help()]
            .into_iter()
            .flatten()
        {
            let after = after.to_string();
            if footer.is_none() && words(&after) == wrapped {
                footer = Some(after);
            }
        }
    });
    match footer {
        Some(footer) => format!("{}{}\n", &rendered[..at], footer.trim_end()),
        None => rendered.to_string(),
    }
}

fn clap_one_line(err: &clap::Error) -> String {
    let rendered = err.to_string();
    // The message may go on over indented lines (the missing arguments).
    let message: Vec<&str> = rendered
        .lines()
        .take_while(|line| !line.trim().is_empty() && !line.starts_with("Usage:"))
        .map(str::trim)
        .collect();
    let message = message.join(" ");
    let message = message.strip_prefix("error: ").unwrap_or(&message);
    let message = if message.is_empty() {
        "invalid arguments"
    } else {
        message
    };
    match suggestion(err) {
        Some(close) => format!("{message}; did you mean '{close}'? (try --help)"),
        None => format!("{message} (try --help)"),
    }
}

/// The subcommand or flag clap found close to a mistyped one.
fn suggestion(err: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    [ContextKind::SuggestedSubcommand, ContextKind::SuggestedArg]
        .into_iter()
        .find_map(|kind| match err.get(kind)? {
            ContextValue::String(close) => Some(close.clone()),
            ContextValue::Strings(close) => close.first().cloned(),
            _ => None,
        })
}

/// Refuses to wait on a terminal for input that is meant to be piped in
/// (`source` is `-`, stdin a terminal): one line saying what to give
/// instead, `nothing to WHAT: HOW (try --help)`, exit code 2.
pub fn require_piped_stdin(source: &str, what: &str, how: &str) -> Result<()> {
    use std::io::IsTerminal;
    if source == "-" && std::io::stdin().is_terminal() {
        return Err(Error::usage(format!(
            "nothing to {what}: {how} (try --help)"
        )));
    }
    Ok(())
}

/// The `after_help` footer every program shows: its examples, then the exit codes.
pub fn footer(examples: &str) -> String {
    format!("Examples:\n{examples}\n\n{}", crate::error::EXIT_CODE_HELP)
}

/// A missing input file named like a subcommand (`ollm compress chek`)
/// was meant as that subcommand: say so instead of only "no such file".
pub fn hint_subcommand(err: Error, input: &str, command: &clap::Command) -> Error {
    let Error::NotFound(message) = err else {
        return err;
    };
    let names = command
        .get_subcommands()
        .flat_map(|sub| std::iter::once(sub.get_name()).chain(sub.get_all_aliases()))
        .filter(|name| *name != "help");
    match crate::suggest::closest(input, names) {
        Some(close) => Error::NotFound(format!(
            "{message}; did you mean the subcommand '{close}'? (try --help)"
        )),
        None => Error::NotFound(message),
    }
}

#[cfg(test)]
mod tests {
    use clap::error::ErrorKind;

    use super::pruned_tree_answers;

    /// Help and the version come from the pruned tree; every error is parsed
    /// again with the whole tree, which words it (its suggestions may name
    /// another subcommand).
    #[test]
    fn only_help_and_version_are_answered_by_the_pruned_tree() {
        for kind in [
            ErrorKind::DisplayHelp,
            ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand,
            ErrorKind::DisplayVersion,
        ] {
            assert!(pruned_tree_answers(kind), "{kind:?}");
        }
        for kind in [
            ErrorKind::UnknownArgument,
            ErrorKind::InvalidSubcommand,
            ErrorKind::InvalidValue,
            ErrorKind::MissingRequiredArgument,
            ErrorKind::ArgumentConflict,
            ErrorKind::TooManyValues,
            ErrorKind::MissingSubcommand,
        ] {
            assert!(!pruned_tree_answers(kind), "{kind:?}");
        }
    }
}
