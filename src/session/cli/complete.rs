//! Dynamic shell completion of session and snapshot ids (clap_complete's
//! `COMPLETE=bash|zsh|fish` protocol): the candidates come from the store
//! when the shell asks, with each session's title (or first user message)
//! as its description.

use clap_complete::engine::CompletionCandidate;

use super::rows::SessionRow;
use crate::config::{self, LoadOptions};
use crate::session::{Snapshots, Store};

fn store() -> Option<(Store, config::Config)> {
    let loaded = config::load(&LoadOptions::default()).ok()?;
    Some((Store::from_config(&loaded.config).ok()?, loaded.config))
}

/// Every session id, newest first, described by its title.
pub(crate) fn session_ids() -> Vec<CompletionCandidate> {
    let Some((store, _)) = store() else {
        return Vec::new();
    };
    let Ok(listing) = store.list() else {
        return Vec::new();
    };
    SessionRow::build(&store, listing.sessions, true)
        .into_iter()
        .enumerate()
        .map(|(order, row)| {
            let label = crate::output::escape_line(&row.label()).into_owned();
            CompletionCandidate::new(row.summary.session_id.clone())
                .help((!label.is_empty()).then(|| label.into()))
                .display_order(Some(order))
        })
        .collect()
}

/// Every snapshot id, described by its session and summary.
pub(crate) fn snapshot_ids() -> Vec<CompletionCandidate> {
    let Some((store, config)) = store() else {
        return Vec::new();
    };
    let snapshots = Snapshots::from_config(&config);
    let Ok(listing) = store.list() else {
        return Vec::new();
    };
    listing
        .sessions
        .iter()
        .filter_map(|s| snapshots.list(&store, &s.session_id).ok())
        .flatten()
        .map(|s| {
            let help = format!("{}: {}", super::rows::short(&s.session_id), s.summary);
            CompletionCandidate::new(s.id)
                .help(Some(crate::output::escape_line(&help).into_owned().into()))
        })
        .collect()
}
