//! The rows of `ollm-session`'s tables. Each wraps what the JSON shows
//! (serialized unchanged, so piped output is the same) and adds what a
//! person reads at a terminal: short ids, relative and local times, a
//! preview for an untitled session, the parent of a branch.

use serde::Serialize;

use super::when;
use crate::output::Tabular;
use crate::session::model::SessionSummary;
use crate::session::query::Hit;
use crate::session::snapshot::SnapshotInfo;
use crate::session::store::{SetAside, Store};
use crate::timestamp::{self, Millis};

/// Characters of an id shown in a table (a prefix every command takes).
const SHORT_ID: usize = 8;

/// The width of a session's title kept at a terminal before the other
/// columns are cut or left out (room for most titles at 80 columns).
const TITLE_WIDTH: usize = 40;

pub(crate) fn short(id: &str) -> &str {
    id.get(..SHORT_ID).unwrap_or(id)
}

/// One session: `list`, `branches`.
#[derive(Serialize)]
#[serde(transparent)]
pub(crate) struct SessionRow {
    pub summary: SessionSummary,
    /// The first user message, shown for an untitled session.
    #[serde(skip)]
    pub preview: Option<String>,
    #[serde(skip)]
    pub now: Millis,
}

impl SessionRow {
    /// Rows for `summaries`; with `previews`, untitled sessions get their
    /// first user message (read from the store, up to that message only).
    pub(crate) fn build(
        store: &Store,
        summaries: Vec<SessionSummary>,
        previews: bool,
    ) -> Vec<SessionRow> {
        let now = timestamp::now_millis();
        summaries
            .into_iter()
            .map(|summary| {
                let preview = (previews && summary.title.is_none())
                    .then(|| store.first_user_text(&summary.session_id).ok().flatten())
                    .flatten();
                SessionRow {
                    summary,
                    preview,
                    now,
                }
            })
            .collect()
    }

    /// The title, else the first user message in quotes, after the parent
    /// of a branch.
    pub(crate) fn label(&self) -> String {
        let s = &self.summary;
        let name = match (&s.title, &self.preview) {
            (Some(title), _) => crate::text::one_line(title),
            (None, Some(text)) => format!("\"{}\"", crate::text::one_line(text)),
            (None, None) => String::new(),
        };
        match &s.parent_session_id {
            Some(parent) => format!("↳ {}: {name}", short(parent)),
            None => name,
        }
    }
}

impl Tabular for SessionRow {
    fn headers() -> &'static [&'static str] {
        &[
            "ID",
            "ACTIVE",
            "LOCAL TIME",
            "PROJECT",
            "MODEL",
            "MSGS",
            "TITLE",
        ]
    }
    /// The id is what a person copies from the table.
    fn whole() -> &'static [usize] {
        &[0]
    }
    fn at_least() -> Option<(usize, usize)> {
        Some((6, TITLE_WIDTH))
    }
    /// At 80 columns the local time and then the model give way to the
    /// title (`ACTIVE` still says when; `get` says with which model).
    fn optional() -> &'static [usize] {
        &[2, 4]
    }
    fn cells(&self) -> Vec<String> {
        let s = &self.summary;
        vec![
            short(&s.session_id).to_string(),
            when::ago(&s.last_activity, self.now),
            when::local(&s.last_activity),
            s.workspace.as_deref().map(project).unwrap_or_default(),
            s.model.clone(),
            s.message_count.to_string(),
            self.label(),
        ]
    }
    fn numeric() -> &'static [usize] {
        &[5]
    }
}

/// A workspace as a person names the project: its last path part (`~`
/// for the home directory itself).
pub(crate) fn project(workspace: &str) -> String {
    let path = std::path::Path::new(workspace);
    if crate::paths::home_dir().is_some_and(|home| home == path) {
        return "~".into();
    }
    path.file_name().map_or_else(
        || workspace.to_string(),
        |name| name.to_string_lossy().into_owned(),
    )
}

/// One search hit.
#[derive(Serialize)]
#[serde(transparent)]
pub(crate) struct HitRow<'a> {
    pub hit: &'a Hit,
    #[serde(skip)]
    pub now: Millis,
}

impl Tabular for HitRow<'_> {
    fn headers() -> &'static [&'static str] {
        &["SESSION", "AT", "ROLE", "WHEN", "MATCH"]
    }
    /// The id is what a person copies from the table.
    fn whole() -> &'static [usize] {
        &[0]
    }
    fn cells(&self) -> Vec<String> {
        let h = &self.hit;
        let at = match (h.message_index, h.tool_call_index) {
            (Some(i), _) => format!("#{i}"),
            (_, Some(i)) => format!("tool#{i}"),
            _ => String::new(),
        };
        vec![
            short(&h.session_id).to_string(),
            at,
            h.role.to_string(),
            when::ago(&h.timestamp, self.now),
            h.snippet.clone(),
        ]
    }
}

/// One snapshot of a session.
#[derive(Serialize)]
#[serde(transparent)]
pub(crate) struct SnapshotRow {
    pub info: SnapshotInfo,
    #[serde(skip)]
    pub now: Millis,
}

impl Tabular for SnapshotRow {
    fn headers() -> &'static [&'static str] {
        &[
            "SNAPSHOT",
            "TAKEN",
            "LOCAL TIME",
            "MSGS",
            "TOKENS",
            "SUMMARY",
        ]
    }
    fn cells(&self) -> Vec<String> {
        let s = &self.info;
        vec![
            s.id.clone(),
            when::ago(&s.timestamp, self.now),
            when::local(&s.timestamp),
            s.message_count.to_string(),
            s.token_count.to_string(),
            s.summary.clone(),
        ]
    }
    fn numeric() -> &'static [usize] {
        &[3, 4]
    }
}

/// A session set aside as corrupt.
#[derive(Serialize)]
#[serde(transparent)]
pub(crate) struct SetAsideRow(pub SetAside);

impl Tabular for SetAsideRow {
    fn headers() -> &'static [&'static str] {
        &["SESSION", "FORMAT", "PATH"]
    }
    fn cells(&self) -> Vec<String> {
        vec![
            self.0.session_id.clone(),
            self.0.format.to_string(),
            self.0.path.display().to_string(),
        ]
    }
}
