//! `ollm-checkpoint list`.

use clap::Args;
use serde::Serialize;

use super::SessionArg;
use crate::checkpoint::Sessions;
use crate::checkpoint::manifest::{self, Origin};
use crate::checkpoint::store::Store;
use crate::cli::Ctx;
use crate::error::{ExitCode, Result};
use crate::output::Tabular;

#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    #[command(flatten)]
    session: SessionArg,
}

/// One checkpoint of a session.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Listed {
    turn: u64,
    /// `turn` (a turn boundary), `observed` (before a restore or a tool),
    /// `restore` (what a restore left).
    origin: Origin,
    time: String,
    files: u64,
    root: String,
}

impl Tabular for Listed {
    fn headers() -> &'static [&'static str] {
        &["TURN", "ORIGIN", "TIME", "FILES", "ROOT"]
    }

    fn cells(&self) -> Vec<String> {
        let origin = serde_json::to_value(self.origin)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default();
        vec![
            self.turn.to_string(),
            origin,
            self.time.clone(),
            self.files.to_string(),
            self.root.clone(),
        ]
    }

    fn numeric() -> &'static [usize] {
        &[0, 3]
    }
}

pub(crate) fn run(ctx: &Ctx, sessions: &dyn Sessions, args: &ListArgs) -> Result<ExitCode> {
    let id = args.session.resolve(ctx, sessions)?;
    let session = id.as_str();
    let store = Store::configured(&ctx.config()?.config);
    let mut listed = Vec::new();
    for turn in manifest::turns(&store, session)? {
        let m = manifest::read(&store, session, turn)?;
        listed.push(Listed {
            turn,
            origin: m.origin,
            time: m.time,
            files: m.files,
            root: m.root.display().to_string(),
        });
    }
    ctx.printer.list(&listed)?;
    Ok(ExitCode::Success)
}
