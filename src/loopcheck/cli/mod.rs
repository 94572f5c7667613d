//! The `ollm-loopcheck` command line: the check itself (no subcommand) in
//! [`check`], `config`, and the flags that set configuration keys declared
//! once, in [`FLAGS`].

mod check;

use clap::Parser;

pub(crate) use self::check::CheckArgs;
use crate::cli::{Ctx, GlobalOpts, footer};
use crate::config::{ConfigArgs, FlagKey};
use crate::error::{ExitCode, Result};

const EXAMPLES: &str = r#"  printf '%s\n' '{"type":"tool","name":"ls","args":{}}' '{"type":"tool","name":"ls","args":{}}' '{"type":"tool","name":"ls","args":{}}' | ollm-loopcheck
  ollm-loopcheck session.json                     # a whole session, as ollm-session get prints it
  agent | ollm-loopcheck --stream                 # a verdict line as soon as a loop appears
  turn-events | ollm-loopcheck --state .ollm/loop-state.json   # once per turn
  ollm-loopcheck --warn-only --max-turns 100 events.ndjson"#;

/// Detect runaway loops in an agent's events.
///
/// Input is NDJSON events, one object a line: {"type":"turn"} a turn started,
/// {"type":"user","text":"…"} the user spoke (resets call and output
/// tracking), {"type":"tool","name":"…","args":{…}} a tool call,
/// {"type":"output","text":"…"} a model output, {"type":"reset"} a new
/// conversation. A whole session file (messages and toolCalls) is also
/// accepted: its entries are merged by timestamp, each assistant message
/// counting as a turn and an output.
///
/// The verdict is one JSON line: {"loop":bool,"level":"warn"|"stop"|null,
/// "pattern":{"type","details","count"}|null,"event":N,"turn":N}, where `type`
/// is repeated-tool, repeated-output, turn-limit, tool-cycle or
/// repeated-content (one output, or the chunks of one streamed output,
/// repeating a passage of any length up to 4 KB, numbers aside). The first
/// report since the user spoke is a `warn` (nudge the model: "you are
/// repeating yourself; try something else or answer"); a report after it is
/// a `stop` (--warnings-before-stop). With several reports, the verdict is
/// the first stop, else the first warning. Exit code 1 at a stop only (0
/// with --warn-only); 0 at a warn.
#[derive(Debug, Parser)]
#[command(name = "ollm-loopcheck", version, after_help = footer(EXAMPLES), args_conflicts_with_subcommands = true)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub global: GlobalOpts,
    #[command(flatten)]
    pub check: CheckArgs,
    #[command(subcommand)]
    pub command: Option<Command>,
}

crate::subcommands! {
#[derive(Debug)]
pub(crate) enum Command {
    /// Print the effective configuration (JSON), or every key with its origin.
    #[command(after_help = footer("  ollm-loopcheck config
  ollm-loopcheck config --show-origin"))]
    Config(ConfigArgs),
}
}

/// Every flag of `ollm-loopcheck` that sets a configuration key.
pub(crate) const FLAGS: &[FlagKey] = &[
    FlagKey::value(
        "max_turns",
        "--max-turns",
        "services.loopDetection.maxTurns",
    ),
    FlagKey::value(
        "repeat_threshold",
        "--repeat-threshold",
        "services.loopDetection.repeatThreshold",
    ),
    FlagKey::value(
        "similarity_threshold",
        "--similarity-threshold",
        "services.loopDetection.similarityThreshold",
    ),
    FlagKey::value(
        "content_chunk_size",
        "--content-chunk-size",
        "services.loopDetection.contentChunkSize",
    ),
    FlagKey::value(
        "content_repeat_threshold",
        "--content-repeat-threshold",
        "services.loopDetection.contentRepeatThreshold",
    ),
    FlagKey::value(
        "warnings_before_stop",
        "--warnings-before-stop",
        "services.loopDetection.warningsBeforeStop",
    ),
];

/// The `ollm-loopcheck` program.
pub fn main() -> Result<ExitCode> {
    let (cli, matches): (Cli, _) = crate::cli::parse_matches()?;
    let ctx = Ctx::new(cli.global).with_flags(crate::config::overrides(FLAGS, &matches)?);
    match &cli.command {
        Some(Command::Config(args)) => crate::cli::show_config(&ctx, args),
        None => {
            ctx.config()?;
            check::run(&ctx, &cli.check)
        }
    }
}
