//! End-to-end tests: every test runs the built binaries in a temporary
//! `OLLM_HOME` and `HOME`, with a cleared, pinned environment.

mod compress;
mod context;
mod discover;
mod examples;
mod loopcheck;
mod repeated_content;
mod session;
mod storage;
mod support;
mod terminal;
mod terminal_views;
mod timeline;

mod bad_input;
mod config;
mod dispatch;
mod env;
mod env_process;
mod first_hour;
mod flag_help;
mod policy_lists;
mod program_context;
mod readme;
mod reliability;
mod secrets;
mod trust;
