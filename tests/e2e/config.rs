//! Shared configuration: layering, origins, and errors naming file and key.

use crate::support::{Sandbox, assert_one_line_error, json, stderr};

fn origin_of(rows: &serde_json::Value, key: &str) -> (serde_json::Value, String) {
    let row = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["key"] == key)
        .unwrap_or_else(|| panic!("no row for {key}"));
    (
        row["value"].clone(),
        row["origin"].as_str().unwrap().to_string(),
    )
}

#[test]
fn defaults_are_the_specs() {
    let sandbox = Sandbox::new();
    let config = json(&sandbox.cmd("ollm-env").arg("config").output().unwrap());
    let s = &config["services"];
    assert_eq!(s["session"]["maxSessions"], 100);
    assert_eq!(s["compression"]["threshold"], 0.8);
    assert_eq!(s["compression"]["strategy"], "hybrid");
    assert_eq!(s["compression"]["preserveRecent"], 4096);
    assert_eq!(s["loopDetection"]["maxTurns"], 50);
    assert_eq!(s["loopDetection"]["repeatThreshold"], 3);
    assert_eq!(s["fileDiscovery"]["maxDepth"], 10);
    assert_eq!(config["snapshots"]["maxCount"], 5);
    assert_eq!(config["snapshots"]["autoThreshold"], 0.85);
}

#[test]
fn layers_merge_in_order_and_show_their_origin() {
    let sandbox = Sandbox::new();
    std::fs::write(
        sandbox.ollm_home.join("config.yaml"),
        "services:\n  session:\n    maxSessions: 10\n  loopDetection:\n    maxTurns: 20\n    repeatThreshold: 4\n",
    )
    .unwrap();
    sandbox.write(
        ".ollm/config.yaml",
        "services:\n  loopDetection:\n    maxTurns: 15\n",
    );
    std::fs::create_dir_all(sandbox.work.join("sub/dir")).unwrap();
    let extra = sandbox.write("extra.yaml", "snapshots:\n  maxCount: 2\n");
    let output = sandbox
        .cmd("ollm-env")
        .current_dir(sandbox.work.join("sub/dir"))
        .env("OLLM_LOOP_DETECTION_REPEAT_THRESHOLD", "6")
        .env("OLLM_SNAPSHOTS_MAX_COUNT", "8")
        .arg("--config")
        .arg(&extra)
        .args(["config", "--show-origin"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let rows = json(&output);
    let user = sandbox.ollm_home.join("config.yaml");
    let workspace = sandbox.work.join(".ollm/config.yaml");
    assert_eq!(
        origin_of(&rows, "services.session.maxSessions"),
        (10.into(), format!("file:{}", user.display()))
    );
    assert_eq!(
        origin_of(&rows, "services.loopDetection.maxTurns"),
        (15.into(), format!("file:{}", workspace.display()))
    );
    assert_eq!(
        origin_of(&rows, "services.loopDetection.repeatThreshold"),
        (
            6.into(),
            "env:OLLM_LOOP_DETECTION_REPEAT_THRESHOLD".to_string()
        )
    );
    assert_eq!(
        origin_of(&rows, "snapshots.maxCount"),
        (2.into(), format!("file:{}", extra.display()))
    );
    assert_eq!(
        origin_of(&rows, "services.compression.threshold"),
        (0.8.into(), "default".to_string())
    );
}

#[test]
fn a_flag_wins_over_every_file() {
    let sandbox = Sandbox::new();
    std::fs::write(
        sandbox.ollm_home.join("config.yaml"),
        "services:\n  environment:\n    scanValues: true\n",
    )
    .unwrap();
    let output = sandbox
        .cmd("ollm-env")
        .args(["run", "--no-scan-values", "--", "env"])
        .env("INNOCENT", "ghp_abcdefghijklmnopqrstuvwxyz0123456789")
        .output()
        .unwrap();
    assert!(crate::support::stdout(&output).contains("INNOCENT="));
}

#[test]
fn a_wrong_type_names_the_file_the_key_and_the_expectation() {
    let sandbox = Sandbox::new();
    let file = sandbox.ollm_home.join("config.yaml");
    std::fs::write(&file, "services:\n  session:\n    maxSessions: lots\n").unwrap();
    let output = sandbox.cmd("ollm-env").arg("config").output().unwrap();
    assert_eq!(output.status.code(), Some(5));
    assert_one_line_error(&output, "ollm-env");
    let err = stderr(&output);
    assert!(err.contains(&file.display().to_string()), "{err}");
    assert!(err.contains("services.session.maxSessions"), "{err}");
    assert!(
        err.contains("expected a non-negative whole number"),
        "{err}"
    );
}

#[test]
fn invalid_yaml_names_the_line() {
    let sandbox = Sandbox::new();
    std::fs::write(
        sandbox.ollm_home.join("config.yaml"),
        "services:\n  session: [unclosed\n",
    )
    .unwrap();
    let output = sandbox.cmd("ollm-env").arg("config").output().unwrap();
    assert_eq!(output.status.code(), Some(5));
    assert_one_line_error(&output, "ollm-env");
    assert!(
        stderr(&output).contains("invalid YAML at line"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn out_of_range_values_name_their_origin() {
    let sandbox = Sandbox::new();
    let output = sandbox
        .cmd("ollm-env")
        .env("OLLM_COMPRESSION_THRESHOLD", "1.5")
        .arg("config")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(5));
    assert_one_line_error(&output, "ollm-env");
    let err = stderr(&output);
    assert!(err.contains("OLLM_COMPRESSION_THRESHOLD"), "{err}");
    assert!(err.contains("services.compression.threshold"), "{err}");
}

#[test]
fn unknown_keys_warn_and_are_ignored() {
    let sandbox = Sandbox::new();
    std::fs::write(
        sandbox.ollm_home.join("config.yaml"),
        "services:\n  sesion:\n    maxSessions: 3\nextra: 1\n",
    )
    .unwrap();
    let output = sandbox.cmd("ollm-env").arg("config").output().unwrap();
    assert!(output.status.success());
    let err = stderr(&output);
    assert!(
        err.contains("unknown configuration key `services.sesion`"),
        "{err}"
    );
    assert!(err.contains("unknown configuration key `extra`"), "{err}");
    assert_eq!(json(&output)["services"]["session"]["maxSessions"], 100);
}

#[test]
fn an_unreadable_or_missing_config_file_is_a_config_error() {
    let sandbox = Sandbox::new();
    let output = sandbox
        .cmd("ollm-env")
        .args(["--config", "/nonexistent/c.yaml", "config"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(5));
    assert_one_line_error(&output, "ollm-env");
    assert!(stderr(&output).contains("/nonexistent/c.yaml"));
}

#[test]
fn an_empty_config_file_is_fine() {
    let sandbox = Sandbox::new();
    std::fs::write(sandbox.ollm_home.join("config.yaml"), "").unwrap();
    sandbox.cmd("ollm-env").arg("config").assert().success();
}

/// `ollm-session`'s global flags set their keys through its flag table
/// wherever on the command line they are given, and `config --show-origin`
/// names the flag.
#[test]
fn global_session_flags_set_their_keys_before_or_after_the_subcommand() {
    let sandbox = Sandbox::new();
    let dir = sandbox.work.join("elsewhere");
    let dir = dir.to_str().unwrap();
    for args in [
        ["--data-dir", dir, "--no-redact", "config", "--show-origin"],
        ["config", "--show-origin", "--data-dir", dir, "--no-redact"],
    ] {
        let out = sandbox.cmd("ollm-session").args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let rows = json(&out);
        assert_eq!(
            origin_of(&rows, "services.session.dataDir"),
            (dir.into(), "flag:--data-dir".to_string()),
            "{args:?}"
        );
        assert_eq!(
            origin_of(&rows, "services.session.redact"),
            (false.into(), "flag:--no-redact".to_string()),
            "{args:?}"
        );
        assert_eq!(origin_of(&rows, "services.session.store").1, "default");
    }
}
