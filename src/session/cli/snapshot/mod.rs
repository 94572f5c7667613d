//! `ollm-session snapshot …`: one file per subcommand.

mod create;
mod delete;
mod list;
mod restore;
mod show;

use clap::Args;
use clap_complete::engine::ArgValueCandidates;

use super::Context;
use crate::error::{Error, Result};
use crate::session::model::is_uuid;
use crate::session::store::Store;
use crate::session::{Snapshots, select};

crate::subcommands! {
#[derive(Debug)]
pub(crate) enum SnapshotCommand {
    Create(create::CreateArgs),
    List(list::ListArgs),
    Show(show::ShowArgs),
    Restore(restore::RestoreArgs),
    Delete(delete::DeleteArgs),
}
}

/// A snapshot, optionally with the session it belongs to.
#[derive(Debug, Clone, Args)]
pub(crate) struct SnapshotRef {
    /// The snapshot's id, or a unique prefix of it (4 characters or more).
    #[arg(value_name = "SNAPSHOT_ID", add = ArgValueCandidates::new(super::complete::snapshot_ids))]
    snapshot: String,
    /// The session the snapshot belongs to (an id, prefix or title; found
    /// by searching every session's snapshots when not given).
    #[arg(long, value_name = "ID", add = ArgValueCandidates::new(super::complete::session_ids))]
    session: Option<String>,
}

impl SnapshotRef {
    /// The session named by --session, resolved to a whole id.
    fn session(&self, store: &Store) -> Result<Option<String>> {
        self.session
            .as_deref()
            .map(|reference| select::resolve(store, reference))
            .transpose()
    }

    /// The whole snapshot id and the session (when known) this names: a
    /// whole id as given, or a unique prefix of at least
    /// [`select::MIN_PREFIX`] characters, as tables show them cut.
    fn resolve(&self, store: &Store, snapshots: &Snapshots) -> Result<(String, Option<String>)> {
        let session = self.session(store)?;
        let given = &self.snapshot;
        if is_uuid(given) {
            return Ok((given.to_ascii_lowercase(), session));
        }
        let prefix = given.to_ascii_lowercase();
        let shown = crate::text::one_line(given);
        if prefix.len() < select::MIN_PREFIX
            || !prefix.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
        {
            return Err(Error::usage(format!(
                "{shown:?} is not a snapshot id: give the id or at least {} of its first characters",
                select::MIN_PREFIX
            )));
        }
        let found = snapshots.with_prefix(store, &prefix, session.as_deref())?;
        match found.as_slice() {
            [(id, owner)] => Ok((id.clone(), Some(owner.clone()))),
            [] => Err(Error::NotFound(format!(
                "no snapshot has the id prefix {shown:?}"
            ))),
            many => Err(Error::usage(format!(
                "{shown:?} names {} snapshots: {}; give more of the id",
                many.len(),
                many.iter()
                    .take(5)
                    .map(|(id, _)| id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }
}

pub(crate) fn run(ctx: &Context, command: SnapshotCommand) -> Result<()> {
    match command {
        SnapshotCommand::Create(args) => create::run(ctx, args),
        SnapshotCommand::List(args) => list::run(ctx, args),
        SnapshotCommand::Show(args) => show::run(ctx, args),
        SnapshotCommand::Restore(args) => restore::run(ctx, args),
        SnapshotCommand::Delete(args) => delete::run(ctx, args),
    }
}
