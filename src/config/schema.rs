//! The configuration schema (the spec's `services:` YAML plus `snapshots:`),
//! with every default of the spec. Field names are the YAML keys.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct Config {
    pub services: Services,
    pub snapshots: SnapshotConfig,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct Services {
    pub session: SessionConfig,
    pub compression: CompressionConfig,
    pub loop_detection: LoopDetectionConfig,
    pub file_discovery: FileDiscoveryConfig,
    pub environment: EnvironmentConfig,
    pub checkpoint: CheckpointConfig,
}

/// Where sessions live unless configured: the OLLM CLI's own directory, so
/// each program sees and extends the other's sessions.
pub const DEFAULT_DATA_DIR: &str = "$OLLM_HOME/sessions";

/// Where earlier versions kept sessions by default (the spec's path). Still
/// the store when it exists and `dataDir` is not set: see
/// [`super::session_data_dir`].
pub const LEGACY_DATA_DIR: &str = "$OLLM_HOME/session-data";

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct SessionConfig {
    /// Where session files live; `~` and `$OLLM_HOME` are expanded.
    pub data_dir: String,
    /// Sessions kept when a new one is created; 0 disables the limit.
    pub max_sessions: u64,
    pub auto_save: bool,
    /// Where sessions are kept: `file` (dataDir) or a postgres:// URL.
    pub store: String,
    /// How the file store writes a session it creates: `cli`, the OLLM
    /// CLI's `<id>.json` (rewritten whole on each record, as the CLI does),
    /// or `journal`, our append-only `<id>/journal.ndjson`. A session keeps
    /// the format it was created in.
    pub format: SessionFormat,
    /// Replace credentials with `[REDACTED:<kind>]` in everything written
    /// to the store (records, branches, copies, snapshots). An untrusted
    /// workspace cannot turn it off.
    pub redact: bool,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum SessionFormat {
    #[default]
    Cli,
    Journal,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            data_dir: DEFAULT_DATA_DIR.into(),
            max_sessions: 100,
            auto_save: true,
            store: super::store_kinds::STORE_KINDS[0].name.into(),
            format: SessionFormat::Cli,
            redact: true,
        }
    }
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CompressionStrategy {
    Summarize,
    Truncate,
    Hybrid,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct CompressionConfig {
    pub enabled: bool,
    /// Fraction of the token limit at which compression is needed.
    pub threshold: f64,
    pub strategy: CompressionStrategy,
    /// Tokens of the most recent history kept verbatim.
    pub preserve_recent: u64,
    pub summary_max_tokens: u64,
    pub summarizer: SummarizerConfig,
    /// How tokens are counted: `cl100k` or `o200k` (BPE tables built into
    /// the binary), a path to a model's own `tokenizer.json`, `server` (the
    /// model server's `/tokenize`), `estimate` (characters / 4).
    pub tokenizer: String,
    /// The server for `tokenizer: server`; empty means the summarizer's URL.
    pub tokenizer_url: String,
    /// `static` (tokens > threshold × limit) or `dynamic` (threshold × the
    /// budget left after the system prompt and earlier summaries).
    pub trigger: TriggerMode,
    /// The context size compression is measured against, unless `--token-limit` is given.
    pub token_limit: u64,
    /// Size to compress to; 0 means threshold × limit.
    pub target_tokens: u64,
    /// User messages are never summarized or dropped.
    pub keep_user_messages: bool,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TriggerMode {
    Static,
    Dynamic,
}

impl Default for CompressionConfig {
    fn default() -> Self {
        CompressionConfig {
            enabled: true,
            threshold: 0.8,
            strategy: CompressionStrategy::Hybrid,
            preserve_recent: 4096,
            summary_max_tokens: 1024,
            summarizer: SummarizerConfig::default(),
            tokenizer: "cl100k".into(),
            tokenizer_url: String::new(),
            trigger: TriggerMode::Static,
            token_limit: 8192,
            target_tokens: 0,
            keep_user_messages: true,
        }
    }
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum SummarizerApi {
    /// OpenAI-compatible `/v1/chat/completions` (llama.cpp, vLLM, LM Studio, Ollama).
    Openai,
    /// Ollama's native `/api/chat`.
    Ollama,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct SummarizerConfig {
    pub api: SummarizerApi,
    pub url: String,
    pub model: String,
    /// Seconds to wait for the model before falling back to truncation.
    pub timeout: f64,
    /// The transcript sent for summary is cut (oldest first) to this many tokens.
    pub max_input_tokens: u64,
}

impl Default for SummarizerConfig {
    fn default() -> Self {
        SummarizerConfig {
            api: SummarizerApi::Openai,
            url: "http://127.0.0.1:11434".into(),
            model: "llama3.2:3b".into(),
            timeout: 60.0,
            max_input_tokens: 6000,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct LoopDetectionConfig {
    pub enabled: bool,
    /// A loop is reported on the first turn beyond this count.
    pub max_turns: u64,
    /// Consecutive repeats (of a call, an output, or a cycle) that make a loop.
    pub repeat_threshold: u64,
    /// Outputs whose `similar` ratio is at least this count as repeats;
    /// 1 means identical outputs only.
    pub similarity_threshold: f64,
    /// Longest cycle of tool calls (A,B,A,B… is 2) detected; below 2 disables cycles.
    pub cycle_max_length: u64,
    /// Repeated content within one output: the fewest characters that the
    /// occurrences of a repeated passage cover together for it to count.
    pub content_chunk_size: u64,
    /// Repeated content within one output: occurrences in a row of one
    /// passage (numbers aside) that make a loop; below 2 disables it.
    pub content_repeat_threshold: u64,
    /// Reports given as warnings (`"level": "warn"`) since the user last
    /// spoke before a report is a stop; 0 makes every report a stop.
    pub warnings_before_stop: u64,
}

/// The range of `contentChunkSize`, and the largest `contentRepeatThreshold`:
/// they bound the loop state (5 × chunk × (threshold − 1) characters of text).
pub const MIN_CONTENT_CHUNK_SIZE: u64 = 10;
pub const MAX_CONTENT_CHUNK_SIZE: u64 = 500;
pub const MAX_CONTENT_REPEAT_THRESHOLD: u64 = 50;
pub const MAX_WARNINGS_BEFORE_STOP: u64 = 100;

impl Default for LoopDetectionConfig {
    fn default() -> Self {
        LoopDetectionConfig {
            enabled: true,
            max_turns: 50,
            repeat_threshold: 3,
            similarity_threshold: 0.9,
            cycle_max_length: 3,
            content_chunk_size: 50,
            content_repeat_threshold: 4,
            warnings_before_stop: 1,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct FileDiscoveryConfig {
    /// Directory levels below the root that are entered: 0 lists only the
    /// root's own entries.
    pub max_depth: u64,
    pub follow_symlinks: bool,
    /// Gitignore-syntax patterns, relative to the root, that no ignore file
    /// can re-include.
    pub builtin_ignores: Vec<String>,
    /// List names starting with a dot (git does).
    pub include_hidden: bool,
    /// Watch mode: quiet time, in milliseconds, before a burst of changes is
    /// reported (an editor's save is one event).
    pub debounce_ms: u64,
    /// Keep `--paths` listings under `$OLLM_HOME/cache/discover/` and replay
    /// one while every directory and ignore file it read is unchanged.
    pub cache: bool,
}

impl Default for FileDiscoveryConfig {
    fn default() -> Self {
        FileDiscoveryConfig {
            max_depth: 10,
            follow_symlinks: false,
            builtin_ignores: [
                "node_modules",
                ".git",
                "dist",
                "build",
                ".next",
                ".cache",
                ".ollm",
            ]
            .map(String::from)
            .to_vec(),
            include_hidden: true,
            debounce_ms: 100,
            cache: true,
        }
    }
}

/// `ollm-checkpoint`: where the store is and what bounds it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct CheckpointConfig {
    /// The checkpoint store; `~` and `$OLLM_HOME` are expanded.
    pub dir: String,
    /// A snapshot of a tree whose files add up to more is refused
    /// (`--allow-large` takes it anyway).
    pub max_tree_bytes: u64,
    /// A larger file is recorded by its size and time only: a change to it
    /// is seen, but it cannot be restored.
    pub max_file_bytes: u64,
    /// Turns kept per session (the oldest go first); 0 keeps every turn.
    pub keep_turns: u64,
    /// The store's total size (objects and manifests) that the collector
    /// keeps it under, dropping the oldest turns of all sessions first.
    pub budget_bytes: u64,
    /// Linux: a background watcher (inotify) per work tree tells a
    /// snapshot which paths changed, so it re-stats only those instead of
    /// scanning the tree (`OLLM_CHECKPOINT_WATCH=1` or `=0` overrides).
    pub watch: bool,
}

/// Where checkpoints live unless configured.
pub const DEFAULT_CHECKPOINT_DIR: &str = "$OLLM_HOME/checkpoints";

impl Default for CheckpointConfig {
    fn default() -> Self {
        CheckpointConfig {
            dir: DEFAULT_CHECKPOINT_DIR.into(),
            max_tree_bytes: 1 << 30,
            max_file_bytes: 32 << 20,
            keep_turns: 200,
            budget_bytes: 2 << 30,
            watch: false,
        }
    }
}

/// The built-in lists, and the `services.environment` section that
/// extends or replaces them, live with the credential patterns in the base
/// `redact` module (which the environment policy and `diag` use, and which
/// therefore cannot import the configuration); they are named here for the
/// configuration's readers.
pub use crate::redact::environment::EnvironmentConfig;
pub use crate::redact::{CONNECTION_DENY, DEFAULT_ALLOW, DEFAULT_DENY, EXTENDED_DENY};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct SnapshotConfig {
    pub enabled: bool,
    /// Snapshots kept per session; the oldest beyond this are deleted.
    pub max_count: u64,
    pub auto_create: bool,
    /// Context usage (fraction of the limit) at which a snapshot is taken.
    pub auto_threshold: f64,
    /// Where snapshots live; `~` and `$OLLM_HOME` are expanded.
    pub dir: String,
}

impl Default for SnapshotConfig {
    fn default() -> Self {
        SnapshotConfig {
            enabled: true,
            max_count: 5,
            auto_create: true,
            auto_threshold: 0.85,
            dir: "$OLLM_HOME/context-snapshots".into(),
        }
    }
}

/// A value outside its allowed range: (key path, what is expected).
pub type RangeError = (&'static str, &'static str);

impl Config {
    /// Checks what serde's types cannot: ranges and non-empty values.
    pub fn check_ranges(&self) -> Result<(), RangeError> {
        let s = &self.services;
        let fraction = |v: f64| v > 0.0 && v <= 1.0;
        if !fraction(s.compression.threshold) {
            return Err((
                "services.compression.threshold",
                "a number greater than 0 and at most 1",
            ));
        }
        if !fraction(self.snapshots.auto_threshold) {
            return Err((
                "snapshots.autoThreshold",
                "a number greater than 0 and at most 1",
            ));
        }
        if s.loop_detection.repeat_threshold < 2 {
            return Err((
                "services.loopDetection.repeatThreshold",
                "a whole number of at least 2 (1 would report every call as a loop)",
            ));
        }
        if s.loop_detection.max_turns < 1 {
            return Err((
                "services.loopDetection.maxTurns",
                "a whole number of at least 1",
            ));
        }
        if !fraction(s.loop_detection.similarity_threshold) {
            return Err((
                "services.loopDetection.similarityThreshold",
                "a number greater than 0 and at most 1",
            ));
        }
        if s.loop_detection.cycle_max_length > 16 {
            return Err((
                "services.loopDetection.cycleMaxLength",
                "a whole number from 0 to 16",
            ));
        }
        if !(MIN_CONTENT_CHUNK_SIZE..=MAX_CONTENT_CHUNK_SIZE)
            .contains(&s.loop_detection.content_chunk_size)
        {
            return Err((
                "services.loopDetection.contentChunkSize",
                "a whole number from 10 to 500",
            ));
        }
        if s.loop_detection.content_repeat_threshold > MAX_CONTENT_REPEAT_THRESHOLD {
            return Err((
                "services.loopDetection.contentRepeatThreshold",
                "a whole number from 0 to 50 (below 2 disables repeated-content detection)",
            ));
        }
        if s.loop_detection.warnings_before_stop > MAX_WARNINGS_BEFORE_STOP {
            return Err((
                "services.loopDetection.warningsBeforeStop",
                "a whole number from 0 to 100 (0: every report is a stop)",
            ));
        }
        if s.compression.summarizer.timeout.is_nan() || s.compression.summarizer.timeout <= 0.0 {
            return Err((
                "services.compression.summarizer.timeout",
                "a positive number of seconds",
            ));
        }
        if s.file_discovery.debounce_ms > 60_000 {
            return Err((
                "services.fileDiscovery.debounceMs",
                "a whole number of milliseconds, at most 60000",
            ));
        }
        if s.compression.token_limit < 1 {
            return Err((
                "services.compression.tokenLimit",
                "a whole number of at least 1",
            ));
        }
        if s.compression.summary_max_tokens < 1 {
            return Err((
                "services.compression.summaryMaxTokens",
                "a whole number of at least 1",
            ));
        }
        if s.compression.summarizer.max_input_tokens < 100 {
            return Err((
                "services.compression.summarizer.maxInputTokens",
                "a whole number of at least 100",
            ));
        }
        if s.session.data_dir.trim().is_empty() {
            return Err(("services.session.dataDir", "a non-empty path"));
        }
        if super::store_kinds::store_kind(&s.session.store).is_none() {
            return Err((
                "services.session.store",
                super::store_kinds::store_locations(),
            ));
        }
        if s.checkpoint.dir.trim().is_empty() {
            return Err(("services.checkpoint.dir", "a non-empty path"));
        }
        if self.snapshots.dir.trim().is_empty() {
            return Err(("snapshots.dir", "a non-empty path"));
        }
        Ok(())
    }
}
