//! `record_message` and `add_context`, offered only with `--allow-write`.

use ollm::context::entry::{Source, parse_ttl};
use ollm::context::ops;
use ollm::context::store::NewEntry;
use ollm::error::{Error, Result};
use ollm::session::select::{self, Selector};
use ollm::session::{Store, ingest};

use crate::schema::{AddContextArgs, ContextAdded, RecordMessageArgs, Recorded};
use crate::served::Served;
use ollm::config::Loaded;

const ROLES: &[&str] = &["user", "assistant", "system"];

pub fn record_message(loaded: &Loaded, args: RecordMessageArgs) -> Result<Recorded> {
    if !ROLES.contains(&args.role.as_str()) {
        return Err(Error::usage(format!(
            "role must be user, assistant or system, not '{}'",
            args.role
        )));
    }
    let store = Store::from_config(&loaded.config)?;
    let id = select::select(
        &store,
        &Selector {
            reference: args.session,
            last: args.latest,
            here: false,
            // What a model writes goes only where it named exactly.
            whole_title: true,
        },
    )?;
    store.exists(&id)?;
    let ack = store.record(&id, &ingest::text_message(&args.role, &args.text), None)?;
    Ok(ack)
}

/// Into the workspace's store, as `ollm context add` (source `extension`:
/// another program added it). The workspace must be one we may write.
pub fn add_context(args: AddContextArgs) -> Result<ContextAdded> {
    let ttl = args
        .ttl
        .as_deref()
        .map(parse_ttl)
        .transpose()
        .map_err(Error::usage)?;
    let cwd = std::env::current_dir().map_err(|e| Error::io(".", &e))?;
    let located = ops::locate(None, None, &cwd)?;
    let now = jiff::Timestamp::now()
        .round(jiff::Unit::Millisecond)
        .map_err(Error::input)?;
    let added = ops::add(
        &located,
        NewEntry {
            key: args.key,
            content: args.content,
            priority: args.priority.unwrap_or(50),
            source: Source::Extension,
            ttl,
        },
        now,
    )?;
    Ok(Served(added))
}
