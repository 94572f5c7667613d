//! `--session ID`: compress a stored session's history. The session's
//! messages are read, never rewritten (document 003: compression changes
//! what is sent to the model, not what is saved); a compression that
//! changed the history increases `metadata.compressionCount` by exactly one
//! and is noted in `metadata.compressionHistory` (Property 13). When usage
//! is at or above `snapshots.autoThreshold`, a snapshot is taken first; a
//! snapshot that cannot be written is a warning (`snapshotWarning` in the
//! result), never a failed turn; so is a compression note that cannot be
//! stored (`noteWarning`: a full disk, where the OLLM CLI's format needs
//! room for a whole copy of the file), the count then left as it was.

use serde_json::{Map, Value, json};

use super::engine::{self, Outcome, Settings};
use super::history::History;
use super::summarizer::Summarizer;
use super::tokens::Tokenizer;
use crate::error::{Error, Result};
use crate::session::{Snapshots, Store};

/// When to snapshot before compressing.
#[derive(Debug, Clone, Copy)]
pub struct SnapshotPolicy {
    /// `snapshots.enabled && snapshots.autoCreate`.
    pub enabled: bool,
    /// `snapshots.autoThreshold`: usage (tokens ÷ limit) at which to snapshot.
    pub threshold: f64,
}

/// Session `id`'s history as compression sees it: its records in the
/// store's order (recorded order; a plain spec file's by
/// [`crate::session::model::timeline`]), the same order `ollm-session`
/// exports and `ollm-loopcheck` checks.
pub(crate) fn stored_history(store: &Store, id: &str) -> Result<History> {
    Ok(load_history(store, id)?.0)
}

/// [`stored_history`] and the session's `metadata.compressionCount`.
fn load_history(store: &Store, id: &str) -> Result<(History, u64)> {
    let loaded = store.load(id)?;
    let encode = |v: Result<Value, serde_json::Error>| {
        v.map_err(|e| Error::Corrupt(format!("session {id}: cannot read its records ({e})")))
    };
    let session = &loaded.session;
    let messages: Vec<Value> = session
        .messages
        .iter()
        .map(|m| encode(serde_json::to_value(m)))
        .collect::<Result<_>>()?;
    let calls: Vec<Value> = session
        .tool_calls
        .iter()
        .map(|c| encode(serde_json::to_value(c)))
        .collect::<Result<_>>()?;
    let history = History::from_stored(messages, calls, &loaded.order)?;
    Ok((history, session.metadata.compression_count))
}

/// What a session compression did besides the compression itself.
#[derive(Debug)]
pub struct SessionOutcome {
    pub outcome: Outcome,
    pub has_tool_calls: bool,
    /// `metadata.compressionCount` after this run.
    pub compression_count: u64,
    /// The snapshot taken before compressing, if any.
    pub snapshot_id: Option<String>,
    /// Why the snapshot due before compressing could not be taken: the
    /// compression goes on without it (never failing the turn for that).
    pub snapshot_warning: Option<String>,
    /// Why the compression could not be noted in the session: the result
    /// is given all the same.
    pub note_warning: Option<String>,
}

/// Compresses session `id` of `store`.
pub fn compress_session(
    store: &Store,
    snapshots: &Snapshots,
    policy: SnapshotPolicy,
    id: &str,
    tokenizer: &Tokenizer,
    settings: &Settings,
    summarizer: &dyn Summarizer,
) -> Result<SessionOutcome> {
    let (history, mut compression_count) = load_history(store, id)?;
    let mut snapshot_id = None;
    let mut snapshot_warning = None;
    let outcome =
        engine::compress_with(&history, tokenizer, settings, summarizer, &mut |verdict| {
            let usage = verdict.token_count as f64 / verdict.limit.max(1) as f64;
            if policy.enabled && usage >= policy.threshold {
                let note = format!(
                    "before compression: {} tokens, {:.0}% of the {}-token limit",
                    verdict.token_count,
                    usage * 100.0,
                    verdict.limit
                );
                match snapshots.create(store, id, None, Some(note)) {
                    Ok(created) => snapshot_id = Some(created.info.id),
                    Err(err) => {
                        let text = format!("the snapshot before compression was not taken: {err}");
                        crate::diag::warn(&text);
                        snapshot_warning = Some(text);
                    }
                }
            }
            Ok(())
        })?;
    let mut note_warning = None;
    if outcome.changed() {
        let details = details(&outcome, snapshot_id.as_deref());
        match store.record_compression(id, &details) {
            Ok(count) => compression_count = count,
            Err(err @ Error::Io { .. }) => {
                let text = format!("the compression was not noted in the session: {err}");
                crate::diag::warn(&text);
                note_warning = Some(text);
            }
            Err(err) => return Err(err),
        }
    }
    Ok(SessionOutcome {
        has_tool_calls: history.has_tool_calls,
        outcome,
        compression_count,
        snapshot_id,
        snapshot_warning,
        note_warning,
    })
}

fn details(outcome: &Outcome, snapshot: Option<&str>) -> Map<String, Value> {
    let summary = serde_json::to_value(outcome.report(false)).unwrap_or(Value::Null);
    let mut map = Map::new();
    for key in [
        "status",
        "strategy",
        "appliedStrategy",
        "originalTokenCount",
        "compressedTokenCount",
        "removedCount",
        "summaryTokens",
        "summarizer",
        "tokenizer",
    ] {
        map.insert(key.into(), summary[key].clone());
    }
    map.insert("snapshotId".into(), json!(snapshot));
    map
}
