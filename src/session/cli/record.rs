//! `ollm-session record`.

use std::io::BufRead;
use std::path::PathBuf;

use clap::Args;

use super::{Context, SessionRef};
use crate::cli::{footer, require_piped_stdin};
use crate::error::{Error, Result};
use crate::input;
use crate::session::ingest::{self, ToolCallInput};
use crate::session::store::Store;

/// Record a message or a tool call with its result; one JSON document,
/// or NDJSON (one record a line, each acknowledged on stdout once it is
/// on disk). An object with `role` is a message, one with `name` and
/// `result` a tool call; a missing `timestamp` is now. Large texts come
/// from a file or stdin (`--result-file FILE`, `--result -`), never from
/// the command line's size limit. With --last, a single positional
/// argument is INPUT.
#[derive(Debug, Args)]
#[command(after_help = footer("  ollm-session record ID --role user --text 'Hello'
  ollm-session record ID --tool read_file --args '{\"path\":\"a.txt\"}' --result 'contents'
  cargo test 2>&1 | ollm-session record ID --tool run --args '{\"cmd\":\"cargo test\"}' --result -
  ollm-session record --last --tool run --args-file args.json --result-file out.txt
  ollm-session record ID < message.json
  tail -f events.ndjson | ollm-session record ID"))]
pub(crate) struct RecordArgs {
    #[command(flatten)]
    session: SessionRef,
    /// Records to read: a file, or - for stdin (the default without
    /// --text/--tool).
    #[arg(value_name = "INPUT")]
    input: Option<String>,
    /// Shorthand: a plain text message with this role.
    #[arg(long, requires = "text_source", value_parser = ["user", "assistant", "system", "tool"])]
    role: Option<String>,
    /// Shorthand: the message's text (`-` reads it from stdin).
    #[arg(long, group = "text_source", requires = "role", conflicts_with_all = ["input", "tool"])]
    text: Option<String>,
    /// Shorthand: the message's text, read from FILE.
    #[arg(long, value_name = "FILE", group = "text_source", requires = "role", conflicts_with_all = ["input", "tool"])]
    text_file: Option<PathBuf>,
    /// Shorthand: a tool call with this tool name.
    #[arg(long, requires = "result_source", conflicts_with = "input")]
    tool: Option<String>,
    /// The tool call's arguments, a JSON object (`-` reads it from stdin;
    /// default {}).
    #[arg(
        long,
        requires = "tool",
        value_name = "JSON",
        conflicts_with = "args_file"
    )]
    args: Option<String>,
    /// The tool call's arguments, read from FILE.
    #[arg(long, requires = "tool", value_name = "FILE")]
    args_file: Option<PathBuf>,
    /// The tool's result for the model (llmContent; `-` reads it from stdin).
    #[arg(long, requires = "tool", value_name = "TEXT", group = "result_source")]
    result: Option<String>,
    /// The tool's result for the model, read from FILE.
    #[arg(long, requires = "tool", value_name = "FILE", group = "result_source")]
    result_file: Option<PathBuf>,
    /// The tool's result for display (returnDisplay).
    #[arg(long, requires = "tool", value_name = "TEXT")]
    display: Option<String>,
    /// The tool call's id (default: a new one).
    #[arg(long, requires = "tool", value_name = "ID")]
    call_id: Option<String>,
    /// The record's token count from a real tokenizer, instead of the
    /// estimate (characters ÷ 4). Only with a single record.
    #[arg(long, value_name = "N")]
    tokens: Option<u64>,
}

/// Text given inline, as `-` (stdin) or as a file; `flag` names it in errors.
fn text_of(inline: Option<&str>, file: Option<&PathBuf>, flag: &str) -> Result<Option<String>> {
    match (inline, file) {
        (Some("-"), _) => {
            require_piped_stdin("-", "record", &format!("pipe the text in for {flag} -"))?;
            input::read_text("-").map(Some)
        }
        (Some(text), _) => Ok(Some(text.to_string())),
        (None, Some(path)) => input::read_text(&path.display().to_string()).map(Some),
        (None, None) => Ok(None),
    }
}

pub(crate) fn run(ctx: &Context, mut args: RecordArgs) -> Result<()> {
    if args.session.last && args.input.is_none() {
        args.input = args.session.id.take();
    }
    let from_stdin = [&args.text, &args.args, &args.result]
        .iter()
        .filter(|v| v.as_deref() == Some("-"))
        .count();
    if from_stdin > 1 {
        return Err(Error::usage(
            "only one of --text, --args and --result can read stdin; give the others as files",
        ));
    }
    let (store, _) = ctx.store()?;
    let id = args.session.resolve(&store)?;
    // Before stdin is read: a session named by its whole id may not be
    // there. One found by prefix, title or --last was there a moment ago
    // (not asked again: a round trip on PostgreSQL); if it is deleted
    // since, its first record fails as not found all the same.
    if args.session.is_whole_id() {
        store.exists(&id)?;
    }
    let ack = |a: &crate::session::store::Ack| crate::output::print_json_line(a);
    if let Some(role) = &args.role {
        let text =
            text_of(args.text.as_deref(), args.text_file.as_ref(), "--text")?.unwrap_or_default();
        let entry = ingest::text_message(role, &text);
        return ack(&store.record(&id, &entry, args.tokens)?);
    }
    if let Some(tool) = &args.tool {
        let args_name = match &args.args_file {
            Some(path) => path.display().to_string(),
            None => "--args".to_string(),
        };
        let input = ToolCallInput {
            name: tool.clone(),
            args: text_of(args.args.as_deref(), args.args_file.as_ref(), "--args")?
                .unwrap_or_else(|| "{}".into()),
            result: text_of(
                args.result.as_deref(),
                args.result_file.as_ref(),
                "--result",
            )?
            .unwrap_or_default(),
            display: args.display.clone(),
            call_id: args.call_id.clone(),
        };
        let entry = ingest::tool_call(&input, &args_name)?;
        return ack(&store.record(&id, &entry, args.tokens)?);
    }
    record_input(&store, &id, &args)
}

/// Records the JSON records of INPUT (a file, or stdin).
fn record_input(store: &Store, id: &str, args: &RecordArgs) -> Result<()> {
    let source = args.input.clone().unwrap_or_else(|| "-".into());
    require_piped_stdin(
        &source,
        "record",
        "pipe JSON records in, or use --role/--text or --tool",
    )?;
    let (name, reader): (String, Box<dyn BufRead>) = if source == "-" {
        ("standard input".into(), Box::new(std::io::stdin().lock()))
    } else {
        let file = input::open_input(&source)?;
        (source.clone(), Box::new(std::io::BufReader::new(file)))
    };
    ingest::record_stream(store, id, reader, &name, args.tokens, |a| {
        crate::output::print_json_line(a)
    })?;
    Ok(())
}
