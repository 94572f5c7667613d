//! `ollm-env run`.

use std::ffi::OsString;

use clap::Args;

use super::PolicyArgs;
use crate::cli::Ctx;
use crate::env::{dotenv, launch};
use crate::error::{Error, ExitCode, Result};

#[derive(Debug, Args)]
pub(crate) struct RunArgs {
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
    /// Snapshot the current directory's files before and after the tool
    /// runs, as turns of this session's checkpoints (`ollm checkpoint`):
    /// what the tool changed can then be diffed and restored. The session:
    /// its id, a unique prefix of it or its title.
    #[arg(long, value_name = "SESSION_ID")]
    pub checkpoint: Option<String>,
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

pub(crate) fn run(ctx: &Ctx, args: RunArgs) -> Result<ExitCode> {
    let policy = args.policy.policy(ctx)?;
    if let Some(session) = &args.checkpoint {
        return super::around::run_checkpointed(ctx, session);
    }
    let (program, rest) = args
        .command
        .split_first()
        .ok_or_else(|| Error::usage("no command given (try --help)"))?;
    let mut set = Vec::new();
    for file in &args.env_file {
        set.extend(dotenv::read(file)?);
    }
    set.extend(args.set);
    launch::run(
        &policy,
        &launch::RunRequest {
            program: program.clone(),
            args: rest.to_vec(),
            set,
            redact_output: args.redact_output,
        },
    )
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
