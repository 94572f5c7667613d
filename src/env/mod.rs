//! `ollm-env`: run tools with secrets stripped from their environment
//! (Requirement 7, Properties 25–28).

pub mod cli;
pub mod dotenv;
pub mod policy;
pub mod report;
pub mod run;
mod signals;

pub use policy::{Decision, ExtraRules, Policy, Reason};
