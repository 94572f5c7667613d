//! One source session written a part at a time.

use serde_json::{Map, Value};

use super::{Imported, SOURCE_KEY, Status, counts, entries_of, new_session, stored_key, workspace};
use crate::error::{Error, Result};
use crate::session::Store;
use crate::session::import::{Item, Part, Tool, Transcript, bounds, session_id_for};
use crate::session::model::{Entry, SessionSummary};
use crate::session::store::RecordKeys;
use crate::timestamp::{self, Millis};

/// Stores `transcript` of `tool` in `store` (or says what it would do), in
/// one part: the tests' way to write a whole session.
#[cfg(test)]
pub fn store_transcript(
    store: &Store,
    tool: Tool,
    transcript: &Transcript,
    dry_run: bool,
) -> Result<Imported> {
    let mut writer = SessionWriter::new(store, tool, dry_run);
    let report = writer.part(Part {
        transcript: transcript.clone(),
        first: true,
        last: true,
    })?;
    report.ok_or_else(|| Error::input("the session's last part was not written"))
}

/// Where the session being written stands.
enum Stored {
    /// Not in the store yet: the first part makes it.
    Absent,
    /// Made by this import; later parts are appended whole.
    Made,
    /// Imported before: parts add what the stored keys lack.
    Before {
        keys: Box<RecordKeys>,
        summary: Box<SessionSummary>,
    },
}

/// Writes one source session's [`Part`]s in order: the first makes the
/// session (or finds it imported before), the others append theirs with
/// one [`Store::record_many`] each, and the last brings the head up to the
/// source's final fields and returns what was done. A run cut short leaves
/// a session whose records are a prefix of the source's; the next import
/// appends the rest, since every record carries its source key.
pub struct SessionWriter<'s> {
    store: &'s Store,
    tool: Tool,
    dry_run: bool,
    report: Option<Imported>,
    stored: Stored,
    /// The stamp of the last record written (or stored before).
    last: Option<Millis>,
    /// Whether the session came in one part (made from it, its head is
    /// already the source's final one).
    whole: bool,
    /// The records' ids bounded so far ([`bounds::bound`]).
    ids_bounded: u64,
}

impl<'s> SessionWriter<'s> {
    pub fn new(store: &'s Store, tool: Tool, dry_run: bool) -> SessionWriter<'s> {
        SessionWriter {
            store,
            tool,
            dry_run,
            report: None,
            stored: Stored::Absent,
            last: None,
            whole: false,
            ids_bounded: 0,
        }
    }

    /// Writes `part`; returns the session's report after its last part.
    pub fn part(&mut self, mut part: Part) -> Result<Option<Imported>> {
        let ids_bounded = bounds::bound(&mut part.transcript);
        let transcript = &part.transcript;
        self.whole = part.first && part.last;
        if part.first || self.report.is_none() {
            self.begin(transcript)?;
            self.ids_bounded = 0;
        }
        self.ids_bounded += ids_bounded;
        let (messages, calls) = counts(&transcript.items);
        if let Some(report) = self.report.as_mut() {
            report.messages += messages;
            report.tool_calls += calls;
        }
        self.write(transcript)?;
        if !part.last {
            return Ok(None);
        }
        self.finish(transcript)?;
        Ok(self.report.take())
    }

    fn id(&self) -> &str {
        self.report.as_ref().map_or("", |r| r.session_id.as_str())
    }

    fn begin(&mut self, transcript: &Transcript) -> Result<()> {
        let session_id = session_id_for(self.tool, &transcript.source_id);
        self.stored = match self.store.exists(&session_id) {
            Ok(()) => self.before(&session_id)?,
            Err(Error::NotFound(_)) => Stored::Absent,
            Err(err) => return Err(err),
        };
        self.last = match &self.stored {
            Stored::Before { keys, .. } => keys.latest,
            _ => None,
        };
        self.report = Some(Imported {
            tool: self.tool,
            source: transcript.source.clone(),
            source_id: transcript.source_id.clone(),
            session_id,
            status: Status::Unchanged,
            messages: 0,
            tool_calls: 0,
            added: 0,
            title: None,
            workspace: None,
            skipped: transcript.skipped,
        });
        Ok(())
    }

    fn before(&self, id: &str) -> Result<Stored> {
        Ok(Stored::Before {
            keys: Box::new(self.store.record_keys(id, SOURCE_KEY)?),
            summary: Box::new(self.store.summary(id)?),
        })
    }

    fn write(&mut self, transcript: &Transcript) -> Result<()> {
        let new: Vec<Item> = match &self.stored {
            Stored::Before { keys, .. } => transcript
                .items
                .iter()
                .filter(|item| !keys.keys.contains(stored_key(item).as_ref()))
                .cloned()
                .collect(),
            _ => transcript.items.clone(),
        };
        let entries = entries_of(&new, self.last)?;
        drop(new);
        let Some(report) = self.report.as_mut() else {
            return Ok(());
        };
        report.added += entries.len() as u64;
        let made = matches!(self.stored, Stored::Absent | Stored::Made);
        report.status = match (made, self.dry_run, report.added) {
            (true, true, _) => Status::WouldImport,
            (true, false, _) => Status::Imported,
            (false, _, 0) => Status::Unchanged,
            (false, true, _) => Status::WouldUpdate,
            (false, false, _) => Status::Updated,
        };
        let Some(newest) = entries.last().and_then(|e| timestamp::parse(e.timestamp())) else {
            return Ok(());
        };
        self.last = Some(newest);
        if self.dry_run {
            return Ok(());
        }
        if let Stored::Absent = self.stored {
            return self.make(transcript, entries);
        }
        let not_before = transcript
            .updated
            .as_deref()
            .and_then(timestamp::parse)
            .map_or(newest, |updated| updated.max(newest));
        let id = report.session_id.clone();
        self.store.record_many(&id, &entries, Some(not_before))?;
        Ok(())
    }

    /// Makes the session from its first part's `entries`.
    fn make(&mut self, transcript: &Transcript, entries: Vec<Entry>) -> Result<()> {
        let Some(report) = self.report.as_mut() else {
            return Ok(());
        };
        report.workspace = workspace(transcript.cwd.as_deref());
        report.title.clone_from(&transcript.title);
        let id = report.session_id.clone();
        let loaded = new_session(&id, self.tool, transcript, report, entries.clone());
        match self.store.import(&loaded) {
            Ok(true) => {
                self.stored = Stored::Made;
                return Ok(());
            }
            // Another import stored it first: add what it may lack.
            Ok(false) => {}
            Err(_) if self.store.exists(&id).is_ok() => {}
            Err(err) => return Err(err),
        }
        let stored = self.before(&id)?;
        let Stored::Before { keys, .. } = &stored else {
            return Ok(());
        };
        let new: Vec<Entry> = entries
            .into_iter()
            .filter(|e| !keys.keys.contains(source_key(e)))
            .collect();
        self.last = keys.latest.max(self.last);
        if let Some(report) = self.report.as_mut() {
            report.added = new.len() as u64;
            report.status = if new.is_empty() {
                Status::Unchanged
            } else {
                Status::Updated
            };
        }
        self.stored = stored;
        if !new.is_empty() {
            self.store.record_many(&id, &new, None)?;
        }
        Ok(())
    }

    /// Brings the head up to the source's final fields: the title (when
    /// the session has none), and, when records were added, the model and
    /// the workspace a first part could not know yet.
    fn finish(&mut self, transcript: &Transcript) -> Result<()> {
        if matches!(self.stored, Stored::Absent) && !self.dry_run {
            // No part held a record: the session is made empty.
            self.make(transcript, Vec::new())?;
        }
        let id = self.id().to_owned();
        let Some(report) = self.report.as_mut() else {
            return Ok(());
        };
        report.skipped = transcript.skipped;
        report.skipped.cut_fields += self.ids_bounded;
        report.title.clone_from(&transcript.title);
        report.workspace = workspace(transcript.cwd.as_deref());
        let made_whole = self.whole && matches!(self.stored, Stored::Made);
        if self.dry_run || report.added == 0 || made_whole {
            return Ok(());
        }
        let summary = match &self.stored {
            Stored::Before { summary, .. } => (**summary).clone(),
            _ => self.store.summary(&id)?,
        };
        let mut patch = Map::new();
        if summary.title.is_none()
            && let Some(title) = &transcript.title
        {
            patch.insert("title".into(), Value::from(title.as_str()));
        }
        if let Some(model) = &transcript.model
            && *model != summary.model
        {
            patch.insert("model".into(), Value::from(model.as_str()));
        }
        if summary.workspace.is_none()
            && let Some(workspace) = &report.workspace
        {
            patch.insert("workspace".into(), Value::from(workspace.as_str()));
        }
        if !patch.is_empty() {
            self.store.update_metadata(&id, &patch)?;
        }
        Ok(())
    }
}

fn source_key(entry: &Entry) -> &str {
    let record = match entry {
        Entry::Message(m) => m.as_map(),
        Entry::ToolCall(c) => c.as_map(),
    };
    record.get(SOURCE_KEY).and_then(Value::as_str).unwrap_or("")
}
