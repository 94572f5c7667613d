//! Importing opencode sessions (see mod.rs).
