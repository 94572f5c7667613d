//! `ollm-env run --checkpoint ID`: the tool's run between two snapshots of
//! the current directory, so the example agents get checkpoints for free.
//! The run itself is this program again without the flag (so the tool is
//! started exactly as without it, by exec), waited for here.

use std::ffi::OsString;

use crate::checkpoint::Sessions as _;
use crate::cli::Ctx;
use crate::error::{Error, ExitCode, Result};
use crate::session::checkpointed::CheckpointSessions;

/// Snapshots, runs the tool, snapshots again; the tool's exit code is
/// ours. A snapshot after the run that fails is a warning: the tool ran,
/// and its exit code is what the caller needs.
pub(crate) fn run_checkpointed(ctx: &Ctx, session: &str) -> Result<ExitCode> {
    let config = &ctx.config()?.config;
    let sessions = &CheckpointSessions;
    let session = &sessions.resolve(config, Some(session), false)?;
    let dir = std::env::current_dir().map_err(|e| Error::io(".", &e))?;
    // Changes since the session's last snapshot may be the user's: the
    // snapshot before the tool is "observed", the one after is the turn's.
    crate::checkpoint::snapshot_around_tool(config, sessions, session, &dir, true)?;
    let me = std::env::current_exe().map_err(|e| Error::io("current executable", &e))?;
    let mut command = std::process::Command::new(&me);
    command.args(without_checkpoint(std::env::args_os().skip(1)));
    let code = crate::env::launch::run_and_wait(command, &me.display().to_string())?;
    if let Err(err) =
        crate::checkpoint::snapshot_around_tool(config, sessions, session, &dir, false)
    {
        crate::diag::warn(format!("the checkpoint after the tool failed: {err}"));
    }
    Ok(code)
}

/// The command line without its first `--checkpoint ID` (or
/// `--checkpoint=ID`): ours comes before the tool's command, so the first
/// one is ours; the tool's own arguments are kept as they are.
fn without_checkpoint(args: impl Iterator<Item = OsString>) -> Vec<OsString> {
    let mut out = Vec::new();
    let mut args = args.peekable();
    let mut removed = false;
    while let Some(arg) = args.next() {
        if !removed && arg == "--" {
            removed = true;
        } else if !removed && arg == "--checkpoint" {
            removed = true;
            args.next();
            continue;
        } else if !removed && arg.to_string_lossy().starts_with("--checkpoint=") {
            removed = true;
            continue;
        }
        out.push(arg);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip(line: &[&str]) -> Vec<String> {
        without_checkpoint(line.iter().map(OsString::from))
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn only_our_flag_is_taken_out_never_the_tools() {
        assert_eq!(
            strip(&[
                "run",
                "--checkpoint",
                "ID",
                "--",
                "tool",
                "--checkpoint",
                "x"
            ]),
            ["run", "--", "tool", "--checkpoint", "x"]
        );
        assert_eq!(strip(&["run", "--checkpoint=ID", "ls"]), ["run", "ls"]);
        assert_eq!(
            strip(&["run", "--", "tool", "--checkpoint", "x"]),
            ["run", "--", "tool", "--checkpoint", "x"]
        );
    }
}
