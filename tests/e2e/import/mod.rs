//! `ollm-session import`: each tool's fixture store, written by the test
//! from the format as the tool's own code defines it, imported through the
//! built binary.

mod claude;
mod cli;
mod codex;
mod gemini;
mod goose;
mod opencode;
