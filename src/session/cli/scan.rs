//! `ollm-session scan` and `ollm-session redact`: credentials already
//! stored, found or scrubbed.

use clap::Args;
use serde::Serialize;

use super::{Context, ListFormat, SessionRef};
use crate::cli::footer;
use crate::error::{Error, ExitCode, Result};
use crate::output::Tabular;
use crate::redact::policy::environment_scrubber;
use crate::session::secrets::{self, Finding};
use crate::session::{Snapshots, Store};
use crate::threads::parallel_map;

/// Find credentials already stored (records, titles, snapshots; every
/// format the store holds): one NDJSON finding a line (session, record,
/// field, kind, a masked preview; never the credential), a table at a
/// terminal. Exits 1 when anything is found, 0 when clean (as gitleaks
/// does). `ollm-session redact` removes what it finds.
#[derive(Debug, Args)]
#[command(after_help = footer("  ollm-session scan --all
  ollm-session scan 907a
  ollm-session scan --all --format json | jq 'group_by(.kind) | map({kind: .[0].kind, n: length})'"))]
pub(crate) struct ScanArgs {
    #[command(flatten)]
    target: Target,
    /// ndjson (default when piped), table (default on a terminal), json or text.
    #[arg(long, value_enum)]
    format: Option<ListFormat>,
}

/// Replace credentials already stored with `[REDACTED:<kind>]`, in place:
/// each session (and each snapshot) is replaced whole in one step, so a
/// crash leaves it as it was or fully scrubbed. Prints
/// {"sessionId", "redacted"} a session; --dry-run prints what `scan` finds
/// instead and changes nothing.
#[derive(Debug, Args)]
#[command(after_help = footer("  ollm-session redact --all --dry-run
  ollm-session redact --all
  ollm-session redact 907a"))]
pub(crate) struct RedactArgs {
    #[command(flatten)]
    target: Target,
    /// Show what would be replaced (as `scan` does); change nothing.
    #[arg(long)]
    dry_run: bool,
    /// ndjson (default when piped), table (default on a terminal), json or text.
    #[arg(long, value_enum)]
    format: Option<ListFormat>,
}

/// One session, or every one.
#[derive(Debug, Args)]
struct Target {
    /// The session: its id, a unique prefix of it (4+ characters) or its title.
    #[arg(value_name = "ID", required_unless_present_any = ["last", "here", "all"])]
    id: Option<String>,
    /// The most recently active session.
    #[arg(long)]
    last: bool,
    /// The latest session made in this workspace (with ID: only its sessions).
    #[arg(long)]
    here: bool,
    /// Every session in the store.
    #[arg(long, conflicts_with_all = ["id", "last", "here"])]
    all: bool,
}

impl Target {
    /// The sessions named, and those of `--all` that could not be read
    /// (each said on stderr).
    fn ids(&self, store: &Store) -> Result<(Vec<String>, usize)> {
        if self.all {
            let listing = store.list()?;
            super::report_problems(&listing.problems);
            let ids = listing.sessions.into_iter().map(|s| s.session_id);
            return Ok((ids.collect(), listing.problems.len()));
        }
        let session = SessionRef {
            id: self.id.clone(),
            last: self.last,
            here: self.here,
        };
        Ok((vec![session.resolve(store)?], 0))
    }
}

/// A store with sessions that could not be read is not clean: exit 6
/// after what could be done, the sessions named on stderr above.
fn unread(command: &str, count: usize) -> Result<()> {
    if count == 0 {
        return Ok(());
    }
    Err(Error::Corrupt(format!(
        "{command}: {count} session(s) could not be read (named above) and were not searched"
    )))
}

impl Tabular for Finding {
    fn headers() -> &'static [&'static str] {
        &["SESSION", "SNAPSHOT", "RECORD", "FIELD", "KIND", "PREVIEW"]
    }

    fn cells(&self) -> Vec<String> {
        vec![
            self.session_id.clone(),
            self.snapshot_id.clone().unwrap_or_default(),
            self.record.clone(),
            self.field.clone(),
            self.kind.clone(),
            self.preview.clone(),
        ]
    }
}

/// What `redact` did to one session.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Scrubbed {
    session_id: String,
    redacted: u64,
}

impl Tabular for Scrubbed {
    fn headers() -> &'static [&'static str] {
        &["SESSION", "REDACTED"]
    }

    fn cells(&self) -> Vec<String> {
        vec![self.session_id.clone(), self.redacted.to_string()]
    }

    fn numeric() -> &'static [usize] {
        &[1]
    }
}

/// NDJSON when piped, unless a format is asked for.
fn format_of(ctx: &Context, format: Option<ListFormat>) -> Option<ListFormat> {
    format.or((!ctx.printer().is_terminal()).then_some(ListFormat::Ndjson))
}

/// The findings, and how many sessions could not be read.
fn findings(ctx: &Context, target: &Target) -> Result<(Vec<Finding>, usize)> {
    let (store, config) = ctx.store()?;
    let snapshots = Snapshots::from_config(config);
    let scrubber = environment_scrubber(&config.services.environment, |message| {
        crate::diag::warn(message);
    })
    .for_bulk();
    let (ids, unread) = target.ids(&store)?;
    let mut all = Vec::new();
    for found in parallel_map(&ids, |id| secrets::scan(&store, &snapshots, &scrubber, id)) {
        all.extend(found?);
    }
    Ok((all, unread))
}

pub(crate) fn scan(ctx: &Context, args: ScanArgs) -> Result<ExitCode> {
    let (found, not_read) = findings(ctx, &args.target)?;
    ctx.list(format_of(ctx, args.format), &found, "no credentials found")?;
    unread("scan", not_read)?;
    Ok(if found.is_empty() {
        ExitCode::Success
    } else {
        ExitCode::Verdict
    })
}

pub(crate) fn redact(ctx: &Context, args: RedactArgs) -> Result<ExitCode> {
    if args.dry_run {
        let (found, not_read) = findings(ctx, &args.target)?;
        ctx.list(format_of(ctx, args.format), &found, "nothing to redact")?;
        unread("redact", not_read)?;
        return Ok(ExitCode::Success);
    }
    let (store, config) = ctx.store()?;
    let snapshots = Snapshots::from_config(config);
    let scrubber = environment_scrubber(&config.services.environment, |message| {
        crate::diag::warn(message);
    })
    .for_bulk();
    let mut done = Vec::new();
    let (ids, not_read) = args.target.ids(&store)?;
    for id in ids {
        let redacted = secrets::scrub(&store, &snapshots, &scrubber, &id)?;
        if redacted > 0 {
            done.push(Scrubbed {
                session_id: id,
                redacted,
            });
        }
    }
    // The derived index of a file store keeps the summaries (titles,
    // workspaces) the sessions had: built again from the scrubbed files.
    if !done.is_empty()
        && let Err(err) = store.forget_derived()
    {
        crate::diag::warn(format!(
            "the session index still holds what was scrubbed ({err}); `ollm session reindex` rebuilds it"
        ));
    }
    ctx.list(format_of(ctx, args.format), &done, "nothing to redact")?;
    unread("redact", not_read)?;
    Ok(ExitCode::Success)
}
