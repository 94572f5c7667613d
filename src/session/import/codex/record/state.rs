//! What a reader carries from a rollout's earlier lines to a read of only
//! its later ones ([`super::super::tail`]).

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::Reader;
use crate::session::import::Source;

/// What the later lines of a rollout need of its earlier ones when they
/// are read alone: the session's fields so far (each as the whole read
/// holds it before [`Reader::finish`]) and whether a prompt awaits its
/// copy. Only taken when no call waits for its output.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct State {
    source_id: String,
    cwd: Option<PathBuf>,
    provider: Option<String>,
    started: Option<String>,
    parent_source_id: Option<String>,
    model: Option<String>,
    title: Option<String>,
    turn_cwd: Option<PathBuf>,
    context_cwd: Option<PathBuf>,
    seen_meta: bool,
    first_timestamp: Option<String>,
    last_timestamp: Option<String>,
    prompt_awaiting_copy: bool,
}

impl Reader {
    /// A reader of the lines after those `state` was taken from
    /// ([`Reader::state`]); `lean` as [`Reader::lean`].
    pub fn resumed(source: &Source, state: State, lean: bool) -> Reader {
        let mut reader = Reader::new(source);
        let t = &mut reader.transcript;
        t.source_id = state.source_id;
        t.cwd = state.cwd;
        t.provider = state.provider;
        t.started = state.started;
        t.parent_source_id = state.parent_source_id;
        t.model = state.model;
        t.title = state.title;
        Reader {
            lean,
            turn_cwd: state.turn_cwd,
            context_cwd: state.context_cwd,
            seen_meta: state.seen_meta,
            first_timestamp: state.first_timestamp,
            last_timestamp: state.last_timestamp,
            prompt_awaiting_copy: state.prompt_awaiting_copy,
            ..reader
        }
    }

    /// What later lines read alone need of those read so far; `None` while
    /// a call waits for its output (the output would finish an item read
    /// before).
    pub fn state(&self) -> Option<State> {
        if !self.pending.is_empty() {
            return None;
        }
        let t = &self.transcript;
        Some(State {
            source_id: t.source_id.clone(),
            cwd: t.cwd.clone(),
            provider: t.provider.clone(),
            started: t.started.clone(),
            parent_source_id: t.parent_source_id.clone(),
            model: t.model.clone(),
            title: t.title.clone(),
            turn_cwd: self.turn_cwd.clone(),
            context_cwd: self.context_cwd.clone(),
            seen_meta: self.seen_meta,
            first_timestamp: self.first_timestamp.clone(),
            last_timestamp: self.last_timestamp.clone(),
            prompt_awaiting_copy: self.prompt_awaiting_copy,
        })
    }
}
