//! `ollm-env`: run tools with secrets stripped from their environment
//! (Requirement 7, Properties 25–28).

pub mod cli;
pub mod policy;
pub mod redact;
pub mod report;
pub mod run;
pub mod secrets;

pub use policy::{Decision, ExtraRules, Policy, Reason};
