//! ollm tools: the services-and-sessions layer for LLM agent runtimes, as a
//! library behind small composable programs (`ollm`, `ollm-env`, …).
//!
//! One module per service plus what they share: configuration, the error
//! type with the exit-code table, JSON input/output helpers and diagnostics.

pub mod byte_search;
pub mod cli;
pub mod command_tree;
pub mod compress;
pub mod config;
pub mod context;
pub mod diag;
pub mod discover;
pub mod env;
pub mod environ;
pub mod error;
pub mod fs;
pub mod input;
pub mod loopcheck;
pub mod lossless;
pub mod mcp;
pub mod ollm;
pub mod output;
pub mod paths;
pub mod redact;
pub mod repetition;
pub mod session;
pub mod suggest;
pub mod text;
pub mod timestamp;

pub use error::{Error, ExitCode, Result};
