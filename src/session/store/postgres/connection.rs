//! The store's one connection: made on first use (through the keeper
//! when one serves this store, else directly), dropped when it failed so
//! the next call connects anew, and its failures said in one line.

use std::path::PathBuf;

use postgres::Client;

use super::{PgStore, keeper, tls as pgtls};
use crate::error::{Error, Result};

impl PgStore {
    /// A storage failure, one line, naming the store (password redacted).
    pub(super) fn fail(&self, err: &postgres::Error) -> Error {
        let mut message = err.to_string();
        if let Some(source) = std::error::Error::source(err) {
            message = format!("{message}: {source}");
        }
        let mut message = crate::text::one_line(&message);
        if let Some(db) = err.as_db_error() {
            message = crate::text::one_line(db.message());
            if db.code() == &postgres::error::SqlState::READ_ONLY_SQL_TRANSACTION {
                message = format!("the server is read-only (a replica?): {message}");
            } else if db.code() == &postgres::error::SqlState::QUERY_CANCELED {
                message = format!("{message} (statement_timeout in the store URL)");
            }
        } else if let Some(hint) = pgtls::hint(&message) {
            message = format!("TLS: {message} ({hint})");
        } else if let Some(why) = keeper::stalled() {
            message = why.to_string();
        } else if err.is_closed() || message.contains("error connecting") {
            message = format!("cannot reach the database: {message}");
        }
        Error::Io {
            path: PathBuf::from(self.url.shown()),
            message: crate::redact::scrub_message(&message),
        }
    }

    pub(super) fn failure(&self, failure: Failure) -> Error {
        match failure {
            Failure::Ollm(err) => err,
            Failure::Db(err) => self.fail(&err),
        }
    }

    /// Runs `work` on the connection, connecting (and creating the
    /// schema) first when needed. A connection that failed is dropped, so
    /// the next call connects anew.
    pub(super) fn with<R>(
        &self,
        work: impl FnOnce(&mut Client) -> std::result::Result<R, Failure>,
    ) -> Result<R> {
        let mut slot = self
            .client
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if slot.as_ref().is_none_or(Client::is_closed) {
            *slot = Some(self.connect()?);
        }
        let Some(client) = slot.as_mut() else {
            return Err(Error::Io {
                path: PathBuf::from(self.url.shown()),
                message: "no connection".into(),
            });
        };
        match work(client) {
            Ok(value) => Ok(value),
            Err(Failure::Db(err)) => {
                if err.is_closed() || err.as_db_error().is_none() {
                    *slot = None;
                }
                Err(self.fail(&err))
            }
            Err(Failure::Ollm(err)) => Err(err),
        }
    }

    fn connect(&self) -> Result<Client> {
        let kept = (self.options.run_dir.as_deref())
            .and_then(|run_dir| keeper::connect_kept(run_dir, &self.url));
        let mut client = match kept {
            Some(client) => client,
            None => pgtls::connect(&self.url)?.map_err(|e| self.fail(&e))?,
        };
        self.ensure_schema(&mut client)?;
        Ok(client)
    }
}

/// A failure inside a unit of work: the database's, or ours.
pub(super) enum Failure {
    Db(postgres::Error),
    Ollm(Error),
}

impl From<postgres::Error> for Failure {
    fn from(err: postgres::Error) -> Failure {
        Failure::Db(err)
    }
}

impl From<Error> for Failure {
    fn from(err: Error) -> Failure {
        Failure::Ollm(err)
    }
}

pub(super) fn not_found(id: &str) -> Failure {
    Failure::Ollm(Error::NotFound(format!("no session {id}")))
}
