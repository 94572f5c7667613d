//! `ollm-env report` and `explain`: what the policy keeps and removes, and
//! why, by name only — a value is never printed.

use std::os::unix::ffi::OsStrExt;

use serde::Serialize;

use super::policy::{Decision, Policy, Reason};
use crate::output::Table;

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

impl Report {
    /// The report at a terminal: one row per name, in name order.
    pub fn table(&self) -> Table {
        let mut rows: Vec<(&str, &str, &str)> = self
            .kept
            .iter()
            .map(|d| (d.name.as_str(), "kept", d.why.as_str()))
            .chain(
                self.removed
                    .iter()
                    .map(|d| (d.name.as_str(), "removed", d.why.as_str())),
            )
            .chain(self.set.iter().map(|n| (n.as_str(), "set", "set by --set")))
            .collect();
        rows.sort_by(|a, b| a.0.cmp(b.0).then(a.1.cmp(b.1)));
        let mut table = Table::new(["NAME", "DECISION", "RULE"]);
        for (name, decision, why) in rows {
            table.row([name, decision, why]);
        }
        table
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn decided(name: &str, reason: Reason) -> NameDecision {
        NameDecision {
            name: name.into(),
            why: reason.to_string(),
            reason,
        }
    }

    #[test]
    fn the_table_has_one_row_per_name_in_name_order_and_no_value() {
        let report = Report {
            kept: vec![decided("PATH", Reason::NoDenyMatch)],
            removed: vec![decided(
                "AWS_SECRET",
                Reason::DenyPattern("*SECRET*".into()),
            )],
            set: vec![],
        };
        let text = report.table().render(None, false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "NAME        DECISION  RULE");
        assert_eq!(lines[1], "AWS_SECRET  removed   deny pattern *SECRET*");
        assert_eq!(lines[2], "PATH        kept      matches no deny pattern");
    }
}
