//! The session store as `ollm checkpoint` asks of it: a session named as
//! every session command names one, and the arguments of the tool calls it
//! recorded (whose paths a snapshot covers).

use serde_json::Value;

use super::{Selector, Store, select};
use crate::config::Config;
use crate::error::{Error, Result};

/// The configured session store, for checkpoint.
pub struct CheckpointSessions;

impl crate::checkpoint::Sessions for CheckpointSessions {
    fn resolve(&self, config: &Config, reference: Option<&str>, last: bool) -> Result<String> {
        let selector = Selector {
            reference: reference.map(str::to_string),
            last,
            ..Selector::default()
        };
        select(&Store::from_config(config)?, &selector)
    }

    fn tool_call_args(&self, config: &Config, session: &str) -> Result<Vec<Value>> {
        match Store::from_config(config)?.get(session) {
            Ok(found) => Ok(found.tool_calls.iter().map(|c| c.args().clone()).collect()),
            Err(Error::NotFound(_)) => Ok(Vec::new()),
            Err(e) => Err(e),
        }
    }
}
