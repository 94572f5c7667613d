//! Listing options and the NDJSON entry format.

use super::*;
use crate::support::{Sandbox, stdout};

fn paths(sandbox: &Sandbox, args: &[&str]) -> Vec<String> {
    let output = sandbox
        .cmd("ollm-discover")
        .args(["--paths", "--sort"])
        .args(args)
        .output()
        .expect("run");
    assert!(
        output.status.success(),
        "{}",
        crate::support::stderr(&output)
    );
    stdout(&output).lines().map(String::from).collect()
}

fn deep_sample(sandbox: &Sandbox) {
    for name in [
        "top.rs",
        "a/one.rs",
        "a/b/two.rs",
        "a/b/c/three.md",
        ".hidden/h.rs",
        ".dot.rs",
    ] {
        sandbox.write(name, "x");
    }
}

#[test]
fn depth_zero_lists_only_the_roots_own_entries() {
    let sandbox = Sandbox::new();
    deep_sample(&sandbox);
    assert_eq!(
        paths(&sandbox, &["--max-depth", "0"]),
        vec![".dot.rs", "top.rs"]
    );
    assert_eq!(
        paths(&sandbox, &["--max-depth", "1"]),
        vec![".dot.rs", ".hidden/h.rs", "a/one.rs", "top.rs"]
    );
    assert_eq!(paths(&sandbox, &["--max-depth", "unlimited"]).len(), 6);
}

#[test]
fn the_default_depth_is_ten_levels() {
    let sandbox = Sandbox::new();
    let at = |levels: usize| format!("{}f{levels}", "d/".repeat(levels));
    sandbox.write(&at(10), "x");
    sandbox.write(&at(11), "x");
    assert_eq!(paths(&sandbox, &[]), vec![at(10)]);
}

#[test]
fn a_listing_cut_by_the_depth_limit_says_so() {
    let sandbox = Sandbox::new();
    sandbox.write("a/b/c/deep.rs", "x");
    sandbox.write("top.rs", "x");
    let cut = sandbox
        .cmd("ollm-discover")
        .args(["--paths", "--max-depth", "1"])
        .output()
        .unwrap();
    assert!(cut.status.success());
    let err = crate::support::stderr(&cut);
    assert!(
        err.starts_with("ollm-discover: warning: 1 directory at the depth limit (1) was not read;"),
        "{err}"
    );
    let whole = sandbox
        .cmd("ollm-discover")
        .args(["--paths", "--max-depth", "unlimited"])
        .output()
        .unwrap();
    assert_eq!(crate::support::stderr(&whole), "");
}

#[test]
fn include_and_exclude_globs_filter_by_name_or_path() {
    let sandbox = Sandbox::new();
    deep_sample(&sandbox);
    assert_eq!(
        paths(
            &sandbox,
            &["--include", "*.rs", "--exclude", "b", "--no-hidden"]
        ),
        vec!["a/one.rs", "top.rs"]
    );
    assert_eq!(
        paths(&sandbox, &["--include", "a/*/*.rs"]),
        vec!["a/b/two.rs"]
    );
    assert_eq!(paths(&sandbox, &["--include", "a/**"]).len(), 3);
}

#[test]
fn hidden_names_are_listed_unless_asked_not_to() {
    let sandbox = Sandbox::new();
    deep_sample(&sandbox);
    let all = paths(&sandbox, &[]);
    assert!(all.contains(&".hidden/h.rs".to_string()));
    let visible = paths(&sandbox, &["--no-hidden"]);
    assert!(!visible.iter().any(|p| p.starts_with('.')), "{visible:?}");
    std::fs::write(
        sandbox.ollm_home.join("config.yaml"),
        "services:\n  fileDiscovery:\n    includeHidden: false\n",
    )
    .expect("config");
    assert_eq!(paths(&sandbox, &[]), visible);
    assert_eq!(paths(&sandbox, &["--hidden"]), all);
}

#[test]
fn type_filter_reports_directories_and_links_on_request() {
    let sandbox = Sandbox::new();
    deep_sample(&sandbox);
    std::os::unix::fs::symlink("top.rs", sandbox.work.join("ln")).expect("symlink");
    assert_eq!(
        paths(&sandbox, &["--type", "directory"]),
        vec![".hidden", "a", "a/b", "a/b/c"]
    );
    assert_eq!(paths(&sandbox, &["--type", "symlink"]), vec!["ln"]);
    assert!(paths(&sandbox, &[]).contains(&"ln".to_string()));
    assert!(!paths(&sandbox, &["-t", "f"]).contains(&"ln".to_string()));
}

#[test]
fn entries_are_ndjson_with_the_specs_fields() {
    let sandbox = Sandbox::new();
    sandbox.write("src/main.rs", "fn main() {}\n");
    let output = sandbox
        .cmd("ollm-discover")
        .args(["--type", "file", "--type", "directory", "--sort"])
        .output()
        .expect("run");
    assert!(output.status.success());
    let lines: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["relativePath"], "src");
    assert_eq!(lines[0]["type"], "directory");
    let file = &lines[1];
    assert_eq!(file["relativePath"], "src/main.rs");
    assert_eq!(file["type"], "file");
    assert_eq!(file["size"], 13);
    let path = file["path"].as_str().expect("path");
    assert!(
        Path::new(path).is_absolute() && path.ends_with("/src/main.rs"),
        "{path}"
    );
    let modified = file["modified"].as_str().expect("modified");
    assert!(
        modified.ends_with('Z') && modified.len() == 24,
        "{modified}"
    );
    assert!(file.get("pathBytes").is_none());
}

#[test]
fn non_utf8_names_are_reported_losslessly() {
    let sandbox = Sandbox::new();
    touch(&sandbox.work, b"bad\xffname.rs", "x");
    let output = sandbox.cmd("ollm-discover").output().expect("run");
    assert!(output.status.success());
    let entry = crate::support::json(&output);
    assert_eq!(entry["relativePath"], "bad\u{fffd}name.rs");
    let bytes: Vec<u8> = entry["relativePathBytes"]
        .as_array()
        .expect("bytes")
        .iter()
        .map(|b| b.as_u64().expect("number") as u8)
        .collect();
    assert_eq!(bytes, b"bad\xffname.rs");
    let full: Vec<u8> = entry["pathBytes"]
        .as_array()
        .expect("bytes")
        .iter()
        .map(|b| b.as_u64().expect("n") as u8)
        .collect();
    assert!(full.ends_with(b"/bad\xffname.rs"));
    let raw = sandbox
        .cmd("ollm-discover")
        .arg("--paths")
        .output()
        .expect("run");
    assert_eq!(raw.stdout, b"bad\xffname.rs\n");
}

#[test]
fn a_root_argument_and_config_builtins_are_honoured() {
    let sandbox = Sandbox::new();
    sandbox.write("proj/vendor/x.rs", "x");
    sandbox.write("proj/node_modules/y.js", "x");
    sandbox.write("proj/src/z.rs", "x");
    assert_eq!(paths(&sandbox, &["proj"]), vec!["src/z.rs", "vendor/x.rs"]);
    std::fs::write(
        sandbox.ollm_home.join("config.yaml"),
        "services:\n  fileDiscovery:\n    builtinIgnores: [vendor]\n",
    )
    .expect("config");
    assert_eq!(
        paths(&sandbox, &["proj"]),
        vec!["node_modules/y.js", "src/z.rs"]
    );
}
