//! Importing goose sessions (see mod.rs).
