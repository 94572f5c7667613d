//! The flag contract shared by every program: one meaning per flag name,
//! one exit code per kind of failure, the deprecated spellings still working.

use crate::support::{Sandbox, assert_one_line_error, json, stderr};

const HISTORY: &str = r#"[{"role":"system","parts":[{"type":"text","text":"You help."}]},
{"role":"user","parts":[{"type":"text","text":"Hello there, how are you today?"}]}]"#;

const LOOP: &str = concat!(
    r#"{"type":"tool","name":"ls","args":{}}"#,
    "\n",
    r#"{"type":"tool","name":"ls","args":{}}"#,
    "\n",
    r#"{"type":"tool","name":"ls","args":{}}"#,
    "\n"
);

#[test]
fn compress_takes_its_token_limit_as_token_limit() {
    let sandbox = Sandbox::new();
    let out = sandbox
        .cmd("ollm-compress")
        .args(["check", "--token-limit", "5"])
        .write_stdin(HISTORY)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(json(&out)["limit"], 5);
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
}

#[test]
fn compress_limit_still_works_with_a_deprecation_warning() {
    let sandbox = Sandbox::new();
    let out = sandbox
        .cmd("ollm-compress")
        .args(["check", "--limit", "100000"])
        .write_stdin(HISTORY)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(json(&out)["limit"], 100000);
    assert_eq!(
        stderr(&out),
        "ollm-compress: warning: --limit is deprecated here: use --token-limit\n"
    );
    let help = sandbox
        .cmd("ollm-compress")
        .args(["check", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("--token-limit") && !help.contains("--limit "),
        "{help}"
    );
}

#[test]
fn loopcheck_takes_its_input_format_as_input_format() {
    let sandbox = Sandbox::new();
    let out = sandbox
        .cmd("ollm-loopcheck")
        .args(["--input-format", "events"])
        .write_stdin(LOOP)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json(&out)["level"], "warn");
    let old = sandbox
        .cmd("ollm-loopcheck")
        .args(["--format", "events"])
        .write_stdin(LOOP)
        .output()
        .unwrap();
    assert_eq!(old.status.code(), Some(0));
    assert_eq!(old.stdout, out.stdout);
    assert_eq!(
        stderr(&old),
        "ollm-loopcheck: warning: --format is deprecated here: use --input-format\n"
    );
}

#[test]
fn discover_excludes_with_capital_e_as_fd_does() {
    let sandbox = Sandbox::new();
    sandbox.write("keep.rs", "");
    sandbox.write("drop.log", "");
    let out = sandbox
        .cmd("ollm-discover")
        .args(["--paths", "-E", "*.log"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "keep.rs\n");
    let only = sandbox
        .cmd("ollm-discover")
        .args(["--paths", "-g", "*.log"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&only.stdout), "drop.log\n");
    // `-e` and `-i` mean --regex and --ignore-case (session search) only.
    let clash = sandbox
        .cmd("ollm-discover")
        .args(["-e", "*.log"])
        .output()
        .unwrap();
    assert_eq!(clash.status.code(), Some(2));
}

/// A missing input file is "not found" (3) in every program, as a missing
/// directory or session is.
#[test]
fn a_missing_input_file_is_exit_code_3_everywhere() {
    let sandbox = Sandbox::new();
    for (program, args) in [
        ("ollm-compress", vec!["/nonexistent/history.json"]),
        ("ollm-compress", vec!["count", "/nonexistent/history.json"]),
        ("ollm-loopcheck", vec!["/nonexistent/events.ndjson"]),
        (
            "ollm-loopcheck",
            vec!["--stream", "/nonexistent/events.ndjson"],
        ),
        (
            "ollm-context",
            vec!["add", "k", "--from-file", "/nonexistent/file"],
        ),
        ("ollm-discover", vec!["/nonexistent/dir"]),
    ] {
        let out = sandbox.cmd(program).args(&args).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(3),
            "{program} {args:?}: {}",
            stderr(&out)
        );
        assert_one_line_error(&out, program);
    }
}

/// A value out of range is a usage error (2) when a flag gives it, and a
/// configuration error (5) when the configuration does.
#[test]
fn an_out_of_range_flag_is_a_usage_error() {
    let sandbox = Sandbox::new();
    for (program, args) in [
        ("ollm-compress", vec!["check", "--threshold", "2"]),
        ("ollm-loopcheck", vec!["--similarity-threshold", "2"]),
        ("ollm-loopcheck", vec!["--repeat-threshold", "1"]),
    ] {
        let out = sandbox
            .cmd(program)
            .args(&args)
            .write_stdin("[]")
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{program} {args:?}: {}",
            stderr(&out)
        );
        assert_one_line_error(&out, program);
    }
    let out = sandbox
        .cmd("ollm-loopcheck")
        .env("OLLM_LOOP_DETECTION_SIMILARITY_THRESHOLD", "2")
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(5), "{}", stderr(&out));
}

/// The sessions document's (003) configuration works as written.
#[test]
fn the_sessions_documents_top_level_keys_are_accepted() {
    let sandbox = Sandbox::new();
    std::fs::write(
        sandbox.ollm_home.join("config.yaml"),
        "sessions:\n  maxSessions: 7\n  autoSave: true\ncompression:\n  strategy: summarize\n  preserveRecent: 2048\n",
    )
    .unwrap();
    let out = sandbox.cmd("ollm").arg("config").output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    let config = json(&out);
    assert_eq!(config["services"]["session"]["maxSessions"], 7);
    assert_eq!(config["services"]["compression"]["strategy"], "summarize");
    assert_eq!(config["services"]["compression"]["preserveRecent"], 2048);
    assert!(config.get("sessions").is_none());
}

#[test]
fn a_misspelled_key_names_the_key_that_was_meant() {
    let sandbox = Sandbox::new();
    let file = sandbox.ollm_home.join("config.yaml");
    std::fs::write(&file, "services:\n  sesion:\n    maxSessions: 3\n").unwrap();
    let out = sandbox.cmd("ollm-session").arg("config").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stderr(&out),
        format!(
            "ollm-session: warning: {}: unknown configuration key `services.sesion` (ignored); did you mean `services.session`?\n",
            file.display()
        )
    );
}

#[test]
fn an_unknown_ollm_variable_is_named_with_the_one_that_was_meant() {
    let sandbox = Sandbox::new();
    let out = sandbox
        .cmd("ollm-loopcheck")
        .env("OLLM_LOOP_DETECTION_MAX_TURN", "5")
        .arg("config")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stderr(&out),
        "ollm-loopcheck: warning: environment variable OLLM_LOOP_DETECTION_MAX_TURN sets no configuration key (ignored); did you mean OLLM_LOOP_DETECTION_MAX_TURNS?\n"
    );
    // Variables the programs and their tests use are not configuration keys.
    let out = sandbox
        .cmd("ollm-loopcheck")
        .env("OLLM_TEST_LLM_URL", "http://127.0.0.1:9")
        .env("OLLM_SESSION_STORE", "file")
        .env("OLLM_LOOP_DETECTION_MAX_TURNS", "5")
        .arg("config")
        .output()
        .unwrap();
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    assert_eq!(json(&out)["services"]["loopDetection"]["maxTurns"], 5);
}
