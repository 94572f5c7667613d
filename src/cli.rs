//! What every program's `main` shares: one-line diagnostics, the exit-code
//! table, clap errors as one line, the `--config` option, and the program
//! context ([`Ctx`]) every command's `run(ctx, args)` receives.
//!
//! ```ignore
//! pub fn run(ctx: &Ctx, args: &ListArgs) -> Result<ExitCode> {
//!     let config = &ctx.config_with(args.overrides())?.config; // loaded once, lazily
//!     let items: Vec<Item> = service::list(config)?;           // typed, Serialize + Tabular
//!     ctx.printer.list(&items)?;                               // table at a terminal, JSON piped
//!     Ok(ExitCode::Success)
//! }
//! ```

use std::cell::OnceCell;
use std::path::PathBuf;

use clap::Parser;

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
/// read no configuration file).
#[derive(Debug)]
pub struct Ctx {
    pub global: GlobalOpts,
    pub printer: Printer,
    loaded: OnceCell<Loaded>,
}

impl Ctx {
    pub fn new(global: GlobalOpts) -> Ctx {
        Ctx {
            global,
            printer: Printer::detect(),
            loaded: OnceCell::new(),
        }
    }

    /// The effective configuration (files, environment, `--config`).
    pub fn config(&self) -> Result<&Loaded> {
        self.config_with(Vec::new())
    }

    /// The effective configuration with this command's flag overrides. The
    /// first call loads it; a command gives all its flags on that call.
    pub fn config_with(&self, flags: Vec<FlagOverride>) -> Result<&Loaded> {
        if let Some(loaded) = self.loaded.get() {
            debug_assert!(flags.is_empty(), "configuration already loaded");
            return Ok(loaded);
        }
        let loaded = config::load(&LoadOptions {
            config_file: self.global.config.clone(),
            flags,
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
            .map(|s| s.to_string())
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

/// Parses the command line; help and version print as usual, an error is one
/// line (`program: unexpected argument '--x' (try --help)`), exit code 2.
pub fn parse<C: Parser>() -> Result<C> {
    C::try_parse().map_err(|err| {
        use clap::error::ErrorKind;
        match err.kind() {
            ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                let _ = err.print();
                std::process::exit(0);
            }
            ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                let _ = err.print();
                std::process::exit(ExitCode::Usage.code());
            }
            _ => Error::usage(clap_one_line(&err)),
        }
    })
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
    format!("{message} (try --help)")
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
    // clap builds every subcommand's help at start-up, even for `--version`:
    // render the exit-code table once, not once per subcommand.
    static EXIT_CODES: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(crate::error::exit_code_help);
    format!("Examples:\n{examples}\n\n{}", *EXIT_CODES)
}
