//! What changed in one turn: the session's turn N against the snapshot
//! before it, as unified diffs.

use std::collections::BTreeSet;

use serde::Serialize;
use similar::TextDiff;

use super::manifest;
use super::store::Store;
use super::tree::{Kind, Node, Tree, shown};
use crate::error::Result;

/// One path a turn changed.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FileDiff {
    pub path: String,
    /// `added`, `deleted`, `modified` or `mode` (only the exec bit changed).
    pub change: &'static str,
    /// The unified diff; `null` for a binary or unrestorable content.
    pub diff: Option<String>,
}

/// What `diff` prints.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TurnDiff {
    pub session_id: String,
    pub turn: u64,
    /// The snapshot compared with (none before the first).
    pub since_turn: Option<u64>,
    pub files: Vec<FileDiff>,
}

/// The changes of `turn`: against the session's snapshot before it.
pub(crate) fn of_turn(store: &Store, session: &str, turn: u64) -> Result<TurnDiff> {
    let after_manifest = manifest::read(store, session, turn)?;
    let after = manifest::tree_of(store, &after_manifest)?;
    let since = manifest::turns(store, session)?
        .into_iter()
        .rfind(|&t| t < turn);
    let before = match since {
        Some(t) => manifest::tree_of(store, &manifest::read(store, session, t)?)?,
        None => Tree::new(),
    };
    let paths: BTreeSet<&Vec<u8>> = before.keys().chain(after.keys()).collect();
    let mut files = Vec::new();
    for path in paths {
        let (old, new) = (before.get(path), after.get(path));
        let change = match (old, new) {
            (Some(a), Some(b)) if a.same_as(b) => continue,
            (Some(a), Some(b)) if a.hash == b.hash && a.kind == b.kind => "mode",
            (None, _) => "added",
            (_, None) => "deleted",
            _ => "modified",
        };
        let name = shown(path);
        let diff = unified(store, &name, old, new)?;
        files.push(FileDiff {
            path: name,
            change,
            diff,
        });
    }
    Ok(TurnDiff {
        session_id: session.to_string(),
        turn,
        since_turn: since,
        files,
    })
}

fn text_of(store: &Store, node: Option<&Node>) -> Result<Option<String>> {
    let Some(node) = node else {
        return Ok(Some(String::new()));
    };
    let Some(hash) = &node.hash else {
        return Ok(None);
    };
    let bytes = store.get(hash)?;
    if node.kind == Kind::File && bytes.contains(&0) {
        return Ok(None);
    }
    Ok(String::from_utf8(bytes).ok())
}

fn unified(
    store: &Store,
    name: &str,
    old: Option<&Node>,
    new: Option<&Node>,
) -> Result<Option<String>> {
    let (Some(a), Some(b)) = (text_of(store, old)?, text_of(store, new)?) else {
        return Ok(None);
    };
    let from = if old.is_some() {
        format!("a/{name}")
    } else {
        "/dev/null".into()
    };
    let to = if new.is_some() {
        format!("b/{name}")
    } else {
        "/dev/null".into()
    };
    let diff = TextDiff::from_lines(&a, &b);
    Ok(Some(diff.unified_diff().header(&from, &to).to_string()))
}
