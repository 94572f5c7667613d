//! End-to-end tests: every test runs the built binaries in a temporary
//! `OLLM_HOME` and `HOME`, with a cleared, pinned environment.

mod compress;
mod context;
mod discover;
mod examples;
mod loopcheck;
mod repeated_content;
mod session;
mod support;
mod timeline;

mod bad_input;
mod config;
mod dispatch;
mod env;
mod reliability;
mod secrets;
