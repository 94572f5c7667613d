//! `ollm-session snapshot …`: one file per subcommand.

mod create;
mod delete;
mod list;
mod restore;
mod show;

use clap::Args;
use clap_complete::engine::ArgValueCandidates;

use super::Context;
use crate::error::Result;
use crate::session::select;
use crate::session::store::Store;

crate::subcommands! {
#[derive(Debug)]
pub enum SnapshotCommand {
    Create(create::CreateArgs),
    List(list::ListArgs),
    Show(show::ShowArgs),
    Restore(restore::RestoreArgs),
    Delete(delete::DeleteArgs),
}
}

/// A snapshot, optionally with the session it belongs to.
#[derive(Debug, Clone, Args)]
pub struct SnapshotRef {
    /// The snapshot's id.
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
}

pub fn run(ctx: &Context, command: SnapshotCommand) -> Result<()> {
    match command {
        SnapshotCommand::Create(args) => create::run(ctx, args),
        SnapshotCommand::List(args) => list::run(ctx, args),
        SnapshotCommand::Show(args) => show::run(ctx, args),
        SnapshotCommand::Restore(args) => restore::run(ctx, args),
        SnapshotCommand::Delete(args) => delete::run(ctx, args),
    }
}
