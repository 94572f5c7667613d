//! Importing gemini sessions (see mod.rs).
