//! `ollm-session import`: other agent CLIs' sessions brought in.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use clap::builder::PossibleValuesParser;
use serde::Serialize;

use super::{Context, ListFormat};
use crate::cli::footer;
use crate::config::SessionFormat;
use crate::diag;
use crate::error::{Error, ExitCode, Result};
use crate::fs::lock::Lock;
use crate::output::Tabular;
use crate::output::progress::Progress;
use crate::redact::policy::Redaction;
use crate::session::Store;
use crate::session::import::batch::{self, Event, Failure, Summary};
use crate::session::import::write::{Imported, Status};
use crate::session::import::{self, Homes, Tool};
use crate::text::plural;

#[derive(Debug, Args)]
#[command(about = about(), after_help = footer("  ollm-session import                          # every tool, from its own location
  ollm-session import --from claude            # ~/.claude/projects (CLAUDE_CONFIG_DIR)
  ollm-session import --from codex ~/.codex/sessions/2026/11
  ollm-session import --from gemini --dry-run  # what would be imported
  ollm-session import ./old-sessions           # --from auto: each file by its shape"))]
// The description is [`about`], naming the tools of the importers' table.
pub(crate) struct ImportArgs {
    /// The tool the sessions are from; `auto` reads every tool's (its
    /// default locations, or each path as whichever tool's it is).
    #[arg(long, default_value = AUTO, value_parser = from_values())]
    from: String,
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
}

/// `--from`'s value for every tool.
const AUTO: &str = "auto";

/// What `--from` takes: each importer's name, or `auto`.
fn from_values() -> PossibleValuesParser {
    PossibleValuesParser::new(import::tools().map(|tool| tool.name()).chain([AUTO]))
}

/// The tools `--from` names (every one for `auto`).
fn tools_from(from: &str) -> Vec<Tool> {
    if from == AUTO {
        return import::tools().collect();
    }
    import::named(from).into_iter().collect()
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
    // A session too large for one part is written in several: two
    // imports at once would both add its later parts. A file lock holds
    // imports on this machine; a store other machines write into (a
    // database) holds those too.
    let locks = store
        .local_dir()
        .or(store.options().snapshots_dir.as_deref())
        .map(|dir| dir.join(".locks"));
    let _one_import_at_a_time = match locks {
        Some(locks) if !args.dry_run => {
            crate::fs::create_private_dir_all(&locks)?;
            Some(Lock::exclusive(&locks.join("import.lock"))?)
        }
        _ => None,
    };
    let _one_import_in_the_store = if args.dry_run {
        None
    } else {
        store.import_lock()?
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
    batch::run(&store, &plan, args.dry_run, |event| {
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
    });
    drop(progress);
    if let Some(err) = broken {
        return Err(err);
    }
    if plan.sources.is_empty() {
        let looked = if plan.searched.is_empty() {
            "none of their default locations exists".to_string()
        } else {
            format!("looked in {}", shown(&plan.searched))
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

fn print_result(
    ctx: &Context,
    format: ListFormat,
    streaming: bool,
    sessions: &[Imported],
    failures: &[Failure],
    summary: &Summary,
) -> Result<()> {
    #[derive(Serialize)]
    struct Last<'a> {
        summary: &'a Summary,
    }
    #[derive(Serialize)]
    struct Whole<'a> {
        sessions: &'a [Imported],
        #[serde(skip_serializing_if = "<[Failure]>::is_empty")]
        failed: &'a [Failure],
        summary: &'a Summary,
    }
    if streaming {
        return ctx.printer().record(&Last { summary });
    }
    match format {
        ListFormat::Json => ctx.printer().object(&Whole {
            sessions,
            failed: failures,
            summary,
        }),
        ListFormat::Ndjson => ctx.printer().record(&Last { summary }),
        ListFormat::Table | ListFormat::Text => {
            let changed: Vec<Imported> = sessions
                .iter()
                .filter(|s| s.status != Status::Unchanged)
                .cloned()
                .collect();
            if !changed.is_empty() {
                ctx.printer().list_as(Some(format), &changed)?;
            }
            ctx.printer().text(&format!("{}\n", sentence(summary)))
        }
    }
}

impl Tabular for Imported {
    fn headers() -> &'static [&'static str] {
        &[
            "TOOL",
            "SESSION",
            "STATUS",
            "MESSAGES",
            "TOOL CALLS",
            "ADDED",
            "TITLE",
        ]
    }

    fn cells(&self) -> Vec<String> {
        vec![
            self.tool.name().to_string(),
            self.session_id.clone(),
            self.status.as_str().to_string(),
            self.messages.to_string(),
            self.tool_calls.to_string(),
            self.added.to_string(),
            self.title.clone().unwrap_or_default(),
        ]
    }

    fn numeric() -> &'static [usize] {
        &[3, 4, 5]
    }
}

/// The store imports go to. Imported sessions are journals whatever
/// services.session.format says: they are often megabytes, which the OLLM
/// CLI's format rewrites whole for every record and `list` parses whole,
/// and the OLLM CLI has no use for them. Redaction is made for bulk text.
fn import_store(ctx: &Context) -> Result<Store> {
    let mut config = ctx.load()?.config.clone();
    config.services.session.format = SessionFormat::Journal;
    let config = &config;
    let mut options = Store::options_from(config);
    if options.redaction.is_some() {
        let redaction = Redaction::for_environment(&config.services.environment, |message| {
            diag::warn(message);
        })
        .for_bulk();
        options.redaction = Some(Arc::new(redaction));
    }
    Store::open(
        &config.services.session.store,
        crate::config::session_data_dir(config),
        options,
    )
}

/// What retention does with imported sessions, said at the end of every
/// import that brought some in: they keep their original dates, so a
/// person would otherwise expect the next `create` to delete them first.
fn retention_note(max: u64) -> String {
    let limit = match max {
        0 => "no limit".to_string(),
        n => format!("{n}"),
    };
    format!(
        "imported sessions are outside services.session.maxSessions ({limit}): `create` never deletes them; only `delete`, `cleanup` and `clear` do"
    )
}

/// The summary as a person reads it.
fn sentence(s: &Summary) -> String {
    let verb = if s.dry_run {
        "would import"
    } else {
        "imported"
    };
    let mut text = format!(
        "{verb} {} and {} {}updated ({}) from {}; {} unchanged",
        plural(s.imported, "new session", "new sessions"),
        s.updated,
        if s.dry_run { "to be " } else { "" },
        plural(s.added, "record", "records"),
        plural(s.sources, "source", "sources"),
        s.unchanged,
    );
    let unread = s.skipped.unread();
    if unread > 0 {
        text.push_str(&format!(
            "; {} skipped",
            plural(
                unread,
                "unreadable or unknown line",
                "unreadable or unknown lines"
            )
        ));
    }
    let left_out = s.skipped.left_out();
    if left_out > 0 {
        text.push_str(&format!(
            "; {} left out (other branches, copies, text not typed, commands)",
            plural(left_out, "record", "records")
        ));
    }
    if s.skipped.invalid_utf8 > 0 {
        text.push_str(&format!(
            "; {} with invalid UTF-8 read with U+FFFD",
            plural(s.skipped.invalid_utf8, "line", "lines")
        ));
    }
    if s.skipped.cut_fields > 0 {
        text.push_str(&format!(
            "; {} stored cut",
            plural(
                s.skipped.cut_fields,
                "overlong title, directory or model name",
                "overlong title, directory or model names"
            )
        ));
    }
    if s.failed > 0 {
        text.push_str(&format!("; {} failed", s.failed));
    }
    text
}

fn names(tools: &[Tool]) -> String {
    tools
        .iter()
        .map(|t| t.name())
        .collect::<Vec<_>>()
        .join(", ")
}

fn shown(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::import::Skipped;

    fn summary(count: u64, dry_run: bool) -> Summary {
        Summary {
            dry_run,
            sources: count,
            imported: count,
            updated: count,
            unchanged: count,
            failed: count,
            added: count,
            skipped: Skipped {
                unreadable: count,
                copies: count,
                invalid_utf8: count,
                cut_fields: count,
                ..Skipped::default()
            },
            ..Summary::default()
        }
    }

    #[test]
    fn the_summary_sentence_counts_each_noun_in_its_number() {
        assert_eq!(
            sentence(&summary(1, false)),
            "imported 1 new session and 1 updated (1 record) from 1 source; 1 unchanged; \
             1 unreadable or unknown line skipped; 1 record left out (other branches, \
             copies, text not typed, commands); 1 line with invalid UTF-8 read with \
             U+FFFD; 1 overlong title, directory or model name stored cut; 1 failed"
        );
        assert_eq!(
            sentence(&summary(2, true)),
            "would import 2 new sessions and 2 to be updated (2 records) from 2 sources; \
             2 unchanged; 2 unreadable or unknown lines skipped; 2 records left out \
             (other branches, copies, text not typed, commands); 2 lines with invalid \
             UTF-8 read with U+FFFD; 2 overlong title, directory or model names stored \
             cut; 2 failed"
        );
        assert_eq!(
            sentence(&summary(0, false)),
            "imported 0 new sessions and 0 updated (0 records) from 0 sources; 0 unchanged"
        );
    }
}
