//! The `ollm-loopcheck` command line.

use std::io::BufReader;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use super::detector::Settings;
use super::{event, run, state};
use crate::cli::{GlobalOpts, footer};
use crate::config::{self, ConfigArgs, FlagOverride, LoadOptions};
use crate::error::{Error, ExitCode, Result};
use crate::io_util;

const EXAMPLES: &str = r#"  printf '%s\n' '{"type":"tool","name":"ls","args":{}}' '{"type":"tool","name":"ls","args":{}}' '{"type":"tool","name":"ls","args":{}}' | ollm-loopcheck
  ollm-loopcheck session.json                     # a whole session (Requirement 2 format)
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
/// The verdict is one JSON line: {"loop":bool,"pattern":{"type","details","count"}|null,
/// "event":N,"turn":N}, where `type` is repeated-tool, repeated-output,
/// turn-limit, tool-cycle or repeated-content (one output, or the chunks of
/// one streamed output, repeating the same passage). Exit code 1 when a loop
/// is reported (0 with --warn-only).
#[derive(Debug, Parser)]
#[command(name = "ollm-loopcheck", version, after_help = footer(EXAMPLES), args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalOpts,
    #[command(flatten)]
    pub check: CheckArgs,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the effective configuration (JSON), or every key with its origin.
    #[command(after_help = footer("  ollm-loopcheck config
  ollm-loopcheck config --show-origin"))]
    Config(ConfigArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A session document when the input is one JSON object with
    /// `messages` or `toolCalls`, NDJSON events otherwise.
    Auto,
    /// NDJSON events, one object a line.
    Events,
    /// One session document (Requirement 2 format).
    Session,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Events or session file; `-` (the default) reads stdin.
    #[arg(value_name = "INPUT", default_value = "-")]
    pub input: String,
    /// Read NDJSON events as they come and print a verdict line (flushed) as
    /// soon as a loop is found, then keep reading; at the end of input,
    /// print the quiet verdict if nothing was found.
    #[arg(long, conflicts_with = "state")]
    pub stream: bool,
    /// Incremental mode: continue from the detector state in FILE (created
    /// when missing), apply this call's events, save the state. The verdict
    /// is the first loop this call's events report.
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// The input format: NDJSON events, a session document, or auto
    /// (decided by the input itself).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Auto)]
    pub input_format: Format,
    /// Deprecated spelling of --input-format (`--format` names the output
    /// format in every other program).
    #[arg(
        long = "format",
        value_enum,
        value_name = "FORMAT",
        hide = true,
        conflicts_with = "input_format"
    )]
    pub deprecated_format: Option<Format>,
    /// Print the verdict but exit 0 even when a loop is found, for callers
    /// that nudge the model rather than stop it.
    #[arg(long)]
    pub warn_only: bool,
    #[command(flatten)]
    pub session: crate::session::SessionOption,
    /// Report a loop on the first turn beyond N (services.loopDetection.maxTurns).
    #[arg(long, value_name = "N")]
    pub max_turns: Option<u64>,
    /// Repeats that make a loop (services.loopDetection.repeatThreshold).
    #[arg(long, value_name = "N")]
    pub repeat_threshold: Option<u64>,
    /// Output similarity ratio, in (0, 1], at which outputs count as
    /// repeats (services.loopDetection.similarityThreshold).
    #[arg(long, value_name = "RATIO")]
    pub similarity_threshold: Option<f64>,
    /// Characters per hashed window when looking for a passage repeated
    /// within one output (services.loopDetection.contentChunkSize, 10 to 500).
    #[arg(long, value_name = "N")]
    pub content_chunk_size: Option<u64>,
    /// Close occurrences of one window that make a repeated-content loop;
    /// below 2 turns it off (services.loopDetection.contentRepeatThreshold).
    #[arg(long, value_name = "N")]
    pub content_repeat_threshold: Option<u64>,
}

impl CheckArgs {
    /// The input format in force, warning once about the deprecated `--format`.
    fn input_format(&self) -> Format {
        match self.deprecated_format {
            Some(format) => {
                crate::diag::warn("--format is deprecated here: use --input-format");
                format
            }
            None => self.input_format,
        }
    }

    fn overrides(&self) -> Vec<FlagOverride> {
        let mut flags = Vec::new();
        if let Some(n) = self.max_turns {
            flags.push(FlagOverride {
                key: "services.loopDetection.maxTurns",
                value: n.into(),
                flag: "--max-turns",
            });
        }
        if let Some(n) = self.repeat_threshold {
            flags.push(FlagOverride {
                key: "services.loopDetection.repeatThreshold",
                value: n.into(),
                flag: "--repeat-threshold",
            });
        }
        if let Some(r) = self.similarity_threshold {
            flags.push(FlagOverride {
                key: "services.loopDetection.similarityThreshold",
                value: r.into(),
                flag: "--similarity-threshold",
            });
        }
        if let Some(n) = self.content_chunk_size {
            flags.push(FlagOverride {
                key: "services.loopDetection.contentChunkSize",
                value: n.into(),
                flag: "--content-chunk-size",
            });
        }
        if let Some(n) = self.content_repeat_threshold {
            flags.push(FlagOverride {
                key: "services.loopDetection.contentRepeatThreshold",
                value: n.into(),
                flag: "--content-repeat-threshold",
            });
        }
        flags
    }
}

fn hint(err: Error, input: &str) -> Error {
    crate::cli::hint_subcommand(err, input, &<Cli as clap::CommandFactory>::command())
}

fn input_name(input: &str) -> String {
    if input == "-" {
        "standard input".into()
    } else {
        input.to_string()
    }
}

fn check(global: &GlobalOpts, args: &CheckArgs) -> Result<ExitCode> {
    let loaded = config::load(&LoadOptions {
        config_file: global.config.clone(),
        flags: args.overrides(),
        ..LoadOptions::default()
    })?;
    let settings = Settings::from(&loaded.config.services.loop_detection);
    let stored = if args.session.is_given() {
        if args.input != "-" || args.stream || args.state.is_some() {
            return Err(Error::usage(
                "--session/--last read a whole stored session: give no INPUT, --stream or --state with them",
            ));
        }
        args.session
            .document(&crate::session::Store::from_config(&loaded.config)?)?
    } else {
        None
    };
    crate::cli::require_piped_stdin(
        if stored.is_some() { "" } else { &args.input },
        "check",
        "pipe NDJSON events in, or name a session file",
    )?;
    let name = input_name(&args.input);
    let format = args.input_format();
    let found = if args.stream {
        if format == Format::Session {
            return Err(Error::usage(
                "--stream reads NDJSON events; check a session without --stream",
            ));
        }
        let emit = |v: &super::Verdict| io_util::print_json_line(v);
        if args.input == "-" {
            run::stream(std::io::stdin().lock(), &name, &settings, emit)?
        } else {
            let file = io_util::open_input(&args.input).map_err(|err| hint(err, &args.input))?;
            run::stream(BufReader::new(file), &name, &settings, emit)?
        }
    } else {
        let from_store = stored.is_some();
        let (name, text) = match stored {
            Some((id, text)) => (format!("session {id}"), text),
            None => (
                name,
                io_util::read_text(&args.input).map_err(|err| hint(err, &args.input))?,
            ),
        };
        let session = match format {
            _ if from_store => true,
            Format::Session => true,
            Format::Events => false,
            Format::Auto => event::looks_like_session(&text),
        };
        let events = if session {
            if args.state.is_some() {
                return Err(Error::usage(
                    "--state takes this turn's NDJSON events, not a whole session",
                ));
            }
            event::session_events(&text, &name)?
        } else {
            event::parse_ndjson(&text, &name)?
        };
        let verdict = match &args.state {
            Some(path) => state::advance(path, &events, &settings)?,
            None => run::one_shot(&events, &settings),
        };
        io_util::print_json_line(&verdict)?;
        verdict.is_loop
    };
    Ok(if found && !args.warn_only {
        ExitCode::Verdict
    } else {
        ExitCode::Success
    })
}

/// The `ollm-loopcheck` program.
pub fn main() -> Result<ExitCode> {
    let cli: Cli = crate::cli::parse()?;
    match &cli.command {
        Some(Command::Config(args)) => {
            config::show(cli.global.config.clone(), args)?;
            Ok(ExitCode::Success)
        }
        None => check(&cli.global, &cli.check),
    }
}
