//! The Python client alone (`python/pyproject.toml`, the distribution
//! `ollm-tools-client`): from a checkout whose programs `cargo install`
//! already built, `pip install ./python` fills a fresh virtual environment
//! in seconds, building nothing, and the example agent runs on the
//! programs found on PATH. Its pinned build backend (flit_core) comes from
//! `target/py-tools/wheels` (made by `.ci/run`), so the install is offline.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use crate::package_python::{run, tools};
use crate::support::{Sandbox, real_model, stderr, stdout};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh environment with `pip install ./python` done in it; `None`,
/// saying SKIPPED (a failure under `CI=true`), without the pinned wheels.
fn client_venv(sandbox: &Sandbox) -> Option<std::path::PathBuf> {
    let wheels = tools().join("wheels");
    let has_backend = std::fs::read_dir(&wheels).is_ok_and(|entries| {
        entries
            .filter_map(Result::ok)
            .any(|e| e.file_name().to_string_lossy().starts_with("flit_core-"))
    });
    if !tools().join("bin/pip").is_file() || !has_backend {
        let why = format!(
            "no pinned pip and flit_core wheel under {} (bash .ci/run downloads them)",
            tools().display()
        );
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true and {why}"
        );
        eprintln!("SKIPPED: {why}");
        return None;
    }
    let venv = sandbox.home.join("venv");
    run(
        "python3 -m venv",
        Command::new("python3")
            .args(["-m", "venv", "--without-pip"])
            .arg(&venv),
    );
    let started = Instant::now();
    run(
        "pip install ./python",
        Command::new(tools().join("bin/pip"))
            .arg("--python")
            .arg(venv.join("bin/python"))
            .args(["install", "--quiet", "--no-index", "--find-links"])
            .arg(&wheels)
            .arg(root().join("python")),
    );
    eprintln!(
        "package_python_client: pip install ./python took {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Some(venv)
}

#[test]
fn the_client_alone_installs_from_the_checkout_without_building_the_programs() {
    let sandbox = Sandbox::new();
    let Some(venv) = client_venv(&sandbox) else {
        return;
    };
    let out = sandbox
        .program(venv.join("bin/python"))
        .args([
            "-c",
            "import importlib.metadata as m, ollm_tools, ollm_tools.types; \
             print(m.version('ollm-tools-client')); print(ollm_tools.__file__)",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let printed = stdout(&out);
    let mut lines = printed.lines();
    assert_eq!(
        lines.next(),
        Some(env!("CARGO_PKG_VERSION")),
        "python/pyproject.toml's version is the programs' (Cargo.toml)"
    );
    let module = lines.next().unwrap_or_default();
    assert!(
        module.starts_with(&venv.display().to_string()),
        "the client is the installed one, not the checkout's: {module}"
    );
    let programs: Vec<String> = std::fs::read_dir(venv.join("bin"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("ollm"))
        .collect();
    assert!(
        programs.is_empty(),
        "the client carries no programs: {programs:?}"
    );
    // The programs are found on PATH, where cargo install puts them.
    let out = sandbox
        .program(venv.join("bin/python"))
        .args([
            "-c",
            "from ollm_tools import Session; print(len(Session().list()))",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "0");
}

#[test]
fn the_example_agent_says_in_one_line_what_to_install_when_the_client_is_missing() {
    let sandbox = Sandbox::new();
    let out = sandbox
        .program("python3")
        .arg(root().join("examples/agent.py"))
        .arg("What does this project do?")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "one line, no traceback: {err}");
    assert!(err.contains("pip install ./python"), "{err}");
}

#[test]
fn the_example_agent_runs_a_turn_on_the_client_alone_and_the_programs_on_path() {
    let Some(url) = real_model() else { return };
    let sandbox = Sandbox::new();
    let Some(venv) = client_venv(&sandbox) else {
        return;
    };
    sandbox.write("notes.txt", "The build needs cargo 1.85 or later.\n");
    let started = Instant::now();
    let out = sandbox
        .program(venv.join("bin/python"))
        .arg(root().join("examples/agent.py"))
        .args(["--model-url", &url, "--max-tokens", "96"])
        .env("AGENT_LOOK_FIRST", "1")
        .env("AGENT_MAX_STEPS", "2")
        .arg("What does this project need to build?")
        .output()
        .unwrap();
    eprintln!(
        "package_python_client: one turn took {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let listed = sandbox.session_ok(&["list"]);
    let sessions: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    let session = &sessions.as_array().expect("a list")[0];
    assert!(
        session["messageCount"].as_u64().unwrap_or(0) >= 2,
        "the turn's question and answer are recorded: {session}"
    );
}
