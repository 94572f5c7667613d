//! Runs the `sh` blocks of each page: the page's blocks in order, in one
//! shell, in a sandbox of its own (a temporary `OLLM_HOME`, `HOME`,
//! `TMPDIR` and git work tree, our binaries on PATH), as a reader pastes
//! them into one terminal; in bash, in zsh without its rc files (`zsh -f`,
//! macOS's shell as it starts), whose word splitting, globbing and
//! variables differ, and in dash (Debian's `/bin/sh`), which has nothing
//! beyond POSIX: a block that needs more says which shell it is for
//! (`<!-- readme-test: only bash (why) -->`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::blocks::{Block, Mode};
use super::pages;
use crate::support::{Sandbox, real_model, stderr, stdout, test_path};

/// Shell run before a page's blocks (section "") or before the first block
/// of one of its `## ` sections, in the work tree, with `$bin` (a
/// directory first on PATH) for stand-ins of the programs a command names
/// as an example of the user's own (`cargo test`, `npm test`, `llm`).
const SETUPS: &[(&str, &str, &str)] = &[
    // The tour needs no JSON tool: `jq` fails as where it is not installed.
    // Not in the run with a model: the agent in a loop is examples/agent.sh,
    // which says it needs jq.
    (
        "README.md",
        "",
        r#"cp -R "$README_EXAMPLES" examples
[ -n "${AGENT_MODEL_URL:-}" ] || stub jq 'echo "jq: command not found" >&2; exit 127'"#,
    ),
    (
        "docs/agents.md",
        "",
        r#"stub cargo 'echo "test result: ok. 1 passed"'
mkdir -p .ollm
plain_session 3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1b
cp -R "$README_EXAMPLES" examples"#,
    ),
    (
        "docs/ollm-env.md",
        "",
        r#"printf '#!/bin/sh\necho "tool ran: $*"\n' > tool && chmod +x tool
printf '#!/bin/sh\necho deployed\n' > deploy && chmod +x deploy
stub npm 'echo "npm $*: ok"'
printf 'NODE_ENV=test\nAPI_BASE=http://127.0.0.1:9\n' > .env.test"#,
    ),
    (
        "docs/ollm-loopcheck.md",
        "",
        r#"mkdir -p .ollm
stub agent-events "printf '%s\n' '{\"type\":\"turn\"}' '{\"type\":\"tool\",\"name\":\"ls\",\"args\":{}}'"
plain_session 3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1b"#,
    ),
    (
        "docs/ollm-context.md",
        "",
        r"mkdir -p docs && echo '# The spec' > docs/spec.md
echo 'fn main() {}' > main.rs && git add main.rs",
    ),
    (
        "docs/ollm-session.md",
        "",
        r"echo '# A project' > README.md",
    ),
    (
        "docs/import.md",
        "",
        r#"claude_line() { printf '{"parentUuid":%s,"cwd":"%s","sessionId":"%s","type":"%s","uuid":"%s","timestamp":"2026-02-03T10:00:0%sZ","message":%s}\n' "$@"; }
claude_session() {
  mkdir -p "$1"
  { claude_line null "$PWD" "$2" user "$2-1" 1 '{"role":"user","content":"why do the tests fail?"}'
    claude_line "\"$2-1\"" "$PWD" "$2" assistant "$2-2" 2 '{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"The retry test times out."}]}'
  } > "$1/$2.jsonl"
}
claude_session "$HOME/.claude/projects/-work" 0a8b1c2d-0000-4000-8000-000000000001
claude_session "$HOME/backup/claude" 0a8b1c2d-0000-4000-8000-000000000002"#,
    ),
    (
        "docs/ollm-discover.md",
        "",
        r"mkdir -p src && echo 'fn main() {}' > src/main.rs && echo 'target/' > .gitignore",
    ),
    (
        "docs/ollm-compress.md",
        "",
        r#"ID=$(ollm session create --model llama3.2:3b --provider ollama | jq -r .sessionId)
ollm session record "$ID" --role user --text 'What does this project do?' >/dev/null
ollm session record "$ID" --role assistant --text 'It is a small Rust program.' >/dev/null
ollm session get "$ID" --messages > history.json
stub llm 'cat >/dev/null; echo "Goal: explain the project."'"#,
    ),
];

/// Helpers every setup may use.
// dash 0.5.12 has no pipefail: a failure inside a pipe is caught by the
// bash and zsh runs.
const PRELUDE: &str = r#"(set -o pipefail) 2>/dev/null && set -o pipefail
stub() { printf '#!/bin/sh\n%s\n' "$2" > "$bin/$1" && chmod +x "$bin/$1"; }
plain_session() {
  mkdir -p "$OLLM_HOME/session-data"
  sed "s/550e8400-e29b-41d4-a716-446655440000/$1/" "$README_FIXTURE" > "$OLLM_HOME/session-data/$1.json"
}
git init -q . && git config user.email t@example.com && git config user.name t
"#;

fn setup(page: &str, section: &str) -> Option<&'static str> {
    SETUPS
        .iter()
        .find(|(p, s, _)| *p == page && *s == section)
        .map(|(_, _, setup)| *setup)
}

/// The shell script for a page's blocks: the prelude, the page's setup,
/// then each block, a section's setup before its first block, each command
/// followed by a check that names its page and line.
pub(super) fn script(page: &str, blocks: &[&Block]) -> String {
    let mut script = String::from(PRELUDE);
    script.push_str(&format!(
        "readme_at=setup\n\
         readme_check() {{ [ \"$1\" -eq 0 ] && return 0; \
         echo \"readme-test: {page}:$readme_at exited $1\" >&2; trap - EXIT; exit 99; }}\n\
         trap 'readme_rc=$?; [ $readme_rc -eq 0 ] || echo \"readme-test: {page}:$readme_at exited $readme_rc\" >&2' EXIT\n",
    ));
    let push_setup = |script: &mut String, setup: &str| {
        for line in setup.lines() {
            script.push_str(line);
            script.push_str("\nreadme_check $?\n");
        }
    };
    if let Some(setup) = setup(page, "") {
        push_setup(&mut script, setup);
    }
    let mut sections_set_up: Vec<&str> = Vec::new();
    for block in blocks {
        if !block.section.is_empty() && !sections_set_up.contains(&block.section.as_str()) {
            sections_set_up.push(&block.section);
            if let Some(setup) = setup(page, &block.section) {
                script.push_str("readme_at=setup\n");
                push_setup(&mut script, setup);
            }
        }
        for (number, command) in &block.commands {
            script.push_str(&format!("readme_at={number}\n{command}\nreadme_check $?\n"));
        }
    }
    script
}

/// The shells a page runs in: the program and its arguments before the
/// script's path.
const SHELLS: &[(&str, &[&str])] = &[("bash", &[]), ("zsh", &["-f"]), ("dash", &[])];

/// The shells of [`SHELLS`] this machine has; a missing one is SKIPPED
/// visibly, and fails under `CI=true` (CI installs zsh and dash).
pub(super) fn shells() -> Vec<(&'static str, &'static [&'static str])> {
    SHELLS
        .iter()
        .copied()
        .filter(|(shell, _)| {
            let found = std::process::Command::new(shell)
                .args(["-c", "true"])
                .status()
                .is_ok_and(|s| s.success());
            if !found {
                let why =
                    format!("no `{shell}` to run the pages' blocks in (apt-get install {shell})");
                assert!(
                    std::env::var("CI").as_deref() != Ok("true"),
                    "CI=true and {why}"
                );
                eprintln!("SKIPPED: {why}");
            }
            found
        })
        .collect()
}

/// Runs a page's blocks in one shell; Err names the shell and the line
/// that failed and shows its output.
fn run(page: &str, blocks: &[&Block], model_url: Option<&str>) -> Result<(), String> {
    for (shell, args) in shells() {
        // The pages with a model's blocks take minutes a shell; their
        // other blocks already ran in dash without the model.
        if model_url.is_some() && shell == "dash" {
            continue;
        }
        let for_shell: Vec<&Block> = blocks
            .iter()
            .copied()
            .filter(|b| b.only.as_ref().is_none_or(|only| only == shell))
            .collect();
        run_in(shell, args, page, &for_shell, model_url).map_err(|e| format!("in {shell}: {e}"))?;
    }
    Ok(())
}

/// A sandbox holding a page's script, with the directories its blocks use:
/// `bin` for the setups' stand-ins (first on PATH) and a `TMPDIR`.
pub(super) struct Staged {
    sandbox: Sandbox,
    pub bin: PathBuf,
    pub script: PathBuf,
    tmp: PathBuf,
}

/// A new sandbox with the script of `page`'s `blocks` written into it.
pub(super) fn stage(page: &str, blocks: &[&Block]) -> Staged {
    let sandbox = Sandbox::new();
    let bin = sandbox.home.join("bin");
    let tmp = sandbox.home.join("tmp");
    std::fs::create_dir_all(&bin).expect("stub dir");
    std::fs::create_dir_all(&tmp).expect("TMPDIR");
    let script = sandbox.home.join("page.sh");
    std::fs::write(&script, self::script(page, blocks)).expect("write the script");
    Staged {
        sandbox,
        bin,
        script,
        tmp,
    }
}

impl Staged {
    /// `program` in the sandbox with `path` as PATH and what the setups
    /// read: `bin`, `TMPDIR`, the examples and the spec's example session.
    pub(super) fn command(&self, program: &str, path: String) -> assert_cmd::Command {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut cmd = self.sandbox.program(program);
        cmd.env("PATH", path)
            .env("bin", &self.bin)
            .env("TMPDIR", &self.tmp)
            .env("README_EXAMPLES", root.join("examples"))
            .env(
                "README_FIXTURE",
                root.join("tests/fixtures/spec-example-session.json"),
            );
        cmd
    }
}

fn run_in(
    shell: &str,
    args: &[&str],
    page: &str,
    blocks: &[&Block],
    model_url: Option<&str>,
) -> Result<(), String> {
    let staged = stage(page, blocks);
    let bin = &staged.bin;
    let mut path = format!("{}:{}", bin.display(), test_path());
    if model_url.is_some() {
        // `python3` is the fresh environment's, with the ollm-tools wheel
        // installed, as after `pip install ollm-tools` (docs/python.md).
        if let Some(installed) = crate::package_python::installed() {
            path = format!(
                "{}:{}/bin:{}",
                bin.display(),
                installed.venv.display(),
                test_path()
            );
        }
    }
    let mut cmd = staged.command(shell, path);
    cmd.args(args)
        .arg(&staged.script)
        // Closed at once: `discover watch` ends, an interactive agent reads no turn.
        .write_stdin("")
        .timeout(Duration::from_secs(if model_url.is_some() {
            1800
        } else {
            300
        }));
    if let Some(url) = model_url {
        // One tool call and one answer per turn, whatever the model says
        // (as tests/e2e/examples.rs runs them): a small model cannot wander
        // into a loop, and each turn is two short model calls.
        cmd.env("AGENT_MODEL_URL", url)
            .env("AGENT_LOOK_FIRST", "1")
            .env("AGENT_MAX_STEPS", "2")
            .env("AGENT_MAX_TOKENS", "96");
    }
    let out = cmd.output().expect("run bash");
    let err = stderr(&out);
    let failed_at = err
        .lines()
        .find_map(|l| l.strip_prefix("readme-test: "))
        .map(str::to_string);
    let last_fence = blocks.last().map_or(0, |b| b.fence_line);
    let problem = match (&failed_at, out.status.success()) {
        (Some(what), _) => Some(what.clone()),
        (None, false) => Some(format!(
            "{page}:{last_fence}: the page's blocks ended with {:?}",
            out.status.code()
        )),
        (None, true) if err.contains("panicked") => Some(format!("{page}: a program panicked")),
        (None, true) => None,
    };
    let Some(problem) = problem else {
        return Ok(());
    };
    let line: Option<usize> = problem
        .strip_prefix(&format!("{page}:"))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok());
    let (section, command) = blocks
        .iter()
        .flat_map(|b| b.commands.iter().map(move |c| (b, c)))
        .find(|(_, (number, _))| Some(*number) == line)
        .map_or_else(
            || ("".to_string(), "a setup".to_string()),
            |(b, (_, text))| {
                (
                    b.section.clone(),
                    text.lines().next().unwrap_or("").trim().to_string(),
                )
            },
        );
    Err(format!(
        "{problem}: `{command}` (section {section:?}; setups are in tests/e2e/readme/run.rs SETUPS)\n\
         --- stdout ---\n{}\n--- stderr ---\n{err}",
        tail(&stdout(&out)),
    ))
}

fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(20)..].join("\n")
}

/// Runs each page's blocks that `wanted` picks, a page at a time; fails
/// listing every page that failed.
fn run_pages(wanted: impl Fn(&[Block]) -> Vec<&Block>, model_url: Option<&str>) {
    let mut failures = Vec::new();
    for (page, blocks) in pages() {
        let chosen = wanted(&blocks);
        if chosen.is_empty() {
            continue;
        }
        if let Err(failure) = run(&page, &chosen, model_url) {
            failures.push(failure);
        }
    }
    assert!(
        failures.is_empty(),
        "{} page(s) failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn every_command_line_of_the_readme_and_the_docs_runs() {
    let all = pages();
    for (_, blocks) in &all {
        for block in blocks {
            if let Mode::Skip(why) = &block.mode {
                eprintln!(
                    "readme: not run: {}:{} ({why})",
                    block.page, block.fence_line
                );
            }
        }
    }
    // Each program's examples, the tour and the one-turn pipe are among
    // them, so a broken marker or fence cannot quietly leave a page untested.
    for page in [
        "README.md",
        "docs/agents.md",
        "docs/conventions.md",
        "docs/ollm.md",
        "docs/ollm-env.md",
        "docs/ollm-loopcheck.md",
        "docs/ollm-context.md",
        "docs/ollm-session.md",
        "docs/ollm-discover.md",
        "docs/ollm-compress.md",
        "docs/ollm-mcp.md",
        "docs/import.md",
        "docs/security.md",
    ] {
        assert!(
            all.iter()
                .any(|(p, blocks)| p == page && blocks.iter().any(|b| b.mode == Mode::Run)),
            "no runnable sh block in {page}"
        );
    }
    run_pages(
        |blocks| blocks.iter().filter(|b| b.mode == Mode::Run).collect(),
        None,
    );
}

#[test]
fn the_readme_and_docs_agent_command_lines_run_with_a_model() {
    let with_model: Vec<String> = pages()
        .into_iter()
        .filter(|(_, blocks)| blocks.iter().any(|b| b.mode == Mode::Model))
        .map(|(page, _)| page)
        .collect();
    for page in ["README.md", "docs/agents.md"] {
        assert!(
            with_model.iter().any(|p| p == page),
            "{page} shows the agents with a model"
        );
    }
    let Some(url) = real_model() else { return };
    // The Python agent needs the client (package_python.rs makes the wheel).
    let python = crate::package_python::installed().is_some();
    // A page with a model block runs whole, in order: its blocks before
    // the model's prepare what the model's blocks use (the tour's session,
    // its directory).
    run_pages(
        |blocks| {
            let uses_python = blocks.iter().any(|b| {
                b.mode == Mode::Model && b.commands.iter().any(|(_, c)| c.contains("agent.py"))
            });
            if !blocks.iter().any(|b| b.mode == Mode::Model) || (uses_python && !python) {
                return Vec::new();
            }
            blocks
                .iter()
                .filter(|b| matches!(b.mode, Mode::Run | Mode::Model))
                .collect()
        },
        Some(&url),
    );
}

#[test]
fn a_failing_command_names_its_page_and_line() {
    let block = Block {
        page: "docs/x.md".into(),
        section: "none".into(),
        fence_line: 10,
        mode: Mode::Run,
        commands: vec![
            (11, "echo fine".into()),
            (12, "ollm-session get --last".into()),
            (13, "echo never".into()),
        ],
        ..Block::default()
    };
    let err = run("docs/x.md", &[&block], None).unwrap_err();
    assert!(
        err.starts_with("in bash: docs/x.md:12 exited 3: `ollm-session get --last`"),
        "{err}"
    );
}

#[test]
fn a_page_runs_in_one_shell_so_its_blocks_build_on_each_other() {
    let first = Block {
        page: "docs/x.md".into(),
        section: "".into(),
        fence_line: 1,
        mode: Mode::Run,
        commands: vec![(2, "cd \"$(mktemp -d)\" && tour=here".into())],
        ..Block::default()
    };
    let second = Block {
        fence_line: 5,
        commands: vec![(
            6,
            "[ \"$tour\" = here ] && case $PWD in \"$TMPDIR\"/*) ;; *) false ;; esac".into(),
        )],
        ..first.clone()
    };
    run("docs/x.md", &[&first, &second], None).unwrap();
}

#[test]
fn a_page_runs_in_zsh_too_where_words_split_otherwise() {
    if !shells().iter().any(|(shell, _)| *shell == "zsh") {
        return;
    }
    // bash splits an unquoted variable into words; zsh does not.
    let block = Block {
        page: "docs/x.md".into(),
        fence_line: 1,
        commands: vec![(2, "files='a b'; set -- $files; [ $# -eq 2 ]".into())],
        ..Block::default()
    };
    let err = run("docs/x.md", &[&block], None).unwrap_err();
    assert!(err.starts_with("in zsh: docs/x.md:2 exited 1"), "{err}");
}

#[test]
fn a_page_runs_in_dash_too_where_only_posix_is_understood() {
    assert!(SHELLS.iter().any(|(shell, _)| *shell == "dash"));
    if !shells().iter().any(|(shell, _)| *shell == "dash") {
        return;
    }
    // `[[ … ]]` is bash's and zsh's, not POSIX.
    let block = Block {
        page: "docs/x.md".into(),
        fence_line: 1,
        commands: vec![(2, "[[ -n x ]]".into())],
        ..Block::default()
    };
    let err = run("docs/x.md", &[&block], None).unwrap_err();
    assert!(err.starts_with("in dash: docs/x.md:2 exited"), "{err}");
    let for_bash = Block {
        only: Some("bash".into()),
        ..block
    };
    run("docs/x.md", &[&for_bash], None).unwrap();
}
