//! `ollm-env report` and `explain`: what the policy keeps and removes, and
//! why, by name only — a value is never printed.

use std::os::unix::ffi::OsStrExt;

use serde::Serialize;

use super::policy::{Decision, Policy, Reason};

#[derive(Debug, Serialize)]
pub struct NameDecision {
    pub name: String,
    #[serde(flatten)]
    pub reason: Reason,
    /// The same rule as a sentence.
    pub why: String,
}

#[derive(Debug, Serialize)]
pub struct Report {
    pub kept: Vec<NameDecision>,
    pub removed: Vec<NameDecision>,
    /// Names set explicitly with `--set`.
    pub set: Vec<String>,
}

/// Decides every variable of this process's environment.
pub fn report(policy: &Policy, set: &[(String, String)]) -> Report {
    let mut kept = Vec::new();
    let mut removed = Vec::new();
    let mut vars: Vec<(String, String)> = std::env::vars_os()
        .map(|(n, v)| {
            (
                String::from_utf8_lossy(n.as_bytes()).into_owned(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    vars.sort();
    for (name, value) in vars {
        let decision = policy.decide(&name, &value);
        let entry = NameDecision {
            why: decision.reason().to_string(),
            reason: decision.reason().clone(),
            name,
        };
        match decision {
            Decision::Keep(_) => kept.push(entry),
            Decision::Remove(_) => removed.push(entry),
        }
    }
    Report {
        kept,
        removed,
        set: set.iter().map(|(n, _)| n.clone()).collect(),
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Explanation {
    pub name: String,
    /// Whether the variable is set in this environment.
    pub present: bool,
    pub kept: bool,
    #[serde(flatten)]
    pub reason: Reason,
    pub why: String,
    /// For a removed variable: how to pass it to a tool anyway.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub how_to_allow: Option<String>,
}

/// Explains the decision for one name, using its current value if it is set
/// (a value check can only apply to a value that exists).
pub fn explain(policy: &Policy, name: &str) -> Explanation {
    let value = std::env::var_os(name).map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    let decision = policy.decide(name, value.as_deref().unwrap_or(""));
    let how_to_allow = decision.is_removed().then(|| {
        format!(
            "name it exactly: ollm env run --allow {name} -- CMD, or add {name} to \
             services.environment.allowList in $OLLM_HOME/config.yaml (an exact name \
             is kept even when its value looks like a credential)"
        )
    });
    Explanation {
        name: name.to_string(),
        present: value.is_some(),
        kept: !decision.is_removed(),
        why: decision.reason().to_string(),
        reason: decision.reason().clone(),
        how_to_allow,
    }
}
