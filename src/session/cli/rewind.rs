//! `ollm-session rewind`: the conversation and the files back to one point.

use clap::Args;
use serde::Serialize;

use super::{Context, SessionRef};
use crate::checkpoint::Restored;
use crate::cli::footer;
use crate::error::{ExitCode, Result};
use crate::session::Created;

/// Go back to point N: branch the conversation at N messages (`branch
/// --at N`) and restore the files to checkpoint turn N (`ollm checkpoint
/// restore --turn N`), or only one of them. A runtime that snapshots with
/// `--turn` set to the session's message count makes one N name both.
/// The files go first: at a conflict (a file changed since the session's
/// last checkpoint) nothing changes, the conversation is not branched,
/// and the exit code is 1; --force restores anyway. Prints
/// {"branch":{…}|null,"code":{…}|null}.
#[derive(Debug, Args)]
#[command(after_help = footer("  ollm-session rewind ID 6                 # conversation and files
  ollm-session rewind ID 6 --code          # files only
  ollm-session rewind ID 4 --conversation"))]
pub(crate) struct RewindArgs {
    /// The session: its id, a unique prefix of it (4+ characters) or its title.
    #[arg(value_name = "ID")]
    session: String,
    /// The point to go back to: messages kept, and the checkpoint turn.
    #[arg(value_name = "N")]
    at: u64,
    /// Restore the files (alone, unless --conversation too).
    #[arg(long)]
    code: bool,
    /// Branch the conversation (alone, unless --code too).
    #[arg(long)]
    conversation: bool,
    /// Restore files changed since the last checkpoint too (undoable: see
    /// the report's `undoTurn`).
    #[arg(long)]
    force: bool,
}

/// What `rewind` did.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct Rewound {
    branch: Option<Created>,
    code: Option<Restored>,
}

pub(crate) fn run(ctx: &Context, args: RewindArgs) -> Result<ExitCode> {
    let (store, config) = ctx.store()?;
    let session = SessionRef {
        id: Some(args.session),
        last: false,
        here: false,
    };
    let id = session.resolve(&store)?;
    let both = !args.code && !args.conversation;
    let mut rewound = Rewound {
        branch: None,
        code: None,
    };
    if args.code || both {
        let restored = crate::checkpoint::restore_turn(config, &id, args.at, args.force, false)?;
        let blocked = !restored.applied && !restored.conflicts.is_empty();
        rewound.code = Some(restored);
        if blocked {
            ctx.printer().changed(&rewound)?;
            return Ok(ExitCode::Verdict);
        }
    }
    if args.conversation || both {
        let created = store.branch(&id, args.at, None)?;
        super::warn_removed(&created.removed, config.services.session.max_sessions);
        rewound.branch = Some(created);
    }
    ctx.printer().changed(&rewound)?;
    Ok(ExitCode::Success)
}
