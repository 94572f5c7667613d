//! The configuration's key names as users write them: the spec's sessions
//! document's top-level aliases, the nearest key for a misspelled one, and
//! `OLLM_*` variables that name no key.

use serde_json::{Map, Value};

use super::tree;

/// Top-level keys of the spec's sessions document (003) and the keys of
/// the schema they stand for: `sessions:` is `services.session:`,
/// `compression:` is `services.compression:`.
pub const ALIASES: &[(&str, &str, &str)] = &[
    ("sessions", "services", "session"),
    ("compression", "services", "compression"),
];

/// `OLLM_*` variables that are not configuration keys but are read by the
/// programs, their tests or their tools, or set by them (`resume --exec`
/// hands its command the session in OLLM_SESSION_ID): never reported as
/// unknown.
pub const OTHER_VARIABLES: &[&str] = &["OLLM_HOME", "OLLM_SESSION_STORE", "OLLM_SESSION_ID"];

/// Prefixes of `OLLM_*` variables of the test suite, soak runs, fuzzers,
/// benchmarks and session stores: never reported as unknown.
pub const OTHER_PREFIXES: &[&str] = &[
    "OLLM_TEST_",
    "OLLM_SOAK_",
    "OLLM_FUZZ_",
    "OLLM_BENCH_",
    "OLLM_SESSION_STORE_",
];

/// Whether the variable `name` may set a configuration key: an `OLLM_*`
/// variable other than OLLM_HOME and the test suite's, soak runs', fuzzers'
/// and benchmarks' (none of which names a key; a test checks it). A
/// configuration load compares each key with the variables that pass only.
pub fn may_set_a_key(name: &str) -> bool {
    name.starts_with("OLLM_")
        && name != "OLLM_HOME"
        && !OTHER_PREFIXES
            .iter()
            .filter(|p| !p.starts_with("OLLM_SESSION_STORE"))
            .any(|p| name.starts_with(p))
}

/// Rewrites the aliases of [`ALIASES`] in one layer to the schema's keys.
/// A key given both ways keeps the schema's spelling.
pub fn resolve_aliases(layer: &mut Value) {
    let Value::Object(top) = layer else {
        return;
    };
    for (alias, parent, child) in ALIASES {
        let Some(value) = top.remove(*alias) else {
            continue;
        };
        let parent = top
            .entry(parent.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
        let Value::Object(parent) = parent else {
            continue;
        };
        match parent.get_mut(*child) {
            Some(existing) => fill_missing(existing, value),
            None => {
                parent.insert(child.to_string(), value);
            }
        }
    }
}

fn fill_missing(target: &mut Value, extra: Value) {
    if let (Value::Object(target), Value::Object(extra)) = (target, extra) {
        for (key, value) in extra {
            match target.get_mut(&key) {
                Some(existing) => fill_missing(existing, value),
                None => {
                    target.insert(key, value);
                }
            }
        }
    }
}

/// The schema key `unknown` was probably meant to be: the closest by spelling,
/// also when `services.` was left out.
pub fn nearest_key(unknown: &str, defaults: &Value) -> Option<String> {
    // Sections (`services.session`) and leaves alike.
    let keys: Vec<String> = tree::nodes(defaults).map(|(key, _)| key).collect();
    let short: Vec<&str> = keys
        .iter()
        .map(|k| k.strip_prefix("services.").unwrap_or(k))
        .collect();
    let close = crate::suggest::closest(unknown, keys.iter().map(String::as_str))
        .map(str::to_string)
        .or_else(|| {
            let found = crate::suggest::closest(unknown, short.iter().copied())?;
            let at = short.iter().position(|s| *s == found)?;
            Some(keys[at].clone())
        })?;
    (close != unknown).then_some(close)
}

/// Warnings for the `OLLM_*` variables of `vars` that set no key and are
/// not otherwise known, each with the nearest key's variable when one is close.
pub fn unknown_variables(vars: impl IntoIterator<Item = String>, defaults: &Value) -> Vec<String> {
    // Cheap checks first: a process usually has only variables known
    // without the schema (OLLM_HOME), and building every key's variable
    // name is most of a configuration load's cost.
    let candidates: Vec<String> = vars
        .into_iter()
        .filter(|name| {
            name.starts_with("OLLM_")
                && !OTHER_VARIABLES.contains(&name.as_str())
                && !OTHER_PREFIXES.iter().any(|p| name.starts_with(p))
        })
        .collect();
    if candidates.is_empty() {
        return Vec::new();
    }
    let known: Vec<String> = tree::leaves(defaults)
        .map(|(key, _)| env_var_name(&key))
        .collect();
    candidates
        .into_iter()
        .filter(|name| !known.contains(name))
        .map(|name| {
            let hint = crate::suggest::closest(&name, known.iter().map(String::as_str))
                .map(|close| format!("; did you mean {close}?"))
                .unwrap_or_default();
            format!("environment variable {name} sets no configuration key (ignored){hint}")
        })
        .collect()
}

/// The `OLLM_*` variable for a key: the path without `services.`, in
/// SCREAMING_SNAKE_CASE (`services.loopDetection.maxTurns` →
/// `OLLM_LOOP_DETECTION_MAX_TURNS`).
pub fn env_var_name(key: &str) -> String {
    let key = key.strip_prefix("services.").unwrap_or(key);
    let mut name = String::from("OLLM");
    for segment in key.split('.') {
        name.push('_');
        for ch in segment.chars() {
            if ch.is_ascii_uppercase() {
                name.push('_');
            }
            name.push(ch.to_ascii_uppercase());
        }
    }
    name
}

/// Whether `name` is [`env_var_name`]`(key)`, without building the latter.
pub(super) fn is_env_var_of(name: &str, key: &str) -> bool {
    let key = key.strip_prefix("services.").unwrap_or(key);
    let Some(mut rest) = name.strip_prefix("OLLM").map(str::as_bytes) else {
        return false;
    };
    let mut expect = |b: u8| match rest.split_first() {
        Some((&first, tail)) if first == b => {
            rest = tail;
            true
        }
        _ => false,
    };
    for segment in key.split('.') {
        if !expect(b'_') {
            return false;
        }
        for ch in segment.bytes() {
            if (ch.is_ascii_uppercase() && !expect(b'_')) || !expect(ch.to_ascii_uppercase()) {
                return false;
            }
        }
    }
    rest.is_empty()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::config::Config;

    fn defaults() -> Value {
        serde_json::to_value(Config::default()).unwrap()
    }

    #[test]
    fn every_keys_variable_may_set_a_key() {
        let defaults = defaults();
        let keys: Vec<String> = tree::leaves(&defaults).map(|(key, _)| key).collect();
        assert!(keys.len() > 20);
        for key in keys {
            let name = env_var_name(&key);
            assert!(may_set_a_key(&name), "{key}: {name}");
        }
        assert!(!may_set_a_key("OLLM_HOME"));
        assert!(!may_set_a_key("OLLM_TEST_PG_URL"));
        assert!(may_set_a_key("OLLM_SESSION_STORE"));
    }

    #[test]
    fn the_sessions_documents_top_level_keys_are_the_schemas() {
        let mut layer = json!({
            "sessions": {"maxSessions": 7, "autoSave": false},
            "compression": {"strategy": "truncate"},
            "services": {"session": {"maxSessions": 9}},
        });
        resolve_aliases(&mut layer);
        assert_eq!(
            layer,
            json!({"services": {
                "session": {"maxSessions": 9, "autoSave": false},
                "compression": {"strategy": "truncate"},
            }})
        );
    }

    #[test]
    fn a_misspelled_key_gets_the_nearest_one() {
        let defaults = defaults();
        assert_eq!(
            nearest_key("services.sesion", &defaults).as_deref(),
            Some("services.session")
        );
        assert_eq!(
            nearest_key("services.loopDetection.maxTurn", &defaults).as_deref(),
            Some("services.loopDetection.maxTurns")
        );
        assert_eq!(
            nearest_key("loopDetection.maxTurns", &defaults).as_deref(),
            Some("services.loopDetection.maxTurns")
        );
        assert_eq!(nearest_key("colour.theme", &defaults), None);
    }

    #[test]
    fn unknown_ollm_variables_are_reported_with_the_nearest_known_one() {
        let vars = [
            "OLLM_LOOP_DETECTION_MAX_TURN",
            "OLLM_LOOP_DETECTION_MAX_TURNS",
            "OLLM_HOME",
            "OLLM_TEST_LLM_URL",
            "OLLM_SESSION_STORE",
            "OLLM_SOAK_SEED",
            "PATH",
            "OLLM_WHATEVER_ELSE_ENTIRELY",
        ]
        .map(String::from);
        let warnings = unknown_variables(vars, &defaults());
        assert_eq!(
            warnings,
            [
                "environment variable OLLM_LOOP_DETECTION_MAX_TURN sets no configuration key (ignored); did you mean OLLM_LOOP_DETECTION_MAX_TURNS?",
                "environment variable OLLM_WHATEVER_ELSE_ENTIRELY sets no configuration key (ignored)",
            ]
        );
    }

    #[test]
    fn env_names_are_derived_from_key_paths() {
        assert_eq!(
            env_var_name("services.loopDetection.maxTurns"),
            "OLLM_LOOP_DETECTION_MAX_TURNS"
        );
        assert_eq!(
            env_var_name("snapshots.maxCount"),
            "OLLM_SNAPSHOTS_MAX_COUNT"
        );
        assert_eq!(
            env_var_name("services.compression.summarizer.url"),
            "OLLM_COMPRESSION_SUMMARIZER_URL"
        );
    }

    #[test]
    fn every_leaf_is_matched_by_its_own_variable_name_only() {
        let defaults = serde_json::to_value(Config::default()).unwrap();
        let leaves: Vec<(String, &Value)> = tree::leaves(&defaults).collect();
        assert!(leaves.len() > 10);
        for (key, _) in &leaves {
            for (other, _) in &leaves {
                assert_eq!(
                    is_env_var_of(&env_var_name(other), key),
                    key == other,
                    "{key} {other}"
                );
            }
            let name = env_var_name(key);
            assert!(!is_env_var_of(&format!("{name}_X"), key));
            assert!(!is_env_var_of(&name[..name.len() - 1], key));
        }
        assert!(!is_env_var_of(
            "OLLM_HOME",
            "services.loopDetection.maxTurns"
        ));
    }
}
