//! What the `ollm-context` commands do, as functions of a located store:
//! finding the store, changing it, and the typed results the commands print.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::entry::{Entry, Source, validate_key};
use super::file;
use super::store::NewEntry;
use super::written;
use crate::config::notices;
use crate::config::trust::{self, Workspace};
use crate::diag;
use crate::error::Result;
use crate::output::Tabular;

/// The store a command uses, and for the workspace's store, the workspace.
#[derive(Debug)]
pub struct Located {
    pub path: PathBuf,
    /// `Some` for the workspace store: the workspace, if one exists yet.
    pub workspace: Option<Option<Workspace>>,
    /// Where the workspace was looked for from.
    start: PathBuf,
}

/// The store named by `--file`, else the session's (`--session`), else the
/// workspace's: the nearest `.ollm/` above `cwd`, or a new one at the top of
/// the git work tree (not in a subdirectory of it).
pub fn locate(file: Option<&Path>, session: Option<&str>, cwd: &Path) -> Result<Located> {
    let start = cwd.to_path_buf();
    if let Some(path) = file {
        return Ok(Located {
            path: path.to_path_buf(),
            workspace: None,
            start,
        });
    }
    if let Some(id) = session {
        return Ok(Located {
            path: file::session_store(id)?,
            workspace: None,
            start,
        });
    }
    // Refuses a .ollm/ owned by another user.
    let workspace = trust::find(cwd)?;
    Ok(Located {
        path: file::workspace_store(cwd),
        workspace: Some(workspace),
        start,
    })
}

/// What `add` changed.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[schemars(rename = "ContextAdded")]
#[serde(rename_all = "camelCase")]
pub struct Added {
    /// The key added.
    pub added: String,
    /// Whether it replaced a live entry with that key.
    pub replaced: bool,
    pub store: PathBuf,
}

/// What `remove` and `clear` changed.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[schemars(rename = "ContextRemoved")]
#[serde(rename_all = "camelCase")]
pub(crate) struct Removed {
    /// How many live entries went.
    pub removed: usize,
    /// Their keys, in insertion order.
    pub keys: Vec<String>,
    pub store: PathBuf,
}

/// Adds (or replaces) an entry. A workspace store that this add creates
/// is the user's own, so its new `.ollm/` is trusted as it is created; in a
/// workspace that is not trusted, the entry is remembered as the user's
/// ([`written`]), so the prompt still takes it.
pub fn add(located: &Located, new: NewEntry, now: jiff::Timestamp) -> Result<Added> {
    validate_key(&new.key)?;
    let key = new.key.clone();
    let (replaced, entries) = file::update(&located.path, |store| {
        let replaced = store.add(new, now);
        Ok((replaced, store.entries.clone()))
    })?;
    // The entry is stored: what follows is bookkeeping under $OLLM_HOME,
    // and its failure must not read as the add's (exit 0, a warning that
    // says what the entry lacks).
    let kept_for_the_prompt = match &located.workspace {
        Some(None) => trust::find(&located.start)
            .and_then(|created| created.map(|ws| trust::trust_workspace(&ws)).transpose())
            .map(drop),
        Some(Some(workspace)) if !workspace.trusted() => entries
            .iter()
            .find(|e| e.key == key)
            .map_or(Ok(()), |added| {
                written::remember(&workspace.root, added, &entries)
            }),
        _ => Ok(()),
    };
    if let Err(err) = kept_for_the_prompt {
        let root = located
            .path
            .parent()
            .and_then(Path::parent)
            .unwrap_or(&located.start);
        diag::warn(format!(
            "`{key}` was added, but the prompt will not take it until you trust the workspace \
             (ollm trust {}): {err}",
            root.display()
        ));
    }
    Ok(Added {
        added: key,
        replaced,
        store: located.path.clone(),
    })
}

/// Removes one entry; `removed` is 0 when there was none.
pub(crate) fn remove(path: &Path, key: &str, now: jiff::Timestamp) -> Result<Removed> {
    let found = file::update(path, |store| Ok(store.remove(key, now)))?;
    let keys = if found { vec![key.to_string()] } else { vec![] };
    Ok(Removed {
        removed: keys.len(),
        keys,
        store: path.to_path_buf(),
    })
}

/// Removes every entry, or those of one source.
pub(crate) fn clear(path: &Path, source: Option<Source>, now: jiff::Timestamp) -> Result<Removed> {
    let keys = file::update(path, |store| Ok(store.clear(source, now)))?;
    Ok(Removed {
        removed: keys.len(),
        keys,
        store: path.to_path_buf(),
    })
}

/// The entries that go into the prompt, in prompt order. A workspace that is
/// not trusted contributes only what the user added there with
/// `ollm-context add` (with a warning counting the rest and saying how to
/// trust it).
pub fn prompt_entries(located: &Located, now: jiff::Timestamp) -> Result<Vec<Entry>> {
    let store = file::read(&located.path)?;
    let ordered: Vec<Entry> = store.prompt_order(now).into_iter().cloned().collect();
    if let Some(Some(workspace)) = &located.workspace
        && !workspace.trusted()
        && !ordered.is_empty()
    {
        let yours = written::known(&workspace.root);
        let (own, foreign): (Vec<Entry>, Vec<Entry>) = ordered
            .into_iter()
            .partition(|e| yours.contains(&written::fingerprint(&e.key, &e.content)));
        let left_out: Vec<u8> = foreign
            .iter()
            .flat_map(|e| written::fingerprint(&e.key, &e.content).into_bytes())
            .collect();
        if !foreign.is_empty() && notices::is_news("context", &workspace.root, &left_out) {
            crate::diag::warn(format!(
                "{}: {} left out of the prompt: the workspace is not trusted and you did not add {} here with ollm-context add; if you trust it: {}",
                located.path.display(),
                match foreign.len() {
                    1 => "1 context entry".to_string(),
                    n => format!("{n} context entries"),
                },
                if foreign.len() == 1 { "it" } else { "them" },
                workspace.trust_hint()
            ));
        }
        return Ok(own);
    }
    Ok(ordered)
}

/// A context entry as a row of `list` at a terminal.
impl Tabular for Entry {
    fn headers() -> &'static [&'static str] {
        &["KEY", "PRIORITY", "SOURCE", "EXPIRES", "CONTENT"]
    }

    fn cells(&self) -> Vec<String> {
        let source = serde_json::to_value(self.source)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let expires = self.expires_at.map_or_else(
            || "-".into(),
            |at| crate::timestamp::format_millis(at.as_millisecond()),
        );
        vec![
            self.key.clone(),
            self.priority.to_string(),
            source,
            expires,
            self.content.clone(),
        ]
    }

    fn numeric() -> &'static [usize] {
        &[1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(source: Source) -> NewEntry {
        NewEntry {
            key: "k".into(),
            content: "c".into(),
            priority: 1,
            source,
            ttl: None,
        }
    }

    #[test]
    fn mutations_report_what_they_changed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("context.json");
        let located = locate(Some(&path), None, dir.path()).unwrap();
        let now = jiff::Timestamp::now();
        let added = add(&located, entry(Source::Hook), now).unwrap();
        assert_eq!((added.added.as_str(), added.replaced), ("k", false));
        assert!(add(&located, entry(Source::Hook), now).unwrap().replaced);
        let missing = remove(&path, "nope", now).unwrap();
        assert_eq!((missing.removed, missing.keys.len()), (0, 0));
        let cleared = clear(&path, Some(Source::Hook), now).unwrap();
        assert_eq!((cleared.removed, cleared.keys), (1, vec!["k".to_string()]));
    }

    #[test]
    fn a_list_row_shows_the_entry_with_no_expiry_as_a_dash() {
        let mut store = super::super::Store::new();
        store.add(entry(Source::User), jiff::Timestamp::UNIX_EPOCH);
        let cells = store.entries[0].cells();
        assert_eq!(cells, ["k", "1", "user", "-", "c"]);
    }
}
