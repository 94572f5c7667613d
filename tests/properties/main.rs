//! Property tests for the spec's correctness properties (design document,
//! Properties 1–28). Each test is named after the property it checks.

mod compress;
mod context;
mod discover;
mod env;
mod index;
mod loopcheck;
#[path = "../support/pg.rs"]
mod pg;
mod session;
