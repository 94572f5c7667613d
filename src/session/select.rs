//! Finding the session a person means: a whole id, a unique id prefix (at
//! least [`MIN_PREFIX`] characters, as git and docker take them), a title,
//! or the latest one (`--last`), optionally among the sessions made in this
//! workspace (`--here`). Every command that takes a session id, and
//! `ollm-compress`/`ollm-loopcheck --session`, resolves it here.

use std::path::{Path, PathBuf};

use super::model::{SessionSummary, is_uuid};
use super::store::{ListQuery, Naming, Store};
use crate::error::{Error, Result};
use crate::timestamp::Millis;

/// The shortest id prefix taken.
pub(crate) const MIN_PREFIX: usize = 4;

/// Candidates named in an "ambiguous" error before "and N more".
const SHOWN_CANDIDATES: usize = 5;

/// What a person gave to name a session.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selector {
    /// An id, a unique id prefix or a title.
    pub reference: Option<String>,
    /// The most recently active session.
    pub last: bool,
    /// Only sessions made in this workspace; alone, the latest of them.
    pub here: bool,
    /// A title must be given whole (for a command that cannot be undone):
    /// a part of one is named back instead of taken.
    pub whole_title: bool,
}

/// The workspace a directory belongs to: the nearest ancestor holding
/// `.git` (the repository's top level), else the directory itself.
pub fn workspace_of(dir: &Path) -> PathBuf {
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    crate::paths::work_tree_top(&dir).map_or_else(|| dir.clone(), Path::to_path_buf)
}

/// The workspace of the current directory, as stored in a session.
pub fn current_workspace() -> Result<String> {
    let cwd = std::env::current_dir().map_err(|e| Error::io(".", &e))?;
    Ok(workspace_of(&cwd).display().to_string())
}

/// The id `selector` names. A whole id is taken as given (the command then
/// says whether it exists); anything else is looked up in the store, which
/// finds the candidates without reading every session when it can.
pub fn select(store: &Store, selector: &Selector) -> Result<String> {
    if selector.last && selector.reference.is_some() {
        return Err(Error::usage("give a session id or --last, not both"));
    }
    let workspace = if selector.here {
        Some(current_workspace()?)
    } else {
        None
    };
    match &selector.reference {
        // Ids are written in lowercase; one copied in capitals (from a
        // tool that shows them so) names the same session, unless the
        // store really holds one spelled that way.
        Some(reference) if is_uuid(reference) => {
            let lower = reference.to_ascii_lowercase();
            if lower != *reference && store.exists(reference).is_err() {
                Ok(lower)
            } else {
                Ok(reference.clone())
            }
        }
        Some(reference) => {
            let prefix = id_prefix(reference);
            let candidates = store.named(&Naming {
                title: reference,
                prefix: prefix.as_deref(),
                workspace: workspace.as_deref(),
            })?;
            match resolve_in(&candidates, reference, workspace.as_deref()) {
                Err(Error::NotFound(message)) => by_title_loosely(
                    store,
                    reference,
                    workspace.as_deref(),
                    selector.whole_title,
                    message,
                ),
                resolved => resolved,
            }
        }
        None if selector.last || selector.here => {
            let newest = store.list_where(&ListQuery::newest(1, workspace.as_deref()))?;
            latest_in(&newest.sessions, workspace.as_deref(), store)
        }
        None => Err(Error::usage(
            "name a session: its id, a prefix, its title, or --last",
        )),
    }
}

/// [`select`] for an optional reference: `None` when nothing names a
/// session (no reference, no `--last`, no `--here`).
pub(crate) fn select_optional(store: &Store, selector: &Selector) -> Result<Option<String>> {
    if selector.reference.is_none() && !selector.last && !selector.here {
        return Ok(None);
    }
    select(store, selector).map(Some)
}

/// Resolves a reference that is not necessarily a whole id.
pub(crate) fn resolve(store: &Store, reference: &str) -> Result<String> {
    select(
        store,
        &Selector {
            reference: Some(reference.to_string()),
            ..Selector::default()
        },
    )
}

/// The id prefix `reference` can be (lowercase), if it can be one.
fn id_prefix(reference: &str) -> Option<String> {
    let prefix = reference.to_ascii_lowercase();
    (prefix.len() >= MIN_PREFIX && prefix.chars().all(|c| c.is_ascii_hexdigit() || c == '-'))
        .then_some(prefix)
}

fn latest_in(
    sessions: &[SessionSummary],
    workspace: Option<&str>,
    store: &Store,
) -> Result<String> {
    sessions
        .first()
        .map(|s| s.session_id.clone())
        .ok_or_else(|| match workspace {
            Some(w) => Error::NotFound(format!("no sessions made in this workspace ({w})")),
            None => Error::NotFound(format!("no sessions in {}", store.location())),
        })
}

/// A title as a person types it back: whitespace runs (a `\r`, a tab, a
/// line break) as one space, and case ignored.
fn loose_title(title: &str) -> String {
    crate::text::one_line(title).to_lowercase()
}

/// When nothing is titled `reference` exactly: the one session whose title
/// differs from it only in case or whitespace, else the one whose title
/// holds it as a part (unless `whole_title`), else the error `missed` ends
/// with the titles holding it, or the closest title and where to look for
/// words said in a session. Reads every session's summary, so it runs only
/// once the exact lookup has missed.
fn by_title_loosely(
    store: &Store,
    reference: &str,
    workspace: Option<&str>,
    whole_title: bool,
    missed: String,
) -> Result<String> {
    let wanted = loose_title(reference);
    if wanted.is_empty() {
        return Err(Error::NotFound(missed));
    }
    let query = ListQuery {
        workspace: workspace.map(str::to_string),
        ..ListQuery::default()
    };
    let sessions = store.list_where(&query)?.sessions;
    if sessions.is_empty() {
        return Err(Error::NotFound(missed));
    }
    let titled: Vec<(&SessionSummary, String)> = sessions
        .iter()
        .filter_map(|s| Some((s, loose_title(s.title.as_deref()?))))
        .collect();
    let same: Vec<&SessionSummary> = titled
        .iter()
        .filter(|(_, title)| *title == wanted)
        .map(|(s, _)| *s)
        .collect();
    match same.as_slice() {
        [one] => return Ok(one.session_id.clone()),
        [] => {}
        many => return Err(ambiguous(many, reference)),
    }
    let holding: Vec<&SessionSummary> = titled
        .iter()
        .filter(|(_, title)| title.contains(&wanted))
        .map(|(s, _)| *s)
        .collect();
    match holding.as_slice() {
        [one] if !whole_title => Ok(one.session_id.clone()),
        [] => {
            let close = crate::suggest::closest(&wanted, titled.iter().map(|(_, t)| t.as_str()));
            let hint = close
                .and_then(|close| titled.iter().find(|(_, t)| t == close))
                .and_then(|(s, _)| s.title.as_deref())
                .map_or_else(
                    || {
                        format!(
                            "; to find it by what was said in it: ollm session search {:?}",
                            crate::text::one_line(reference)
                        )
                    },
                    |title| format!("; did you mean {:?}?", crate::text::one_line(title)),
                );
            Err(Error::NotFound(missed + &hint))
        }
        some => Err(Error::NotFound(format!(
            "{missed}; {:?} is in {}: {}; give the whole title or the id",
            crate::text::one_line(reference),
            crate::text::plural(some.len() as u64, "title", "titles"),
            named(some)
        ))),
    }
}

/// "REFERENCE names N sessions: …", naming the first few.
fn ambiguous(many: &[&SessionSummary], reference: &str) -> Error {
    Error::usage(format!(
        "{:?} names {} sessions: {}; give more of the id",
        crate::text::one_line(reference),
        many.len(),
        named(many)
    ))
}

/// The first few of `sessions` by id and title, and how many more.
fn named(sessions: &[&SessionSummary]) -> String {
    let mut names: Vec<String> = sessions
        .iter()
        .take(SHOWN_CANDIDATES)
        .map(|s| match &s.title {
            Some(title) => format!("{} ({})", s.session_id, crate::text::one_line(title)),
            None => s.session_id.clone(),
        })
        .collect();
    if sessions.len() > SHOWN_CANDIDATES {
        names.push(format!("and {} more", sessions.len() - SHOWN_CANDIDATES));
    }
    names.join(", ")
}

/// The one session among `sessions` (newest first) whose title is
/// `reference` or whose id starts with it.
pub(crate) fn resolve_in(
    sessions: &[SessionSummary],
    reference: &str,
    workspace: Option<&str>,
) -> Result<String> {
    let prefix = id_prefix(reference);
    let naming = Naming {
        title: reference,
        prefix: prefix.as_deref(),
        workspace: None,
    };
    let matches: Vec<&SessionSummary> = sessions.iter().filter(|s| naming.keeps(s)).collect();
    let shown = crate::text::one_line(reference);
    match matches.as_slice() {
        [one] => Ok(one.session_id.clone()),
        [] => {
            let looks_like_short_prefix = !reference.is_empty()
                && reference.len() < MIN_PREFIX
                && reference.chars().all(|c| c.is_ascii_hexdigit());
            if looks_like_short_prefix {
                return Err(Error::usage(format!(
                    "session id prefix {shown:?} is too short: give at least {MIN_PREFIX} characters"
                )));
            }
            let place = match workspace {
                Some(w) => format!(" made in this workspace ({w})"),
                None => String::new(),
            };
            Err(Error::NotFound(format!(
                "no session{place} has the id prefix or title {shown:?}"
            )))
        }
        many => Err(ambiguous(many, reference)),
    }
}

/// The time `--since` names, relative to `now`: a duration back from now
/// (`90m`, `2h`, `3d`, `1week`) or a date or date-time (`2026-01-15`,
/// `2026-01-15T10:30:00Z`).
pub fn parse_since(text: &str, now: Millis) -> Result<Millis> {
    if let Some(time) = crate::timestamp::parse(text) {
        return Ok(time);
    }
    let ago = crate::timestamp::parse_duration(text).ok_or_else(|| {
        Error::usage(format!(
            "--since {:?}: expected a duration (2h, 3d, 1week) or a date (2026-01-15)",
            crate::text::one_line(text)
        ))
    })?;
    Ok(now.saturating_sub(ago.as_millis().min(i64::MAX as u128) as i64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since_takes_a_duration_back_from_now_or_a_date() {
        let now = 1_700_000_000_000;
        assert_eq!(parse_since("2h", now).unwrap(), now - 7_200_000);
        assert_eq!(parse_since("3d", now).unwrap(), now - 3 * 86_400_000);
        assert_eq!(
            parse_since("2024-01-15", now).unwrap(),
            crate::timestamp::parse("2024-01-15T00:00:00Z").unwrap()
        );
        assert!(matches!(parse_since("soon", now), Err(Error::Usage(_))));
    }

    #[test]
    fn the_list_filter_keeps_what_matches_every_condition() {
        let mut s = summary("907a1a54-0000-4000-8000-000000000001", None);
        s.last_activity = "2024-01-15T10:00:00.000Z".into();
        s.workspace = Some("/w".into());
        let at = crate::timestamp::parse("2024-01-15T10:00:00Z").unwrap();
        let keeps = |f: ListQuery| f.keeps(&s);
        assert!(keeps(ListQuery::default()));
        assert!(keeps(ListQuery {
            model: Some("m".into()),
            since: Some(at),
            workspace: Some("/w".into()),
            ..ListQuery::default()
        }));
        assert!(!keeps(ListQuery {
            model: Some("other".into()),
            ..ListQuery::default()
        }));
        assert!(!keeps(ListQuery {
            since: Some(at + 1),
            ..ListQuery::default()
        }));
        assert!(!keeps(ListQuery {
            workspace: Some("/elsewhere".into()),
            ..ListQuery::default()
        }));
    }

    fn summary(id: &str, title: Option<&str>) -> SessionSummary {
        SessionSummary {
            session_id: id.into(),
            start_time: String::new(),
            last_activity: String::new(),
            model: "m".into(),
            message_count: 0,
            token_count: 0,
            provider: "p".into(),
            tool_call_count: 0,
            compression_count: 0,
            title: title.map(str::to_string),
            parent_session_id: None,
            branch_point: None,
            workspace: None,
        }
    }

    fn sessions() -> Vec<SessionSummary> {
        vec![
            summary("907a1a54-0000-4000-8000-000000000001", Some("refactor")),
            summary("907a2b00-0000-4000-8000-000000000002", None),
            summary("c0ffee00-0000-4000-8000-000000000003", Some("907a")),
        ]
    }

    #[test]
    fn a_unique_prefix_names_its_session_whatever_its_case() {
        assert_eq!(
            resolve_in(&sessions(), "907A1", None).unwrap(),
            "907a1a54-0000-4000-8000-000000000001"
        );
        assert_eq!(
            resolve_in(&sessions(), "c0ff", None).unwrap(),
            "c0ffee00-0000-4000-8000-000000000003"
        );
    }

    #[test]
    fn a_title_names_its_session() {
        assert_eq!(
            resolve_in(&sessions(), "refactor", None).unwrap(),
            "907a1a54-0000-4000-8000-000000000001"
        );
    }

    #[test]
    fn an_ambiguous_reference_lists_every_candidate_and_is_a_usage_error() {
        let err = resolve_in(&sessions(), "907a", None).unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, Error::Usage(_)), "{err:?}");
        assert!(text.contains("3 sessions"), "{text}");
        assert!(
            text.contains("907a1a54-0000-4000-8000-000000000001 (refactor)"),
            "{text}"
        );
        assert!(text.contains("907a2b00"), "{text}");
        assert!(!text.contains('\n'));
    }

    #[test]
    fn a_prefix_shorter_than_four_is_refused_and_an_unknown_one_is_not_found() {
        assert!(matches!(
            resolve_in(&sessions(), "907", None),
            Err(Error::Usage(_))
        ));
        assert!(matches!(
            resolve_in(&sessions(), "dead", None),
            Err(Error::NotFound(_))
        ));
        assert!(matches!(
            resolve_in(&sessions(), "no such title", None),
            Err(Error::NotFound(_))
        ));
    }

    #[test]
    fn the_workspace_is_the_git_top_level_else_the_directory() {
        let root = tempfile::tempdir().unwrap();
        let repo = root.path().join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("src/deep")).unwrap();
        std::fs::create_dir_all(root.path().join("plain/sub")).unwrap();
        let canonical = |p: PathBuf| p.canonicalize().unwrap();
        assert_eq!(
            workspace_of(&repo.join("src/deep")),
            canonical(repo.clone())
        );
        assert_eq!(
            workspace_of(&root.path().join("plain/sub")),
            canonical(root.path().join("plain/sub"))
        );
    }
}
