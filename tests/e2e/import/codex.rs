//! Importing codex sessions (see mod.rs).
