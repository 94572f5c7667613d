//! `ollm-session import --hook TOOL` and `import --watch`: sessions
//! imported as the agents write them (see [`crate::session::import::live`]).

use std::io::Read;
use std::path::PathBuf;
use std::time::Duration;

use super::import_shared::{import_store, names, print_result, retention_note, tools_from};
use super::{Context, ListFormat};
use crate::diag;
use crate::error::{Error, ExitCode, Result};
use crate::fs::lock::Lock;
use crate::session::import::batch::{Event, Summary};
use crate::session::import::hook::{HookInput, HookLog, MAX_INPUT};
use crate::session::import::live::{self, ImportLocks, Wait};
use crate::session::import::watch::{self, Report, WatchOptions};
use crate::session::import::{self, Homes};

/// How long a hook waits for another import (a watcher's round, a
/// one-shot import) before it gives up, logging why: the next hook or the
/// watcher catches up.
const HOOK_WAIT: Duration = Duration::from_secs(5);

/// `import --hook TOOL`: always exit 0; what went wrong goes to stderr and
/// to the hook log.
pub(super) fn hook(ctx: &Context, tool: &str) -> ExitCode {
    let log = HookLog::at(
        crate::paths::ollm_home()
            .join("logs")
            .join("import-hook.log"),
    );
    let mut input = Vec::new();
    let read = std::io::stdin()
        .take(MAX_INPUT)
        .read_to_end(&mut input)
        .map_err(|e| Error::io("stdin", &e));
    let parsed = read.and_then(|_| HookInput::parse(&input));
    let described = parsed
        .as_ref()
        .map_or_else(|_| "-".to_string(), HookInput::describe);
    let problems = match parsed.and_then(|input| hook_import(ctx, tool, &input)) {
        Ok(problems) => problems,
        Err(err) => vec![err.to_string()],
    };
    for problem in problems {
        let line = format!("import --hook {tool} ({described}): {problem}");
        diag::warn(&line);
        if let Err(err) = log.append(&line) {
            diag::warn(format!("{}: {err}", log.path().display()));
        }
    }
    ExitCode::Success
}

/// Imports what changed in the hook's transcript; the sessions that could
/// not be stored.
fn hook_import(ctx: &Context, tool: &str, input: &HookInput) -> Result<Vec<String>> {
    let paths = input.paths()?;
    let tools: Vec<_> = import::named(tool).into_iter().collect();
    let store = import_store(ctx)?;
    let _locks = ImportLocks::take(&store, Wait::AtMost(HOOK_WAIT))?;
    let plan = live::plan_of(&tools, &paths);
    if plan.sources.is_empty() {
        return Err(Error::NotFound(format!(
            "{}: not a {} transcript",
            paths[0].display(),
            names(&tools)
        )));
    }
    let mut problems = Vec::new();
    live::import(
        &store,
        live::cursors_of(&store).as_ref(),
        plan,
        false,
        |event| {
            if let Event::Failed(failure) = event {
                problems.push(format!("{}: {}", failure.source, failure.error));
            }
        },
    );
    Ok(problems)
}

/// `import --watch`: until stopped.
pub(super) fn watch(
    ctx: &Context,
    from: &[String],
    paths: &[PathBuf],
    format: Option<ListFormat>,
) -> Result<ExitCode> {
    if matches!(format, Some(ListFormat::Json | ListFormat::Text)) {
        return Err(Error::Usage(
            "--watch prints NDJSON (or a status line at a terminal): use --format ndjson or table"
                .into(),
        ));
    }
    let tools = tools_from(from);
    for path in paths {
        if std::fs::symlink_metadata(path).is_err() {
            return Err(Error::NotFound(format!(
                "{}: no such file or directory",
                path.display()
            )));
        }
    }
    let store = import_store(ctx)?;
    let _one_watcher = watcher_lock(&store)?;
    let streaming =
        format == Some(ListFormat::Ndjson) || (format.is_none() && !ctx.printer().is_terminal());
    let paths = paths.to_vec();
    let roots_of = tools.clone();
    let homes = Homes::from_env();
    let roots = move || -> Vec<PathBuf> {
        if !paths.is_empty() {
            return paths.clone();
        }
        roots_of
            .iter()
            .flat_map(|tool| tool.default_roots(&homes))
            .filter(|root| root.exists())
            .collect()
    };
    let mut summary = Summary::default();
    let mut broken: Option<Error> = None;
    let mut last_status = String::new();
    watch::watch(
        &store,
        tools,
        roots,
        WatchOptions::default(),
        &mut |report| {
            if broken.is_some() {
                return;
            }
            let printed = match report {
                Report::Import(event) => {
                    summary.count(&event);
                    match &*event {
                        Event::Session(done)
                            if streaming && done.status != import::write::Status::Unchanged =>
                        {
                            ctx.printer().record(done)
                        }
                        Event::Failed(failure) => {
                            diag::warn(format!("{}: {}", failure.source, failure.error));
                            if streaming {
                                ctx.printer().record(failure)
                            } else {
                                Ok(())
                            }
                        }
                        _ => Ok(()),
                    }
                }
                Report::Warning(warning) => {
                    diag::warn(warning);
                    Ok(())
                }
                Report::Round { files, dirs } if !streaming => {
                    let status = format!(
                        "watching {files} files in {dirs} places: {} new sessions, {} updated ({} records){}",
                        summary.imported,
                        summary.updated,
                        summary.added,
                        if summary.failed > 0 {
                            format!(", {} failed", summary.failed)
                        } else {
                            String::new()
                        }
                    );
                    if status == last_status {
                        Ok(())
                    } else {
                        last_status = status;
                        ctx.printer().status(&last_status)
                    }
                }
                Report::Round { .. } => Ok(()),
            };
            broken = printed.err();
        },
    )?;
    if let Some(err) = broken {
        return Err(err);
    }
    if !streaming {
        ctx.printer().text("\n")?;
    }
    print_result(ctx, ListFormat::Ndjson, streaming, &[], &[], &summary)?;
    if summary.imported + summary.updated > 0 {
        diag::warn(retention_note(
            ctx.load()?.config.services.session.max_sessions,
        ));
    }
    Ok(ExitCode::Success)
}

/// The lock that keeps one watcher per store, with the holder's pid kept
/// beside it; a second watcher is refused, naming the first.
fn watcher_lock(store: &crate::session::Store) -> Result<Option<Lock>> {
    let Some(dir) = live::state_dir(store) else {
        return Ok(None);
    };
    let locks = dir.join(".locks");
    crate::fs::create_private_dir_all(&locks)?;
    let path = locks.join("import-watch.lock");
    let pid_file = locks.join("import-watch.pid");
    match Lock::try_exclusive(&path)? {
        Some(lock) => {
            crate::fs::write_atomic(
                &pid_file,
                std::process::id().to_string().as_bytes(),
                crate::fs::Durability::Cache,
            )?;
            Ok(Some(lock))
        }
        None => {
            let pid = std::fs::read_to_string(&pid_file).unwrap_or_default();
            let pid = pid.trim();
            Err(Error::Io {
                path: path.clone(),
                message: format!(
                    "another `ollm-session import --watch` (pid {}) is watching this store",
                    if pid.is_empty() { "unknown" } else { pid }
                ),
            })
        }
    }
}
