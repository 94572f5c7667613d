//! A folder of session pages and an index page: the sessions by project
//! and date, and a word index of every page built here, carried by the
//! index as JSON, so that searching across sessions works from `file://`
//! (a page opened from disk can read no other file).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde::Serialize;

use super::data::{Item, Link, Page};
use super::related::{Child, Kind, Parent};
use super::{guard, page, session_page};
use crate::error::{Error, Result};
use crate::redact::Scrubber;
use crate::session::model::Loaded;

/// The index page's body; its script fills it.
const INDEX_SKELETON: &str = r#"<header id="top"><h1 id="title">Sessions</h1><p id="summary"></p></header>
<div id="find" role="search"><input id="q" type="search" placeholder="Search every session" aria-label="Search every session" autocomplete="off"><span id="count"></span></div>
<ol id="hits"></ol>
<main id="projects"></main>"#;

/// Words shorter than this are not indexed (nor searched for).
const SHORTEST_WORD: usize = 2;
/// Nor longer ones: hashes and base64 would fill the index.
const LONGEST_WORD: usize = 40;

/// The index of the pages written so far.
#[derive(Debug, Default)]
pub struct Archive {
    /// The sessions the archive holds (those `--all` listed), so a branch
    /// links to its parent only where the parent has a page.
    known: HashSet<String>,
    /// The children of sessions whose pages are still to come, by the
    /// parent's id: a child starts after its parent, so pages made newest
    /// first meet every child before its parent.
    pending: HashMap<String, Vec<Child>>,
    entries: Vec<Entry>,
    words: BTreeMap<String, BTreeSet<u32>>,
}

/// One session on the index page.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    id: String,
    /// The page's file name in the archive.
    pub href: String,
    title: String,
    project: String,
    started: String,
    last: String,
    model: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<String>,
    /// The session it came from, where the archive has its page: the index
    /// nests the one under the other.
    #[serde(skip_serializing_if = "Option::is_none")]
    parent: Option<String>,
    /// How: `branch` or `subagent`.
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<Kind>,
    messages: usize,
    calls: usize,
    /// The page's size in bytes.
    pub bytes: usize,
}

#[derive(Serialize)]
struct IndexData<'a> {
    sessions: &'a [Entry],
    words: BTreeMap<&'a str, Vec<u32>>,
}

impl Archive {
    /// An archive of the sessions `ids`.
    pub fn new(ids: impl IntoIterator<Item = String>) -> Archive {
        Archive {
            known: ids.into_iter().collect(),
            ..Archive::default()
        }
    }

    /// The page of a session in the archive (linking back to the index,
    /// to the page of the session it came from at where it started, and to
    /// the pages of the sessions started from it that were made before),
    /// its entry noted for the index. Fails as [`super::page`] does.
    pub fn page(&mut self, loaded: &Loaded, scrubber: &Scrubber) -> Result<(&Entry, String)> {
        let mut data = Page::of(loaded);
        data.links.push(Link {
            label: "All sessions".into(),
            href: "index.html".into(),
        });
        let parent = Parent::of(loaded).filter(|p| self.known.contains(&p.id) && p.id != data.id);
        if let Some(parent) = &parent {
            let href = Some(format!("{}#from-{}", file_name(&parent.id), data.id));
            match (parent.kind, &mut data.branched) {
                (Kind::Branch, Some(branch)) => branch.href = href,
                _ => data.subagent_href = href,
            }
        }
        let mut children = self.pending.remove(&data.id).unwrap_or_default();
        for child in &mut children {
            child.place(loaded);
            child.href = Some(file_name(&child.id));
        }
        children.sort_by(|a, b| a.started.cmp(&b.started));
        data.children = children;
        // Refused (a credential), a page adds nothing to the index.
        let html = session_page(&data, scrubber)?;
        if let Some(parent) = &parent {
            self.pending
                .entry(parent.id.clone())
                .or_default()
                .push(Child::of(loaded, parent.kind));
        }
        let entry = Entry {
            id: data.id.clone(),
            href: file_name(&data.id),
            title: data.title.clone(),
            project: data.workspace.clone().unwrap_or_default(),
            started: data.started.clone(),
            last: data.last.clone(),
            model: data.model.clone(),
            source: data.source.clone(),
            parent: parent.as_ref().map(|p| p.id.clone()),
            kind: parent.as_ref().map(|p| p.kind),
            messages: data.messages,
            calls: data.calls,
            bytes: html.len(),
        };
        let number = u32::try_from(self.entries.len())
            .map_err(|_| Error::input("too many sessions for one archive"))?;
        let mut words = BTreeSet::new();
        add_words(&data.title, &mut words);
        for item in data.turns.iter().flat_map(|t| &t.items) {
            match item {
                Item::Message { text, .. } => add_words(text, &mut words),
                Item::Tool {
                    name, args, result, ..
                } => {
                    add_words(name, &mut words);
                    add_words(args, &mut words);
                    add_words(result, &mut words);
                }
            }
        }
        for word in words {
            self.words.entry(word).or_default().insert(number);
        }
        self.entries.push(entry);
        let entry = self
            .entries
            .last()
            .ok_or_else(|| Error::input("no entry"))?;
        Ok((entry, html))
    }

    /// The index page of every page made so far.
    pub fn index(&self, scrubber: &Scrubber) -> Result<String> {
        let data = IndexData {
            sessions: &self.entries,
            words: self
                .words
                .iter()
                .map(|(word, pages)| (word.as_str(), pages.iter().copied().collect()))
                .collect(),
        };
        let json = serde_json::to_string(&data)
            .map_err(|e| Error::input(format!("cannot encode the archive index: {e}")))?;
        guard::check(scrubber, "index", &json)?;
        Ok(page::document(INDEX_SKELETON, &json, page::INDEX_SCRIPT))
    }
}

/// A session page's file name (ids are validated: no separator in them).
fn file_name(id: &str) -> String {
    format!("{id}.html")
}

/// The words of `text` as the index script splits a query: runs of
/// letters, digits and `_`, lower-cased.
fn add_words(text: &str, words: &mut BTreeSet<String>) {
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        let length = word.chars().count();
        if (SHORTEST_WORD..=LONGEST_WORD).contains(&length) {
            words.insert(word.to_lowercase());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_split_and_folded_as_the_query_is() {
        let mut words = BTreeSet::new();
        add_words("Zebrafish-ÉCLAIR x foo_bar\n42", &mut words);
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        assert_eq!(words, ["42", "foo_bar", "zebrafish", "éclair"]);
    }
}
