//! Loading the effective configuration from its layers, later wins:
//! built-in defaults, `$OLLM_HOME/config.yaml`, the workspace's
//! `.ollm/config.yaml`, `OLLM_*` environment variables, `--config FILE`,
//! command-line flags. Every leaf value remembers the layer it came from.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{Map, Value};

use super::Config;
use super::keys::{self, env_var_name, is_env_var_of};
use super::tree;
use super::trust::{self, Workspace};
use crate::error::{Error, Result};
use crate::{diag, paths};

mod values;

use values::{describe_kind, first_non_finite, friendly_expectation, strip_location};
pub(super) use values::{is_non_finite, non_finite_message, parse_env_value};

/// Where an effective value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    Default,
    File(PathBuf),
    Env(String),
    Flag(String),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Default => write!(f, "default"),
            Origin::File(path) => write!(f, "file:{}", path.display()),
            Origin::Env(name) => write!(f, "env:{name}"),
            Origin::Flag(flag) => write!(f, "flag:{flag}"),
        }
    }
}

/// A command-line flag's override of one configuration key.
#[derive(Debug, Clone)]
pub struct FlagOverride {
    /// Dotted key path, e.g. `services.fileDiscovery.maxDepth`.
    pub key: &'static str,
    pub value: Value,
    /// The flag as the user typed it, e.g. `--max-depth`.
    pub flag: &'static str,
}

/// What to load besides the fixed layers.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// `--config FILE`.
    pub config_file: Option<PathBuf>,
    /// Where to start looking for the workspace's `.ollm/`; the current
    /// directory when `None`.
    pub workspace_start: Option<PathBuf>,
    pub flags: Vec<FlagOverride>,
}

/// The effective configuration and the origin of each of its leaf keys.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub config: Config,
    pub origins: BTreeMap<String, Origin>,
    /// Keys of an untrusted workspace's configuration that were not applied.
    pub ignored: Vec<Ignored>,
    /// The workspace found above the working directory, if any.
    pub workspace: Option<Workspace>,
    /// The merged tree; `None` when no layer applied (the defaults).
    pub(super) tree: Option<Value>,
}

/// A key of an untrusted workspace's configuration that was not applied.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Ignored {
    pub key: String,
    pub value: Value,
    pub file: PathBuf,
    /// Why it was ignored, and how to trust the workspace.
    pub why: String,
}

impl Loaded {
    /// `err`, a configuration error about the value of `key`, as a usage
    /// error when that value came from a flag (exit code 2, not 5).
    pub fn blame(&self, key: &str, err: Error) -> Error {
        match (err, self.origin_of(key)) {
            (Error::Config(message), origin) => origin_error(&origin, message),
            (other, _) => other,
        }
    }

    pub fn origin_of(&self, key: &str) -> Origin {
        self.origins.get(key).cloned().unwrap_or(Origin::Default)
    }
}

/// Loads the effective configuration. Warnings (unknown keys) go to stderr.
pub fn load(options: &LoadOptions) -> Result<Loaded> {
    let user_file = paths::ollm_home().join("config.yaml");
    let user_file_exists = user_file.exists();
    let start = match &options.workspace_start {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
    };
    let workspace = trust::find(&start)?;
    let nothing_to_apply = !user_file_exists
        && workspace.as_ref().is_none_or(|ws| ws.config_file.is_none())
        && options.config_file.is_none()
        && !crate::environ::names()
            .any(|name| std::str::from_utf8(name).is_ok_and(keys::may_set_a_key));
    if nothing_to_apply {
        // The defaults as they are, or with only flags on them: most runs set
        // nothing else, and encoding the defaults as a tree to merge a few
        // flags into is most of a program's start-up.
        if let Some(mut loaded) = flags_on_defaults(&options.flags) {
            loaded.workspace = workspace;
            return Ok(loaded);
        }
    }
    layered(options, user_file_exists.then_some(&user_file), workspace)
}

/// The defaults with `flags` set, without encoding the defaults as a tree:
/// the flags' keys as a sparse tree, decoded (each section's `default`
/// fills what it lacks). `None` when a value does not fit its key, so the
/// layered loader reports it as it reports any bad value.
fn flags_on_defaults(flags: &[FlagOverride]) -> Option<Loaded> {
    let mut origins = BTreeMap::new();
    let config = if flags.is_empty() {
        Config::default()
    } else {
        let mut layer = Value::Object(Map::new());
        for flag in flags {
            insert_path(&mut layer, flag.key, flag.value.clone());
            origins.insert(flag.key.to_string(), Origin::Flag(flag.flag.to_string()));
        }
        let config = Config::deserialize(&layer).ok()?;
        config.check_ranges().ok()?;
        config
    };
    Some(Loaded {
        config,
        origins,
        ignored: Vec::new(),
        workspace: None,
        tree: None,
    })
}

/// Loads the configuration layer by layer: the defaults as a tree, each
/// layer type-checked and merged into it with its keys' origins.
fn layered(
    options: &LoadOptions,
    user_file: Option<&PathBuf>,
    workspace: Option<Workspace>,
) -> Result<Loaded> {
    let mut layers = Layers::new()?;
    if let Some(user_file) = user_file {
        layers.apply_file(user_file)?;
    }
    // The one place workspace trust is applied: an untrusted workspace's
    // configuration may only make things stricter.
    if let Some(ws) = &workspace
        && let (Some(file), Some(text)) = (&ws.config_file, &ws.config_text)
    {
        layers.apply_workspace(text, file, ws)?;
    }
    layers.apply_env()?;
    if let Some(file) = &options.config_file {
        layers.apply_file(file)?;
    }
    for flag in &options.flags {
        let origin = Origin::Flag(flag.flag.to_string());
        let mut layer = Value::Object(Map::new());
        insert_path(&mut layer, flag.key, flag.value.clone());
        layers.check_types(&layer, &origin)?;
        layers.merge(&layer, &origin);
    }

    let mut loaded = layers.finish()?;
    loaded.workspace = workspace;
    Ok(loaded)
}

/// The configuration one YAML text gives on top of the defaults, with no
/// files or environment read: what a fuzzer or a validator needs.
pub fn parse_text(text: &str, name: &str) -> Result<Config> {
    let mut layers = Layers::new()?;
    layers.apply_text(text, &Origin::File(PathBuf::from(name)))?;
    Ok(layers.finish()?.config)
}

fn describe_origin(origin: &Origin) -> String {
    match origin {
        Origin::Default => "built-in default".into(),
        Origin::File(path) => path.display().to_string(),
        Origin::Env(name) => format!("environment variable {name}"),
        Origin::Flag(flag) => format!("flag {flag}"),
    }
}

/// A bad value is a usage error (exit code 2) when a flag gave it, and a
/// configuration error (exit code 5) when a file or a variable did.
fn origin_error(origin: &Origin, message: String) -> Error {
    match origin {
        Origin::Flag(_) => Error::Usage(format!("{message} (try --help)")),
        _ => Error::Config(message),
    }
}

struct Layers {
    defaults: Value,
    tree: Value,
    origins: BTreeMap<String, Origin>,
    ignored: Vec<Ignored>,
}

impl Layers {
    fn new() -> Result<Layers> {
        let defaults = serde_json::to_value(Config::default())
            .map_err(|e| Error::Config(format!("cannot encode defaults: {e}")))?;
        Ok(Layers {
            tree: defaults.clone(),
            defaults,
            origins: BTreeMap::new(),
            ignored: Vec::new(),
        })
    }

    fn finish(self) -> Result<Loaded> {
        let config = Config::deserialize(&self.tree)
            .map_err(|e| Error::Config(format!("configuration: {e}")))?;
        if let Err((key, expected)) = config.check_ranges() {
            let origin = self.origins.get(key).cloned().unwrap_or(Origin::Default);
            return Err(origin_error(
                &origin,
                format!("{}: `{key}` must be {expected}", describe_origin(&origin)),
            ));
        }
        Ok(Loaded {
            config,
            origins: self.origins,
            ignored: self.ignored,
            workspace: None,
            tree: Some(self.tree),
        })
    }

    fn apply_file(&mut self, path: &Path) -> Result<()> {
        let name = path.display();
        let text = std::fs::read(path).map_err(|e| {
            Error::Config(format!(
                "cannot read config file {name}: {}",
                crate::error::describe_io(&e)
            ))
        })?;
        let text = String::from_utf8(text)
            .map_err(|_| Error::Config(format!("{name}: config file is not valid UTF-8")))?;
        self.apply_text(&text, &Origin::File(path.to_path_buf()))
    }

    /// Applies a workspace's configuration: all of it when the workspace is
    /// trusted, otherwise only what makes things stricter (see `trust`).
    fn apply_workspace(&mut self, text: &str, file: &Path, workspace: &Workspace) -> Result<()> {
        let origin = Origin::File(file.to_path_buf());
        let Some(mut layer) = self.parse_layer(text, &origin)? else {
            return Ok(());
        };
        if !workspace.trusted() {
            let mut warnings = Vec::new();
            let leaves: Vec<(String, Value)> = tree::leaves(&layer)
                .filter(|(key, _)| is_leaf_key(&self.defaults, key))
                .map(|(key, value)| (key, value.clone()))
                .collect();
            for (key, value) in leaves {
                let current = tree::get(&self.tree, &key).cloned().unwrap_or(Value::Null);
                match trust::filter_value(&key, &current, &value) {
                    Ok(applied) => insert_path(&mut layer, &key, applied),
                    Err(why) => {
                        remove_path(&mut layer, &key);
                        let why = format!(
                            "the workspace is not trusted and this {why}; if you trust it: {}",
                            workspace.trust_hint()
                        );
                        warnings.push(format!("{}: ignoring `{key}`: {why}", file.display()));
                        self.ignored.push(Ignored {
                            key,
                            value,
                            file: file.to_path_buf(),
                            why,
                        });
                    }
                }
            }
            // Said once per content of the file, not by every program on
            // every call (`config --show-origin` keeps showing them).
            if !warnings.is_empty()
                && super::notices::is_news("config", &workspace.root, text.as_bytes())
            {
                warnings.into_iter().for_each(diag::warn);
            }
        }
        self.merge(&layer, &origin);
        Ok(())
    }

    /// Parses, type-checks and merges one YAML layer.
    fn apply_text(&mut self, text: &str, origin: &Origin) -> Result<()> {
        if let Some(layer) = self.parse_layer(text, origin)? {
            self.merge(&layer, origin);
        }
        Ok(())
    }

    /// Parses and type-checks one YAML layer (`None`: an empty document).
    fn parse_layer(&mut self, text: &str, origin: &Origin) -> Result<Option<Value>> {
        let name = describe_origin(origin);
        super::depth::check(text, &name)?;
        let yaml: serde_yaml::Value = serde_yaml::from_str(text).map_err(|e| {
            let at = e
                .location()
                .map(|l| format!(" at line {} column {}", l.line(), l.column()))
                .unwrap_or_default();
            Error::Config(format!(
                "{name}: invalid YAML{at}: {}",
                crate::text::one_line(&strip_location(&e.to_string()))
            ))
        })?;
        if yaml.is_null() {
            return Ok(None);
        }
        // JSON has no NaN or infinity: converted, they would become null
        // and be reported as "invalid type: null".
        if let Some((key, value)) = first_non_finite(&yaml) {
            return Err(Error::Config(format!(
                "{name}: `{key}`: {}",
                non_finite_message(&value)
            )));
        }
        let layer: Value = serde_json::to_value(&yaml).map_err(|e| {
            Error::Config(format!(
                "{name}: unsupported YAML (keys must be strings): {e}"
            ))
        })?;
        if !layer.is_object() {
            return Err(Error::Config(format!(
                "{name}: expected a mapping of settings at the top level"
            )));
        }
        let mut layer = layer;
        keys::resolve_aliases(&mut layer);
        self.check_types(&layer, origin)?;
        Ok(Some(layer))
    }

    /// Type-checks one layer against the schema, naming the key and what was
    /// expected; warns about keys the schema does not know.
    fn check_types(&self, layer: &Value, origin: &Origin) -> Result<()> {
        let mut unknown = Vec::new();
        let mut note_unknown = |path: serde_ignored::Path<'_>| unknown.push(path.to_string());
        let de = serde_ignored::Deserializer::new(layer.clone(), &mut note_unknown);
        let checked: std::result::Result<Config, _> = serde_path_to_error::deserialize(de);
        if let Err(err) = checked {
            let key = err.path().to_string();
            let message = friendly_expectation(&err.into_inner().to_string());
            return Err(origin_error(
                origin,
                format!("{}: `{key}`: {message}", describe_origin(origin)),
            ));
        }
        for key in unknown {
            let hint = keys::nearest_key(&key, &self.defaults)
                .map(|close| format!("; did you mean `{close}`?"))
                .unwrap_or_default();
            diag::warn(format!(
                "{}: unknown configuration key `{key}` (ignored){hint}",
                describe_origin(origin)
            ));
        }
        Ok(())
    }

    /// Merges the known keys of `layer` into the tree, recording origins.
    fn merge(&mut self, layer: &Value, origin: &Origin) {
        merge_known(
            &mut self.tree,
            &self.defaults,
            layer,
            origin,
            &mut self.origins,
        );
    }

    fn apply_env(&mut self) -> Result<()> {
        // The environment is read once; a leaf's variable name is only
        // compared with the few `OLLM_*` names set, never built for each.
        let set: Vec<String> = crate::environ::names()
            .filter(|name| name.starts_with(b"OLLM_"))
            .filter_map(|name| String::from_utf8(name.to_vec()).ok())
            .collect();
        if set.is_empty() {
            return Ok(());
        }
        // Once per process, however many times a program loads its configuration.
        static WARNED: std::sync::Once = std::sync::Once::new();
        WARNED.call_once(|| {
            for warning in keys::unknown_variables(set.iter().cloned(), &self.defaults) {
                diag::warn(warning);
            }
        });
        // OLLM_HOME alone (nearly every run) walks no key.
        let set: Vec<String> = set
            .into_iter()
            .filter(|name| keys::may_set_a_key(name))
            .collect();
        if set.is_empty() {
            return Ok(());
        }
        let leaves: Vec<(String, Value)> = tree::leaves(&self.defaults)
            .filter(|(key, _)| set.iter().any(|name| is_env_var_of(name, key)))
            .map(|(key, default)| (key, default.clone()))
            .collect();
        for (key, default) in leaves {
            let var = env_var_name(&key);
            let Some(raw) = std::env::var_os(&var) else {
                continue;
            };
            let origin = Origin::Env(var.clone());
            let raw = raw.into_string().map_err(|_| {
                Error::Config(format!("environment variable {var} is not valid UTF-8"))
            })?;
            // A path or a model may be called `nan`; a number may not.
            if default.is_number() && is_non_finite(&raw) {
                return Err(Error::Config(format!(
                    "environment variable {var}: {}",
                    non_finite_message(&raw)
                )));
            }
            let value = parse_env_value(&raw, &default).ok_or_else(|| {
                Error::Config(format!(
                    "environment variable {var}: expected {}",
                    describe_kind(&default)
                ))
            })?;
            let mut layer = Value::Object(Map::new());
            insert_path(&mut layer, &key, value);
            self.check_types(&layer, &origin)?;
            self.merge(&layer, &origin);
        }
        Ok(())
    }
}

/// Merges the leaves of `layer` that are leaves of the schema (`defaults`)
/// into `tree`, recording `origin` for each.
fn merge_known(
    tree: &mut Value,
    defaults: &Value,
    layer: &Value,
    origin: &Origin,
    origins: &mut BTreeMap<String, Origin>,
) {
    for (key, value) in tree::leaves(layer) {
        if is_leaf_key(defaults, &key) {
            insert_path(tree, &key, value.clone());
            origins.insert(key, origin.clone());
        }
    }
}

/// Whether dotted `key` names a leaf of the schema (`defaults`).
fn is_leaf_key(defaults: &Value, key: &str) -> bool {
    tree::get(defaults, key).is_some_and(|value| !value.is_object())
}

fn remove_path(root: &mut Value, key: &str) {
    let (parent, last) = match key.rsplit_once('.') {
        Some((parent, last)) => (Some(parent), last),
        None => (None, key),
    };
    let node = match parent {
        Some(parent) => parent
            .split('.')
            .try_fold(&mut *root, |node, segment| node.get_mut(segment)),
        None => Some(root),
    };
    if let Some(Value::Object(map)) = node {
        map.remove(last);
    }
}

fn insert_path(root: &mut Value, key: &str, value: Value) {
    let mut node = root;
    let mut segments = key.split('.').peekable();
    while let Some(segment) = segments.next() {
        let Value::Object(map) = node else {
            return;
        };
        if segments.peek().is_none() {
            map.insert(segment.to_string(), value);
            return;
        }
        node = map
            .entry(segment.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
    }
}

#[cfg(test)]
mod tests;
