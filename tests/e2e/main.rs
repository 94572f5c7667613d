//! End-to-end tests: every test runs the built binaries in a temporary
//! `OLLM_HOME` and `HOME`, with a cleared, pinned environment.

mod compress;
mod context;
mod discover;
mod examples;
mod loopcheck;
mod repeated_content;
mod session;
mod snapshots;
mod storage;
mod support;
mod terminal;
mod timeline;

mod bad_input;
mod config;
mod contract;
mod dispatch;
mod env;
mod env_process;
mod first_hour;
mod help;
mod policy_lists;
mod readme;
mod reliability;
mod secrets;
mod trust;
