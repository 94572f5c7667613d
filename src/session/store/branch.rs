//! Branching a session: a new session holding the history before a
//! message, which records where it came from.

use super::{Created, Naming, Publish, Store};
use crate::error::{Error, Result};
use crate::session::model::{Place, SessionHead, SessionSummary, check_id, new_id};

/// How far "(branch N)" counts before a branch shares a title.
const MAX_BRANCH_NUMBER: u32 = 100;

impl Store {
    /// A new session holding the history of `id` before message index `at`
    /// (with the tool calls of the turns kept), recording `parentSessionId`
    /// and `branchPoint`. `at` may be the message count (a full copy); a
    /// message answering a tool call cannot start a branch.
    pub fn branch(&self, id: &str, at: u64, title: Option<String>) -> Result<Created> {
        let loaded = self.load(id)?;
        let source = &loaded.session;
        let count = source.messages.len() as u64;
        if at > count {
            return Err(Error::input(format!(
                "message index {at} is out of range: session {id} has {count} messages, so a branch point is 0 to {count}"
            )));
        }
        if at < count && source.messages[at as usize].is_tool_result() {
            return Err(Error::input(format!(
                "message {at} answers a tool call of the turn before it, and a branch never separates them; branch at {} or later",
                at + 1
            )));
        }
        let mut entries = Vec::new();
        for (place, tokens) in loaded.order.iter().zip(&loaded.tokens) {
            if matches!(*place, Place::Message(i) if i as u64 >= at) {
                break;
            }
            let entry = loaded.entry(*place);
            let tokens = tokens.unwrap_or_else(|| entry.estimated_tokens());
            entries.push((self.redacted(&entry).0, Some(tokens)));
        }
        let mut metadata = source.metadata.clone();
        metadata.token_count = 0;
        metadata.compression_count = 0;
        metadata.compression_history.clear();
        let now = self.now();
        let head = SessionHead {
            session_id: new_id(),
            start_time: now.clone(),
            last_activity: now,
            model: source.model.clone(),
            provider: source.provider.clone(),
            title: self.redact_text(match title {
                Some(title) => Some(title),
                None => source
                    .title
                    .as_deref()
                    .map(|parent| self.free_branch_title(parent))
                    .transpose()?,
            }),
            parent_session_id: Some(id.to_string()),
            branch_point: Some(at),
            workspace: source.workspace.clone(),
            metadata,
            extra: source.extra.clone(),
        };
        self.inner.publish(Publish {
            head,
            entries,
            enforce_max: true,
        })
    }

    /// The sessions branched from `id` (from summaries only).
    /// A branch's default title: its parent's with "(branch)", numbered
    /// when taken, so that a title keeps naming one session.
    fn free_branch_title(&self, parent: &str) -> Result<String> {
        for n in 1..=MAX_BRANCH_NUMBER {
            let candidate = if n == 1 {
                format!("{parent} (branch)")
            } else {
                format!("{parent} (branch {n})")
            };
            let naming = Naming {
                title: &candidate,
                prefix: None,
                workspace: None,
            };
            if self.named(&naming)?.is_empty() {
                return Ok(candidate);
            }
        }
        Ok(format!("{parent} (branch)"))
    }

    pub fn branches(&self, id: &str) -> Result<Vec<SessionSummary>> {
        check_id(id, "session")?;
        self.inner.children(id)
    }
}
