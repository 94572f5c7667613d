//! The loop detector: a small state machine fed one event at a time. Every
//! way of running `ollm-loopcheck` (one-shot, streaming, incremental with a
//! state file) drives this same machine, so their verdicts agree.
//!
//! An event that completes or continues a loop is *reported*: a tool call
//! that makes (or extends) a run of identical calls or a cycle, an output
//! that makes a run of similar outputs, a turn beyond `maxTurns`. The state
//! kept is bounded: the last call, the last output's sample, and the last
//! `cycleMaxLength` call hashes with one counter per cycle length.
//!
//! Every report has a level: the first ones since the user last spoke are
//! warnings (`warn`: the runtime nudges the model), and once
//! `warningsBeforeStop` warnings were given, any further report is `stop`
//! (the pattern persisted after the warning). The count of warnings is part
//! of the state, so a warning given at one turn makes the next turn's
//! report a stop.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::canon::{canonical, hash_hex};
use super::event::Event;
use super::similarity::{OutputSample, is_similar};
use crate::config::LoopDetectionConfig;
use crate::config::{MAX_CONTENT_CHUNK_SIZE, MAX_CONTENT_REPEAT_THRESHOLD, MIN_CONTENT_CHUNK_SIZE};
use crate::repetition::{ContentSettings, ContentTracker};
use crate::text::{one_line, shorten as preview};

/// The rules' settings (`services.loopDetection`).
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub enabled: bool,
    pub max_turns: u64,
    pub repeat_threshold: u64,
    pub similarity_threshold: f64,
    pub cycle_max_length: u64,
    /// Characters a repeated passage's occurrences must cover together.
    pub content_chunk_size: u64,
    /// Occurrences in a row of one passage that make a repeated-content
    /// loop; below 2 turns it off.
    pub content_repeat_threshold: u64,
    /// Reports that are warnings before the next one is a stop; 0 makes
    /// every report a stop.
    pub warnings_before_stop: u64,
}

impl Settings {
    fn content(&self) -> ContentSettings {
        ContentSettings {
            min_span: self.content_chunk_size as usize,
            threshold: self.content_repeat_threshold as usize,
        }
    }
}

impl From<&LoopDetectionConfig> for Settings {
    fn from(c: &LoopDetectionConfig) -> Settings {
        Settings {
            enabled: c.enabled,
            max_turns: c.max_turns,
            repeat_threshold: c.repeat_threshold.max(1),
            similarity_threshold: c.similarity_threshold,
            cycle_max_length: c.cycle_max_length.min(16),
            content_chunk_size: c
                .content_chunk_size
                .clamp(MIN_CONTENT_CHUNK_SIZE, MAX_CONTENT_CHUNK_SIZE),
            content_repeat_threshold: c.content_repeat_threshold.min(MAX_CONTENT_REPEAT_THRESHOLD),
            warnings_before_stop: c.warnings_before_stop,
        }
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings::from(&LoopDetectionConfig::default())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PatternType {
    RepeatedTool,
    RepeatedOutput,
    TurnLimit,
    ToolCycle,
    RepeatedContent,
}

/// A detected loop: what repeated, in a sentence a user can act on, and how often.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(rename = "LoopPattern")]
pub struct Pattern {
    #[serde(rename = "type")]
    pub kind: PatternType,
    pub details: String,
    pub count: u64,
}

/// How a runtime should act on a report.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[schemars(rename = "LoopLevel")]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    /// The first detection: tell the model it is repeating itself.
    Warn,
    /// The pattern persisted after a warning: stop the model.
    Stop,
}

/// The answer for a point in the event stream.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(rename = "LoopVerdict")]
pub struct Verdict {
    #[serde(rename = "loop")]
    pub is_loop: bool,
    /// `warn` or `stop` when a loop is reported, null otherwise.
    pub level: Option<Level>,
    pub pattern: Option<Pattern>,
    /// Events seen so far, counting from 1 (the reporting event's number);
    /// a `reset` event does not restart this count.
    pub event: u64,
    /// Turns of this conversation so far.
    pub turn: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CallRef {
    hash: String,
    name: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ToolRun {
    call: CallRef,
    args_preview: String,
    count: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct OutputRun {
    last: OutputSample,
    /// Identity of the tool calls made just before `last`.
    calls_before: String,
    count: u64,
}

/// The detector's whole state; serializable for `--state`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Detector {
    events: u64,
    turns: u64,
    tool_run: Option<ToolRun>,
    output_run: Option<OutputRun>,
    /// Identity of the tool calls since the last output (a hash chain).
    calls_since_output: String,
    /// The last event was a (non-blank) output: the next output event is
    /// another chunk of the same streamed output, not a new output.
    #[serde(default)]
    output_open: bool,
    /// The last `cycleMaxLength` calls, oldest first.
    recent: VecDeque<CallRef>,
    /// `periodic[p-2]`: how many consecutive recent calls equalled the call
    /// `p` places before them. A cycle of length `p` repeated `k` times
    /// makes this at least `(k-1)·p`.
    periodic: Vec<u64>,
    /// Repeated content within the current output (its chunks since the
    /// last turn, tool call or user message). Named apart from the first
    /// format's `content`, which a state written before is not read into.
    #[serde(default)]
    repetition: ContentTracker,
    /// Warnings given since the user last spoke.
    #[serde(default)]
    warnings: u64,
}

const ARGS_PREVIEW: usize = 120;
const OUTPUT_PREVIEW: usize = 80;

/// Characters of a repeated passage shown, from its start: enough to
/// recognise a sentence or a paragraph's opening.
const PASSAGE_PREVIEW: usize = 160;

impl Detector {
    pub fn new() -> Detector {
        Detector::default()
    }

    pub fn events(&self) -> u64 {
        self.events
    }

    pub fn turns(&self) -> u64 {
        self.turns
    }

    /// The verdict when nothing is reported at this point.
    pub fn quiet_verdict(&self) -> Verdict {
        Verdict {
            is_loop: false,
            level: None,
            pattern: None,
            event: self.events,
            turn: self.turns,
        }
    }

    /// Feeds one event; returns the loop it completes or continues, if any.
    pub fn push(&mut self, event: &Event, settings: &Settings) -> Option<Verdict> {
        self.events += 1;
        let pattern = match event {
            Event::Reset => {
                *self = Detector {
                    events: self.events,
                    ..Detector::default()
                };
                None
            }
            Event::User { .. } => {
                self.clear_tracking();
                None
            }
            Event::Turn => {
                self.repetition.reset();
                self.output_open = false;
                self.turns += 1;
                (self.turns > settings.max_turns).then(|| Pattern {
                    kind: PatternType::TurnLimit,
                    details: format!(
                        "The conversation has run {} turns, more than the limit of {}; stop and ask the user how to continue (the limit is services.loopDetection.maxTurns).",
                        self.turns, settings.max_turns
                    ),
                    count: self.turns,
                })
            }
            Event::Tool { name, args } => self.push_call(name, args, settings),
            Event::Output { text } => self.push_output(text, settings),
        };
        let pattern = pattern.filter(|_| settings.enabled)?;
        let level = if self.warnings < settings.warnings_before_stop {
            self.warnings += 1;
            Level::Warn
        } else {
            Level::Stop
        };
        Some(Verdict {
            is_loop: true,
            level: Some(level),
            pattern: Some(pattern),
            event: self.events,
            turn: self.turns,
        })
    }

    fn clear_tracking(&mut self) {
        self.repetition.reset();
        self.warnings = 0;
        self.tool_run = None;
        self.output_run = None;
        self.calls_since_output.clear();
        self.output_open = false;
        self.recent.clear();
        self.periodic.clear();
    }

    fn push_call(
        &mut self,
        name: &str,
        args: &serde_json::Value,
        settings: &Settings,
    ) -> Option<Pattern> {
        self.repetition.reset();
        self.output_open = false;
        let canonical_args = canonical(args);
        let call = CallRef {
            hash: hash_hex(&[name, &canonical_args]),
            name: name.to_string(),
        };
        self.calls_since_output = hash_hex(&[&self.calls_since_output, &call.hash]);
        match &mut self.tool_run {
            Some(run) if run.call.hash == call.hash => run.count += 1,
            _ => {
                self.tool_run = Some(ToolRun {
                    call: call.clone(),
                    args_preview: preview(&canonical_args, ARGS_PREVIEW),
                    count: 1,
                });
            }
        }
        self.track_cycles(call, settings.cycle_max_length as usize);

        let threshold = settings.repeat_threshold;
        if let Some(run) = &self.tool_run
            && run.count >= threshold
        {
            return Some(Pattern {
                kind: PatternType::RepeatedTool,
                details: format!(
                    "The tool `{}` was called {} times in a row with the same arguments {}; its result will not change, so try a different approach or ask the user.",
                    run.call.name, run.count, run.args_preview
                ),
                count: run.count,
            });
        }
        self.find_cycle(threshold)
    }

    fn track_cycles(&mut self, call: CallRef, max_len: usize) {
        let lengths = max_len.saturating_sub(1);
        self.periodic.resize(lengths, 0);
        let len = self.recent.len();
        for (i, counter) in self.periodic.iter_mut().enumerate() {
            let p = i + 2;
            if len >= p && self.recent[len - p].hash == call.hash {
                *counter += 1;
            } else {
                *counter = 0;
            }
        }
        self.recent.push_back(call);
        while self.recent.len() > max_len {
            self.recent.pop_front();
        }
    }

    fn find_cycle(&self, threshold: u64) -> Option<Pattern> {
        for (i, &counter) in self.periodic.iter().enumerate() {
            let p = (i + 2) as u64;
            if counter < threshold.saturating_sub(1) * p || counter == 0 {
                continue;
            }
            let block: Vec<&CallRef> = self
                .recent
                .iter()
                .skip(self.recent.len() - p as usize)
                .collect();
            // Rotate the last `p` calls so the cycle is named from its first call.
            let shift = ((p - counter % p) % p) as usize;
            let names: Vec<String> = (0..p as usize)
                .map(|k| format!("`{}`", block[(k + shift) % p as usize].name))
                .collect();
            let count = counter / p + 1;
            return Some(Pattern {
                kind: PatternType::ToolCycle,
                details: format!(
                    "The tool calls {} repeated {} times in a row with the same arguments; the cycle makes no progress, so try a different approach or ask the user.",
                    names.join(" → "),
                    count
                ),
                count,
            });
        }
        None
    }

    /// An output: compared whole with the previous one (repeated-output,
    /// reported first), and added to the current output's text
    /// (repeated-content).
    fn push_output(&mut self, text: &str, settings: &Settings) -> Option<Pattern> {
        let repeated = self.push_output_whole(text, settings);
        let content = self.repetition.push(text, settings.content());
        repeated.or_else(|| {
            content.map(|found| Pattern {
                kind: PatternType::RepeatedContent,
                details: format!(
                    "The model wrote this passage of about {} characters {} times in a row within one output{}: \"{}\"; it is repeating itself instead of answering: tell it to try something else or answer, and stop the generation if it goes on.",
                    found.period,
                    found.count,
                    if found.counter {
                        ", only its numbers changing"
                    } else {
                        ""
                    },
                    preview(&one_line(&found.unit), PASSAGE_PREVIEW)
                ),
                count: found.count,
            })
        })
    }

    /// Blank outputs (a turn that only called tools) are ignored. An
    /// identical output event always repeats the previous one (Property 15);
    /// a merely similar one only when it starts an output (a turn, tool call
    /// or user message came since the previous output event) and the tool
    /// calls before it were the same as before the previous output. Output
    /// events in a row are the chunks of one streamed output: chunks of a
    /// link list or a table look alike without the model repeating itself,
    /// and what repeats inside one output is the repeated-content rule's.
    /// Templated progress messages about different work ("Edited a.rs",
    /// "Edited b.rs") are not a loop either.
    fn push_output_whole(&mut self, text: &str, settings: &Settings) -> Option<Pattern> {
        if text.trim().is_empty() {
            return None;
        }
        let sample = OutputSample::new(text);
        let calls_before = std::mem::take(&mut self.calls_since_output);
        let continues_output = std::mem::replace(&mut self.output_open, true);
        let count = match &self.output_run {
            Some(run) if run.last.hash == sample.hash => run.count + 1,
            Some(run)
                if !continues_output
                    && run.calls_before == calls_before
                    && is_similar(&run.last, &sample, settings.similarity_threshold) =>
            {
                run.count + 1
            }
            _ => 1,
        };
        self.output_run = Some(OutputRun {
            last: sample,
            calls_before,
            count,
        });
        (count >= settings.repeat_threshold).then(|| Pattern {
            kind: PatternType::RepeatedOutput,
            details: format!(
                "The model produced {count} identical or near-identical outputs in a row (similarity at least {}), the last being \"{}\"; it is not making progress, so change the instructions or ask the user.",
                settings.similarity_threshold,
                preview(text, OUTPUT_PREVIEW)
            ),
            count,
        })
    }
}

/// The verdict to give for a batch of reports: the first stop, else the
/// first warning.
pub fn gravest(first: Option<Verdict>, report: Option<Verdict>) -> Option<Verdict> {
    match (first, report) {
        (Some(f), Some(r)) if f.level < r.level => Some(r),
        (None, r) => r,
        (f, _) => f,
    }
}

/// Runs `events` through a fresh detector: every reported verdict, in order.
pub fn all_reports(events: &[Event], settings: &Settings) -> Vec<Verdict> {
    let mut detector = Detector::new();
    events
        .iter()
        .filter_map(|e| detector.push(e, settings))
        .collect()
}

#[cfg(test)]
mod tests;
