//! The check `ollm-loopcheck` runs: one-shot, streaming or incremental
//! (`--state`); a verdict is one JSON line.

use std::io::BufReader;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::cli::Ctx;
use crate::error::{Error, ExitCode, Result};
use crate::input;
use crate::loopcheck::detector::{Level, Settings, Verdict};
use crate::loopcheck::{event, modes, state};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// A session document when the input is one JSON object with
    /// `messages` or `toolCalls`, NDJSON events otherwise.
    Auto,
    /// NDJSON events, one object a line.
    Events,
    /// One session document, as `ollm-session get` prints it.
    Session,
}

#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
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
    /// Print the verdict but exit 0 even at a `stop`, for callers that only
    /// nudge the model (a `warn` exits 0 anyway).
    #[arg(long)]
    pub warn_only: bool,
    #[command(flatten)]
    pub session: crate::session::SessionOption,
    /// Report a loop on the first turn beyond N (services.loopDetection.maxTurns).
    #[arg(long, value_name = "N")]
    pub max_turns: Option<u64>,
    /// Repeats that make a loop, at least 2 (services.loopDetection.repeatThreshold).
    #[arg(long, value_name = "N")]
    pub repeat_threshold: Option<u64>,
    /// Output similarity ratio, in (0, 1], at which outputs count as
    /// repeats (services.loopDetection.similarityThreshold).
    #[arg(long, value_name = "RATIO")]
    pub similarity_threshold: Option<f64>,
    /// The fewest characters, 10 to 500, that the occurrences of a passage
    /// repeated within one output cover together for it to count
    /// (services.loopDetection.contentChunkSize).
    #[arg(long, value_name = "N")]
    pub content_chunk_size: Option<u64>,
    /// Occurrences in a row of one passage, numbers aside, that make a
    /// repeated-content loop, 0 to 50; below 2 turns it off
    /// (services.loopDetection.contentRepeatThreshold).
    #[arg(long, value_name = "N")]
    pub content_repeat_threshold: Option<u64>,
    /// Reports given as `warn` since the user last spoke before the next
    /// is a `stop`, 0 to 100; 0 makes every report a stop
    /// (services.loopDetection.warningsBeforeStop).
    #[arg(long, value_name = "N")]
    pub warnings_before_stop: Option<u64>,
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
}

fn hint(err: Error, input: &str) -> Error {
    crate::cli::hint_subcommand(err, input, &<super::Cli as clap::CommandFactory>::command())
}

fn input_name(input: &str) -> String {
    if input == "-" {
        "standard input".into()
    } else {
        input.to_string()
    }
}

/// Checks the events (or session) of `args.input` and prints the verdict.
pub(crate) fn run(ctx: &Ctx, args: &CheckArgs) -> Result<ExitCode> {
    let loaded = ctx.config()?;
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
        let emit = |v: &Verdict| ctx.printer.record(v);
        if args.input == "-" {
            modes::stream(std::io::stdin().lock(), &name, &settings, emit)?
        } else {
            let file = input::open_input(&args.input).map_err(|err| hint(err, &args.input))?;
            modes::stream(BufReader::new(file), &name, &settings, emit)?
        }
    } else {
        let from_store = stored.is_some();
        let (name, text) = match stored {
            Some((id, text)) => (format!("session {id}"), text),
            None => (
                name,
                input::read_text(&args.input).map_err(|err| hint(err, &args.input))?,
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
            None => modes::one_shot(&events, &settings),
        };
        ctx.printer.record(&verdict)?;
        verdict.level
    };
    Ok(if found == Some(Level::Stop) && !args.warn_only {
        ExitCode::Verdict
    } else {
        ExitCode::Success
    })
}
