//! `search` on PostgreSQL: the database narrows the records to those
//! holding a literal piece of the pattern (`LIKE`, served by the trigram
//! index when `pg_trgm` is there), and the matcher decides.

use postgres::types::{ToSql, Type};

use super::{PgStore, to_u64};
use crate::error::Result;
use crate::session::model::{Entry, Place, Problem};
use crate::session::query::{self, Found, Hit, Matcher, Query};

impl PgStore {
    /// The hits of `query`: the records (and titles) the database finds
    /// holding one of its literal pieces, checked by the matcher.
    pub(super) fn search_records(&self, query: &Query) -> Result<Found> {
        let matcher = Matcher::new(query)?;
        let like = if query.ignore_case { "ILIKE" } else { "LIKE" };
        let pieces: Option<Vec<String>> = if query.regex {
            query::required_literals(&query.pattern, query.ignore_case).map(|pieces| {
                pieces
                    .iter()
                    .map(|p| String::from_utf8_lossy(p).into_owned())
                    .collect()
            })
        } else {
            Some(vec![query.pattern.clone()])
        };
        // What can match: a text column holding one of the pieces ($1…).
        let can_match = |column: &str| -> String {
            pieces.as_ref().map_or_else(String::new, |pieces| {
                let tests: Vec<String> = (1..=pieces.len())
                    .map(|n| format!("{column} {like} ${n}"))
                    .collect();
                format!(" AND ({})", tests.join(" OR "))
            })
        };
        let like_params: Vec<String> = pieces
            .iter()
            .flatten()
            .map(|p| format!("%{}%", escape_like(p)))
            .collect();
        let mut sql = "SELECT session_id, kind, kind_index, body FROM ollm_records \
                       WHERE kind IN ('message', 'toolCall')"
            .to_string();
        sql.push_str(&can_match("search_text"));
        let mut params = like_params.clone();
        // Titles (unless another role is asked for), found the same way:
        // a listing of every session is not read for them.
        let titles = query.role.as_deref().is_none_or(|r| r == "title").then(|| {
            format!(
                "SELECT id, title, last_activity FROM ollm_sessions WHERE title IS NOT NULL{}",
                can_match("title")
            )
        });
        if let Some(role) = &query.role {
            params.push(role.clone());
            sql.push_str(&format!(" AND role = ${}", params.len()));
        }
        let mut hits: Vec<Hit> = Vec::new();
        let mut problems = Vec::new();
        self.with(|client| {
            if let Some(titles) = &titles {
                for row in client.query_typed(titles.as_str(), &typed(&like_params))? {
                    matcher.title_hit(row.get(0), row.get(1), row.get(2), &mut hits);
                }
            }
            for row in client.query_typed(sql.as_str(), &typed(&params))? {
                let id: &str = row.get(0);
                let kind: &str = row.get(1);
                let index = to_u64(row.get::<_, Option<i64>>(2).unwrap_or(0)) as usize;
                let body: &str = row.get(3);
                let (place, entry) = match kind {
                    "message" => (
                        Place::Message(index),
                        serde_json::from_str(body).map(Entry::Message),
                    ),
                    _ => (
                        Place::ToolCall(index),
                        serde_json::from_str(body).map(Entry::ToolCall),
                    ),
                };
                match entry {
                    Ok(entry) => matcher.check(id, place, &entry, &mut hits),
                    Err(err) => problems.push(Problem {
                        session_id: id.to_string(),
                        message: format!(
                            "session {id}: a record cannot be read ({})",
                            crate::text::one_line(&err.to_string())
                        ),
                    }),
                }
            }
            Ok(())
        })?;
        query::sort_hits(&mut hits);
        Ok(Found { hits, problems })
    }
}

/// Text parameters as the driver takes them, typed.
fn typed(params: &[String]) -> Vec<(&(dyn ToSql + Sync), Type)> {
    params
        .iter()
        .map(|p| (p as &(dyn ToSql + Sync), Type::TEXT))
        .collect()
}

/// `text` as a LIKE pattern matching itself.
fn escape_like(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
