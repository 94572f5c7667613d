//! One rollout's records turned into a transcript, a line at a time.

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::{Value, json};

use crate::session::import::{
    Body, Call, Item, Outcome, Role, Skipped, Source, Transcript, arguments,
};
use crate::session::model::image;

/// Text Codex sends as a user message that the user did not write: the
/// environment, instructions, markers (`codex-rs/core/src/context/`).
const HARNESS_PREFIXES: &[&str] = &[
    "<environment_context>",
    "<user_instructions>",
    "# agents.md instructions",
    "<instructions>",
    "<permissions instructions>",
    "<turn_aborted>",
    "<context_update>",
    "<skills_instructions>",
    "<skill>",
    "<user_shell_command>",
    "<subagent_notification>",
    "<collaboration_mode>",
    "<model_switch>",
    "<personality_spec>",
    "<hook_prompt",
];

mod state;

pub use state::State;

pub struct Reader {
    transcript: Transcript,
    /// The first `turn_context.cwd` and the first environment context's
    /// `<cwd>`, used when `session_meta` names none.
    turn_cwd: Option<PathBuf>,
    context_cwd: Option<PathBuf>,
    seen_meta: bool,
    /// Calls waiting for their output: `call_id` → index in `items`.
    pending: HashMap<String, usize>,
    /// Where each user turn starts in `items` (what a rollback counts).
    turns: Vec<usize>,
    first_timestamp: Option<String>,
    last_timestamp: Option<String>,
    /// A prompt read from a `response_item` whose `event_msg/user_message`
    /// copy has not come yet (Codex writes the item, then the event).
    prompt_awaiting_copy: bool,
    /// The items handed over already (see [`Reader::take_ready`]): every
    /// index above counts them.
    base: usize,
    /// A first pass: items keep their keys, not their contents, and
    /// `resolved` notes where each call's output came.
    lean: bool,
    resolved: HashMap<String, u64>,
    /// A second pass: the items the first found at the end, and the line
    /// of each one's output (a call's that came), which [`Reader::take_ready`]
    /// waits for.
    survivors: Option<HashMap<String, Option<u64>>>,
    /// Whether a `thread_rolled_back` asked to take turns back (a tail
    /// read cannot: the turns may be before it).
    rolled_back: bool,
}

impl Reader {
    pub fn new(source: &Source) -> Reader {
        Reader {
            transcript: Transcript {
                source: source.path.display().to_string(),
                ..Transcript::default()
            },
            turn_cwd: None,
            context_cwd: None,
            seen_meta: false,
            pending: HashMap::new(),
            turns: Vec::new(),
            first_timestamp: None,
            last_timestamp: None,
            prompt_awaiting_copy: false,
            base: 0,
            lean: false,
            resolved: HashMap::new(),
            survivors: None,
            rolled_back: false,
        }
        .with_fallback_id(source)
    }

    /// Whether a rollback was read: lines read alone cannot take turns
    /// back from before them.
    pub fn rolled_back(&self) -> bool {
        self.rolled_back
    }

    /// A reader for a first pass, keeping what decides which items stay
    /// (their keys) but not what they say.
    pub fn lean(source: &Source) -> Reader {
        Reader {
            lean: true,
            ..Reader::new(source)
        }
    }

    /// This reader made one for a second pass, handing over (through
    /// [`Reader::take_ready`]) the items a first pass by [`Reader::lean`]
    /// found at its end, once their calls' outputs are read.
    pub fn handing_over(self, first: &Reader) -> Reader {
        let survivors = first
            .transcript
            .items
            .iter()
            .map(|item| (item.key.clone(), first.resolved.get(&item.key).copied()))
            .collect();
        Reader {
            survivors: Some(survivors),
            ..self
        }
    }

    /// The items at the front that are final once line `number` is read:
    /// kept to the end (no later rollback takes them) and, for a call, with
    /// its output read. Stops at one a rollback will take.
    pub fn take_ready(&mut self, number: u64) -> Vec<Item> {
        let Some(survivors) = &self.survivors else {
            return Vec::new();
        };
        let ready = self
            .transcript
            .items
            .iter()
            .take_while(|item| {
                survivors
                    .get(&item.key)
                    .is_some_and(|output| output.is_none_or(|at| at <= number))
            })
            .count();
        self.base += ready;
        self.transcript.items.drain(..ready).collect()
    }

    /// The thread id in the file name, for a rollout whose `session_meta`
    /// line is missing or torn.
    fn with_fallback_id(mut self, source: &Source) -> Reader {
        let name = source
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let stem = name
            .trim_end_matches(".zst")
            .trim_end_matches(".jsonl")
            .to_string();
        self.transcript.source_id = stem
            .get(stem.len().saturating_sub(36)..)
            .filter(|tail| crate::session::model::is_uuid(tail))
            .map_or(stem.clone(), str::to_string);
        self
    }

    /// Takes in the record on line `number`.
    pub fn record(&mut self, number: u64, mut value: Value, skipped: &mut Skipped) {
        let Some(object) = value.as_object_mut() else {
            skipped.unknown_kinds += 1;
            return;
        };
        let timestamp = object
            .get("timestamp")
            .and_then(Value::as_str)
            .map(str::to_string);
        if let Some(at) = &timestamp {
            self.first_timestamp.get_or_insert_with(|| at.clone());
            self.last_timestamp = Some(at.clone());
        }
        let kind = object
            .get("type")
            .and_then(Value::as_str)
            .map(str::to_string);
        match (kind.as_deref(), object.remove("payload")) {
            (Some("session_meta"), Some(payload)) => self.meta(&payload),
            (Some("response_item"), Some(payload)) => {
                self.response_item(number, timestamp, payload, skipped);
            }
            (Some("turn_context"), Some(payload)) => self.turn_context(&payload),
            (Some("compacted"), Some(payload)) => self.compacted(number, timestamp, &payload),
            (Some("event_msg"), Some(payload)) => self.event(number, timestamp, &payload, skipped),
            (Some(_), Some(_)) => skipped.unknown_kinds += 1,
            // Before the envelope: bare response items, a first line with
            // the session's id, and `record_type` markers.
            (Some(_), None) => self.response_item(number, None, value, skipped),
            (None, _) if object.contains_key("record_type") => {}
            (None, _) if !self.seen_meta && object.contains_key("id") => self.meta(&value),
            (None, _) => skipped.unknown_kinds += 1,
        }
    }

    pub fn finish(mut self) -> Transcript {
        let t = &mut self.transcript;
        t.cwd = t
            .cwd
            .take()
            .filter(|c| !c.as_os_str().is_empty())
            .or(self.turn_cwd)
            .or(self.context_cwd);
        if t.started.is_none() {
            t.started = self.first_timestamp;
        }
        t.updated = self.last_timestamp;
        self.transcript
    }

    fn meta(&mut self, payload: &Value) {
        if self.seen_meta {
            // A fork's file may carry its origin's meta again; the first
            // line is the file's own.
            return;
        }
        self.seen_meta = true;
        let t = &mut self.transcript;
        if let Some(id) = payload.get("id").and_then(Value::as_str) {
            t.source_id = id.to_string();
        }
        t.cwd = payload
            .get("cwd")
            .and_then(Value::as_str)
            .map(PathBuf::from);
        t.provider = text_of(payload.get("model_provider"));
        t.started = text_of(payload.get("timestamp"));
        t.parent_source_id =
            text_of(payload.pointer("/source/subagent/thread_spawn/parent_thread_id"))
                .or_else(|| text_of(payload.get("forked_from_id")));
    }

    fn turn_context(&mut self, payload: &Value) {
        if let Some(model) = text_of(payload.get("model")) {
            self.transcript.model = Some(model);
        }
        if self.turn_cwd.is_none() {
            self.turn_cwd = text_of(payload.get("cwd")).map(PathBuf::from);
        }
    }

    fn event(&mut self, number: u64, at: Option<String>, payload: &Value, skipped: &mut Skipped) {
        match payload.get("type").and_then(Value::as_str) {
            Some("user_message") => self.user_event(number, at, payload, skipped),
            Some("thread_name_updated") => {
                if let Some(name) = text_of(payload.get("thread_name")) {
                    self.transcript.title = Some(name);
                }
            }
            Some("thread_rolled_back") => {
                let turns = payload
                    .get("num_turns")
                    .and_then(Value::as_u64)
                    .unwrap_or(0);
                self.rolled_back |= turns > 0;
                self.roll_back(usize::try_from(turns).unwrap_or(usize::MAX));
            }
            _ => {}
        }
    }

    /// An `event_msg/user_message`: the UI's copy of the prompt just read
    /// from a `response_item`, or (Codex Desktop 0.128 records some prompts
    /// only so) the prompt itself.
    fn user_event(
        &mut self,
        number: u64,
        at: Option<String>,
        payload: &Value,
        skipped: &mut Skipped,
    ) {
        if std::mem::take(&mut self.prompt_awaiting_copy) {
            skipped.copies += 1;
            return;
        }
        let strings = |key: &str| {
            payload
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect::<Vec<String>>()
        };
        // `images` are data URLs; `local_images` paths on the user's disk.
        let mut images: Vec<Value> = strings("images")
            .iter()
            .map(|url| image::part_from_url(url))
            .collect();
        images.extend(
            strings("local_images")
                .iter()
                .map(|path| json!({"type": "text", "text": format!("[image: {path}]")})),
        );
        let text = match payload.get("message").and_then(Value::as_str) {
            Some(text) if is_harness(text) => {
                skipped.not_typed += 1;
                return;
            }
            Some(text) if !text.trim().is_empty() => text.to_string(),
            _ if !images.is_empty() => String::new(),
            _ => return,
        };
        self.turns.push(self.base + self.transcript.items.len());
        self.push(
            number.to_string(),
            at,
            Body::Message {
                role: Role::User,
                text,
                images,
            },
        );
    }

    /// The last `turns` user turns were taken back: the conversation goes
    /// on from before them, as Codex's own history does.
    fn roll_back(&mut self, turns: usize) {
        if turns == 0 || self.turns.is_empty() {
            return;
        }
        let keep = self.turns.len().saturating_sub(turns);
        let cut = self.turns[keep];
        self.turns.truncate(keep);
        // Never below `base`: what was handed over is what a first pass
        // found kept, so no rollback reaches it.
        self.transcript
            .items
            .truncate(cut.saturating_sub(self.base));
        self.pending.retain(|_, index| *index < cut);
    }

    fn compacted(&mut self, number: u64, at: Option<String>, payload: &Value) {
        if let Some(summary) = text_of(payload.get("message")) {
            self.push(
                number.to_string(),
                at,
                Body::Message {
                    role: Role::System,
                    text: summary,
                    images: Vec::new(),
                },
            );
        }
    }

    fn response_item(
        &mut self,
        number: u64,
        at: Option<String>,
        mut item: Value,
        skipped: &mut Skipped,
    ) {
        let kind = item
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        match kind.as_str() {
            "message" => self.message(number, at, &item, skipped),
            "function_call" | "custom_tool_call" | "tool_search_call" => {
                let call_id = text_of(item.get("call_id")).unwrap_or_else(|| number.to_string());
                let mut name = text_of(item.get("name")).unwrap_or_else(|| kind.clone());
                if let Some(namespace) = text_of(item.get("namespace")) {
                    name = format!("{namespace}.{name}");
                }
                let args = ["arguments", "input"]
                    .into_iter()
                    .find_map(|field| item.get_mut(field).map(Value::take))
                    .map_or(Value::Null, arguments);
                self.call(number, at, call_id, name, args, None);
            }
            "local_shell_call" => {
                let call_id = text_of(item.get("call_id"))
                    .or_else(|| text_of(item.get("id")))
                    .unwrap_or_else(|| number.to_string());
                let args = item.get_mut("action").map_or(Value::Null, Value::take);
                self.call(number, at, call_id, "local_shell".into(), args, None);
            }
            "web_search_call" => {
                let call_id = text_of(item.get("id")).unwrap_or_else(|| number.to_string());
                let args = item.get_mut("action").map_or(Value::Null, Value::take);
                let outcome = Outcome::NoResult("noOutputRecorded");
                self.call(
                    number,
                    at,
                    call_id,
                    "web_search".into(),
                    args,
                    Some(outcome),
                );
            }
            "function_call_output" | "custom_tool_call_output" | "tool_search_output" => {
                let call_id = text_of(item.get("call_id")).unwrap_or_default();
                let output = ["output", "tools"]
                    .into_iter()
                    .find_map(|field| item.get_mut(field).map(Value::take))
                    .unwrap_or(Value::Null);
                match self.pending.remove(&call_id) {
                    Some(index) => {
                        let Some(item) = self.transcript.items.get_mut(index - self.base) else {
                            return;
                        };
                        if self.lean {
                            self.resolved.insert(item.key.clone(), number);
                        }
                        if let Body::ToolCall(call) = &mut item.body {
                            call.outcome = if self.lean {
                                Outcome::Done(String::new())
                            } else {
                                outcome_of(output)
                            };
                        }
                    }
                    // An output whose call is not in the file.
                    None => skipped.unknown_kinds += 1,
                }
            }
            "reasoning"
            | "ghost_snapshot"
            | "compaction"
            | "compaction_summary"
            | "image_generation_call" => {}
            _ => skipped.unknown_kinds += 1,
        }
    }

    fn message(&mut self, number: u64, at: Option<String>, item: &Value, skipped: &mut Skipped) {
        let role = match item.get("role").and_then(Value::as_str) {
            Some("user") => Role::User,
            Some("assistant") => Role::Assistant,
            // `developer` and `system`: instructions, not conversation.
            _ => {
                skipped.not_typed += 1;
                return;
            }
        };
        let (mut texts, mut images, mut harness) = (Vec::new(), Vec::new(), false);
        for part in item
            .get("content")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let Some(text) = part.get("text").and_then(Value::as_str) else {
                if part.get("type").and_then(Value::as_str) == Some("input_image") {
                    let url = part.get("image_url").and_then(Value::as_str).unwrap_or("");
                    images.push(image::part_from_url(url));
                }
                continue;
            };
            if role == Role::User && is_harness(text) {
                harness = true;
                if self.context_cwd.is_none() {
                    self.context_cwd = cwd_in(text);
                }
                continue;
            }
            texts.push(text);
        }
        if harness || role != Role::User {
            // Images the harness sends (a view of a file) are not a prompt.
            images.clear();
        }
        if texts.is_empty() && images.is_empty() {
            skipped.not_typed += u64::from(harness);
            return;
        }
        if role == Role::User {
            self.turns.push(self.base + self.transcript.items.len());
            self.prompt_awaiting_copy = true;
        }
        let text = texts.join("\n\n");
        self.push(number.to_string(), at, Body::Message { role, text, images });
    }

    fn call(
        &mut self,
        number: u64,
        at: Option<String>,
        call_id: String,
        name: String,
        args: Value,
        outcome: Option<Outcome>,
    ) {
        let key = format!("{number}:{call_id}");
        if outcome.is_none() {
            self.pending
                .insert(call_id.clone(), self.base + self.transcript.items.len());
        }
        let outcome = outcome.unwrap_or(Outcome::NoResult("interrupted"));
        self.push(
            key,
            at,
            Body::ToolCall(Call {
                call_id,
                name,
                args,
                outcome,
            }),
        );
    }

    fn push(&mut self, key: String, timestamp: Option<String>, mut body: Body) {
        if !matches!(
            body,
            Body::Message {
                role: Role::User,
                ..
            }
        ) {
            // The copy comes before the model answers, if at all.
            self.prompt_awaiting_copy = false;
        }
        if self.lean {
            match &mut body {
                Body::Message { text, images, .. } => {
                    *text = String::new();
                    images.clear();
                }
                Body::ToolCall(call) => {
                    call.args = Value::Null;
                    call.name = String::new();
                }
            }
        }
        self.transcript.items.push(Item {
            key,
            timestamp,
            body,
        });
    }
}

fn text_of(value: Option<&Value>) -> Option<String> {
    value
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
        .map(str::to_string)
}

fn is_harness(text: &str) -> bool {
    let start = text.trim_start();
    HARNESS_PREFIXES.iter().any(|prefix| {
        start
            .get(..prefix.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
    })
}

/// The `<cwd>` an environment context names.
fn cwd_in(text: &str) -> Option<PathBuf> {
    let start = text.find("<cwd>")? + "<cwd>".len();
    let end = start + text[start..].find("</cwd>")?;
    let cwd = text[start..end].trim();
    (!cwd.is_empty()).then(|| PathBuf::from(cwd))
}

/// A call's output as the model saw it: a string, a list of content items
/// (their text; images left out), or `{content, success}` where
/// `success: false` is a failure.
fn outcome_of(output: Value) -> Outcome {
    match output {
        Value::String(text) => Outcome::Done(text),
        Value::Array(items) => Outcome::Done(
            items
                .iter()
                .filter_map(|item| item.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n\n"),
        ),
        Value::Object(mut fields) => {
            let failed = fields.get("success").and_then(Value::as_bool) == Some(false);
            let text = match fields.remove("content") {
                Some(Value::String(text)) => text,
                Some(other) => match outcome_of(other) {
                    Outcome::Done(text) | Outcome::Failed(text) => text,
                    Outcome::NoResult(_) => String::new(),
                },
                None => Value::Object(fields).to_string(),
            };
            if failed {
                Outcome::Failed(text)
            } else {
                Outcome::Done(text)
            }
        }
        Value::Null => Outcome::Done(String::new()),
        other => Outcome::Done(other.to_string()),
    }
}
