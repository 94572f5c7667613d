//! Properties 25–28: environment sanitization.

use ollm::config::{DEFAULT_ALLOW, DEFAULT_DENY};
use ollm::env::Policy;
use ollm::env::child::{Var, child_environment};
use proptest::prelude::*;

/// The child's environment, as `ollm-env run` decides it, from `parent`
/// with the default policy and nothing set.
fn child_of(policy: &Policy, parent: &[(String, String)]) -> Vec<(String, String)> {
    let vars = parent.iter().map(|(n, v)| Var::new(n, v));
    child_environment(vars, policy, &[])
        .variables()
        .map(|var| (var.name_text().into_owned(), var.value_text().into_owned()))
        .collect()
}

fn deny_matching_name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[A-Za-z][A-Za-z0-9_]{0,12}_(KEY|SECRET|TOKEN|PASSWORD|CREDENTIAL)",
        "(AWS|GITHUB)_[A-Za-z0-9_]{1,12}",
        "[a-z][a-z0-9_]{0,12}_(key|secret|token|password|credential)",
    ]
}

fn any_name() -> impl Strategy<Value = String> {
    "[A-Za-z_][A-Za-z0-9_]{0,20}"
}

fn plain_value() -> impl Strategy<Value = String> {
    "[ -~]{0,40}"
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Property 25: every variable matching a deny pattern (and not on the
    /// allow list) is removed.
    #[test]
    fn property_25_deny_pattern_filtering(
        denied in prop::collection::vec((deny_matching_name(), plain_value()), 1..10),
        others in prop::collection::vec((any_name(), plain_value()), 0..10),
    ) {
        let policy = Policy::defaults();
        let env: Vec<(String, String)> = denied.iter().chain(others.iter()).cloned().collect();
        let kept = child_of(&policy, &env);
        for (name, _) in &denied {
            if !policy.is_allowed(name) {
                prop_assert!(!kept.iter().any(|(k, _)| k == name), "{name} leaked");
            }
        }
    }

    /// Property 26: every variable the allow list names survives sanitization.
    #[test]
    fn property_26_allow_list_preservation(
        values in prop::collection::vec(plain_value(), 7),
        lc_suffix in "[A-Z]{1,8}",
    ) {
        let policy = Policy::defaults();
        let mut names: Vec<String> = DEFAULT_ALLOW.iter().filter(|n| !n.contains('*')).map(std::string::ToString::to_string).collect();
        names.push(format!("LC_{lc_suffix}"));
        let env: Vec<(String, String)> = names.into_iter().zip(values).collect();
        let kept = child_of(&policy, &env);
        for (name, value) in &env {
            prop_assert!(kept.iter().any(|(k, v)| k == name && v == value), "{name} dropped");
        }
    }

    /// Property 27: after sanitization only variables that are allowed, or
    /// that match no deny pattern, remain.
    #[test]
    fn property_27_sanitization_completeness(
        env in prop::collection::vec((prop_oneof![any_name(), deny_matching_name()], plain_value()), 0..30),
    ) {
        let policy = Policy::defaults();
        for (name, value) in child_of(&policy, &env) {
            // The one documented exception: a path-valued variable is
            // spared the built-in extended globs (PASSWORD_STORE_DIR).
            let path = policy.decide(&name, &value) == ollm::env::Decision::Keep(ollm::env::Reason::PathValue);
            prop_assert!(policy.is_allowed(&name) || !policy.is_denied(&name) || path, "{name} kept");
        }
    }

    /// Property 28 (library half): a diagnostic never shows a credential-shaped
    /// value, whatever text surrounds it. The end-to-end half runs the programs.
    #[test]
    fn property_28_sensitive_data_exclusion_from_errors(
        secret in secret_value(),
        before in "[ -~]{0,30}",
        after in "[ -~]{0,30}",
    ) {
        let message = format!("{before} {secret} {after}");
        let scrubbed = ollm::redact::scrub_message(&message);
        prop_assert!(!scrubbed.contains(&secret), "{scrubbed}");
    }
}

/// Values shaped like the credentials the toolkit recognises.
pub fn secret_value() -> impl Strategy<Value = String> {
    prop_oneof![
        "AKIA[0-9A-Z]{16}",
        "ghp_[A-Za-z0-9]{36}",
        "github_pat_[A-Za-z0-9_]{30}",
        "sk-[A-Za-z0-9]{32}",
        "sk-proj-[A-Za-z0-9]{40}",
        "xoxb-[0-9]{12}-[A-Za-z0-9]{24}",
        "sk_live_[A-Za-z0-9]{24}",
        "eyJ[A-Za-z0-9]{12}\\.eyJ[A-Za-z0-9]{16}\\.[A-Za-z0-9_]{20}",
        "postgres://[a-z]{4,8}:[A-Za-z0-9]{8,16}@[a-z]{3,8}\\.internal/db",
    ]
}

#[test]
fn defaults_are_the_specs() {
    assert_eq!(DEFAULT_DENY.len(), 7);
    assert!(DEFAULT_ALLOW.contains(&"LC_*"));
}

/// Runs one of our programs with a cleared environment and a temp OLLM_HOME.
fn run_program(
    bin: &str,
    args: &[&str],
    env: &[(&str, &str)],
    home: &std::path::Path,
) -> std::process::Output {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin(bin));
    cmd.args(args)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", home)
        .env("OLLM_HOME", home)
        .current_dir(home);
    for (name, value) in env {
        cmd.env(name, value);
    }
    cmd.output().expect("run program")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Property 28 (programs half): errors about bad configuration, missing
    /// commands and unknown tools never echo a credential-shaped value.
    #[test]
    fn property_28_sensitive_data_exclusion_from_program_errors(secret in secret_value()) {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(
            home.path().join("config.yaml"),
            format!("services:\n  session:\n    maxSessions: {secret:?}\n"),
        ).unwrap();
        let cases = [
            run_program("ollm-env", &["config"], &[], home.path()),
            run_program("ollm-env", &["run", "--", &secret], &[], home.path()),
            run_program("ollm", &[&secret], &[], home.path()),
        ];
        std::fs::remove_file(home.path().join("config.yaml")).unwrap();
        let env_case = run_program(
            "ollm-env",
            &["config"],
            &[("OLLM_LOOP_DETECTION_MAX_TURNS", &secret)],
            home.path(),
        );
        for output in cases.iter().chain([&env_case]) {
            prop_assert!(!output.status.success());
            let err = String::from_utf8_lossy(&output.stderr);
            prop_assert!(!err.is_empty());
            prop_assert!(!err.contains(&secret), "leaked in: {err}");
        }
    }
}
