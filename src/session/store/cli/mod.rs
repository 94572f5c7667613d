//! The OLLM CLI's own session format: `<sessionId>.json` in the data
//! directory, one document written whole, as its TypeScript
//! `ChatRecordingService` writes it (`JSON.stringify(session, null, 2)`,
//! no trailing newline, to a temp file that is fsynced and renamed over the
//! session, then the directory fsynced).
//!
//! A session stored this way stays in this format: every write (a record,
//! a rename, a compression note) re-reads the file under the session's
//! lock, changes the document in place and rewrites it whole, so a record
//! the CLI wrote in between is kept, the keys keep their order and fields
//! the CLI does not know (our `title`, `workspace`, …) ride along as extra
//! top-level fields, which the CLI keeps when it rewrites the file. Its
//! `listSessions` reads `messages` (an array) and `metadata` (an object)
//! and `recordToolCall` pushes onto `toolCalls`: a document written here
//! always has all three.
//!
//! Text the CLI wrote with lone surrogates (`"\ud83d"`) is read through
//! [`crate::lossless`] and written back as it was. Nothing here ever moves
//! a file aside: a document that does not parse is the CLI's (or the
//! user's), reported with one line and left where it is.

mod in_flight;
mod owed;
mod splice;

use std::path::Path;
use std::time::Duration;

use serde_json::{Map, Value};

use serde::Deserialize;
use serde::de::IgnoredAny;

use crate::error::{Error, Result};
use crate::fs::replace::{Replaced, Stamp, replace_if_unchanged};
use crate::fs::{self as sfs, Durability};
use crate::lossless;
use crate::session::model::{Entry, IMPORTED_FROM, Session, SessionHead, SessionSummary};

/// The top-level field that marks a document ollm created (`"createdBy":
/// "ollm"`): `maxSessions` counts and deletes only sessions ollm made,
/// never the OLLM CLI's own.
pub const CREATED_BY: &str = "createdBy";
const OLLM: &str = "ollm";

/// A session document as read from its file.
#[derive(Debug, Clone)]
pub struct Document {
    pub fields: Map<String, Value>,
    /// Whether writing it back keeps every character ([`lossless::Decoded::exact`]).
    exact: bool,
    /// The file's identity when it was read: a write replaces that file
    /// and no other.
    stamp: Option<Stamp>,
    /// Whether another program (the OLLM CLI) wrote the file lately: a
    /// write then watches for a version of its built from an earlier read.
    cli_active: bool,
    /// The records read, kept as bytes when the document was read for a
    /// change that only adds records ([`splice`]): `fields` then holds
    /// the head and the records added since the read.
    kept: Option<splice::Kept>,
    /// Whether the file read is another program's (not ollm's 0600).
    theirs: bool,
    /// The bytes read (empty when `kept` holds them): what a version
    /// swapped out by mistake added is told from them.
    read_bytes: Vec<u8>,
}

/// Why the document at `path` cannot be used: one line, exit 6, naming the
/// file and saying that it was left where it is.
fn unreadable(id: &str, path: &Path, why: &str) -> Error {
    Error::Corrupt(format!(
        "session {id} cannot be read ({why}); {} is left as it is",
        path.display()
    ))
}

/// Reads and parses the document of session `id` at `path` (`None`: no
/// such file). A document that does not parse, or holds another session,
/// is an [`Error::Corrupt`] naming the file; a document nested deeper than
/// serde_json follows is an [`Error::Io`] (not corrupt: valid JSON we
/// cannot read). Nothing is changed either way.
pub fn read(id: &str, path: &Path) -> Result<Option<Document>> {
    Ok(read_with_session(id, path)?.map(|(document, _)| document))
}

/// [`read`], and the document as the spec's session: what checking it
/// built, so a reader parses the file once.
pub fn read_with_session(id: &str, path: &Path) -> Result<Option<(Document, Session)>> {
    let Some((bytes, meta)) = read_bytes(path)? else {
        return Ok(None);
    };
    let decoded = lossless::decode(&bytes);
    let fields = parse::<Map<String, Value>>(id, path, &decoded.text)?;
    let exact = decoded.exact;
    drop(decoded);
    let document = Document {
        fields,
        exact,
        stamp: Some(Stamp::of(&meta)),
        cli_active: in_flight::another_is_writing(&meta),
        kept: None,
        theirs: in_flight::is_theirs(&meta),
        read_bytes: bytes,
    };
    let session = document.checked(id, path)?;
    Ok(Some((document, session)))
}

/// Reads the document of session `id` for a change that only adds records
/// and changes the head: in the CLI's layout, the records already there
/// are checked as JSON and kept as bytes ([`splice`]), the head is parsed
/// and checked as the spec's session. A file in another layout is read
/// whole ([`read`]).
fn read_for_adding(id: &str, path: &Path) -> Result<Option<Document>> {
    let Some(file) = sfs::open_regular(path)? else {
        return Ok(None);
    };
    let meta = file.metadata().map_err(|e| Error::io(path, &e))?;
    let bytes = match splice::recall(path, Stamp::of(&meta)) {
        Some(written) => written,
        None => {
            let bytes = read_all(&file, &meta, path)?;
            parse::<IgnoredAny>(id, path, &lossless::decode(&bytes).text)?;
            bytes
        }
    };
    let Some((head, kept)) = splice::elide(bytes) else {
        return read(id, path);
    };
    let decoded = lossless::decode(&head);
    let fields = parse::<Map<String, Value>>(id, path, &decoded.text)?;
    let document = Document {
        fields,
        exact: decoded.exact,
        stamp: Some(Stamp::of(&meta)),
        cli_active: in_flight::another_is_writing(&meta),
        kept: None,
        theirs: in_flight::is_theirs(&meta),
        read_bytes: Vec::new(),
    };
    // A file another program is writing now is read whole: what a race
    // with it dropped is told from its records.
    if document.cli_active {
        return read(id, path);
    }
    document.checked(id, path)?;
    // A head laid out other than as it is written (by hand) is read whole,
    // so that the file comes out as a whole rewrite would write it.
    if document.to_bytes()? != head {
        return read(id, path);
    }
    Ok(Some(Document {
        kept: Some(kept),
        ..document
    }))
}

/// The bytes of the regular file at `path` and its metadata (`None`: no
/// such file).
fn read_bytes(path: &Path) -> Result<Option<(Vec<u8>, std::fs::Metadata)>> {
    let Some(file) = sfs::open_regular(path)? else {
        return Ok(None);
    };
    let meta = file.metadata().map_err(|e| Error::io(path, &e))?;
    let bytes = read_all(&file, &meta, path)?;
    Ok(Some((bytes, meta)))
}

fn read_all(file: &std::fs::File, meta: &std::fs::Metadata, path: &Path) -> Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    std::io::Read::read_to_end(&mut &*file, &mut bytes).map_err(|e| Error::io(path, &e))?;
    Ok(bytes)
}

/// `text` (a session file's, decoded) parsed as `T`.
fn parse<'a, T: Deserialize<'a>>(id: &str, path: &Path, text: &'a [u8]) -> Result<T> {
    serde_json::from_slice(text).map_err(|err| {
        if err.to_string().contains("recursion limit exceeded") {
            Error::Io {
                path: path.to_path_buf(),
                message: "nests deeper than the 128 levels ollm reads; left in place".into(),
            }
        } else {
            unreadable(id, path, &crate::text::one_line(&err.to_string()))
        }
    })
}

impl Document {
    /// A new session's document: the CLI's keys in the order its
    /// `createSession` writes them, then the fields it does not know;
    /// `made_here` marks a session ollm made ([`CREATED_BY`]), not one it
    /// copied from elsewhere (which keeps whatever it carried).
    pub fn new(head: &SessionHead, made_here: bool) -> Document {
        let mut fields = Map::new();
        fields.insert("sessionId".into(), head.session_id.clone().into());
        fields.insert("startTime".into(), head.start_time.clone().into());
        fields.insert("lastActivity".into(), head.last_activity.clone().into());
        fields.insert("model".into(), head.model.clone().into());
        fields.insert("provider".into(), head.provider.clone().into());
        fields.insert("messages".into(), Value::Array(Vec::new()));
        fields.insert("toolCalls".into(), Value::Array(Vec::new()));
        let metadata = serde_json::to_value(&head.metadata).unwrap_or_default();
        fields.insert("metadata".into(), metadata);
        if made_here {
            fields.insert(CREATED_BY.into(), OLLM.into());
        }
        if let Ok(Value::Object(rest)) = serde_json::to_value(head) {
            for (key, value) in rest {
                fields.entry(key).or_insert(value);
            }
        }
        Document {
            fields,
            exact: true,
            stamp: None,
            cli_active: false,
            kept: None,
            theirs: false,
            read_bytes: Vec::new(),
        }
    }

    /// The document checked as the spec's session of `id` (with the path
    /// of a field in error).
    fn checked(&self, id: &str, path: &Path) -> Result<Session> {
        let session = self.session().map_err(|why| unreadable(id, path, &why))?;
        if session.session_id != id {
            let why = format!("the file holds session {:?}", session.session_id);
            return Err(unreadable(id, path, &why));
        }
        Ok(session)
    }

    /// The document as the spec's session (`lastActivity` defaults to
    /// `startTime`), or why it is not one.
    pub fn session(&self) -> std::result::Result<Session, String> {
        let mut session: Session =
            serde_path_to_error::deserialize(&self.fields).map_err(|err| {
                let at = err.path().to_string();
                let inner = crate::text::one_line(&err.into_inner().to_string());
                if at.is_empty() || at == "." {
                    inner
                } else {
                    format!("at `{at}`: {inner}")
                }
            })?;
        if session.last_activity.is_empty() {
            session.last_activity = session.start_time.clone();
        }
        Ok(session)
    }

    /// The summary `list` shows, without copying the records (the
    /// document was checked as a session when it was read).
    pub fn summary(&self) -> std::result::Result<SessionSummary, String> {
        #[derive(serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Counted {
            #[serde(flatten)]
            head: SessionHead,
            #[serde(default)]
            messages: Vec<IgnoredAny>,
            #[serde(default)]
            tool_calls: Vec<IgnoredAny>,
        }
        let counted = Counted::deserialize(&self.fields).map_err(|e| e.to_string())?;
        let kept = |key: &str| self.kept.as_ref().map_or(0, |kept| kept.count(key));
        let mut summary = counted.head.summary();
        summary.message_count = counted.messages.len() as u64 + kept("messages");
        summary.tool_call_count = counted.tool_calls.len() as u64 + kept("toolCalls");
        Ok(summary)
    }

    /// Whether ollm created this document (see [`CREATED_BY`]).
    pub fn created_by_ollm(&self) -> bool {
        self.fields.get(CREATED_BY).and_then(Value::as_str) == Some(OLLM)
    }

    /// Whether the session was imported ([`IMPORTED_FROM`] in its
    /// `metadata`).
    pub fn is_imported(&self) -> bool {
        self.fields
            .get("metadata")
            .and_then(Value::as_object)
            .is_some_and(|metadata| metadata.contains_key(IMPORTED_FROM))
    }

    /// Whether this document holds everything `ours` wrote: its records
    /// (in their order, others may come between) and its top-level fields.
    fn keeps(&self, ours: &Document) -> bool {
        let records = |document: &Document, key: &str| -> Vec<Value> {
            match document.fields.get(key) {
                Some(Value::Array(items)) => items.clone(),
                _ => Vec::new(),
            }
        };
        let holds_in_order = |key: &str| {
            let mine = records(ours, key);
            let mut theirs = records(self, key).into_iter();
            mine.iter()
                .all(|record| theirs.any(|other| &other == record))
        };
        holds_in_order("messages")
            && holds_in_order("toolCalls")
            && ours.fields.keys().all(|key| self.fields.contains_key(key))
    }

    /// The file's identity when it was read (or, after a rewrite, written).
    pub fn stamp(&self) -> Option<Stamp> {
        self.stamp
    }

    /// The session's `lastActivity` (else `startTime`).
    pub fn last_activity(&self) -> &str {
        let text = |key: &str| self.fields.get(key).and_then(Value::as_str).unwrap_or("");
        match text("lastActivity") {
            "" => text("startTime"),
            at => at,
        }
    }

    /// Runs `f` on the array under `key` (made one when it is not).
    fn with_list(&mut self, key: &str, f: impl FnOnce(&mut Vec<Value>)) {
        let slot = self
            .fields
            .entry(key.to_string())
            .or_insert_with(|| Value::Array(Vec::new()));
        if !slot.is_array() {
            *slot = Value::Array(Vec::new());
        }
        if let Value::Array(items) = slot {
            f(items);
        }
    }

    /// Runs `f` on `metadata` (made an object when it is not).
    fn with_metadata(&mut self, f: impl FnOnce(&mut Map<String, Value>)) {
        let slot = self
            .fields
            .entry("metadata".to_string())
            .or_insert_with(|| Value::Object(Map::new()));
        if !slot.is_object() {
            *slot = Value::Object(Map::new());
        }
        if let Value::Object(fields) = slot {
            f(fields);
        }
    }

    fn add_to_count(&mut self, key: &str, by: u64) {
        self.with_metadata(|metadata| {
            let count = metadata.get(key).and_then(Value::as_u64).unwrap_or(0);
            metadata.insert(key.into(), count.saturating_add(by).into());
        });
    }

    /// Sets `lastActivity` to `at`.
    pub fn touch(&mut self, at: &str) {
        self.fields.insert("lastActivity".into(), at.into());
    }

    /// Adds a message or tool call and its tokens to `metadata.tokenCount`.
    pub fn push_entry(&mut self, entry: &Entry, tokens: u64) {
        let (key, record) = match entry {
            Entry::Message(m) => ("messages", m.as_map()),
            Entry::ToolCall(c) => ("toolCalls", c.as_map()),
        };
        self.with_list(key, |items| items.push(Value::Object(record.clone())));
        self.add_to_count("tokenCount", tokens);
    }

    /// Notes a compression: `metadata.compressionCount` + 1 and
    /// `{timestamp, …details}` in `metadata.compressionHistory`.
    pub fn push_compression(&mut self, at: &str, details: &Map<String, Value>) {
        self.add_to_count("compressionCount", 1);
        let mut note = Map::new();
        note.insert("timestamp".into(), at.into());
        note.extend(details.clone());
        self.with_metadata(|metadata| {
            let history = metadata
                .entry("compressionHistory".to_string())
                .or_insert_with(|| Value::Array(Vec::new()));
            if !history.is_array() {
                *history = Value::Array(Vec::new());
            }
            if let Value::Array(items) = history {
                items.push(Value::Object(note));
            }
        });
    }

    /// Merges head fields: a key set, `null` removes it; `sessionId`, the
    /// records and a patch that would make the session invalid are refused.
    pub fn apply_patch(&mut self, patch: &Map<String, Value>) -> Result<()> {
        let mut patched = self.fields.clone();
        for (key, value) in patch {
            if matches!(key.as_str(), "sessionId" | "messages" | "toolCalls") {
                continue;
            }
            if value.is_null() {
                patched.remove(key);
            } else {
                patched.insert(key.clone(), value.clone());
            }
        }
        let before = std::mem::replace(&mut self.fields, patched);
        if let Err(why) = self.session() {
            self.fields = before;
            return Err(Error::input(format!("the change would leave {why}")));
        }
        Ok(())
    }

    /// The document as the CLI writes it.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let head = lossless::to_vec_pretty(&self.fields)
            .map_err(|e| Error::input(format!("cannot encode the session: {e}")))?;
        match &self.kept {
            None => Ok(head),
            Some(kept) => kept
                .merge(&head)
                .ok_or_else(|| Error::input("cannot encode the session: its records were lost")),
        }
    }

    /// Writes the document over the file it was read from, at `path`, and
    /// over no other ([`replace_if_unchanged`]: temp file, fsync, exchange,
    /// fsync of the directory). Refuses a document that would not come
    /// back as it was read; [`Replaced::Changed`] when the file is not the
    /// one read any more (or the document was never read): read again.
    pub fn write(&self, id: &str, path: &Path) -> Result<Replaced> {
        if !self.exact {
            return Err(Error::input(format!(
                "session {id}'s file holds characters of U+10F800..U+10FFFF, which ollm uses to keep lone surrogates; it cannot rewrite {} without changing them",
                path.display()
            )));
        }
        let bytes = self.to_bytes()?;
        let Some(read) = self.stamp else {
            return Ok(Replaced::Changed);
        };
        let replaced = replace_if_unchanged(path, &bytes, read)?;
        if let (Replaced::Written(ours), Some(_)) = (&replaced, &self.kept) {
            splice::remember(path, *ours, bytes);
        }
        Ok(replaced)
    }
}

/// Reads the document of session `id`, changes it with `change` and writes
/// it back, reading again when another program rewrote the file in
/// between (the caller holds the session's lock against our own writers).
/// `change` gets the document's head and adds records (the records already
/// there are not in it: [`read_for_adding`]) and returns what the caller
/// wants back. The document returned is stamped as the file written.
pub fn rewrite<T>(
    id: &str,
    path: &Path,
    change: impl FnMut(&mut Document) -> Result<T>,
) -> Result<Option<(T, Document)>> {
    rewrite_when(id, path, true, change, |_| true)
}

/// [`rewrite`] for a change that counts what it changed: nothing is
/// written when it counts 0. Returns the count.
pub fn rewrite_if(
    id: &str,
    path: &Path,
    change: impl FnMut(&mut Document) -> Result<u64>,
) -> Result<Option<u64>> {
    Ok(rewrite_when(id, path, false, change, |count| *count > 0)?.map(|(count, _)| count))
}

fn rewrite_when<T>(
    id: &str,
    path: &Path,
    adding: bool,
    mut change: impl FnMut(&mut Document) -> Result<T>,
    changed: impl Fn(&T) -> bool,
) -> Result<Option<(T, Document)>> {
    const TRIES: u32 = 64;
    // The change's result and the records it added, once made.
    let mut made: Option<(T, Vec<owed::Owed>)> = None;
    // Whether a version holding the change was at the path, if only for a
    // moment: the CLI may have built on it, so the change is looked for
    // before it is made again.
    let mut shown = false;
    for attempt in 0..TRIES {
        // A version the CLI is about to rename in is read, not raced.
        in_flight::wait_for_rename(path);
        // The first look of a change that only adds records, with nothing
        // owed to the file, reads the head alone; a race with the CLI is
        // settled on whole records.
        let read_document = if adding && made.is_none() && !owed::owes(path) {
            read_for_adding
        } else {
            read
        };
        let Some(mut document) = read_document(id, path)? else {
            return Ok(None);
        };
        let theirs = document.stamp.filter(|_| document.theirs);
        let restored = owed::settle(path, &mut document.fields, theirs);
        let (out, added) = match made.take() {
            Some((out, added))
                if shown && !added.is_empty() && owed::holds(&document.fields, &added) =>
            {
                if restored == 0 {
                    return Ok(Some((out, document)));
                }
                (out, added)
            }
            _ => {
                let before = owed::lengths(&document.fields);
                let out = change(&mut document)?;
                if !changed(&out) && restored == 0 {
                    return Ok(Some((out, document)));
                }
                let added = owed::added_since(&document.fields, before);
                (out, added)
            }
        };
        let ours = match document.write(id, path)? {
            Replaced::Written(ours) => ours,
            Replaced::Changed => {
                in_flight::saw_another();
                made = Some((out, added));
                back_off(attempt);
                continue;
            }
            Replaced::Displaced(versions) => {
                in_flight::saw_another();
                let held_by: Vec<Stamp> = versions.iter().map(|(stamp, _)| *stamp).collect();
                owed::owe(path, displaced_records(&document, &versions), &held_by);
                shown = true;
                made = Some((out, added));
                back_off(attempt);
                continue;
            }
        };
        document.stamp = Some(ours);
        shown = true;
        let watch = if document.cli_active {
            in_flight::watch_for()
        } else {
            Duration::ZERO
        };
        // The CLI renamed a version in over ours: built from a read made
        // before ours went in, it lacks our change, which is made again.
        let kept = !in_flight::replaced_after(path, ours, watch)
            || read(id, path)?.is_none_or(|now| now.keeps(&document));
        if kept {
            if document.cli_active {
                // Checked again by this process's next write into the
                // session: the CLI may rename a version built from an
                // earlier read in later still.
                owed::owe(path, added, &[]);
            }
            return Ok(Some((out, document)));
        }
        made = Some((out, added));
        back_off(attempt);
    }
    Err(Error::Io {
        path: path.to_path_buf(),
        message: format!("another program kept rewriting the file; {TRIES} tries"),
    })
}

/// What the versions swapped out by mistake (their bytes) added to the
/// one `document` was read from: the CLI's records that a version it built
/// from ours, while ours was at the path, lacks. A version that does not
/// parse adds nothing.
fn displaced_records(document: &Document, versions: &[(Stamp, Vec<u8>)]) -> Vec<owed::Owed> {
    let fields = |bytes: &[u8]| {
        serde_json::from_slice::<Map<String, Value>>(&lossless::decode(bytes).text).ok()
    };
    let read_bytes = document
        .kept
        .as_ref()
        .map_or(&document.read_bytes[..], splice::Kept::raw);
    let Some(read) = fields(read_bytes) else {
        return Vec::new();
    };
    versions
        .iter()
        .filter_map(|(_, bytes)| fields(bytes))
        .flat_map(|version| owed::newer_records(&version, &read))
        .collect()
}

/// A pause before trying again, longer each time (to 32 ms) and varied,
/// so that two writers that keep meeting fall out of step.
fn back_off(attempt: u32) {
    let jitter = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos() % 1000);
    let micros = (250u64 << attempt.min(7)) + u64::from(jitter);
    std::thread::sleep(Duration::from_micros(micros));
}

/// Writes a new session's document at `path` (nothing may be there).
pub fn create(document: &Document, path: &Path) -> Result<()> {
    let bytes = document.to_bytes()?;
    sfs::write_atomic(path, &bytes, Durability::Synced)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::model::Message;

    const CLI_FILE: &str = r#"{
  "sessionId": "550e8400-e29b-41d4-a716-446655440000",
  "startTime": "2026-01-27T10:00:00.000Z",
  "lastActivity": "2026-01-27T10:00:05.000Z",
  "model": "llama3.2:3b",
  "provider": "ollama",
  "messages": [
    {
      "role": "user",
      "parts": [
        {
          "type": "text",
          "text": "cut \ud83d"
        }
      ],
      "timestamp": "2026-01-27T10:00:05.000Z"
    }
  ],
  "toolCalls": [],
  "metadata": {
    "tokenCount": 0,
    "compressionCount": 0,
    "modeHistory": []
  },
  "futureField": {
    "x": 1
  }
}"#;
    const ID: &str = "550e8400-e29b-41d4-a716-446655440000";

    fn write_cli_file(dir: &Path) -> std::path::PathBuf {
        let path = dir.join(format!("{ID}.json"));
        std::fs::write(&path, CLI_FILE).unwrap();
        path
    }

    #[test]
    fn a_document_read_and_written_unchanged_is_byte_identical() {
        let dir = tempfile::tempdir().unwrap();
        let path = write_cli_file(dir.path());
        let document = read(ID, &path).unwrap().unwrap();
        assert_eq!(document.to_bytes().unwrap(), CLI_FILE.as_bytes());
    }

    #[test]
    fn a_record_is_added_at_the_end_and_everything_else_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = write_cli_file(dir.path());
        let entry = Entry::Message(Message::text("assistant", "hi", "2026-01-27T10:00:06.000Z"));
        rewrite(ID, &path, |d| {
            d.push_entry(&entry, 3);
            d.touch("2026-01-27T10:00:06.000Z");
            Ok(())
        })
        .unwrap()
        .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(r#""text": "cut \ud83d""#), "{text}");
        assert!(text.contains(r#""futureField": {"#), "{text}");
        assert!(!text.ends_with('\n'));
        let session = read(ID, &path).unwrap().unwrap().session().unwrap();
        assert_eq!(session.messages.len(), 2);
        assert_eq!(session.messages[1].role(), "assistant");
        assert_eq!(session.metadata.token_count, 3);
        assert_eq!(session.last_activity, "2026-01-27T10:00:06.000Z");
        assert!(session.metadata.extra.contains_key("modeHistory"));
    }

    #[test]
    fn a_file_changed_after_it_was_read_is_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = write_cli_file(dir.path());
        let document = read(ID, &path).unwrap().unwrap();
        std::fs::write(&path, CLI_FILE.replace("llama3.2:3b", "qwen3:8b")).unwrap();
        assert_eq!(document.write(ID, &path).unwrap(), Replaced::Changed);
        assert!(std::fs::read_to_string(&path).unwrap().contains("qwen3"));
    }

    #[test]
    fn an_unparsable_file_is_reported_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(format!("{ID}.json"));
        std::fs::write(&path, "{\"sessionId\": ").unwrap();
        let err = read(ID, &path).unwrap_err();
        assert!(matches!(err, Error::Corrupt(_)), "{err}");
        assert!(err.to_string().contains("left as it is"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), b"{\"sessionId\": ");
        std::fs::write(
            &path,
            CLI_FILE.replace(ID, "660e8400-e29b-41d4-a716-446655440000"),
        )
        .unwrap();
        assert!(
            read(ID, &path)
                .unwrap_err()
                .to_string()
                .contains("holds session")
        );
    }

    #[test]
    fn a_patch_sets_and_removes_fields_but_never_the_records() {
        let dir = tempfile::tempdir().unwrap();
        let path = write_cli_file(dir.path());
        let mut document = read(ID, &path).unwrap().unwrap();
        let patch = serde_json::json!({"title": "t", "futureField": null, "messages": []});
        document.apply_patch(patch.as_object().unwrap()).unwrap();
        assert_eq!(document.fields["title"], "t");
        assert!(!document.fields.contains_key("futureField"));
        assert_eq!(document.session().unwrap().messages.len(), 1);
        let bad = serde_json::json!({"model": 3});
        assert!(document.apply_patch(bad.as_object().unwrap()).is_err());
        assert_eq!(document.fields["model"], "llama3.2:3b");
    }

    /// The texts of the file's messages after the CLI file's first.
    fn texts_at(path: &Path) -> Vec<String> {
        let document = read(ID, path).unwrap().unwrap();
        document.fields["messages"].as_array().unwrap()[1..]
            .iter()
            .map(|m| m["parts"][0]["text"].as_str().unwrap().to_string())
            .collect()
    }

    /// What the CLI writes: `fields` as its own file (0644), renamed in.
    fn cli_writes(path: &Path, fields: &Map<String, Value>) {
        use std::os::unix::fs::PermissionsExt;
        let temp = path.with_extension("json.tmp");
        std::fs::write(&temp, lossless::to_vec_pretty(fields).unwrap()).unwrap();
        std::fs::set_permissions(&temp, std::fs::Permissions::from_mode(0o644)).unwrap();
        std::fs::rename(&temp, path).unwrap();
    }

    fn record(path: &Path, text: &str, at: &str) {
        let entry = Entry::Message(Message::text("assistant", text, at));
        rewrite(ID, path, |d| {
            d.push_entry(&entry, 1);
            Ok(())
        })
        .unwrap()
        .unwrap();
    }

    #[test]
    fn a_record_lost_to_a_cli_version_from_an_earlier_read_is_put_back_by_the_next_write() {
        let dir = tempfile::tempdir().unwrap();
        let path = write_cli_file(dir.path());
        cli_writes(&path, &read(ID, &path).unwrap().unwrap().fields);
        // The CLI reads, then is slow: ours goes in and its watch ends.
        let mut cli = read(ID, &path).unwrap().unwrap().fields;
        record(&path, "ours 1", "2026-01-27T10:00:06.000Z");
        let message = Message::text("user", "TS", "2026-01-27T10:00:07.000Z");
        if let Some(Value::Array(messages)) = cli.get_mut("messages") {
            messages.push(Value::Object(message.as_map().clone()));
        }
        cli_writes(&path, &cli);
        assert_eq!(texts_at(&path), ["TS"]);
        record(&path, "ours 2", "2026-01-27T10:00:08.000Z");
        assert_eq!(texts_at(&path), ["ours 1", "TS", "ours 2"]);
    }

    #[test]
    fn what_a_version_swapped_out_by_mistake_added_to_the_read_is_owed() {
        let dir = tempfile::tempdir().unwrap();
        let path = write_cli_file(dir.path());
        let document = read(ID, &path).unwrap().unwrap();
        let mut newer = document.fields.clone();
        let message = Message::text("user", "M", "2026-01-27T10:00:07.000Z");
        if let Some(Value::Array(messages)) = newer.get_mut("messages") {
            messages.push(Value::Object(message.as_map().clone()));
        }
        cli_writes(&path, &newer);
        let stamp = Stamp::at(&path).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let owed = displaced_records(&document, &[(stamp, bytes), (stamp, b"{".to_vec())]);
        let mut without = document.fields.clone();
        assert_eq!(owed::restore(&mut without, &owed), 1);
        assert_eq!(without, newer);
    }
}
