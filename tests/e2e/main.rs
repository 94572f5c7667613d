//! End-to-end tests: every test runs the built binaries in a temporary
//! `OLLM_HOME` and `HOME`, with a cleared, pinned environment.

// A panic is how a test and its helpers fail.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod compress;
mod compress_full_disk;
mod context;
#[path = "../support/credential_contexts.rs"]
mod credential_contexts;
mod discover;
mod examples;
mod export_html;
mod import;
mod import_live;
mod loopcheck;
mod loopcheck_content_cases;
mod mcp;
#[path = "../support/modules.rs"]
mod modules;
mod ollm_cli;
mod ollm_cli_race;
mod ollm_cli_splice;
mod package_node;
mod package_python;
mod package_python_client;
#[path = "../support/pg.rs"]
mod pg;
mod quiet_corpus;
mod redaction;
mod redaction_contexts;
mod redaction_limit;
mod repeated_content;
mod retention;
mod session;
mod session_copy;
mod session_index;
mod session_index_checksums;
mod session_index_cli_writer;
mod session_index_damage;
mod session_keep;
mod session_keep_trust;
mod session_pg;
mod session_snapshots;
mod session_streaming;
mod session_titles;
mod session_tls;
mod snapshots;
mod storage;
mod support;
mod terminal;
mod terminal_views;
mod timeline;

mod bad_input;
mod checkpoint;
mod config;
mod contract;
mod dispatch;
mod env;
mod env_child;
mod env_process;
mod env_supervisor;
mod env_words;
mod first_hour;
mod first_hour_again;
mod help;
mod house;
mod people;
mod policy_lists;
mod program_context;
mod program_lists;
mod readme;
mod reliability;
mod scripting;
mod secrets;
mod trust;
mod wire_schemas;

/// A test file that no `mod` declaration reaches fails nothing: this does.
#[test]
fn every_test_file_is_compiled() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e");
    modules::assert_every_file_is_reached(&dir);
}
