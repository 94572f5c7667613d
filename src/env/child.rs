//! The one place that decides a tool's environment (Properties 25–27).
//!
//! [`child_environment`] is pure: the parent's variables, the policy (the
//! configuration with the flags' lists) and the variables set with `--set`
//! and `--env-file` go in; every variable's fate and the rule behind it
//! come out. `ollm-env run` (with and without a supervisor), `report`,
//! `explain` and the property tests all call it; only [`this_process`]
//! reads the process.

use std::borrow::Cow;
use std::collections::HashSet;
use std::ffi::CStr;

use super::policy::{Decision, Policy, Reason};

/// One variable, borrowed from where it is kept. Names and values are
/// bytes, as the kernel passes them; the policy reads them as text (with
/// invalid UTF-8 replaced), the child gets the bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Var<'a> {
    pub name: &'a [u8],
    pub value: &'a [u8],
}

impl<'a> Var<'a> {
    pub fn new(name: &'a str, value: &'a str) -> Var<'a> {
        Var {
            name: name.as_bytes(),
            value: value.as_bytes(),
        }
    }

    pub fn name_text(&self) -> Cow<'a, str> {
        String::from_utf8_lossy(self.name)
    }

    pub fn value_text(&self) -> Cow<'a, str> {
        String::from_utf8_lossy(self.value)
    }
}

/// One of the parent's variables and what becomes of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Inherited<'a> {
    pub var: Var<'a>,
    /// The policy's decision; a second variable of a name already seen is
    /// removed ([`Reason::Duplicate`]).
    pub decision: Decision,
    /// Kept by the policy, but a set variable of the same name replaces it.
    pub replaced: bool,
}

impl Inherited<'_> {
    /// Whether the child gets this variable.
    pub fn passed(&self) -> bool {
        !self.decision.is_removed() && !self.replaced
    }
}

/// A variable set explicitly, which the child gets whatever the policy
/// says. The policy's decision still matters: a value it would remove is
/// a secret that a redacting supervisor must not let through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Assigned<'a> {
    pub var: Var<'a>,
    pub decision: Decision,
}

/// What a tool gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChildEnvironment<'a> {
    /// Every variable of the parent, in its order.
    pub(crate) inherited: Vec<Inherited<'a>>,
    /// The set variables, one per name (of several with one name the last
    /// given), in the order of those last ones.
    pub(crate) assigned: Vec<Assigned<'a>>,
}

impl<'a> ChildEnvironment<'a> {
    /// The child's environment: the parent's variables it gets, in the
    /// parent's order, then the set ones. Each name occurs once.
    pub fn variables(&self) -> impl Iterator<Item = Var<'a>> + '_ {
        self.inherited
            .iter()
            .filter(|inherited| inherited.passed())
            .map(|inherited| inherited.var)
            .chain(self.assigned.iter().map(|assigned| assigned.var))
    }

    /// The parent's variables the policy removes.
    pub(crate) fn removed(&self) -> impl Iterator<Item = &Inherited<'a>> + '_ {
        self.inherited
            .iter()
            .filter(|inherited| inherited.decision.is_removed())
    }

    /// The values that must not be printed: those of the removed
    /// variables and of the set ones the policy would remove.
    pub(crate) fn secret_values(&self) -> impl Iterator<Item = &'a [u8]> + '_ {
        self.removed().map(|inherited| inherited.var.value).chain(
            self.assigned
                .iter()
                .filter(|assigned| assigned.decision.is_removed())
                .map(|assigned| assigned.var.value),
        )
    }
}

/// Decides the environment of a tool started from a parent with the
/// variables `parent`, under `policy`, with `set` (in the order given)
/// set explicitly.
///
/// Of several parent variables with one name, the first is the one the
/// parent itself sees (`getenv`); only it is decided and can be passed.
pub fn child_environment<'a>(
    parent: impl IntoIterator<Item = Var<'a>>,
    policy: &Policy,
    set: &'a [(String, String)],
) -> ChildEnvironment<'a> {
    let mut assigned: Vec<Assigned<'a>> = Vec::with_capacity(set.len());
    for (index, (name, value)) in set.iter().enumerate() {
        if set[index + 1..].iter().any(|(later, _)| later == name) {
            continue;
        }
        assigned.push(Assigned {
            var: Var::new(name, value),
            decision: policy.decide(name, value),
        });
    }
    let mut inherited: Vec<Inherited<'a>> = Vec::new();
    let mut seen: HashSet<&[u8]> = HashSet::new();
    for var in parent {
        let decision = if !seen.insert(var.name) {
            Decision::Remove(Reason::Duplicate)
        } else {
            policy.decide(&var.name_text(), &var.value_text())
        };
        inherited.push(Inherited {
            var,
            decision,
            replaced: assigned.iter().any(|a| a.var.name == var.name),
        });
    }
    ChildEnvironment {
        inherited,
        assigned,
    }
}

/// This process's variables, each with the entry of the environment block
/// it is borrowed from (`NAME=VALUE`, which an exec can pass as it is).
/// Split as std's `vars_os` splits them; an entry without `=` is not a
/// variable. Valid until something changes the environment.
pub(crate) fn this_process() -> Vec<(&'static CStr, Var<'static>)> {
    crate::environ::entries()
        .filter_map(|entry| {
            let (name, value) = crate::environ::split_entry(entry.to_bytes())?;
            Some((entry, Var { name, value }))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names<'a>(child: &'a ChildEnvironment<'_>) -> Vec<Cow<'a, str>> {
        child.variables().map(|var| var.name_text()).collect()
    }

    fn vars<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Iterator<Item = Var<'a>> + 'a {
        pairs.iter().map(|(name, value)| Var::new(name, value))
    }

    #[test]
    fn spec_default_case_keeps_exactly_the_first_eight() {
        let env = [
            ("PATH", "/usr/bin"),
            ("HOME", "/home/u"),
            ("USER", "u"),
            ("SHELL", "/bin/bash"),
            ("TERM", "xterm"),
            ("LANG", "en_US.UTF-8"),
            ("NODE_ENV", "production"),
            ("DEBUG", "1"),
            ("API_KEY", "abc123"),
            ("DATABASE_SECRET", "s3cr3t"),
            ("AUTH_TOKEN", "tok"),
            ("AWS_ACCESS_KEY_ID", "AKIAIOSFODNN7EXAMPLE"),
            ("GITHUB_TOKEN", "ghp_x"),
        ];
        let child = child_environment(vars(&env), &Policy::defaults(), &[]);
        assert_eq!(
            names(&child),
            [
                "PATH", "HOME", "USER", "SHELL", "TERM", "LANG", "NODE_ENV", "DEBUG"
            ]
        );
    }

    #[test]
    fn spec_innocent_variables_are_kept() {
        let env = [
            ("NODE_ENV", "development"),
            ("DEBUG", "app:*"),
            ("PORT", "3000"),
            ("HOSTNAME", "box"),
            ("TZ", "UTC"),
            ("EDITOR", "vim"),
            ("PAGER", "less"),
        ];
        let child = child_environment(vars(&env), &Policy::defaults(), &[]);
        assert_eq!(child.variables().count(), 7);
    }

    #[test]
    fn a_set_variable_replaces_a_kept_one_and_the_last_of_a_name_wins() {
        let env = [("NODE_ENV", "production"), ("PATH", "/bin")];
        let set = [
            ("NODE_ENV".to_string(), "dev".to_string()),
            ("A".to_string(), "1".to_string()),
            ("NODE_ENV".to_string(), "test".to_string()),
        ];
        let child = child_environment(vars(&env), &Policy::defaults(), &set);
        let got: Vec<(Cow<str>, Cow<str>)> = child
            .variables()
            .map(|var| (var.name_text(), var.value_text()))
            .collect();
        assert_eq!(
            got,
            [
                ("PATH".into(), "/bin".into()),
                ("A".into(), "1".into()),
                ("NODE_ENV".into(), "test".into()),
            ]
        );
        assert!(child.inherited[0].replaced);
        assert!(!child.inherited[0].decision.is_removed());
    }

    #[test]
    fn a_set_secret_is_passed_but_is_still_a_secret_to_redact() {
        let env = [("GITHUB_TOKEN", "ghp_parent"), ("PATH", "/bin")];
        let set = [("API_KEY".to_string(), "from-the-flag".to_string())];
        let child = child_environment(vars(&env), &Policy::defaults(), &set);
        assert_eq!(names(&child), ["PATH", "API_KEY"]);
        let secrets: Vec<&[u8]> = child.secret_values().collect();
        assert_eq!(secrets, [&b"ghp_parent"[..], &b"from-the-flag"[..]]);
    }

    /// `getenv` in the parent sees the first of two variables with one
    /// name. Before one function decided, the exec path passed both and
    /// the supervised path the last; now only the first can be passed.
    #[test]
    fn of_two_parent_variables_with_one_name_only_the_first_is_decided() {
        let env = [("MODE", "first"), ("PATH", "/bin"), ("MODE", "second")];
        let child = child_environment(vars(&env), &Policy::defaults(), &[]);
        let modes: Vec<Cow<str>> = child
            .variables()
            .filter(|var| var.name == b"MODE")
            .map(|var| var.value_text())
            .collect();
        assert_eq!(modes, ["first"]);
        assert_eq!(
            child.inherited[2].decision,
            Decision::Remove(Reason::Duplicate)
        );

        let env = [
            ("MODE", "ghp_0123456789abcdefghijklmnopqrstuvwxyz"),
            ("MODE", "plain"),
        ];
        let child = child_environment(vars(&env), &Policy::defaults(), &[]);
        assert_eq!(child.variables().count(), 0);
    }

    #[test]
    fn names_and_values_that_are_not_utf8_are_decided_as_text_and_passed_as_bytes() {
        let env = [Var {
            name: b"ODD\xff",
            value: b"v\xfe",
        }];
        let child = child_environment(env, &Policy::defaults(), &[]);
        assert_eq!(child.variables().collect::<Vec<_>>(), env);
    }

    #[test]
    fn this_process_has_the_variables_std_sees() {
        use std::os::unix::ffi::OsStrExt;
        let ours: Vec<(Vec<u8>, Vec<u8>)> = this_process()
            .iter()
            .map(|(_, var)| (var.name.to_vec(), var.value.to_vec()))
            .collect();
        let std: Vec<(Vec<u8>, Vec<u8>)> = std::env::vars_os()
            .map(|(n, v)| (n.as_bytes().to_vec(), v.as_bytes().to_vec()))
            .collect();
        assert_eq!(ours, std);
    }
}
