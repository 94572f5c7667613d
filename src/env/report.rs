//! `ollm-env report` and `explain`: what the policy keeps and removes, and
//! why, by name only — a value is never printed.

use serde::Serialize;

use super::child::{ChildEnvironment, Inherited, Var, child_environment};
use super::policy::{Decision, Policy, Reason};
use crate::output::Table;

/// One variable's decision: its name, the rule and the rule as a sentence.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[schemars(rename = "EnvDecision")]
pub struct NameDecision {
    pub name: String,
    #[serde(flatten)]
    pub reason: Reason,
    /// The same rule as a sentence.
    pub why: String,
}

/// `ollm-env report`: every variable name kept and removed (never a value).
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[schemars(rename = "EnvReport")]
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

impl Report {
    /// Every variable of the parent with the rule that decided it, in name
    /// order, and the names set explicitly.
    pub fn of(child: &ChildEnvironment<'_>) -> Report {
        let mut inherited: Vec<&Inherited<'_>> = child.inherited.iter().collect();
        inherited.sort_by_cached_key(|i| (i.var.name_text(), i.var.value_text()));
        let mut kept = Vec::new();
        let mut removed = Vec::new();
        for inherited in inherited {
            let decision = &inherited.decision;
            let entry = NameDecision {
                name: inherited.var.name_text().into_owned(),
                reason: decision.reason().clone(),
                why: decision.reason().to_string(),
            };
            match decision {
                Decision::Keep(_) => kept.push(entry),
                Decision::Remove(_) => removed.push(entry),
            }
        }
        Report {
            kept,
            removed,
            set: child
                .assigned
                .iter()
                .map(|set| set.var.name_text().into_owned())
                .collect(),
        }
    }
}

/// `ollm-env explain NAME`: the decision for one variable and why.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[schemars(transform = crate::schema::skipped_when_none)]
#[schemars(rename = "EnvExplanation")]
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

/// Explains the decision for one name, given its current value if it is
/// set (a value check can only apply to a value that exists).
pub fn explain(policy: &Policy, name: &str, value: Option<&[u8]>) -> Explanation {
    let variable = Var {
        name: name.as_bytes(),
        value: value.unwrap_or_default(),
    };
    let child = child_environment([variable], policy, &[]);
    let decision = &child.inherited[0].decision;
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
