//! Importing claude sessions (see mod.rs).
