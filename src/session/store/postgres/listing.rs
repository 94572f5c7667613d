//! Listings and name resolution in SQL: the page a [`ListQuery`] asks for,
//! the sessions a [`Naming`] may mean and a session's branches, each
//! fetched by an index whatever the number of sessions, and each exactly
//! what the trait's default (filtering a whole listing) gives, in the same
//! order.
//!
//! ```text
//! ollm_sessions_listing    (last_ms DESC, start_ms DESC, id) INCLUDE (…) list, --last, --since
//! ollm_sessions_workspace  (workspace, last_ms DESC, start_ms DESC, id)  --here
//! ollm_sessions_model      (model, last_ms DESC, start_ms DESC, id)      --model
//! ollm_sessions_title      (title)                                       a title
//! ollm_sessions_id_prefix  (id COLLATE "C")                              an id prefix, as a range
//! ollm_sessions_parent     (parent_id)                                   branches
//! ```
//!
//! An id prefix is a range of ids in byte order (`COLLATE "C"`), which is
//! what `str::starts_with` compares, whatever the database's collation;
//! the range, not `LIKE 'prefix%'`, is what a btree index serves under any
//! collation and with the prefix as a parameter.
//!
//! `ollm_sessions_listing` holds every column a listing shows, so a
//! listing reads the index alone (an index-only scan), not a row of the
//! table per session: the whole listing at 100,000 sessions is a third of
//! the server's time, and the rows a page's `OFFSET` steps over cost
//! little (90,000 of them: 25 ms).

use postgres::types::{ToSql, Type};

use crate::session::store::api::{ListQuery, Naming};
use crate::timestamp;

/// The indexes listings and name resolution use besides the one the
/// tables are made with (`ollm_sessions_parent`). Made with the tables,
/// and on first use of a database made before them, which loses the
/// index `ollm_sessions_listing` replaces (its key without the columns).
pub(super) const INDEXES: &str = r#"
CREATE INDEX IF NOT EXISTS ollm_sessions_listing
    ON ollm_sessions (last_ms DESC, start_ms DESC, id)
    INCLUDE (start_time, last_activity, model, message_count, token_count, provider,
             tool_call_count, compression_count, title, parent_id, branch_point, workspace);
DROP INDEX IF EXISTS ollm_sessions_recent;
CREATE INDEX IF NOT EXISTS ollm_sessions_workspace
    ON ollm_sessions (workspace, last_ms DESC, start_ms DESC, id) WHERE workspace IS NOT NULL;
CREATE INDEX IF NOT EXISTS ollm_sessions_model
    ON ollm_sessions (model, last_ms DESC, start_ms DESC, id);
CREATE INDEX IF NOT EXISTS ollm_sessions_title ON ollm_sessions (title) WHERE title IS NOT NULL;
CREATE INDEX IF NOT EXISTS ollm_sessions_id_prefix ON ollm_sessions (id COLLATE "C");
"#;

/// The names of [`INDEXES`], to see whether a database has them.
pub(super) const INDEX_NAMES: [&str; 5] = [
    "ollm_sessions_listing",
    "ollm_sessions_workspace",
    "ollm_sessions_model",
    "ollm_sessions_title",
    "ollm_sessions_id_prefix",
];

/// A `SELECT` of summaries, newest first, and its parameters in order
/// with their types (sent with the statement: one round trip, no
/// statement prepared first).
pub(super) struct Select {
    pub(super) sql: String,
    pub(super) params: Vec<(Box<dyn ToSql + Sync>, Type)>,
}

impl Select {
    fn summaries() -> Select {
        Select {
            sql: format!(
                "SELECT {} FROM ollm_sessions WHERE true",
                super::SUMMARY_COLUMNS
            ),
            params: Vec::new(),
        }
    }

    /// The placeholder (`$n`) of `value`, the next parameter.
    fn bind(&mut self, value: impl ToSql + Sync + 'static, kind: Type) -> String {
        self.params.push((Box::new(value), kind));
        format!("${}", self.params.len())
    }

    fn and(&mut self, condition: &str) {
        self.sql.push_str(" AND ");
        self.sql.push_str(condition);
    }

    fn newest_first(&mut self) {
        self.sql.push(' ');
        self.sql.push_str(super::NEWEST_FIRST);
    }

    /// The parameters and their types as the driver takes them.
    pub(super) fn typed(&self) -> impl ExactSizeIterator<Item = (&(dyn ToSql + Sync), Type)> {
        self.params.iter().map(|(p, t)| (p.as_ref(), t.clone()))
    }
}

/// How a listing's rows become its page.
pub(super) enum Cut {
    /// The SQL selects exactly the page.
    Exact,
    /// The SQL selects the query's candidates in order; the page is those
    /// `ListQuery::keeps` keeps, then `offset` and `limit`.
    Confirm,
}

/// A session never holds a NUL (PostgreSQL's text cannot), so a value
/// with one matches nothing.
fn storable(text: &str) -> bool {
    !text.contains('\0')
}

/// The SQL of `query`'s page (`None`: nothing can match).
///
/// `--since` keeps a session whose `lastActivity` parses to that time or
/// later. `last_ms` is that time whenever `lastActivity` parses; when it
/// does not, `last_ms` is 0 (a session stored with a time we cannot read)
/// or later than [`timestamp::max_millis`] (a clock past the year 9999
/// stamped it). So `last_ms` between `since` and that bound is exact for
/// any `since` after the epoch; for an earlier one (rare: "everything"),
/// the rows are confirmed one by one.
pub(super) fn page(query: &ListQuery) -> Option<(Select, Cut)> {
    let mut select = Select::summaries();
    if let Some(model) = &query.model {
        if !storable(model) {
            return None;
        }
        let p = select.bind(model.clone(), Type::TEXT);
        select.and(&format!("model = {p}"));
    }
    if let Some(workspace) = &query.workspace {
        if !storable(workspace) {
            return None;
        }
        let p = select.bind(workspace.clone(), Type::TEXT);
        select.and(&format!("workspace = {p}"));
    }
    let cut = match query.since {
        Some(since) if since <= 0 => Cut::Confirm,
        Some(since) => {
            let from = select.bind(since, Type::INT8);
            let to = select.bind(timestamp::max_millis(), Type::INT8);
            select.and(&format!("last_ms >= {from} AND last_ms <= {to}"));
            Cut::Exact
        }
        None => Cut::Exact,
    };
    select.newest_first();
    if let Cut::Exact = cut {
        let limit = select.bind(query.limit.map(to_i64), Type::INT8);
        let offset = select.bind(to_i64(query.offset), Type::INT8);
        select
            .sql
            .push_str(&format!(" LIMIT {limit} OFFSET {offset}"));
    }
    Some((select, cut))
}

/// The SQL of the sessions `naming` may mean (`None`: none can be).
pub(super) fn named(naming: &Naming<'_>) -> Option<Select> {
    let mut select = Select::summaries();
    let mut either = Vec::new();
    if storable(naming.title) {
        let p = select.bind(naming.title.to_string(), Type::TEXT);
        either.push(format!("title = {p}"));
    }
    if let Some(prefix) = naming.prefix.filter(|p| storable(p)) {
        let from = select.bind(prefix.to_string(), Type::TEXT);
        let mut range = format!("id COLLATE \"C\" >= {from}");
        if let Some(end) = prefix_end(prefix) {
            let to = select.bind(end, Type::TEXT);
            range.push_str(&format!(" AND id COLLATE \"C\" < {to}"));
        }
        either.push(format!("({range})"));
    }
    if either.is_empty() {
        return None;
    }
    select.and(&format!("({})", either.join(" OR ")));
    if let Some(workspace) = naming.workspace {
        if !storable(workspace) {
            return None;
        }
        let p = select.bind(workspace.to_string(), Type::TEXT);
        select.and(&format!("workspace = {p}"));
    }
    select.newest_first();
    Some(select)
}

/// The SQL of the sessions branched from session `id`.
pub(super) fn children(id: &str) -> Select {
    let mut select = Select::summaries();
    let p = select.bind(id.to_string(), Type::TEXT);
    select.and(&format!("parent_id = {p}"));
    select.newest_first();
    select
}

/// The least string above every string that starts with `prefix`, in
/// byte (code point) order: `prefix` with its last character incremented,
/// dropping those that cannot be. `None` when there is none (`prefix` is
/// empty or all `char::MAX`): every string from `prefix` on starts with it.
fn prefix_end(prefix: &str) -> Option<String> {
    let mut chars: Vec<char> = prefix.chars().collect();
    while let Some(last) = chars.pop() {
        // The next code point that is a char (surrogates are not).
        if let Some(next) = (u32::from(last) + 1..=u32::from(char::MAX)).find_map(char::from_u32) {
            chars.push(next);
            return Some(chars.into_iter().collect());
        }
    }
    None
}

fn to_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests;
