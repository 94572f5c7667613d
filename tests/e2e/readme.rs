//! Every command line of the README's `sh` blocks, run in order in a
//! sandbox (a temporary `OLLM_HOME`, a git work tree, our binaries on
//! PATH), so the README cannot drift from the programs.
//!
//! - A block is run when its fence says `sh`; `text` and other blocks never.
//! - `<!-- readme-test: skip (why) -->` just above a fence skips the block,
//!   saying why; `<!-- readme-test: model -->` runs it only with a model
//!   (`real_model()`: SKIPPED without one, a failure under `CI=true`).
//! - Placeholders (`history.json`, `$ID`, `./tool`) are bound by the setup
//!   of the block's `## ` section, in [`SETUPS`], run first in the same shell.
//! - Each command (a line, with its continuation lines, open quotes and
//!   `if … fi`) must exit 0; a failure names its README line.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::support::{Sandbox, real_model, stderr, stdout, test_path};

/// What the README says about running a block.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Mode {
    Run,
    Model,
    Skip(String),
}

/// One `sh` block: its section (the `## ` heading above it) and its
/// commands, each with the README line it starts on.
#[derive(Debug, Clone)]
struct Block {
    section: String,
    fence_line: usize,
    mode: Mode,
    commands: Vec<(usize, String)>,
}

/// Shell run before a section's blocks, in the work tree, with `$bin` (a
/// directory first on PATH) for stand-ins of the programs a command names
/// as an example of the user's own (`cargo test`, `npm test`, `llm`).
const SETUPS: &[(&str, &str)] = &[
    (
        "One turn, end to end",
        r#"BASE_PROMPT='You are a coding assistant.'
prompt='What does this project do?'
stub cargo 'echo "test result: ok. 1 passed"'
mkdir -p .ollm
plain_session 3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1b
cp -R "$README_EXAMPLES" examples"#,
    ),
    (
        "ollm-env",
        r#"printf '#!/bin/sh\necho "tool ran: $*"\n' > tool && chmod +x tool
printf '#!/bin/sh\necho deployed\n' > deploy && chmod +x deploy
stub npm 'echo "npm $*: ok"'
printf 'NODE_ENV=test\nAPI_BASE=http://127.0.0.1:9\n' > .env.test"#,
    ),
    (
        "ollm-loopcheck",
        r#"mkdir -p .ollm
stub agent-events "printf '%s\n' '{\"type\":\"turn\"}' '{\"type\":\"tool\",\"name\":\"ls\",\"args\":{}}'"
plain_session 3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1b"#,
    ),
    (
        "ollm-context",
        r"mkdir -p docs && echo '# The spec' > docs/spec.md
echo 'fn main() {}' > main.rs && git add main.rs",
    ),
    ("ollm-session", r"echo '# A project' > README.md"),
    (
        "Sessions from other agent CLIs",
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
        "ollm-discover",
        r"mkdir -p src && echo 'fn main() {}' > src/main.rs && echo 'target/' > .gitignore",
    ),
    (
        "ollm-compress",
        r#"ID=$(ollm session create --model llama3.2:3b --provider ollama | jq -r .sessionId)
ollm session record "$ID" --role user --text 'What does this project do?' >/dev/null
ollm session record "$ID" --role assistant --text 'It is a small Rust program.' >/dev/null
ollm session get "$ID" --messages > history.json
stub llm 'cat >/dev/null; echo "Goal: explain the project."'"#,
    ),
];

/// Helpers every setup may use.
const PRELUDE: &str = r#"set -o pipefail
stub() { printf '#!/bin/sh\n%s\n' "$2" > "$bin/$1" && chmod +x "$bin/$1"; }
plain_session() {
  mkdir -p "$OLLM_HOME/session-data"
  sed "s/550e8400-e29b-41d4-a716-446655440000/$1/" "$README_FIXTURE" > "$OLLM_HOME/session-data/$1.json"
}
git init -q . && git config user.email t@example.com && git config user.name t
"#;

fn readme_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("README.md")
}

/// The `sh` blocks of `text`, with their modes and commands.
fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut section = String::new();
    let mut marker: Option<Mode> = None;
    let mut current: Option<(Block, Vec<(usize, String)>)> = None;
    let mut in_other_fence = false;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if in_other_fence {
            in_other_fence = !line.trim_start().starts_with("```");
            continue;
        }
        if let Some((block, lines)) = current.as_mut() {
            if line.trim_start().starts_with("```") {
                block.commands = commands(lines);
                out.push(block.clone());
                current = None;
            } else {
                lines.push((number, line.to_string()));
            }
            continue;
        }
        if let Some(heading) = line.strip_prefix("## ") {
            section = heading.trim().to_string();
        }
        let trimmed = line.trim();
        if let Some(rest) = trimmed.strip_prefix("<!-- readme-test:") {
            let rest = rest.trim_end_matches("-->").trim();
            marker = Some(if rest == "model" {
                Mode::Model
            } else if let Some(why) = rest.strip_prefix("skip") {
                Mode::Skip(why.trim().trim_matches(['(', ')']).to_string())
            } else {
                panic!("README.md:{number}: unknown readme-test marker {trimmed:?}")
            });
            continue;
        }
        if let Some(lang) = trimmed.strip_prefix("```") {
            let mode = marker.take().unwrap_or(Mode::Run);
            if lang.trim() == "sh" {
                let block = Block {
                    section: section.clone(),
                    fence_line: number,
                    mode,
                    commands: Vec::new(),
                };
                current = Some((block, Vec::new()));
            } else {
                in_other_fence = true;
            }
            continue;
        }
        if !trimmed.is_empty() {
            marker = None;
        }
    }
    out
}

/// Groups a block's lines into commands: a line with its `\` continuations,
/// the lines a pipe or `&&`/`||` at their start continues, lines inside an
/// open quote, and `if`/`for`/`while`/`case` up to their end. Blank and
/// comment-only lines between commands are left out.
fn commands(lines: &[(usize, String)]) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut open = false;
    for (i, (number, line)) in lines.iter().enumerate() {
        let trimmed = line.trim();
        let continues = line.trim_end().ends_with('\\');
        let piped_next = lines.get(i + 1).is_some_and(|(_, next)| {
            let next = next.trim_start();
            next.starts_with('|') || next.starts_with("&&")
        });
        if open {
            let (_, text) = out.last_mut().expect("an open command");
            text.push('\n');
            text.push_str(line);
        } else if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        } else {
            out.push((*number, line.clone()));
        }
        let (_, text) = out.last().expect("a command");
        let scan = scan(text);
        open = continues || piped_next || scan.in_quote || scan.depth > 0;
    }
    out
}

struct Scan {
    in_quote: bool,
    depth: i32,
}

/// Whether `text` ends inside a quote, and how many compound commands it
/// leaves open (words outside quotes and comments).
fn scan(text: &str) -> Scan {
    let mut single = false;
    let mut double = false;
    let mut depth = 0;
    let mut word = String::new();
    let mut chars = text.chars().peekable();
    let mut at_word_start = true;
    let finish = |word: &mut String, depth: &mut i32| {
        match word.as_str() {
            "if" | "for" | "while" | "until" | "case" => *depth += 1,
            "fi" | "done" | "esac" => *depth -= 1,
            _ => {}
        }
        word.clear();
    };
    while let Some(c) = chars.next() {
        if single {
            single = c != '\'';
            continue;
        }
        if c == '\\' {
            chars.next();
            continue;
        }
        if double {
            double = c != '"';
            continue;
        }
        match c {
            '\'' => single = true,
            '"' => double = true,
            '#' if at_word_start => {
                // A comment: skip to the end of the line.
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
                finish(&mut word, &mut depth);
                at_word_start = true;
                continue;
            }
            c if c.is_whitespace() || c == ';' => {
                finish(&mut word, &mut depth);
                at_word_start = true;
                continue;
            }
            c => word.push(c),
        }
        at_word_start = false;
    }
    finish(&mut word, &mut depth);
    Scan {
        in_quote: single || double,
        depth,
    }
}

/// The shell script for a block: the prelude, the section's setup, then
/// each command followed by a check that names its README line.
fn script(block: &Block) -> String {
    let mut script = String::from(PRELUDE);
    script.push_str(
        "readme_at=setup\n\
         readme_check() { [ \"$1\" -eq 0 ] && return 0; \
         echo \"readme-test: README.md:$readme_at exited $1\" >&2; trap - EXIT; exit 99; }\n\
         trap 'readme_rc=$?; [ $readme_rc -eq 0 ] || echo \"readme-test: README.md:$readme_at exited $readme_rc\" >&2' EXIT\n",
    );
    if let Some((_, setup)) = SETUPS.iter().find(|(name, _)| *name == block.section) {
        for line in setup.lines() {
            script.push_str(line);
            script.push_str("\nreadme_check $?\n");
        }
    }
    for (number, command) in &block.commands {
        script.push_str(&format!("readme_at={number}\n{command}\nreadme_check $?\n"));
    }
    script
}

/// Runs a block; Err names the README line that failed and shows its output.
fn run(block: &Block, model_url: Option<&str>) -> Result<(), String> {
    let sandbox = Sandbox::new();
    let bin = sandbox.home.join("bin");
    std::fs::create_dir_all(&bin).expect("stub dir");
    let script_path = sandbox.home.join("block.sh");
    std::fs::write(&script_path, script(block)).expect("write the script");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut path = format!("{}:{}", bin.display(), test_path());
    if model_url.is_some() {
        // `python3` is the fresh environment's, with the ollm-tools wheel
        // installed, as after the README's `pip install ollm-tools`.
        if let Some(installed) = crate::package_python::installed() {
            path = format!(
                "{}:{}/bin:{}",
                bin.display(),
                installed.venv.display(),
                test_path()
            );
        }
    }
    let mut cmd = sandbox.program("bash");
    cmd.arg(&script_path)
        .env("PATH", path)
        .env("bin", &bin)
        .env("README_EXAMPLES", root.join("examples"))
        .env(
            "README_FIXTURE",
            root.join("tests/fixtures/spec-example-session.json"),
        )
        // Closed at once: `discover watch` ends, an interactive agent reads no turn.
        .write_stdin("")
        .timeout(Duration::from_secs(if model_url.is_some() {
            1800
        } else {
            120
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
    let problem = match (&failed_at, out.status.success()) {
        (Some(what), _) => Some(what.clone()),
        (None, false) => Some(format!(
            "README.md:{}: the block ended with {:?}",
            block.fence_line,
            out.status.code()
        )),
        (None, true) if err.contains("panicked") => Some(format!(
            "README.md:{}: a program panicked",
            block.fence_line
        )),
        (None, true) => None,
    };
    let Some(problem) = problem else {
        return Ok(());
    };
    let line: Option<usize> = problem
        .strip_prefix("README.md:")
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok());
    let command = block
        .commands
        .iter()
        .find(|(number, _)| Some(*number) == line)
        .map_or_else(
            || format!("the setup of section {:?}", block.section),
            |(_, text)| text.lines().next().unwrap_or("").trim().to_string(),
        );
    Err(format!(
        "{problem}: `{command}` (section {:?}; setups are in tests/e2e/readme.rs SETUPS)\n\
         --- stdout ---\n{}\n--- stderr ---\n{err}",
        block.section,
        tail(&stdout(&out)),
    ))
}

fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(20)..].join("\n")
}

fn readme_blocks() -> Vec<Block> {
    let text = std::fs::read_to_string(readme_path()).expect("read README.md");
    blocks(&text)
}

fn run_all(blocks: &[Block], model_url: Option<&str>) {
    let mut failures = Vec::new();
    for block in blocks {
        if let Err(failure) = run(block, model_url) {
            failures.push(failure);
        }
    }
    assert!(
        failures.is_empty(),
        "{} README block(s) failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn every_command_line_of_the_readme_runs() {
    let blocks = readme_blocks();
    for block in &blocks {
        if let Mode::Skip(why) = &block.mode {
            eprintln!("readme: not run: README.md:{} ({why})", block.fence_line);
        }
    }
    let runnable: Vec<Block> = blocks.into_iter().filter(|b| b.mode == Mode::Run).collect();
    // Each program's examples and the one-turn pipe are among them, so a
    // broken marker or fence cannot quietly leave a section untested.
    for section in [
        "One turn, end to end",
        "ollm-env",
        "ollm-loopcheck",
        "ollm-context",
        "ollm-session",
        "ollm-discover",
        "ollm-compress",
    ] {
        assert!(
            runnable.iter().any(|b| b.section == section),
            "no runnable sh block in the README's section {section:?}"
        );
    }
    run_all(&runnable, None);
}

#[test]
fn the_readme_agent_command_lines_run_with_a_model() {
    let blocks: Vec<Block> = readme_blocks()
        .into_iter()
        .filter(|b| b.mode == Mode::Model)
        .collect();
    assert!(
        !blocks.is_empty(),
        "the README shows the agents with a model"
    );
    let Some(url) = real_model() else { return };
    // The Python agent needs the client (package_python.rs makes the wheel).
    if crate::package_python::installed().is_none() {
        return;
    }
    run_all(&blocks, Some(&url));
}

#[test]
fn blocks_are_found_with_their_markers_and_commands() {
    let text = "## A\n\n<!-- readme-test: skip (installs) -->\n```sh\ncargo install\n```\n\n\
                ```text\nnot a command\n```\n\n## B\n<!-- readme-test: model -->\n```sh\nagent one\n```\n\
                ```sh\nx=$(a | b)  # why\n# a comment\nif c\nthen d\nfi\nprintf 'a' \\\n  | e || exit 1\n\
                s=\"one\n$(two)\"\nf\n```\n";
    let found = blocks(text);
    assert_eq!(found.len(), 3, "{found:?}");
    assert_eq!(found[0].mode, Mode::Skip("installs".into()));
    assert_eq!(found[0].section, "A");
    assert_eq!(found[1].mode, Mode::Model);
    assert_eq!(found[1].section, "B");
    assert_eq!(found[2].mode, Mode::Run);
    let starts: Vec<usize> = found[2].commands.iter().map(|(n, _)| *n).collect();
    let texts: Vec<&str> = found[2].commands.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(starts, [18, 20, 23, 25, 27], "{texts:?}");
    assert_eq!(texts[1], "if c\nthen d\nfi");
    assert_eq!(texts[2], "printf 'a' \\\n  | e || exit 1");
    assert_eq!(texts[3], "s=\"one\n$(two)\"");
}

#[test]
fn a_failing_readme_command_names_its_line() {
    let block = Block {
        section: "none".into(),
        fence_line: 10,
        mode: Mode::Run,
        commands: vec![
            (11, "echo fine".into()),
            (12, "ollm-session get --last".into()),
            (13, "echo never".into()),
        ],
    };
    let err = run(&block, None).unwrap_err();
    assert!(
        err.starts_with("README.md:12 exited 3: `ollm-session get --last`"),
        "{err}"
    );
}
