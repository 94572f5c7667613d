//! The server driven by the official Python MCP SDK (`mcp` from PyPI,
//! pinned) in both protocol generations: python_client.py does the talking
//! and prints what it saw. The SDK lives in a virtual environment:
//! `python3 -m venv target/py-mcp && target/py-mcp/bin/pip install mcp==2.3.0`
//! (or `OLLM_TEST_MCP_PYTHON` names its python); without it the test says
//! SKIPPED, and fails under `CI=true`.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

use super::recorded;
use crate::support::{Sandbox, bin_path, test_path};

const SDK: &str = "mcp==2.3.0";

fn python_with_sdk() -> Option<PathBuf> {
    let python = std::env::var_os("OLLM_TEST_MCP_PYTHON").map_or_else(
        || {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/target/py-mcp/bin/python"
            ))
        },
        PathBuf::from,
    );
    let has_sdk = Command::new(&python)
        .args(["-c", "import mcp.client.stdio"])
        .output()
        .is_ok_and(|out| out.status.success());
    if has_sdk {
        return Some(python);
    }
    let why = format!(
        "no Python with the MCP SDK at {} (python3 -m venv target/py-mcp && target/py-mcp/bin/pip install {SDK}, or set OLLM_TEST_MCP_PYTHON)",
        python.display()
    );
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CI=true and {why}"
    );
    eprintln!("SKIPPED: {why}");
    None
}

fn drive(sb: &Sandbox, python: &PathBuf, mode: &str, long: &str) -> Value {
    let out = Command::new(python)
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/e2e/mcp/python_client.py"
        ))
        .args([mode, bin_path("ollm-mcp").to_str().unwrap(), long])
        .env_clear()
        .env("PATH", test_path())
        .env("HOME", &sb.home)
        .env("OLLM_HOME", &sb.ollm_home)
        .env("LANG", "C.UTF-8")
        .current_dir(&sb.work)
        .output()
        .expect("run python");
    assert!(
        out.status.success(),
        "{mode}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("python_client.py prints JSON")
}

#[test]
fn the_official_python_sdk_speaks_both_generations_with_the_server() {
    let Some(python) = python_with_sdk() else {
        return;
    };
    let sb = Sandbox::new();
    let texts: Vec<String> = (0..20)
        .map(|i| {
            format!(
                "message {i}: {}",
                "the retry loop backs off again ".repeat(8)
            )
        })
        .collect();
    let messages: Vec<(&str, &str)> = texts.iter().map(|t| ("user", t.as_str())).collect();
    let long = recorded(&sb, "long", &messages);
    recorded(&sb, "short", &[("assistant", "use exponential backoff")]);
    for (mode, version) in [("initialize", "2025-11-25"), ("discover", "2026-07-28")] {
        let seen = drive(&sb, &python, mode, &long);
        assert_eq!(seen["version"], version, "{mode}");
        assert_eq!(seen["tools"].as_array().unwrap().len(), 5, "{seen}");
        assert_eq!(seen["schemas"], true);
        assert_eq!(
            seen["list"]["structured"]["count"], 2,
            "{mode}: {}",
            seen["list"]
        );
        assert_eq!(seen["search"]["structured"]["hits"][0]["role"], "assistant");
        assert_eq!(seen["context"]["isError"], false);
        assert_eq!(seen["files"]["isError"], false);
        let indices: Vec<u64> = seen["pages"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|p| p["messages"].as_array().unwrap().clone())
            .map(|m| m["index"].as_u64().unwrap())
            .collect();
        assert_eq!(indices, (0..20).collect::<Vec<u64>>(), "{mode}");
        assert!(
            seen["pages"].as_array().unwrap().len() > 1,
            "{mode}: one page"
        );
        assert!(
            seen["resource"].as_str().unwrap().starts_with("# long"),
            "{mode}"
        );
        assert_eq!(seen["bad_id"]["isError"], true, "{mode}");
        assert_eq!(seen["bad_argument"]["isError"], true, "{mode}");
        assert!(
            seen["bad_argument"]["text"]
                .as_str()
                .unwrap()
                .contains("maxTokens")
        );
        assert_eq!(
            seen["after"]["structured"]["count"], 1,
            "{mode}: still answering"
        );
    }
}
