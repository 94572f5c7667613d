//! The `ollm-env` command line: the program's options here, one file per
//! subcommand with its arguments and `run`.

mod around;
mod explain;
mod report;
mod run;

use clap::{Args, Parser};

use super::policy::{ExtraRules, Policy};
use crate::cli::{Ctx, GlobalOpts, footer};
use crate::config::{ConfigArgs, FlagKey};
use crate::error::{ExitCode, Result};

const EXAMPLES: &str =
    "  ollm-env run -- env                      # the environment a tool would see
  ollm-env run --redact-output -- ./deploy.sh
  ollm-env run --allow DATABASE_URL --set NODE_ENV=test -- npm test
  ollm-env report                          # kept/removed names and the rule for each
  ollm-env explain AWS_REGION
  ollm-env config --show-origin";

/// Run a tool with secrets stripped from its environment.
///
/// A variable is kept when the allow list names it exactly; otherwise it is
/// removed when its value looks like a credential (private keys, cloud and
/// forge tokens, JWTs, URLs with a password, password parameters);
/// otherwise kept when an allow glob matches; otherwise removed when a deny
/// glob matches (a path-valued variable such as PASSWORD_STORE_DIR is spared
/// the built-in extended globs); otherwise removed when a word of its name
/// is a secret word such as AUTH, KEY, CERT, TOKEN or PASSWORD (SSL_CERT,
/// myApiKey; not KEYNOTE_SPEAKER, not AUTH_TYPE, not a path value such as
/// SSH_AUTH_SOCK=/run/…); otherwise kept. Patterns are
/// case-insensitive globs. Lists from configuration and flags extend the
/// built-in lists; `--replace-defaults` (or
/// `services.environment.replaceDefaults: true`) uses them alone.
///
/// Without --redact-output, ollm-env replaces itself with the tool (exec).
#[derive(Debug, Parser)]
#[command(name = "ollm-env", version, after_help = footer(EXAMPLES))]
pub(crate) struct Cli {
    #[command(flatten)]
    pub global: GlobalOpts,
    #[command(subcommand)]
    pub command: Command,
}

crate::subcommands! {
#[derive(Debug)]
pub(crate) enum Command {
    /// Run CMD with the sanitized environment; its exit code passes through
    /// (128+N if it dies of signal N; 127 if CMD is not found, 126 if it
    /// cannot be executed, or if the --redact-output supervisor cannot make
    /// itself unreadable to it).
    #[command(after_help = footer("  ollm-env run -- env
  ollm-env run --allow DATABASE_URL --redact-output -- sh -c 'echo $DATABASE_URL'
  ollm-env run --env-file .env.test -- npm test
  ollm-env run --deny 'STRIPE_*' --allow DATABASE_URL -- ./migrate"))]
    Run(run::RunArgs),
    /// Print every variable name kept and removed with the rule that decided
    /// it: a table at a terminal, JSON `{kept, removed, set}` when piped.
    /// Values are never printed.
    #[command(after_help = footer("  ollm-env report | jq '.removed[].name'
  ollm-env report --deny 'MY_*'"))]
    Report(PolicyArgs),
    /// Explain the decision for one variable name, as JSON, and for a
    /// removed one how to pass it anyway.
    #[command(after_help = footer("  ollm-env explain GITHUB_TOKEN
  ollm-env explain DATABASE_URL
  ollm-env explain --allow DATABASE_URL DATABASE_URL"))]
    Explain(explain::ExplainArgs),
    /// Print the effective configuration (JSON), or every key with its origin.
    #[command(after_help = footer("  ollm-env config
  ollm-env config --show-origin"))]
    Config(ConfigArgs),
}
}

#[derive(Debug, Clone, Args)]
pub(crate) struct PolicyArgs {
    /// Also keep this variable (exact name, or a glob such as 'MYAPP_*').
    /// An exact name is kept even when its value looks like a credential.
    #[arg(long, value_name = "NAME")]
    pub allow: Vec<String>,
    /// Also remove variables matching this glob (case-insensitive).
    #[arg(long, value_name = "PATTERN")]
    pub deny: Vec<String>,
    /// Use only the configured and given lists: every built-in list (the
    /// spec's allow and deny lists, the extended and the connection-string
    /// deny lists) is dropped. Values are still checked unless
    /// --no-scan-values.
    #[arg(long)]
    pub replace_defaults: bool,
    /// Do not remove variables because of what their value looks like.
    #[arg(long)]
    pub no_scan_values: bool,
}

impl PolicyArgs {
    fn policy(&self, ctx: &Ctx) -> Result<Policy> {
        let loaded = ctx.config()?;
        let extra = ExtraRules {
            allow: self.allow.clone(),
            deny: self.deny.clone(),
        };
        Ok(Policy::from_config(
            &loaded.config.services.environment,
            &extra,
            |message| crate::diag::warn(message),
        ))
    }
}

/// Every flag of `ollm-env` that sets a configuration key.
pub const FLAGS: &[FlagKey] = &[
    FlagKey::switch(
        "replace_defaults",
        "--replace-defaults",
        "services.environment.replaceDefaults",
        true,
    ),
    FlagKey::switch(
        "no_scan_values",
        "--no-scan-values",
        "services.environment.scanValues",
        false,
    ),
];

/// The `ollm-env` program.
pub fn main() -> Result<ExitCode> {
    let (cli, matches): (Cli, _) = crate::cli::parse_matches()?;
    let ctx = Ctx::new(cli.global).with_flags(crate::config::overrides(FLAGS, &matches)?);
    match cli.command {
        Command::Run(args) => run::run(&ctx, args),
        Command::Report(args) => report::run(&ctx, &args),
        Command::Explain(args) => explain::run(&ctx, &args),
        Command::Config(args) => crate::cli::show_config(&ctx, &args),
    }
}
