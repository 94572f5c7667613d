//! `ollm-session keep`.

use std::time::Duration;

use clap::Args;
use serde::Serialize;

use super::Context;
use crate::cli::footer;
use crate::error::{Error, Result};

/// Keep the PostgreSQL store's connections open between commands: a short
/// command then takes about half the time.
///
/// Each command otherwise starts a server process of its own; through the
/// keeper it finds a connection already made, whose caches are warm. Runs
/// until SIGINT or SIGTERM, or `--idle` without a command; prints one JSON
/// line when ready (`"event":"ready"`, the socket and the pid) and one when
/// it stops. Commands find it by the store's URL under `$OLLM_HOME/run/` (a
/// private directory; it serves only its own user) and connect directly
/// when it is not running. A connection a command leaves in a transaction
/// (a killed writer) is closed, not kept, so the server rolls it back.
#[derive(Debug, Args)]
#[command(after_help = footer(
    "  ollm-session --store postgresql:///ollm keep --idle 30m &
  ollm-session --store postgresql:///ollm list --limit 20"
))]
pub(crate) struct KeepArgs {
    /// Stop after this long without a command (e.g. `30m`, `2h`).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    idle: Option<Duration>,
}

fn parse_duration(text: &str) -> std::result::Result<Duration, String> {
    crate::timestamp::parse_duration(text)
        .ok_or_else(|| "not a duration (e.g. 30s, 10m, 2h)".to_string())
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Event<'a> {
    event: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    socket: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pid: Option<u32>,
    /// Why it stopped: `signal`, `idle`, `socket removed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    /// Commands it served.
    #[serde(skip_serializing_if = "Option::is_none")]
    served: Option<u64>,
}

pub(crate) fn run(ctx: &Context, args: KeepArgs) -> Result<()> {
    let (store, _) = ctx.store()?;
    let (stopped, served) = store.keep(args.idle, |ready| {
        ctx.printer().record(&Event {
            event: "ready",
            socket: Some(ready.socket.display().to_string()),
            pid: Some(ready.pid),
            reason: None,
            served: None,
        })
    })?;
    let stop = Event {
        event: "stopped",
        socket: None,
        pid: None,
        reason: Some(stopped.as_str()),
        served: Some(served),
    };
    match ctx.printer().record(&stop) {
        Err(Error::BrokenPipe) | Ok(()) => Ok(()),
        Err(err) => Err(err),
    }
}
