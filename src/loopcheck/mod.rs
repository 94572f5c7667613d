//! `ollm-loopcheck`: runaway-loop detection (Requirement 4, Properties 14–17).
//!
//! Rules: the same tool with the same canonical arguments `repeatThreshold`
//! times in a row; that many consecutive identical or similar outputs; a
//! turn beyond `maxTurns`; and short cycles of calls (A,B,A,B…) repeated
//! `repeatThreshold` times; and one output (or the chunks of one streamed
//! output) repeating the same passage ([`crate::repetition`]). A user message resets
//! call and output tracking.

pub(crate) mod canon;
pub mod cli;
pub mod detector;
pub mod event;
pub mod modes;
pub(crate) mod similarity;
pub mod state;

pub use detector::{Detector, PatternType, Settings, Verdict};
pub use event::Event;
