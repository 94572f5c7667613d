//! Sessions started from others, shown as structure: a branch (cut from
//! its parent before one of the parent's messages) and a sub-agent's run
//! (imported from an agent that records the session it ran in). A page
//! links to its parent at the point it started from, and shows each child
//! after the parent's record it started at.

use crate::session::model::{IMPORTED_FROM, Loaded, Place};
use serde::Serialize;

/// How a session came from another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Branch,
    Subagent,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Branch => "branch",
            Kind::Subagent => "subagent",
        }
    }
}

/// The session a session came from, as the session itself records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parent {
    pub kind: Kind,
    /// The parent's id in the store.
    pub id: String,
}

impl Parent {
    /// A branch's parent (`parentSessionId`), or the session a sub-agent
    /// ran in: imported, it has the id the import gives the source session
    /// named by `importedFrom.parentSourceSessionId`.
    pub fn of(loaded: &Loaded) -> Option<Parent> {
        let s = &loaded.session;
        if let Some(parent) = &s.parent_session_id {
            return Some(Parent {
                kind: Kind::Branch,
                id: parent.clone(),
            });
        }
        let from = s.metadata.extra.get(IMPORTED_FROM)?;
        let tool = crate::session::import::named(from.get("tool")?.as_str()?)?;
        let source = from.get("parentSourceSessionId")?.as_str()?;
        Some(Parent {
            kind: Kind::Subagent,
            id: crate::session::import::session_id_for(tool, source),
        })
    }
}

/// A record of a page: `m` (a message) or `t` (a tool call), and its number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Anchor {
    pub k: &'static str,
    pub n: usize,
}

/// A child as its parent's page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct Child {
    pub kind: Kind,
    pub id: String,
    pub title: String,
    pub started: String,
    /// The parent's record it started after (none: before the first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<Anchor>,
    /// Its page in the same archive.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub href: Option<String>,
    /// A branch's cut: the parent's message it was cut before.
    #[serde(skip)]
    pub before: Option<u64>,
}

impl Child {
    /// `loaded` as a child of its parent (`kind`), titled as its own page
    /// is.
    pub fn of(loaded: &Loaded, kind: Kind) -> Child {
        let s = &loaded.session;
        Child {
            kind,
            id: s.session_id.clone(),
            title: super::title::shown_title(loaded),
            started: crate::output::escape_line(&s.start_time).into_owned(),
            after: None,
            href: None,
            before: s.branch_point,
        }
    }

    /// Where in `parent` this child starts: a branch after the last message
    /// it copied; a sub-agent after the last record made before it started.
    pub fn place(&mut self, parent: &Loaded) {
        let s = &parent.session;
        self.after = match self.kind {
            Kind::Branch => match self.before {
                Some(before) if before > 0 && !s.messages.is_empty() => {
                    let copied = usize::try_from(before - 1).unwrap_or(usize::MAX);
                    Some(Anchor {
                        k: "m",
                        n: copied.min(s.messages.len() - 1),
                    })
                }
                _ => None,
            },
            Kind::Subagent => after_time(parent, &self.started),
        };
    }
}

/// The last record of `parent` made at or before `at` (a record without a
/// readable time counts as before); none when `at` is not a time or comes
/// before every record.
pub fn after_time(parent: &Loaded, at: &str) -> Option<Anchor> {
    let s = &parent.session;
    let at = crate::timestamp::parse(at)?;
    parent
        .order
        .iter()
        .take_while(|place| {
            let made = match **place {
                Place::Message(n) => s.messages[n].timestamp(),
                Place::ToolCall(n) => s.tool_calls[n].timestamp(),
            };
            crate::timestamp::parse(made).is_none_or(|made| made <= at)
        })
        .last()
        .map(|place| match *place {
            Place::Message(n) => Anchor { k: "m", n },
            Place::ToolCall(n) => Anchor { k: "t", n },
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::model::Session;

    fn parent() -> Loaded {
        let session: Session = serde_json::from_value(serde_json::json!({
            "sessionId": "p", "startTime": "2026-01-01T00:00:00Z", "model": "m",
            "messages": [
                {"role": "user", "parts": [{"text": "go"}], "timestamp": "2026-01-01T00:00:01Z"},
                {"role": "assistant", "parts": [{"text": "ok"}], "timestamp": "2026-01-01T00:00:02Z"},
                {"role": "user", "parts": [{"text": "more"}], "timestamp": "2026-01-01T00:00:09Z"}],
            "toolCalls": [{"id": "c", "name": "Task", "args": {},
                "result": {"llmContent": ""}, "timestamp": "2026-01-01T00:00:03Z"}],
        }))
        .unwrap();
        Loaded::from_session(session)
    }

    fn child(kind: Kind, started: &str, before: Option<u64>) -> Child {
        Child {
            kind,
            id: "c".into(),
            title: "t".into(),
            started: started.into(),
            after: None,
            href: None,
            before,
        }
    }

    #[test]
    fn a_child_is_placed_after_the_record_it_started_from() {
        let parent = parent();
        let placed = |mut c: Child| {
            c.place(&parent);
            c.after.map(|a| (a.k, a.n))
        };
        // A sub-agent: after the last record made before it started.
        let sub = |at| placed(child(Kind::Subagent, at, None));
        assert_eq!(sub("2026-01-01T00:00:04Z"), Some(("t", 0)));
        assert_eq!(sub("2026-01-01T00:00:01.500Z"), Some(("m", 0)));
        assert_eq!(sub("2025-12-31T23:59:59Z"), None);
        assert_eq!(sub("2026-01-02T00:00:00Z"), Some(("m", 2)));
        assert_eq!(sub("not a time"), None);
        // A branch: after the last message it copied.
        let cut = |before| placed(child(Kind::Branch, "", before));
        assert_eq!(cut(Some(2)), Some(("m", 1)));
        assert_eq!(cut(Some(99)), Some(("m", 2)));
        assert_eq!(cut(Some(0)), None);
        assert_eq!(cut(None), None);
    }
}
