//! The compressions `ollm-compress --session` noted in
//! `metadata.compressionHistory`: compaction boundaries of ollm's own. The
//! stored messages are never changed by a compression, so the page shows
//! where each happened (after the last record made before it) and what it
//! did, rather than hiding anything.

use serde::Serialize;
use serde_json::{Map, Value};

use super::related::{Anchor, after_time};
use crate::output::escape_line;
use crate::session::model::Loaded;

/// One noted compression as the page shows it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Compression {
    pub(super) at: String,
    /// The strategy that ran (`appliedStrategy`, else the one asked for).
    pub(super) strategy: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) tokens_before: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) tokens_after: Option<u64>,
    /// How many records the compressed history left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) removed: Option<u64>,
    /// The snapshot taken before it (`ollm session snapshot restore`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) snapshot: Option<String>,
    /// The record it followed (none: before the first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) after: Option<Anchor>,
}

impl Compression {
    /// The strings it carries, each under its key (for the credential scan).
    pub(super) fn strings(&self) -> impl Iterator<Item = (&'static str, &str)> {
        [("at", self.at.as_str()), ("strategy", &self.strategy)]
            .into_iter()
            .chain(self.snapshot.as_deref().map(|id| ("snapshot", id)))
    }
}

/// The session's noted compressions, in the order they were noted; an entry
/// that is not an object (a hand-edited file) is left out.
pub(super) fn of(loaded: &Loaded) -> Vec<Compression> {
    loaded
        .session
        .metadata
        .compression_history
        .iter()
        .filter_map(Value::as_object)
        .map(|entry| {
            let text = |key: &str| entry.get(key).and_then(Value::as_str);
            let at = text("timestamp").unwrap_or_default();
            Compression {
                at: escape_line(at).into_owned(),
                strategy: escape_line(
                    text("appliedStrategy")
                        .or_else(|| text("strategy"))
                        .unwrap_or_default(),
                )
                .into_owned(),
                tokens_before: count(entry, "originalTokenCount"),
                tokens_after: count(entry, "compressedTokenCount"),
                removed: count(entry, "removedCount"),
                snapshot: text("snapshotId").map(|id| escape_line(id).into_owned()),
                after: after_time(loaded, at),
            }
        })
        .collect()
}

fn count(entry: &Map<String, Value>, key: &str) -> Option<u64> {
    entry.get(key).and_then(Value::as_u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::model::Session;
    use serde_json::json;

    fn loaded(history: Value) -> Loaded {
        let session: Session = serde_json::from_value(json!({
            "sessionId": "s", "startTime": "2026-01-01T00:00:00Z", "model": "m",
            "messages": [
                {"role": "user", "parts": [{"text": "go"}], "timestamp": "2026-01-01T00:00:01Z"},
                {"role": "assistant", "parts": [{"text": "ok"}], "timestamp": "2026-01-01T00:00:05Z"}],
            "toolCalls": [],
            "metadata": {"compressionHistory": history},
        }))
        .unwrap();
        Loaded::from_session(session)
    }

    #[test]
    fn a_noted_compression_is_shown_after_the_last_record_before_it() {
        let page = of(&loaded(json!([
            {"timestamp": "2026-01-01T00:00:03Z", "strategy": "hybrid",
             "appliedStrategy": "truncate", "originalTokenCount": 1800,
             "compressedTokenCount": 600, "removedCount": 4, "snapshotId": "snap-1"},
            "not an object",
            {"timestamp": "2025-01-01T00:00:00Z", "strategy": "summarize\u{1b}[2J"},
            {"strategy": "truncate"}
        ])));
        assert_eq!(page.len(), 3, "the entry that is not an object is left out");
        let first = &page[0];
        assert_eq!(first.strategy, "truncate", "the strategy that ran");
        assert_eq!(
            (first.tokens_before, first.tokens_after, first.removed),
            (Some(1800), Some(600), Some(4))
        );
        assert_eq!(first.snapshot.as_deref(), Some("snap-1"));
        assert_eq!(first.after.map(|a| (a.k, a.n)), Some(("m", 0)));
        assert_eq!(
            page[1].strategy, "summarize\\x1b[2J",
            "escapes made visible"
        );
        assert_eq!(page[1].after, None, "before every record");
        assert_eq!(page[2].after, None, "no time: not placed");
        assert_eq!(page[2].tokens_before, None);
    }
}
