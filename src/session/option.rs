//! `--session ID|--last [--here]` for the programs that read a stored
//! session (`ollm-compress`, `ollm-loopcheck`): the same ways of naming a
//! session as `ollm-session` takes, resolved by [`super::select`].

use super::select::{Selector, select_optional};
use super::store::Store;
use crate::error::{Error, Result};

/// Options naming a stored session to read instead of the input.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SessionOption {
    /// Read this stored session (ollm-session) instead of INPUT: its id,
    /// a unique prefix of it (4+ characters) or its title.
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
    /// Read the most recently active stored session instead of INPUT.
    #[arg(long, conflicts_with = "session")]
    pub last: bool,
    /// With --session or --last, only sessions made in this workspace (the
    /// git top level, else the current directory); alone, the latest of them.
    #[arg(long)]
    pub here: bool,
}

impl SessionOption {
    /// Whether a session was named at all.
    pub fn is_given(&self) -> bool {
        self.session.is_some() || self.last || self.here
    }

    /// The whole id of the session named, if any.
    pub fn resolve(&self, store: &Store) -> Result<Option<String>> {
        select_optional(
            store,
            &Selector {
                reference: self.session.clone(),
                last: self.last,
                here: self.here,
                whole_title: false,
            },
        )
    }

    /// The named session as the spec's JSON text (what a session file
    /// holds), with its id; `None` when no session was named.
    pub fn document(&self, store: &Store) -> Result<Option<(String, String)>> {
        let Some(id) = self.resolve(store)? else {
            return Ok(None);
        };
        let session = store.get(&id)?;
        let bytes = crate::lossless::to_vec(&session)
            .map_err(|e| Error::input(format!("cannot encode session {id}: {e}")))?;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        Ok(Some((id, text)))
    }
}
