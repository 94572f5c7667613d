//! A session's records as rows: their columns, one insert for many, and
//! the retention that deletes the oldest sessions.

use postgres::Transaction;

use super::{Failure, NEWEST_FIRST, to_i64};
use crate::error::Error;
use crate::session::model::Entry;
use crate::session::query;

pub(super) fn encode(value: &impl serde::Serialize) -> std::result::Result<String, Failure> {
    serde_json::to_string(value)
        .map_err(|e| Failure::Ollm(Error::input(format!("cannot encode the record: {e}"))))
}

pub(super) fn corrupt(id: &str, what: &str, err: impl std::fmt::Display) -> Failure {
    Failure::Ollm(Error::Corrupt(format!(
        "session {id}: {what} cannot be read ({})",
        crate::text::one_line(&err.to_string())
    )))
}

/// The record's row: kind, role and the text search looks in.
pub(super) fn entry_columns(entry: &Entry) -> (&'static str, String, String) {
    match entry {
        Entry::Message(m) => ("message", m.role().to_string(), m.text_content()),
        Entry::ToolCall(c) => ("toolCall", "tool".to_string(), query::tool_text(c)),
    }
}

/// A message's or tool call's JSON, no deeper than a session keeps.
pub(super) fn entry_body(entry: &Entry) -> std::result::Result<String, Failure> {
    let body = match entry {
        Entry::Message(m) => encode(m)?,
        Entry::ToolCall(c) => encode(c)?,
    };
    crate::input::check_record_nesting(body.as_bytes(), 0).map_err(Failure::Ollm)?;
    Ok(body)
}

/// A new session's records as columns, for one insert.
#[derive(Default)]
pub(super) struct RecordRows {
    pub(super) seq: Vec<i64>,
    pub(super) kind: Vec<&'static str>,
    pub(super) kind_index: Vec<i64>,
    pub(super) tokens: Vec<Option<i64>>,
    pub(super) body: Vec<String>,
    pub(super) role: Vec<String>,
    pub(super) text: Vec<String>,
    pub(super) messages: i64,
    pub(super) calls: i64,
    pub(super) token_sum: u64,
}

impl RecordRows {
    /// Adds `other`'s rows after these (the counts are left as they are).
    pub(super) fn append(&mut self, other: RecordRows) {
        self.seq.extend(other.seq);
        self.kind.extend(other.kind);
        self.kind_index.extend(other.kind_index);
        self.tokens.extend(other.tokens);
        self.body.extend(other.body);
        self.role.extend(other.role);
        self.text.extend(other.text);
    }

    pub(super) fn of(entries: &[(Entry, Option<u64>)]) -> std::result::Result<RecordRows, Failure> {
        RecordRows::after(entries, 0, 0, 0)
    }

    /// The rows of `entries` following `seq` records, `messages` of them
    /// messages and `calls` tool calls (the counts end up including them).
    pub(super) fn after(
        entries: &[(Entry, Option<u64>)],
        seq: i64,
        messages: i64,
        calls: i64,
    ) -> std::result::Result<RecordRows, Failure> {
        let mut rows = RecordRows {
            seq: Vec::new(),
            kind: Vec::new(),
            kind_index: Vec::new(),
            tokens: Vec::new(),
            body: Vec::new(),
            role: Vec::new(),
            text: Vec::new(),
            messages,
            calls,
            token_sum: 0,
        };
        for (n, (entry, tokens)) in entries.iter().enumerate() {
            let (kind, role, text) = entry_columns(entry);
            let index = match entry {
                Entry::Message(_) => &mut rows.messages,
                Entry::ToolCall(_) => &mut rows.calls,
            };
            rows.kind_index.push(*index);
            *index += 1;
            rows.seq.push(seq + n as i64 + 1);
            rows.kind.push(kind);
            rows.tokens.push(tokens.map(to_i64));
            rows.body.push(entry_body(entry)?);
            rows.role.push(role);
            rows.text.push(text);
            rows.token_sum = rows.token_sum.saturating_add(tokens.unwrap_or(0));
        }
        Ok(rows)
    }

    /// Inserts the rows as session `id`'s records, each stamped `at`: one
    /// statement, the columns passed as arrays.
    pub(super) fn insert(
        &self,
        tx: &mut Transaction<'_>,
        id: &str,
        at: &str,
    ) -> std::result::Result<u64, postgres::Error> {
        tx.execute(
            "INSERT INTO ollm_records \
             (session_id, seq, kind, kind_index, at, tokens, body, role, search_text) \
             SELECT $1, r.seq, r.kind, r.kind_index, $2, r.tokens, r.body, r.role, r.search_text \
             FROM unnest($3::bigint[], $4::text[], $5::bigint[], $6::bigint[], \
                         $7::text[], $8::text[], $9::text[]) \
             AS r(seq, kind, kind_index, tokens, body, role, search_text)",
            &[
                &id,
                &at,
                &self.seq,
                &self.kind,
                &self.kind_index,
                &self.tokens,
                &self.body,
                &self.role,
                &self.text,
            ],
        )
    }
}

/// Which sessions [`trim`] counts and may delete.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Counted {
    /// `cleanup --keep N`: every session.
    All,
    /// `maxSessions`: not the imported ones (`metadata.importedFrom`; the
    /// head is compact JSON, where that key cannot appear in a string
    /// unescaped, and a match elsewhere only spares a session).
    NotImported,
}

/// Deletes the oldest sessions beyond `keep` (never `spare`) of those
/// `counted`, skipping those a writer holds. Returns (deleted, skipped).
pub(super) fn trim(
    tx: &mut Transaction<'_>,
    keep: u64,
    spare: Option<&str>,
    counted: Counted,
) -> std::result::Result<(Vec<String>, Vec<String>), Failure> {
    let spare = spare.unwrap_or("");
    let only = match counted {
        Counted::All => "",
        Counted::NotImported => "AND strpos(head, '\"importedFrom\":') = 0",
    };
    let due: Vec<String> = tx
        .query(
            &format!("SELECT id FROM ollm_sessions WHERE id <> $2 {only} {NEWEST_FIRST} OFFSET $1"),
            &[
                &to_i64(keep.saturating_sub(u64::from(!spare.is_empty()))),
                &spare,
            ],
        )?
        .iter()
        .map(|row| row.get(0))
        .collect();
    if due.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let free: Vec<String> = tx
        .query(
            "SELECT id FROM ollm_sessions WHERE id = ANY($1) FOR UPDATE SKIP LOCKED",
            &[&due],
        )?
        .iter()
        .map(|row| row.get(0))
        .collect();
    tx.execute("DELETE FROM ollm_sessions WHERE id = ANY($1)", &[&free])?;
    let deleted: Vec<String> = due.iter().filter(|id| free.contains(id)).cloned().collect();
    let skipped = due.into_iter().filter(|id| !free.contains(id)).collect();
    Ok((deleted, skipped))
}
