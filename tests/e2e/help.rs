//! Help, suggestions, completions and man pages as a user meets them.

use crate::support::{Sandbox, stderr, stdout};

fn repo_file(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn loopcheck_help_keeps_its_first_example_on_one_line_at_60_columns() {
    let sandbox = Sandbox::new();
    let out = sandbox
        .cmd("ollm-loopcheck")
        .env("COLUMNS", "60")
        .arg("--help")
        .output()
        .unwrap();
    let help = stdout(&out);
    let first = help
        .lines()
        .find(|line| line.trim_start().starts_with("printf"))
        .unwrap();
    assert!(first.trim_end().ends_with("| ollm-loopcheck"), "{first}");
    // The prose around it is still wrapped to the width.
    let description = help
        .lines()
        .find(|l| l.contains("Input is NDJSON"))
        .unwrap();
    assert!(description.chars().count() <= 60, "{description}");
}

/// Every example of every program and subcommand, in `--help` and `-h`,
/// is printed as written, one command a line, however narrow the terminal.
#[test]
fn every_example_is_printed_verbatim_in_every_help() {
    let sandbox = Sandbox::new();
    let mut checked = 0;
    for (program, mut command) in ollm::ollm::programs::all() {
        command.build();
        ollm::command_tree::walk(&command, "", &mut |path, sub| {
            let Some(examples) = ollm::ollm::docs::examples_of(sub) else {
                return;
            };
            let words: Vec<&str> = path.split(' ').skip(1).collect();
            for flag in ["--help", "-h"] {
                let out = sandbox
                    .cmd(program)
                    .env("COLUMNS", "40")
                    .args(&words)
                    .arg(flag)
                    .output()
                    .unwrap();
                assert_eq!(out.status.code(), Some(0), "{path} {flag}");
                let help = stdout(&out);
                for line in examples.lines() {
                    assert!(
                        help.lines().any(|l| l == line),
                        "{path} {flag}: example not verbatim: {line:?}\n{help}"
                    );
                }
                checked += 1;
            }
        });
    }
    assert!(checked > 40, "{checked}");
}

#[test]
fn a_mistyped_subcommand_or_flag_gets_did_you_mean_at_every_level() {
    let sandbox = Sandbox::new();
    for (program, args, meant) in [
        ("ollm", vec!["session", "lst"], "'l"),
        ("ollm-session", vec!["lst"], "'l"),
        ("ollm-session", vec!["list", "--limt", "3"], "'--limit'"),
        ("ollm", vec!["sesion", "list"], "'session'"),
        ("ollm", vec!["confg"], "'config'"),
        (
            "ollm-compress",
            vec!["check", "--token-limt", "3"],
            "'--token-limit'",
        ),
    ] {
        let out = sandbox.cmd(program).args(&args).output().unwrap();
        let err = stderr(&out);
        assert!(
            err.contains("did you mean") && err.contains(meant),
            "{program} {args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // A word that is neither a file nor a subcommand, close to a subcommand.
    let out = sandbox
        .cmd("ollm")
        .args(["compress", "chek"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(
        stderr(&out),
        "ollm-compress: chek: no such file; did you mean the subcommand 'check'? (try --help)\n"
    );
    let out = sandbox.cmd("ollm-loopcheck").arg("confg").output().unwrap();
    assert!(
        stderr(&out).contains("did you mean the subcommand 'config'"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn ollm_help_shows_its_own_commands_and_each_tools_subcommands() {
    let sandbox = Sandbox::new();
    let out = sandbox
        .cmd("ollm")
        .args(["help", "config"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Usage: ollm config"),
        "{}",
        stdout(&out)
    );
    let out = sandbox
        .cmd("ollm")
        .args(["help", "session", "list"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Usage: ollm-session list"),
        "{}",
        stdout(&out)
    );
    let out = sandbox
        .cmd("ollm")
        .args(["help", "compress"])
        .output()
        .unwrap();
    assert!(
        stdout(&out).contains("Usage: ollm-compress"),
        "{}",
        stdout(&out)
    );
    let out = sandbox.cmd("ollm").output().unwrap();
    assert!(stdout(&out).contains("Tools found:\n"), "{}", stdout(&out));
}

#[test]
fn ollm_completions_prints_the_checked_in_scripts() {
    let sandbox = Sandbox::new();
    for (args, file) in [
        (vec!["completions", "bash"], "completions/ollm.bash"),
        (vec!["completions", "zsh"], "completions/_ollm"),
        (
            vec!["completions", "fish", "session"],
            "completions/ollm-session.fish",
        ),
        (
            vec!["completions", "powershell", "ollm-env"],
            "completions/_ollm-env.ps1",
        ),
    ] {
        let out = sandbox.cmd("ollm").args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert_eq!(stdout(&out), repo_file(file), "{args:?}");
    }
    let out = sandbox
        .cmd("ollm")
        .args(["completions", "bash", "sesion"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stderr(&out).contains("did you mean 'session'"),
        "{}",
        stderr(&out)
    );
    let out = sandbox
        .cmd("ollm")
        .args(["completions", "tcsh"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn ollm_man_prints_every_checked_in_page() {
    let sandbox = Sandbox::new();
    let out = sandbox
        .cmd("ollm")
        .args(["man", "--list"])
        .output()
        .unwrap();
    let pages: Vec<String> = stdout(&out).lines().map(String::from).collect();
    let mut files: Vec<String> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/man"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().replace(".1", ""))
        .collect();
    files.sort();
    assert_eq!(pages, files);
    for (page, file) in [
        ("ollm", "man/ollm.1"),
        ("session-list", "man/ollm-session-list.1"),
        ("ollm-loopcheck", "man/ollm-loopcheck.1"),
    ] {
        let out = sandbox.cmd("ollm").args(["man", page]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{page}: {}", stderr(&out));
        assert_eq!(stdout(&out), repo_file(file), "{page}");
    }
    let out = sandbox
        .cmd("ollm")
        .args(["man", "sesion"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(
        stderr(&out),
        "ollm: no man page 'sesion'; did you mean 'session'?\n"
    );
}

#[test]
fn ollm_help_completes_the_tools_found_and_its_own_commands() {
    let sb = Sandbox::new();
    let out = sb
        .cmd("ollm")
        .env("COMPLETE", "fish")
        .args(["--", "ollm", "help", ""])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let offered: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    for name in ["session", "compress", "loopcheck", "config", "trust"] {
        assert!(offered.iter().any(|o| o == name), "{name}: {offered:?}");
    }
    let out = sb
        .cmd("ollm")
        .env("COMPLETE", "fish")
        .args(["--", "ollm", "help", "ses"])
        .output()
        .unwrap();
    assert_eq!(stdout(&out).trim(), "session");
}
