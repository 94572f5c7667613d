//! `ollm-compress`: token counting and history compression (Requirement 3,
//! 10.3; Properties 10–13; document 003 on what compression may touch).
//!
//! Compression changes what is sent to the model, never what is stored:
//! the input is read, a shorter history is printed.

pub(crate) mod acceptance;
mod bpe;
mod bpe_table;
pub mod cli;
pub mod configured;
pub mod engine;
pub(crate) mod hf_bpe;
mod hf_cache;
pub mod history;
pub(crate) mod http;
pub(crate) mod plan;
mod pretokenize;
pub mod session;
pub mod summarizer;
pub mod tokens;

pub use engine::{Settings, Status, compress};
pub use history::History;
pub use tokens::Tokenizer;
