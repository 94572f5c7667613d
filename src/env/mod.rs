//! `ollm-env`: run tools with secrets stripped from their environment
//! (Requirement 7, Properties 25–28).

pub mod child;
pub mod cli;
pub(crate) mod dotenv;
pub(crate) mod launch;
pub(crate) mod report;
mod signals;

/// The policy moved down to the base (`redact`): the session store
/// classifies the recording process's variables with it too.
pub use crate::redact::policy::{self, Decision, Policy, Reason};
