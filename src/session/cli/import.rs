//! `ollm-session import`: other agent CLIs' sessions brought in.

use std::path::PathBuf;

use clap::Args;
use clap::builder::PossibleValuesParser;

use super::import_shared::{
    AUTO, from_values, import_store, names, print_result, retention_note, shown, tools_from,
};
use super::{Context, ListFormat};
use crate::cli::footer;
use crate::diag;
use crate::error::{Error, ExitCode, Result};
use crate::output::progress::Progress;
use crate::session::import::batch::{self, Event, Summary};
use crate::session::import::live::{self, ImportLocks, Wait};
use crate::session::import::{self, Homes};

#[derive(Debug, Args)]
#[command(about = about(), after_help = footer("  ollm-session import                          # every tool, from its own location
  ollm-session import --from claude            # ~/.claude/projects (CLAUDE_CONFIG_DIR)
  ollm-session import --from codex ~/.codex/sessions/2026/11
  ollm-session import --from claude --from codex  # two tools' own locations
  ollm-session import --from gemini --dry-run  # what would be imported
  ollm-session import ./old-sessions           # --from auto: each file by its shape
  ollm-session import --watch                  # then every new record as it is written
  ollm-session import --hook claude            # from a Claude Code Stop/SessionEnd hook"))]
// The description is [`about`], naming the tools of the importers' table.
pub(crate) struct ImportArgs {
    /// The tool the sessions are from (repeatable: `--from claude --from
    /// codex`); `auto` reads every tool's (its default locations, or each
    /// path as whichever tool's it is).
    #[arg(long, value_name = "TOOL", default_value = AUTO, value_parser = from_values())]
    from: Vec<String>,
    /// Files or directories to import (default: the tools' own locations,
    /// honouring CLAUDE_CONFIG_DIR, CODEX_HOME and XDG_DATA_HOME).
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Say what would be imported; write nothing.
    #[arg(long)]
    dry_run: bool,
    /// ndjson (default when piped), table (default on a terminal), json or text.
    #[arg(long, value_enum)]
    format: Option<ListFormat>,
    /// Keep importing as the sources are written, until SIGINT, SIGTERM or
    /// the end of standard input when it is a pipe: a catch-up of what
    /// changed since the last import, then each change within a second or
    /// two. One NDJSON line per session touched (a status line at a
    /// terminal) and the summary when stopped. One watcher per store.
    #[arg(long, conflicts_with_all = ["dry_run", "hook"])]
    watch: bool,
    /// Import the one transcript that TOOL's hook names on standard input
    /// (the hook JSON of Claude Code or gemini-cli: `transcript_path`),
    /// reading it only if it changed. Prints nothing and always exits 0, so a hook never breaks
    /// the agent: a reason it could not import goes to stderr and to
    /// $OLLM_HOME/logs/import-hook.log.
    #[arg(long, value_name = "TOOL", value_parser = hook_values(), conflicts_with_all = ["dry_run", "paths"])]
    hook: Option<String>,
}

/// What `--hook` takes: the importers that read an agent's hook input.
fn hook_values() -> PossibleValuesParser {
    PossibleValuesParser::new(
        import::tools()
            .filter(|tool| tool.hook())
            .map(|tool| tool.name()),
    )
}

/// What `import` does, naming the tools of the importers' table.
fn about() -> String {
    format!(
        "Import sessions of {}: one session per source session, with every message, every tool \
         call paired with its result, the working directory as its workspace (so `--here` and \
         `resume --continue` find it in that project), the title, model and times, and where it \
         came from in `metadata.importedFrom`; stored as journals whatever \
         services.session.format says. The sources are only read (a database through a private \
         copy, so a live one and its write-ahead log are never written). Importing again adds \
         only what a source gained since. Prints one NDJSON line per session ({{\"tool\", \
         \"source\", \"sourceId\", \"sessionId\", \"status\", \"messages\", \"toolCalls\", \
         \"added\", \"skipped\"}}) and a last {{\"summary\": …}} line; a table at a terminal. Exits \
         4 when a source could not be read (the others are imported)",
        import::listed()
    )
}

pub(crate) fn run(ctx: &Context, args: ImportArgs) -> Result<ExitCode> {
    if let Some(tool) = &args.hook {
        return Ok(super::import_live::hook(ctx, tool));
    }
    if args.watch {
        return super::import_live::watch(ctx, &args.from, &args.paths, args.format);
    }
    let tools = tools_from(&args.from);
    let plan = batch::plan(&tools, &args.paths, &Homes::from_env())?;
    if !args.paths.is_empty() && plan.sources.is_empty() {
        return Err(Error::NotFound(format!(
            "no sessions of {} found in {}",
            names(&tools),
            shown(&args.paths)
        )));
    }
    for warning in &plan.warnings {
        diag::warn(warning);
    }
    for path in &plan.empty {
        diag::warn(format!(
            "{}: no sessions of {} found there",
            path.display(),
            names(&tools)
        ));
    }
    let store = import_store(ctx)?;
    let _one_import_at_a_time = if args.dry_run {
        None
    } else {
        Some(ImportLocks::take(&store, Wait::Forever)?)
    };
    let format = ctx.printer().choose(args.format, ListFormat::Table);
    let streaming =
        format == ListFormat::Ndjson || (args.format.is_none() && !ctx.printer().is_terminal());
    let mut progress = Progress::bar(plan.sources.iter().map(|s| s.bytes).sum());
    let mut summary = Summary {
        dry_run: args.dry_run,
        ..Summary::default()
    };
    let (mut sessions, mut failures) = (Vec::new(), Vec::new());
    let mut broken: Option<Error> = None;
    let (no_sources, searched) = (plan.sources.is_empty(), plan.searched.clone());
    let on_event = |event| {
        summary.count(&event);
        progress.advance(
            summary.bytes,
            &format!(
                "{} sessions from {} sources",
                summary.sessions, summary.sources
            ),
        );
        if let Event::Failed(failure) = &event {
            if failure.error.contains(&failure.source) {
                diag::warn(&failure.error);
            } else {
                diag::warn(format!("{}: {}", failure.source, failure.error));
            }
        }
        if streaming && broken.is_none() {
            let printed = match &event {
                Event::Session(done) => ctx.printer().record(done),
                Event::Failed(failure) => ctx.printer().record(failure),
                Event::SourceDone { .. } => Ok(()),
            };
            broken = printed.err();
        }
        match event {
            Event::Session(done) => sessions.push(done),
            Event::Failed(failure) => failures.push(failure),
            Event::SourceDone { .. } => {}
        }
    };
    if args.dry_run {
        batch::run(&store, &plan, true, on_event);
    } else {
        // Every source is read; the cursors kept spare the next live
        // import (`--watch`, `--hook`) reading what did not change.
        live::import(
            &store,
            live::cursors_of(&store).as_ref(),
            plan,
            true,
            on_event,
        );
    }
    drop(progress);
    if let Some(err) = broken {
        return Err(err);
    }
    if no_sources {
        let looked = if searched.is_empty() {
            "none of their default locations exists".to_string()
        } else {
            format!("looked in {}", shown(&searched))
        };
        diag::warn(format!(
            "no sessions of {} found ({looked}); name a file or directory to import from",
            names(&tools)
        ));
    }
    print_result(ctx, format, streaming, &sessions, &failures, &summary)?;
    if summary.imported + summary.updated > 0 {
        diag::warn(retention_note(
            ctx.load()?.config.services.session.max_sessions,
        ));
    }
    Ok(if summary.failed > 0 {
        ExitCode::Io
    } else {
        ExitCode::Success
    })
}
