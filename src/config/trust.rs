//! Workspace trust. A workspace's `.ollm/` is written by whoever wrote the
//! repository (or planted it in a shared parent directory), so, as git's
//! `safe.directory` and direnv's `allow` do:
//!
//! - a `.ollm/` owned by another user is refused, unless the user trusts it;
//! - until the user trusts a workspace, its configuration may only make
//!   things stricter: each key is classified in [`KEY_RULES`], and a value
//!   that would weaken safety, or send data or control elsewhere, is ignored
//!   with a warning (the config loader is the one place that applies this);
//! - trust is recorded in the user's own `$OLLM_HOME/trust.json`, bound to
//!   the workspace's path, its owner, and the SHA-256 of its
//!   `.ollm/config.yaml`, so an edit of the file revokes it.
//!
//! Anything doubtful (a malformed or foreign trust file) means untrusted.

use std::io::Read;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::{diag, paths};

/// What an untrusted workspace may do with one key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Any value: it changes how a result is computed, not what is
    /// protected, where data is kept or sent, or what runs.
    Free,
    /// Never from an untrusted workspace.
    Weakening,
    /// A list the workspace may only add to (its items join the user's).
    OnlyAdd,
    /// A number the workspace may only lower.
    AtMost,
    /// A number the workspace may only raise.
    AtLeast,
    /// A switch the workspace may only turn on.
    OnlyTrue,
    /// A switch the workspace may only turn off.
    OnlyFalse,
    /// Only one of these values (the others name a file or a server).
    OneOf(&'static [&'static str]),
}

/// Every configuration key, what an untrusted workspace may do with it, and
/// why. A unit test checks that every key of the schema is here.
pub const KEY_RULES: &[(&str, Rule, &str)] = &[
    (
        "services.session.dataDir",
        Rule::Weakening,
        "moves the session store",
    ),
    (
        "services.session.maxSessions",
        Rule::Weakening,
        "deletes stored sessions",
    ),
    ("services.session.autoSave", Rule::Free, ""),
    ("services.session.format", Rule::Free, ""),
    (
        "services.session.redact",
        Rule::OnlyTrue,
        "stores credentials verbatim",
    ),
    (
        "services.session.store",
        Rule::Weakening,
        "sends the sessions to another server",
    ),
    ("services.compression.enabled", Rule::Free, ""),
    ("services.compression.threshold", Rule::Free, ""),
    ("services.compression.strategy", Rule::Free, ""),
    ("services.compression.preserveRecent", Rule::Free, ""),
    ("services.compression.summaryMaxTokens", Rule::Free, ""),
    (
        "services.compression.summarizer.api",
        Rule::Weakening,
        "changes how the conversation is sent for summary",
    ),
    (
        "services.compression.summarizer.url",
        Rule::Weakening,
        "sends the conversation to another server",
    ),
    (
        "services.compression.summarizer.model",
        Rule::Weakening,
        "chooses the model the conversation is sent to",
    ),
    ("services.compression.summarizer.timeout", Rule::Free, ""),
    (
        "services.compression.summarizer.maxInputTokens",
        Rule::AtMost,
        "sends more of the conversation for summary",
    ),
    (
        "services.compression.tokenizer",
        Rule::OneOf(&["cl100k", "o200k", "estimate"]),
        "reads a tokenizer file or sends text to a tokenizer server",
    ),
    (
        "services.compression.tokenizerUrl",
        Rule::Weakening,
        "sends text to another tokenizer server",
    ),
    ("services.compression.trigger", Rule::Free, ""),
    ("services.compression.tokenLimit", Rule::Free, ""),
    ("services.compression.targetTokens", Rule::Free, ""),
    ("services.compression.keepUserMessages", Rule::Free, ""),
    (
        "services.loopDetection.enabled",
        Rule::OnlyTrue,
        "turns loop detection off",
    ),
    (
        "services.loopDetection.maxTurns",
        Rule::AtMost,
        "allows more turns",
    ),
    (
        "services.loopDetection.repeatThreshold",
        Rule::AtMost,
        "allows more repeats",
    ),
    (
        "services.loopDetection.similarityThreshold",
        Rule::AtMost,
        "counts fewer outputs as repeats",
    ),
    (
        "services.loopDetection.cycleMaxLength",
        Rule::AtLeast,
        "detects fewer cycles",
    ),
    (
        "services.loopDetection.contentChunkSize",
        Rule::AtMost,
        "only longer repeated passages count",
    ),
    (
        "services.loopDetection.contentRepeatThreshold",
        Rule::AtMost,
        "allows more repeats within one output",
    ),
    (
        "services.loopDetection.warningsBeforeStop",
        Rule::AtMost,
        "warns more times before a loop stops",
    ),
    ("services.fileDiscovery.maxDepth", Rule::Free, ""),
    (
        "services.fileDiscovery.followSymlinks",
        Rule::OnlyFalse,
        "lists files outside the workspace through links",
    ),
    (
        "services.fileDiscovery.builtinIgnores",
        Rule::OnlyAdd,
        "un-ignores built-in paths",
    ),
    ("services.fileDiscovery.includeHidden", Rule::Free, ""),
    ("services.fileDiscovery.debounceMs", Rule::Free, ""),
    ("services.fileDiscovery.cache", Rule::Free, ""),
    (
        "services.environment.allowList",
        Rule::Weakening,
        "passes more variables to tools",
    ),
    (
        "services.environment.denyPatterns",
        Rule::OnlyAdd,
        "drops deny patterns",
    ),
    (
        "services.environment.replaceDefaults",
        Rule::OnlyFalse,
        "drops the built-in deny lists",
    ),
    (
        "services.environment.scanValues",
        Rule::OnlyTrue,
        "stops removing credential-shaped values",
    ),
    (
        "services.checkpoint.dir",
        Rule::Weakening,
        "moves the checkpoint store",
    ),
    (
        "services.checkpoint.maxTreeBytes",
        Rule::AtMost,
        "snapshots larger trees",
    ),
    (
        "services.checkpoint.maxFileBytes",
        Rule::AtMost,
        "stores larger files",
    ),
    (
        "services.checkpoint.keepTurns",
        Rule::Weakening,
        "deletes stored checkpoints",
    ),
    (
        "services.checkpoint.budgetBytes",
        Rule::Weakening,
        "deletes stored checkpoints",
    ),
    (
        "services.checkpoint.watch",
        Rule::Weakening,
        "starts a background watcher process",
    ),
    ("snapshots.enabled", Rule::Free, ""),
    (
        "snapshots.maxCount",
        Rule::Weakening,
        "deletes stored snapshots",
    ),
    ("snapshots.autoCreate", Rule::Free, ""),
    ("snapshots.autoThreshold", Rule::Free, ""),
    ("snapshots.dir", Rule::Weakening, "moves the snapshot store"),
];

/// The rule and reason for a key (unknown keys are weakening: secure choice).
pub fn rule_of(key: &str) -> (Rule, &'static str) {
    KEY_RULES
        .iter()
        .find(|(k, _, _)| *k == key)
        .map_or((Rule::Weakening, "is not classified"), |(_, rule, why)| {
            (*rule, *why)
        })
}

/// What an untrusted workspace's `value` for a key becomes, given the
/// value below it: `Ok(value)` to apply (an `OnlyAdd` list joined with the
/// current one), or `Err(why)` to ignore it.
pub fn filter_value(
    key: &str,
    current: &Value,
    value: &Value,
) -> std::result::Result<Value, String> {
    let (rule, why) = rule_of(key);
    let allowed = match rule {
        Rule::Free => true,
        Rule::Weakening => false,
        Rule::OnlyAdd => {
            if let (Value::Array(now), Value::Array(add)) = (current, value) {
                let mut joined = now.clone();
                joined.extend(add.iter().filter(|v| !now.contains(v)).cloned());
                return Ok(Value::Array(joined));
            }
            false
        }
        Rule::AtMost => matches!((current.as_f64(), value.as_f64()), (Some(c), Some(v)) if v <= c),
        Rule::AtLeast => matches!((current.as_f64(), value.as_f64()), (Some(c), Some(v)) if v >= c),
        Rule::OnlyTrue => value.as_bool() == Some(true) || value == current,
        Rule::OnlyFalse => value.as_bool() == Some(false) || value == current,
        Rule::OneOf(choices) => {
            value.as_str().is_some_and(|v| choices.contains(&v)) || value == current
        }
    };
    if allowed {
        Ok(value.clone())
    } else {
        Err(why.to_string())
    }
}

/// A workspace: the directory holding `.ollm/`, and whether it is trusted.
#[derive(Debug, Clone)]
pub struct Workspace {
    /// The directory that holds `.ollm/` (what `ollm trust` names).
    pub root: PathBuf,
    /// The `.ollm/` directory itself.
    pub dir: PathBuf,
    /// `.ollm/config.yaml`, when there is one.
    pub config_file: Option<PathBuf>,
    /// Its text (read once, for both the hash and the loader).
    pub config_text: Option<String>,
    pub fingerprint: String,
    pub owner: u32,
    /// Looked up in the trust records the first time it is asked: a command
    /// that reads neither a workspace configuration nor workspace context
    /// (`session record` in a workspace without `config.yaml`) never reads
    /// them.
    trusted: OnceLock<bool>,
}

impl Workspace {
    /// Whether the trust records hold this workspace, as it is now.
    pub fn trusted(&self) -> bool {
        *self.trusted.get_or_init(|| {
            Store::load_quietly().contains(&self.root, self.owner, &self.fingerprint)
        })
    }

    /// The command that trusts this workspace, for messages.
    pub fn trust_hint(&self) -> String {
        format!("ollm trust {}", self.root.display())
    }
}

/// The workspace above `start`, if any: its `.ollm/` must be owned by this
/// user (or trusted as it is), and its `config.yaml`, if present, a
/// readable regular file.
pub fn find(start: &Path) -> Result<Option<Workspace>> {
    let Some(dir) = paths::find_workspace_dir(start) else {
        return Ok(None);
    };
    let root = dir
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let root = root.canonicalize().unwrap_or(root);
    let dir = root.join(".ollm");
    let meta = std::fs::metadata(&dir).map_err(|e| Error::io(&dir, &e))?;
    let (config_file, config_text) = read_config(&dir)?;
    let fingerprint = fingerprint(config_text.as_deref());
    let owner = meta.uid();
    let workspace = Workspace {
        root,
        dir,
        config_file,
        config_text,
        fingerprint,
        owner,
        trusted: OnceLock::new(),
    };
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    if owner != me && !workspace.trusted() {
        return Err(Error::Config(format!(
            "{} is owned by another user (uid {owner}); refusing to use it. If you trust it: ollm trust {}",
            workspace.dir.display(),
            workspace.root.display()
        )));
    }
    Ok(Some(workspace))
}

/// Reads `.ollm/config.yaml`: absent is fine; a FIFO, a directory, a
/// device, an unreadable or oversized file is a configuration error (it is
/// never half-applied, and never trusted).
fn read_config(dir: &Path) -> Result<(Option<PathBuf>, Option<String>)> {
    const MAX_CONFIG_BYTES: u64 = 1024 * 1024;
    let path = dir.join("config.yaml");
    match std::fs::symlink_metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((None, None)),
        Err(e) => return Err(unreadable(&path, &crate::error::describe_io(&e))),
        Ok(_) => {}
    }
    // Non-blocking, so a FIFO planted as config.yaml cannot hang us.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(&path)
        .map_err(|e| unreadable(&path, &crate::error::describe_io(&e)))?;
    let meta = file
        .metadata()
        .map_err(|e| unreadable(&path, &crate::error::describe_io(&e)))?;
    if !meta.is_file() {
        return Err(unreadable(&path, "not a regular file"));
    }
    if meta.len() > MAX_CONFIG_BYTES {
        return Err(unreadable(&path, "larger than 1 MiB"));
    }
    let mut bytes = Vec::new();
    file.take(MAX_CONFIG_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| unreadable(&path, &crate::error::describe_io(&e)))?;
    let text = String::from_utf8(bytes).map_err(|_| unreadable(&path, "not valid UTF-8"))?;
    Ok((Some(path), Some(text)))
}

fn unreadable(path: &Path, why: &str) -> Error {
    Error::Config(format!(
        "workspace configuration {}: {why}; the workspace is not used until it is fixed",
        path.display()
    ))
}

/// `sha256:HEX` of the configuration text, or `none` without one.
pub fn fingerprint(text: Option<&str>) -> String {
    match text {
        Some(text) => {
            let digest = Sha256::digest(text.as_bytes());
            let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
            format!("sha256:{hex}")
        }
        None => "none".to_string(),
    }
}

/// One trusted workspace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Record {
    /// The workspace root, absolute and canonical.
    pub path: PathBuf,
    /// The owner (uid) of its `.ollm/` when it was trusted.
    pub owner: u32,
    /// [`fingerprint`] of its configuration when it was trusted.
    pub config: String,
    pub trusted_at: String,
}

impl Record {
    fn check(&self) -> std::result::Result<(), String> {
        if !self.path.is_absolute() {
            return Err(format!("path {:?} is not absolute", self.path));
        }
        let hash_ok = self.config == "none"
            || self.config.strip_prefix("sha256:").is_some_and(|hex| {
                hex.len() == 64
                    && hex
                        .bytes()
                        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
            });
        if !hash_ok {
            return Err(format!(
                "config {:?} is not sha256:HEX or none",
                self.config
            ));
        }
        Ok(())
    }
}

/// The trust file, `$OLLM_HOME/trust.json`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Store {
    pub version: u32,
    pub workspaces: Vec<Record>,
}

const VERSION: u32 = 1;

pub fn store_path() -> PathBuf {
    paths::ollm_home().join("trust.json")
}

impl Store {
    /// Reads the trust file. A missing file is an empty store; one that is
    /// malformed, not ours or writable by others is an error naming why.
    pub fn load() -> Result<Store> {
        let path = store_path();
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Store {
                    version: VERSION,
                    workspaces: Vec::new(),
                });
            }
            Err(e) => return Err(Error::io(&path, &e)),
        };
        let meta = std::fs::metadata(&path).map_err(|e| Error::io(&path, &e))?;
        // SAFETY: geteuid has no preconditions.
        let me = unsafe { libc::geteuid() };
        if meta.uid() != me || meta.permissions().mode() & 0o022 != 0 {
            return Err(Error::Corrupt(format!(
                "{}: trust records not owned by you or writable by others; no workspace is trusted until it is fixed (chmod 600, or remove it)",
                path.display()
            )));
        }
        let malformed = |why: String| {
            Error::Corrupt(format!(
                "{}: malformed trust records ({why}); no workspace is trusted until it is fixed or removed",
                path.display()
            ))
        };
        let store: Store = serde_json::from_slice(&bytes)
            .map_err(|e| malformed(crate::text::one_line(&e.to_string())))?;
        if store.version != VERSION {
            return Err(malformed(format!(
                "version {}, expected {VERSION}",
                store.version
            )));
        }
        for record in &store.workspaces {
            record.check().map_err(malformed)?;
        }
        Ok(store)
    }

    /// [`Store::load`] for the loader: a bad file is one warning, and then
    /// nothing is trusted (the secure choice).
    pub fn load_quietly() -> Store {
        Store::load().unwrap_or_else(|err| {
            diag::warn(err.to_string());
            Store::default()
        })
    }

    pub fn contains(&self, root: &Path, owner: u32, fingerprint: &str) -> bool {
        self.workspaces
            .iter()
            .any(|r| r.path == root && r.owner == owner && r.config == fingerprint)
    }

    /// Writes the store (0600), replacing the file atomically.
    pub fn save(&self) -> Result<()> {
        let path = store_path();
        let mut text = serde_json::to_string_pretty(self)
            .map_err(|e| Error::Config(format!("encoding trust records: {e}")))?;
        text.push('\n');
        crate::fs::write_atomic(&path, text.as_bytes(), crate::fs::Durability::Synced)
    }

    /// Records trust in `workspace` as it is now (replacing an older record
    /// of the same path).
    pub fn trust(&mut self, workspace: &Workspace) -> Record {
        self.workspaces.retain(|r| r.path != workspace.root);
        let record = Record {
            path: workspace.root.clone(),
            owner: workspace.owner,
            config: workspace.fingerprint.clone(),
            trusted_at: crate::timestamp::now_iso(),
        };
        self.workspaces.push(record.clone());
        self.version = VERSION;
        record
    }

    /// Removes the record of `root`; whether there was one.
    pub fn revoke(&mut self, root: &Path) -> bool {
        let before = self.workspaces.len();
        self.workspaces.retain(|r| r.path != root);
        before != self.workspaces.len()
    }
}

/// Trusts a workspace as it is now, under the trust file's lock. Used by
/// `ollm trust`, and by `ollm-context add` for a `.ollm/` it creates itself.
pub fn trust_workspace(workspace: &Workspace) -> Result<Record> {
    let _lock = lock()?;
    let mut store = Store::load()?;
    let record = store.trust(workspace);
    store.save()?;
    Ok(record)
}

/// The trust file's lock, held across a read-change-write.
pub fn lock() -> Result<crate::fs::lock::Lock> {
    let home = paths::ollm_home();
    std::fs::create_dir_all(&home).map_err(|e| Error::io(&home, &e))?;
    crate::fs::lock::Lock::exclusive(&home.join("trust.json.lock"))
}

/// The workspace at or above `dir` as `ollm trust` sees it: found even when
/// owned by another user (that is what trusting it is for).
pub fn inspect(dir: &Path) -> Result<Workspace> {
    let start = dir.canonicalize().map_err(|e| Error::io(dir, &e))?;
    let found = paths::find_workspace_dir(&start).ok_or_else(|| {
        Error::NotFound(format!(
            "no .ollm/ directory at or above {}",
            start.display()
        ))
    })?;
    let root = found
        .parent()
        .map_or_else(|| PathBuf::from("/"), Path::to_path_buf);
    let dir = root.join(".ollm");
    let meta = std::fs::metadata(&dir).map_err(|e| Error::io(&dir, &e))?;
    let (config_file, config_text) = read_config(&dir)?;
    let fingerprint = fingerprint(config_text.as_deref());
    let trusted = Store::load().is_ok_and(|s| s.contains(&root, meta.uid(), &fingerprint));
    Ok(Workspace {
        root,
        dir,
        config_file,
        config_text,
        fingerprint,
        owner: meta.uid(),
        trusted: OnceLock::from(trusted),
    })
}

/// A trusted workspace as `ollm trust --list` shows it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listed {
    #[serde(flatten)]
    pub record: Record,
    /// Whether the workspace's configuration is still the one trusted.
    pub current: bool,
}

/// Every trusted workspace, and whether its configuration is still the one trusted.
pub fn list() -> Result<Vec<Listed>> {
    Ok(Store::load()?
        .workspaces
        .into_iter()
        .map(|record| {
            let current = inspect(&record.path)
                .is_ok_and(|ws| ws.root == record.path && ws.fingerprint == record.config);
            Listed { record, current }
        })
        .collect())
}

/// What `ollm trust --revoke` changed.
#[derive(Debug, Serialize)]
pub struct Revoked {
    pub revoked: PathBuf,
}

/// Revokes trust in the workspace at `dir` (not found: it was not trusted).
pub fn revoke(dir: &Path) -> Result<Revoked> {
    let root = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let _lock = lock()?;
    let mut store = Store::load()?;
    if !store.revoke(&root) {
        return Err(Error::NotFound(format!(
            "{} is not a trusted workspace (see ollm trust --list)",
            root.display()
        )));
    }
    store.save()?;
    Ok(Revoked { revoked: root })
}

#[cfg(test)]
mod tests;
