//! `ollm-session resume`: choose a session to carry on with.

use std::os::unix::process::CommandExt;
use std::sync::{Arc, Mutex};

use clap::Args;
use clap_complete::engine::ArgValueCandidates;

use super::Context;
use super::picker::{self, Choice};
use super::rows::SessionRow;
use crate::cli::footer;
use crate::error::{Error, Result};
use crate::session::model::SessionSummary;
use crate::session::select::{self, Selector};
use crate::session::store::{ListQuery, Store};

/// Choose a session to carry on with and print its id (or start --exec on
/// it). At a terminal with no ID, a picker shows the sessions newest first
/// (arrow keys, type to filter); --continue takes the latest session of
/// this workspace, as `claude --continue` does. Off a terminal, an ID,
/// --continue or --last is required (exit 2).
#[derive(Debug, Args)]
#[command(after_help = footer("  ollm-session resume                      # pick one at the terminal
  ollm-session resume --continue           # the latest session of this project
  ollm-session resume --here --exec 'python examples/agent.py --resume'
  id=$(ollm-session resume) && ollm-session get \"$id\""))]
pub(crate) struct ResumeArgs {
    /// The session: its id, a unique prefix of it (4+ characters) or its
    /// title (no picker).
    #[arg(value_name = "ID", add = ArgValueCandidates::new(super::complete::session_ids))]
    id: Option<String>,
    /// The latest session made in this workspace (the git top level, else
    /// the current directory).
    #[arg(long = "continue", short = 'c', conflicts_with = "id")]
    continue_: bool,
    /// The most recently active session anywhere.
    #[arg(long, conflicts_with_all = ["id", "continue_"])]
    last: bool,
    /// Only sessions made in this workspace (in the picker too).
    #[arg(long)]
    here: bool,
    /// Run CMD (with sh -c) with the chosen id as its last argument and in
    /// OLLM_SESSION_ID, instead of printing the id.
    #[arg(long, value_name = "CMD")]
    exec: Option<String>,
}

pub(crate) fn run(ctx: &Context, args: ResumeArgs) -> Result<()> {
    let (store, _) = ctx.store()?;
    let here = args.here || args.continue_;
    let id = if args.id.is_some() || args.last || args.continue_ {
        select::select(
            &store,
            &Selector {
                reference: args.id,
                last: args.last,
                here,
                whole_title: false,
            },
        )?
    } else {
        if !picker::available() {
            return Err(Error::usage(
                "no session chosen: give an ID, --continue or --last (the picker needs a terminal)",
            ));
        }
        let query = ListQuery {
            workspace: here.then(select::current_workspace).transpose()?,
            ..ListQuery::default()
        };
        match pick(&store, &query)? {
            Some(id) => id,
            None => return Err(Error::usage("nothing chosen")),
        }
    };
    store.exists(&id)?;
    match args.exec {
        None => crate::output::write_stdout(&[id.as_bytes(), b"\n"]),
        Some(command) => {
            let err = std::process::Command::new("sh")
                .arg("-c")
                .arg(format!("{command} \"$1\""))
                .arg("sh")
                .arg(&id)
                .env("OLLM_SESSION_ID", &id)
                .exec();
            Err(Error::io("sh", &err))
        }
    }
}

/// The picker over `query`'s sessions: its first screen from the first
/// page of the listing, the rest pushed in page by page as it is read.
fn pick(store: &Store, query: &ListQuery) -> Result<Option<String>> {
    fn choices(store: &Store, sessions: Vec<SessionSummary>) -> Vec<Choice> {
        SessionRow::build(store, sessions, true)
            .iter()
            .map(Choice::new)
            .collect()
    }
    let mut pages = store.pages(query);
    let mut first = Vec::new();
    while first.is_empty() {
        match pages.next().transpose()? {
            Some(page) => first = page.sessions,
            None => return Err(Error::NotFound("no sessions to resume".into())),
        }
    }
    let failed = Arc::new(Mutex::new(None));
    let (reader, failure) = (store.clone(), failed.clone());
    let chosen = picker::pick(choices(store, first), move |feed| {
        for page in pages {
            match page {
                Ok(page) => {
                    if !feed.push(choices(&reader, page.sessions)) {
                        break;
                    }
                }
                Err(err) => {
                    if let Ok(mut failure) = failure.lock() {
                        *failure = Some(err);
                    }
                    break;
                }
            }
        }
    })?;
    if let Some(err) = failed.lock().ok().and_then(|mut f| f.take()) {
        crate::diag::warn(format!("the picker could not show every session: {err}"));
    }
    Ok(chosen)
}
