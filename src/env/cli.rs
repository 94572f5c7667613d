//! The `ollm-env` command line.

use std::ffi::OsString;

use clap::{Args, Parser, Subcommand};

use super::policy::{ExtraRules, Policy};
use super::{dotenv, report, run};
use crate::cli::{GlobalOpts, footer};
use crate::config::{self, ConfigArgs, FlagOverride, LoadOptions};
use crate::error::{Error, ExitCode, Result};
use crate::io_util;

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
/// the built-in extended globs); otherwise kept. Patterns are
/// case-insensitive globs. Lists from configuration and flags extend the
/// built-in lists; `--replace-defaults` (or
/// `services.environment.replaceDefaults: true`) uses them alone.
///
/// Without --redact-output, ollm-env replaces itself with the tool (exec).
#[derive(Debug, Parser)]
#[command(name = "ollm-env", version, after_help = footer(EXAMPLES))]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalOpts,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run CMD with the sanitized environment; its exit code passes through
    /// (128+N if it dies of signal N; 127 if CMD is not found, 126 if it
    /// cannot be executed).
    #[command(after_help = footer("  ollm-env run -- env
  ollm-env run --allow DATABASE_URL --redact-output -- sh -c 'echo $DATABASE_URL'
  ollm-env run --env-file .env.test -- npm test
  ollm-env run --deny 'STRIPE_*' --allow DATABASE_URL -- ./migrate"))]
    Run(RunArgs),
    /// Print, as JSON, every variable name kept and removed with the rule that
    /// decided it. Values are never printed.
    #[command(after_help = footer("  ollm-env report | jq '.removed[].name'
  ollm-env report --deny 'MY_*'"))]
    Report(PolicyArgs),
    /// Explain the decision for one variable name, as JSON, and for a
    /// removed one how to pass it anyway.
    #[command(after_help = footer("  ollm-env explain GITHUB_TOKEN
  ollm-env explain DATABASE_URL
  ollm-env explain --allow DATABASE_URL DATABASE_URL"))]
    Explain {
        /// The variable name.
        name: String,
        #[command(flatten)]
        policy: PolicyArgs,
    },
    /// Print the effective configuration (JSON), or every key with its origin.
    #[command(after_help = footer("  ollm-env config
  ollm-env config --show-origin"))]
    Config(ConfigArgs),
}

#[derive(Debug, Clone, Args)]
pub struct PolicyArgs {
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

#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub policy: PolicyArgs,
    /// Set variables from this file in the tool's environment (after
    /// sanitizing): the dotenv format of docker and compose (NAME=VALUE
    /// lines, # comments, quotes). For values that must not appear on a
    /// command line. `-` reads stdin.
    #[arg(long, value_name = "FILE")]
    pub env_file: Vec<String>,
    /// Set NAME=VALUE in the tool's environment (after sanitizing; after
    /// --env-file). The value is on ollm-env's command line, which every
    /// local user can read (ps): use --env-file for a secret.
    #[arg(long, value_name = "NAME=VALUE", value_parser = parse_assignment)]
    pub set: Vec<(String, String)>,
    /// Replace removed secret values and credential-shaped text in the tool's
    /// stdout and stderr with [REDACTED]. Encoded forms (base64, hex) are
    /// not recognised.
    #[arg(long)]
    pub redact_output: bool,
    /// The command and its arguments.
    #[arg(
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "CMD"
    )]
    pub command: Vec<OsString>,
}

fn parse_assignment(text: &str) -> std::result::Result<(String, String), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| "expected NAME=VALUE".to_string())?;
    let valid = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return Err(format!("{name:?} is not a valid variable name"));
    }
    Ok((name.to_string(), value.to_string()))
}

impl PolicyArgs {
    fn overrides(&self) -> Vec<FlagOverride> {
        let mut flags = Vec::new();
        if self.replace_defaults {
            flags.push(FlagOverride {
                key: "services.environment.replaceDefaults",
                value: true.into(),
                flag: "--replace-defaults",
            });
        }
        if self.no_scan_values {
            flags.push(FlagOverride {
                key: "services.environment.scanValues",
                value: false.into(),
                flag: "--no-scan-values",
            });
        }
        flags
    }

    fn policy(&self, global: &GlobalOpts) -> Result<Policy> {
        let loaded = config::load(&LoadOptions {
            config_file: global.config.clone(),
            flags: self.overrides(),
            ..LoadOptions::default()
        })?;
        let extra = ExtraRules {
            allow: self.allow.clone(),
            deny: self.deny.clone(),
        };
        Ok(Policy::from_config(
            &loaded.config.services.environment,
            &extra,
        ))
    }
}

/// The `ollm-env` program.
pub fn main() -> Result<ExitCode> {
    let cli: Cli = crate::cli::parse()?;
    match cli.command {
        Command::Run(args) => {
            let policy = args.policy.policy(&cli.global)?;
            let (program, rest) = args
                .command
                .split_first()
                .ok_or_else(|| Error::usage("no command given (try --help)"))?;
            let mut set = Vec::new();
            for file in &args.env_file {
                set.extend(dotenv::read(file)?);
            }
            set.extend(args.set);
            run::run(
                &policy,
                &run::RunRequest {
                    program: program.clone(),
                    args: rest.to_vec(),
                    set,
                    redact_output: args.redact_output,
                },
            )
        }
        Command::Report(policy_args) => {
            let policy = policy_args.policy(&cli.global)?;
            io_util::print_json(&report::report(&policy, &[]))?;
            Ok(ExitCode::Success)
        }
        Command::Explain { name, policy } => {
            let policy = policy.policy(&cli.global)?;
            io_util::print_json(&report::explain(&policy, &name))?;
            Ok(ExitCode::Success)
        }
        Command::Config(args) => {
            config::show(cli.global.config.clone(), &args)?;
            Ok(ExitCode::Success)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignments_need_a_valid_name() {
        assert_eq!(
            parse_assignment("A_1=x=y").unwrap(),
            ("A_1".to_string(), "x=y".to_string())
        );
        assert!(parse_assignment("novalue").is_err());
        assert!(parse_assignment("1A=x").is_err());
        assert!(parse_assignment("A-B=x").is_err());
    }
}
