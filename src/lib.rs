//! ollm tools: the services-and-sessions layer for LLM agent runtimes, as a
//! library behind small composable programs (`ollm`, `ollm-env`, …).
//!
//! One module per service plus what they share: configuration, the error
//! type with the exit-code table, JSON input/output helpers and diagnostics.
//!
//! Public is only what is used from outside the crate: by the programs in
//! `bin/`, the test suites, xtask, the fuzz targets and the `ollm-mcp`
//! crate. Everything else is `pub(crate)`, so the compiler finds dead code.

pub(crate) mod byte_search;
pub mod checkpoint;
pub mod cli;
pub mod command_tree;
pub mod compress;
pub mod config;
pub mod context;
pub mod diag;
pub mod discover;
pub mod env;
pub(crate) mod environ;
pub mod error;
pub(crate) mod fs;
pub mod input;
pub mod loopcheck;
pub mod lossless;
pub mod mcp;
pub mod ollm;
pub mod output;
pub(crate) mod paths;
pub mod redact;
pub(crate) mod repetition;
pub(crate) mod schema;
pub mod session;
pub(crate) mod stop;
pub(crate) mod suggest;
pub(crate) mod text;
pub(crate) mod threads;
pub mod timestamp;

pub use error::{Error, ExitCode, Result};
