//! Property tests for the spec's correctness properties (design document,
//! Properties 1–28). Each test is named after the property it checks.

// A panic is how a test and its helpers fail.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod compress;
mod context;
mod discover;
mod env;
mod index;
mod loopcheck;
#[path = "../support/modules.rs"]
mod modules;
#[path = "../support/pg.rs"]
mod pg;
mod session;

/// A test file that no `mod` declaration reaches fails nothing: this does.
#[test]
fn every_test_file_is_compiled() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/properties");
    modules::assert_every_file_is_reached(&dir);
}
