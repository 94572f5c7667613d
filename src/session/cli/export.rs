//! `ollm-session export`.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use clap_complete::engine::ArgValueCandidates;

use super::{Context, SessionRef, complete};
use crate::cli::footer;
use crate::error::{Error, Result};
use crate::fs::{self as sfs, Target};
use crate::redact::Scrubber;
use crate::redact::policy::environment_scrubber;
use crate::session::export::{self, html};
use crate::session::model::{IMPORTED_FROM, Loaded};
use crate::session::store::Store;

/// Export a session as the spec's JSON, a Markdown transcript or a
/// self-contained HTML page; or every session as an HTML archive.
///
/// The HTML page needs no network and works from file://: turns as cards,
/// tool calls collapsed to one line, edits as diffs, a search box that
/// finds text in collapsed output too, `#msg-N` links. It is never written
/// with a credential in it: the export scans what it would write and
/// refuses (exit 2) naming the record, whatever --no-redact says.
#[derive(Debug, Args)]
#[command(after_help = footer("  ollm-session export ID --output chat-history.json
  ollm-session export ID --output chat.md          # Markdown, from the extension
  ollm-session export ID --output chat.html        # one self-contained page
  ollm-session export --all --output archive/      # index.html and a page a session
  ollm-session export --last --format markdown > chat.md"))]
pub(crate) struct ExportArgs {
    /// The session: its id, a unique prefix of it (4+ characters) or its title.
    #[arg(
        value_name = "ID",
        required_unless_present_any = ["last", "here", "all"],
        add = ArgValueCandidates::new(complete::session_ids)
    )]
    id: Option<String>,
    /// The most recently active session.
    #[arg(long)]
    last: bool,
    /// Only sessions made in this workspace (the git top level, else the
    /// current directory); without ID, the latest of them.
    #[arg(long)]
    here: bool,
    /// Every session, as an HTML archive in the directory --output names:
    /// index.html (sessions by project and date, a search across all of
    /// them) and <id>.html a session.
    #[arg(long, conflicts_with_all = ["id", "last", "here"], requires = "output")]
    all: bool,
    /// json, markdown or html (default: from the --output extension, .md
    /// or .markdown, .html or .htm; else json; html with --all).
    #[arg(long, value_enum)]
    format: Option<ExportFormat>,
    /// Write here (atomically, owner-only 0600) instead of stdout. An
    /// existing file is replaced only with --force; anything that is
    /// not a regular file is refused (`-` and /dev/stdout are stdout).
    /// With --all, the archive's directory.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Replace an existing output file (with --all, existing pages).
    #[arg(long, short = 'f', requires = "output")]
    force: bool,
}

/// What `export` writes.
#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
enum ExportFormat {
    /// The spec's JSON.
    Json,
    /// A readable transcript.
    Markdown,
    /// A self-contained page (inline style and script, no network).
    Html,
}

pub(crate) fn run(ctx: &Context, args: ExportArgs) -> Result<()> {
    if args.all {
        return archive(ctx, &args);
    }
    let (store, config) = ctx.store()?;
    let target = match &args.output {
        Some(path) => sfs::export_target(path, args.force)?,
        None => Target::Stdout,
    };
    let format = args.format.unwrap_or(match &args.output {
        Some(path) if export::is_markdown_path(path) => ExportFormat::Markdown,
        Some(path) if export::is_html_path(path) => ExportFormat::Html,
        _ => ExportFormat::Json,
    });
    let session = SessionRef {
        id: args.id.clone(),
        last: args.last,
        here: args.here,
    };
    let id = session.resolve(&store)?;
    let loaded = store.load(&id)?;
    let text = match format {
        ExportFormat::Json => {
            // Lone surrogates go out as the escapes they came in as.
            let bytes = crate::lossless::to_vec_pretty(&loaded.session)
                .map_err(|e| Error::input(format!("cannot encode the session: {e}")))?;
            let mut text = String::from_utf8_lossy(&bytes).into_owned();
            text.push('\n');
            text
        }
        ExportFormat::Markdown => export::markdown(&loaded),
        ExportFormat::Html => html::page(&loaded, children(&store, &loaded)?, &scrubber(config))?,
    };
    match target {
        Target::File(path) => {
            sfs::write_atomic(&path, text.as_bytes(), sfs::Durability::Synced)?;
            ctx.printer().changed(&serde_json::json!({
                "exported": id,
                "output": path,
                "bytes": text.len(),
            }))
        }
        Target::Stdout => ctx.printer().text(&text),
    }
}

/// The sessions started from `parent`: its branches (by their summaries),
/// and when it was imported, the sub-agents' runs made in its workspace
/// while it was active (loaded to read the session they ran in).
fn children(store: &Store, parent: &Loaded) -> Result<Vec<html::Child>> {
    use crate::timestamp::parse;
    let s = &parent.session;
    let (start, last) = (parse(&s.start_time), parse(&s.last_activity));
    let imported = s.metadata.extra.contains_key(IMPORTED_FROM);
    let mut children = Vec::new();
    for summary in store.list()?.sessions {
        if summary.session_id == s.session_id {
            continue;
        }
        let branch = summary.parent_session_id.as_deref() == Some(&s.session_id);
        let during = match (start, parse(&summary.start_time), last) {
            (Some(start), Some(at), Some(last)) => start <= at && at <= last,
            _ => false,
        };
        let maybe_subagent = imported
            && summary.parent_session_id.is_none()
            && summary.workspace == s.workspace
            && during;
        if !(branch || maybe_subagent) {
            continue;
        }
        let loaded = store.load(&summary.session_id)?;
        if let Some(kin) = html::Parent::of(&loaded).filter(|p| p.id == s.session_id) {
            children.push(html::Child::of(&loaded, kin.kind));
        }
    }
    Ok(children)
}

/// The credential scan of `ollm-session scan`, for text an export writes.
fn scrubber(config: &crate::config::Config) -> Scrubber {
    environment_scrubber(&config.services.environment, |message| {
        crate::diag::warn(message);
    })
    .for_bulk()
}

/// `--all`: a page a session, then the index. A session holding a
/// credential is left out (said on stderr) and the export fails at the end.
fn archive(ctx: &Context, args: &ExportArgs) -> Result<()> {
    if args.format.is_some_and(|f| f != ExportFormat::Html) {
        return Err(Error::usage(
            "--all writes an HTML archive: leave out --format or say --format html",
        ));
    }
    let Some(dir) = args.output.as_deref() else {
        return Err(Error::usage("--all needs --output DIR"));
    };
    let (store, config) = ctx.store()?;
    sfs::check_dir_or_absent(dir)?;
    let index = page_target(dir, "index.html", args.force)?;
    let listing = store.list()?;
    super::report_problems(&listing.problems);
    sfs::create_private_dir_all(dir)?;
    let scrubber = scrubber(config);
    // Newest first: a session starts after the one it came from, so each
    // page is made after those of the sessions started from it.
    let mut sessions = listing.sessions;
    sessions.sort_by_key(|s| {
        std::cmp::Reverse((
            crate::timestamp::parse(&s.start_time),
            s.parent_session_id.is_some(),
        ))
    });
    let ids: Vec<String> = sessions.into_iter().map(|s| s.session_id).collect();
    let mut archive = html::Archive::new(ids.iter().cloned());
    let (mut bytes, mut refused) = (0usize, 0usize);
    for id in &ids {
        let loaded = store.load(id)?;
        let (entry, page) = match archive.page(&loaded, &scrubber) {
            Ok(made) => made,
            Err(err @ Error::Input(_)) => {
                crate::diag::warn(err);
                refused += 1;
                continue;
            }
            Err(err) => return Err(err),
        };
        let path = page_target(dir, &entry.href, args.force)?;
        sfs::write_atomic(&path, page.as_bytes(), sfs::Durability::Synced)?;
        bytes += page.len();
    }
    let page = archive.index(&scrubber)?;
    sfs::write_atomic(&index, page.as_bytes(), sfs::Durability::Synced)?;
    bytes += page.len();
    ctx.printer().changed(&serde_json::json!({
        "exported": ids.len() - refused,
        "output": dir,
        "index": index,
        "bytes": bytes,
    }))?;
    if refused > 0 {
        return Err(Error::input(format!(
            "{refused} session(s) held a credential and were left out of the archive (named above)"
        )));
    }
    Ok(())
}

/// A page's path in the archive, refused as `--output` would be.
fn page_target(dir: &Path, name: &str, force: bool) -> Result<PathBuf> {
    match sfs::export_target(&dir.join(name), force)? {
        Target::File(path) => Ok(path),
        Target::Stdout => Err(Error::usage(format!("{name} cannot be a page name"))),
    }
}
