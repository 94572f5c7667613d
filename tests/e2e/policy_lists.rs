//! The default policy against the project's own lists (tests/data), drawn
//! from public secret-scanning rule sets: every secret name and credential
//! format is removed (and redacted in output), every ordinary variable kept.

use crate::support::{Sandbox, child_env, stdout};

fn data(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    std::fs::read_to_string(&path).unwrap()
}

fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

#[test]
fn listed_secret_names_and_formats_are_removed_and_ordinary_ones_kept() {
    let secret_text = data("secret-names.txt");
    let secret_names: Vec<&str> = lines(&secret_text).collect();
    let value_text = data("credential-values.txt");
    let values: Vec<(&str, &str)> = lines(&value_text)
        .map(|l| l.split_once('\t').expect("RULE<TAB>VALUE"))
        .collect();
    let ordinary_text = data("ordinary-names.txt");
    let ordinary: Vec<(&str, &str)> = lines(&ordinary_text)
        .map(|l| l.split_once('=').expect("NAME=VALUE"))
        .collect();
    println!(
        "lists: {} secret names, {} credential formats, {} ordinary variables",
        secret_names.len(),
        values.len(),
        ordinary.len()
    );

    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd("ollm-env");
    cmd.args(["run", "--", "env", "-0"]);
    for name in &secret_names {
        cmd.env(name, "plain-value-0000");
    }
    for (i, (_, value)) in values.iter().enumerate() {
        cmd.env(format!("SETTING_{i}"), value);
    }
    for (name, value) in &ordinary {
        cmd.env(name, value);
    }
    let output = cmd.output().unwrap();
    assert!(output.status.success());
    let env = child_env(&output);
    for name in &secret_names {
        assert!(
            !env.contains_key(*name),
            "secret name {name} reached the tool"
        );
    }
    for (i, (rule, value)) in values.iter().enumerate() {
        assert!(
            !env.contains_key(&format!("SETTING_{i}")),
            "{rule} value {value:?} reached the tool"
        );
    }
    for (name, value) in &ordinary {
        assert_eq!(
            env.get(*name).map(String::as_str),
            Some(*value),
            "{name} was not kept"
        );
    }
}

#[test]
fn listed_credential_formats_are_redacted_in_output() {
    let value_text = data("credential-values.txt");
    let sandbox = Sandbox::new();
    let mut printed = String::new();
    for (_, value) in lines(&value_text).map(|l| l.split_once('\t').unwrap()) {
        printed.push_str(&format!("before {value} after\n"));
    }
    sandbox.write("values.txt", &printed);
    let output = sandbox
        .cmd("ollm-env")
        .args(["run", "--redact-output", "--", "cat", "values.txt"])
        .output()
        .unwrap();
    let out = stdout(&output);
    for ((rule, value), line) in lines(&value_text)
        .map(|l| l.split_once('\t').unwrap())
        .zip(out.lines())
    {
        assert!(!line.contains(value), "{rule}: {line}");
        assert!(line.contains("[REDACTED]"), "{rule}: {line}");
    }
}
