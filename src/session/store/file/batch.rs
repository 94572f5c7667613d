//! Many records appended at once (an import's parts), and the keys of a
//! stored session's records read without building the session.

use std::borrow::Cow;
use std::fmt;
use std::io::BufRead;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::Value;

use super::{FileStore, JOURNAL, Kind, check_record_nesting, journal, not_found};
use crate::error::{Error, Result};
use crate::fs as sfs;
use crate::session::model::{Entry, SessionSummary, check_id};
use crate::session::store::api::RecordKeys;
use crate::timestamp::Millis;

impl FileStore {
    /// See [`crate::session::store::SessionStore::append_entries`]: one
    /// write and one fsync of the journal (one rewrite of a plain file).
    pub(super) fn append_entries(
        &self,
        id: &str,
        entries: &[(Entry, u64)],
        not_before: Option<Millis>,
    ) -> Result<SessionSummary> {
        check_id(id, "session")?;
        if entries.is_empty() {
            return self.summary(id);
        }
        for (entry, _) in entries {
            check_record_nesting(entry)?;
        }
        let advance = Some(not_before.unwrap_or_else(|| self.now()));
        if self.kind(id)? == Kind::Plain {
            return self.rewrite_plain(id, advance, |document, _| {
                for (entry, tokens) in entries {
                    document.push_entry(entry, *tokens);
                }
                Ok(())
            });
        }
        self.append_line(id, advance, |at| {
            let mut bytes = Vec::new();
            for (entry, tokens) in entries {
                bytes.extend(journal::entry_line(entry, at, Some(*tokens)));
            }
            bytes
        })
    }

    /// See [`crate::session::store::SessionStore::record_keys`]: a journal
    /// is read a line at a time, keeping only the field and the timestamp
    /// of each record. A torn last line (never acknowledged) is passed over.
    pub(super) fn record_keys(&self, id: &str, field: &str) -> Result<RecordKeys> {
        check_id(id, "session")?;
        if self.kind(id)? == Kind::Plain {
            let loaded = self.load_held(id, false)?;
            return Ok(RecordKeys::of(&loaded, field));
        }
        let path = self.session_dir(id).join(JOURNAL);
        let Some(file) = sfs::open_regular(&path)? else {
            return Err(not_found(id));
        };
        let mut reader = std::io::BufReader::with_capacity(1 << 16, file);
        let mut keys = RecordKeys::default();
        let mut line = Vec::new();
        let mut first = true;
        loop {
            line.clear();
            let read = reader
                .read_until(b'\n', &mut line)
                .map_err(|e| Error::io(&path, &e))?;
            if read == 0 || line.last() != Some(&b'\n') {
                return Ok(keys);
            }
            if std::mem::take(&mut first) {
                continue; // the head
            }
            let decoded = crate::lossless::decode(&line[..line.len() - 1]);
            let mut de = serde_json::Deserializer::from_slice(&decoded.text);
            let seed = LineSeed {
                field,
                keys: &mut keys,
            };
            if serde::de::DeserializeSeed::deserialize(seed, &mut de).is_err() {
                return Err(Error::input(format!(
                    "session {id}: a journal line cannot be read; `ollm session get {id}` says more"
                )));
            }
        }
    }
}

/// Reads a journal line keeping only its record's `field` and
/// `timestamp` (a message's or tool call's), noted in `keys`.
struct LineSeed<'k> {
    field: &'k str,
    keys: &'k mut RecordKeys,
}

impl<'de> DeserializeSeed<'de> for LineSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for LineSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a journal line")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            if key == "message" || key == "toolCall" {
                let (found, at) = map.next_value_seed(RecordSeed { field: self.field })?;
                self.keys.note(found.as_deref(), at.as_deref());
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

/// A record's `field` and `timestamp`, when they are strings.
struct RecordSeed<'k> {
    field: &'k str,
}

type Found = (Option<String>, Option<String>);

impl<'de> DeserializeSeed<'de> for RecordSeed<'_> {
    type Value = Found;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Found, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for RecordSeed<'_> {
    type Value = Found;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a record")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Found, A::Error> {
        let (mut found, mut at) = (None, None);
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            if key == self.field {
                found = map.next_value::<Value>()?.as_str().map(str::to_owned);
            } else if key == "timestamp" {
                at = map.next_value::<Value>()?.as_str().map(str::to_owned);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok((found, at))
    }
}
