//! `ollm-session` for a person at a terminal (issue 12): referring to a
//! session by id prefix, title, `--last` and `--here` on every command that
//! takes one; rename; list filters; title search; large tool results from
//! files and stdin.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::{Sandbox, assert_one_line_error, json, stderr, stdout};

struct Two {
    sb: Sandbox,
    /// Made in `repo/` (a git work tree), titled "alpha", older.
    alpha: String,
    /// Made in `other/`, untitled, the latest.
    beta: String,
    repo_sub: PathBuf,
}

fn session(sb: &Sandbox, dir: &Path, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = sb.cmd("ollm-session");
    cmd.current_dir(dir).args(args);
    cmd
}

fn ok(mut cmd: assert_cmd::Command) -> std::process::Output {
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    out
}

fn create_in(sb: &Sandbox, dir: &Path, title: Option<&str>) -> String {
    let mut args = vec!["create", "--model", "m1", "--provider", "p"];
    if let Some(title) = title {
        args.extend(["--title", title]);
    }
    let out = ok(session(sb, dir, &args));
    json(&out)["sessionId"].as_str().unwrap().to_string()
}

fn two() -> Two {
    let sb = Sandbox::new();
    let repo = sb.work.join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    let repo_sub = repo.join("src/deep");
    std::fs::create_dir_all(&repo_sub).unwrap();
    let other = sb.work.join("other");
    std::fs::create_dir_all(&other).unwrap();
    let alpha = create_in(&sb, &repo_sub, Some("alpha"));
    ok(session(
        &sb,
        &repo,
        &["record", &alpha, "--role", "user", "--text", "first words"],
    ));
    std::thread::sleep(std::time::Duration::from_millis(5));
    let beta = create_in(&sb, &other, None);
    ok(session(
        &sb,
        &other,
        &["record", &beta, "--role", "user", "--text", "beta words"],
    ));
    Two {
        sb,
        alpha,
        beta,
        repo_sub,
    }
}

/// The session a command acted on, from its JSON output.
fn acted_on(out: &std::process::Output) -> String {
    let text = stdout(out);
    let first = text.lines().next().unwrap_or_default();
    let value: Value = serde_json::from_str(first)
        .or_else(|_| serde_json::from_str(&text))
        .unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    for key in ["sessionId", "parentSessionId"] {
        if let Some(id) = value.get(key).and_then(Value::as_str) {
            if key == "sessionId" && value.get("parentSessionId").is_some() {
                continue;
            }
            return id.to_string();
        }
    }
    if let Some(id) = value["deleted"][0].as_str() {
        return id.to_string();
    }
    panic!("no session id in {text}")
}

#[test]
fn every_command_taking_an_id_takes_a_prefix_a_title_last_and_here() {
    // (arguments before the reference, arguments after it)
    let commands: &[(&[&str], &[&str])] = &[
        (&["get"], &[]),
        (&["export"], &[]),
        (&["record"], &["--role", "user", "--text", "hi"]),
        (&["branch"], &["--at", "0", "--title", "b"]),
        (&["snapshot", "create"], &[]),
        (&["rename"], &["renamed"]),
    ];
    for (before, after) in commands {
        // A fresh pair each time: branch makes new (latest) sessions.
        let t = two();
        let prefix = &t.alpha[..8];
        let forms: [(Vec<&str>, &str, &Path); 4] = [
            (vec!["--last"], &t.beta, &t.sb.work),
            (vec!["--here"], &t.alpha, &t.repo_sub),
            (vec![prefix], &t.alpha, &t.sb.work),
            (vec!["alpha"], &t.alpha, &t.sb.work),
        ];
        for (reference, expected, dir) in forms {
            let args: Vec<&str> = before
                .iter()
                .chain(&reference)
                .chain(after.iter())
                .copied()
                .collect();
            let out = ok(session(&t.sb, dir, &args));
            assert_eq!(&acted_on(&out), expected, "{args:?}");
            if before == &["rename"] {
                // Put the titles back for the next forms.
                if expected == t.beta {
                    ok(session(&t.sb, dir, &["rename", &t.beta, "--clear"]));
                } else {
                    ok(session(&t.sb, dir, &["rename", expected, "alpha"]));
                }
            }
        }
    }
    // Listings by reference: branches and snapshots of alpha.
    let t = two();
    let prefix = &t.alpha[..8];
    ok(session(&t.sb, &t.sb.work, &["snapshot", "create", "alpha"]));
    for (reference, dir) in [
        (prefix, &t.sb.work),
        ("alpha", &t.sb.work),
        ("--here", &t.repo_sub),
    ] {
        let out = ok(session(&t.sb, dir, &["snapshot", "list", reference]));
        assert_eq!(json(&out)[0]["sessionId"], t.alpha.as_str(), "{reference}");
    }
    ok(session(
        &t.sb,
        &t.sb.work,
        &["branch", prefix, "--at", "1", "--title", "b"],
    ));
    for reference in [prefix, "alpha"] {
        let out = ok(session(&t.sb, &t.sb.work, &["branches", reference]));
        assert_eq!(json(&out)[0]["parentSessionId"], t.alpha.as_str());
    }
    // delete (and its alias remove).
    let out = ok(session(&t.sb, &t.sb.work, &["remove", &t.beta[..5]]));
    assert_eq!(json(&out)["deleted"][0], t.beta.as_str());
    let out = ok(session(&t.sb, &t.sb.work, &["delete", "alpha"]));
    assert_eq!(json(&out)["deleted"][0], t.alpha.as_str());
    let out = ok(session(&t.sb, &t.sb.work, &["rm", "--last"]));
    assert_eq!(json(&out)["deleted"].as_array().unwrap().len(), 1);
}

#[test]
fn an_ambiguous_prefix_lists_the_candidates_and_exits_2() {
    let sb = Sandbox::new();
    let data = sb.ollm_home.join("session-data");
    std::fs::create_dir_all(&data).unwrap();
    let spec = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spec-example-session.json"),
    )
    .unwrap();
    let ids = [
        "abcd0000-0000-4000-8000-000000000001",
        "abcd1111-0000-4000-8000-000000000002",
    ];
    for id in ids {
        let text = spec.replace("550e8400-e29b-41d4-a716-446655440000", id);
        std::fs::write(data.join(format!("{id}.json")), text).unwrap();
    }
    let out = sb
        .cmd("ollm-session")
        .args(["get", "abcd"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_one_line_error(&out, "ollm-session");
    for id in ids {
        assert!(stderr(&out).contains(id), "{}", stderr(&out));
    }
    // One more character settles it; fewer than four is refused.
    let out = ok({
        let mut c = sb.cmd("ollm-session");
        c.args(["get", "abcd1"]);
        c
    });
    assert_eq!(json(&out)["sessionId"], ids[1]);
    let out = sb
        .cmd("ollm-session")
        .args(["get", "abc"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("at least 4"), "{}", stderr(&out));
    let out = sb
        .cmd("ollm-session")
        .args(["get", "ffff"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_one_line_error(&out, "ollm-session");
}

#[test]
fn rename_changes_the_title_list_shows_and_search_finds() {
    let t = two();
    let out = ok(session(
        &t.sb,
        &t.sb.work,
        &["rename", &t.beta[..6], "Parser Fix"],
    ));
    let renamed = json(&out);
    assert_eq!(renamed["sessionId"], t.beta.as_str());
    assert_eq!(renamed["previousTitle"], Value::Null);
    assert_eq!(renamed["title"], "Parser Fix");
    let list = json(&ok(session(&t.sb, &t.sb.work, &["list"])));
    assert_eq!(list[0]["title"], "Parser Fix");
    // Renaming is not activity: beta stays where it was.
    assert_eq!(list[0]["sessionId"], t.beta.as_str());
    let hits = json(&ok(session(&t.sb, &t.sb.work, &["search", "parser", "-i"])));
    assert_eq!(hits[0]["role"], "title");
    assert_eq!(hits[0]["sessionId"], t.beta.as_str());
    let hits = json(&ok(session(
        &t.sb,
        &t.sb.work,
        &["search", "Parser", "--role", "user"],
    )));
    assert_eq!(hits.as_array().unwrap().len(), 0);
    let out = ok(session(&t.sb, &t.sb.work, &["get", "Parser Fix"]));
    assert_eq!(json(&out)["title"], "Parser Fix");
}

#[test]
fn list_filters_by_model_since_and_workspace() {
    let t = two();
    let ids = crate::support::ids_of_listing;
    let here = ok(session(&t.sb, &t.repo_sub, &["list", "--here"]));
    assert_eq!(ids(&here), vec![t.alpha.clone()]);
    assert!(
        json(&here)[0]["workspace"]
            .as_str()
            .unwrap()
            .ends_with("/repo")
    );
    let out = ok(session(&t.sb, &t.sb.work, &["list", "--model", "m1"]));
    assert_eq!(ids(&out).len(), 2);
    let out = ok(session(&t.sb, &t.sb.work, &["list", "--model", "other"]));
    assert_eq!(ids(&out).len(), 0);
    let out = ok(session(&t.sb, &t.sb.work, &["list", "--since", "1h"]));
    assert_eq!(ids(&out).len(), 2);
    let out = ok(session(
        &t.sb,
        &t.sb.work,
        &["list", "--since", "2999-01-01"],
    ));
    assert_eq!(ids(&out).len(), 0);
    let out = session(&t.sb, &t.sb.work, &["list", "--since", "soon"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_one_line_error(&out, "ollm-session");
    // --here in a directory where nothing was made: not found.
    let out = session(&t.sb, &t.sb.home, &["get", "--here"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_one_line_error(&out, "ollm-session");
}

#[test]
fn a_10_mb_tool_result_is_recorded_from_stdin_or_a_file() {
    let t = two();
    let mut big = String::new();
    for i in 0.. {
        if big.len() >= 10 * 1024 * 1024 {
            break;
        }
        big.push_str(&format!(
            "{i:>10} test output line of a noisy cargo test run\n"
        ));
    }
    assert!(big.len() >= 10 * 1024 * 1024);
    let mut cmd = session(
        &t.sb,
        &t.sb.work,
        &[
            "record",
            "--last",
            "--tool",
            "run",
            "--args",
            r#"{"cmd":"cargo test"}"#,
            "--result",
            "-",
        ],
    );
    cmd.write_stdin(big.clone());
    let ack = json(&ok(cmd));
    assert_eq!(ack["recorded"], "toolCall");
    let file = t.sb.write("out.txt", &big);
    let args = t.sb.write("args.json", r#"{"cmd":"make"}"#);
    let out = ok(session(
        &t.sb,
        &t.sb.work,
        &[
            "record",
            &t.beta,
            "--tool",
            "make",
            "--args-file",
            args.to_str().unwrap(),
            "--result-file",
            file.to_str().unwrap(),
        ],
    ));
    assert_eq!(json(&out)["index"], 1);
    let text = t.sb.write("message.txt", "from a file\n");
    ok(session(
        &t.sb,
        &t.sb.work,
        &[
            "record",
            "--last",
            "--role",
            "assistant",
            "--text-file",
            text.to_str().unwrap(),
        ],
    ));
    let mut cmd = session(
        &t.sb,
        &t.sb.work,
        &[
            "record", "--last", "--tool", "x", "--args", "-", "--result", "ok",
        ],
    );
    cmd.write_stdin(r#"{"from":"stdin"}"#);
    ok(cmd);
    let got = json(&ok(session(&t.sb, &t.sb.work, &["get", &t.beta])));
    let calls = got["toolCalls"].as_array().unwrap();
    assert_eq!(calls[0]["result"]["llmContent"].as_str().unwrap(), big);
    assert_eq!(calls[1]["result"]["llmContent"].as_str().unwrap(), big);
    assert_eq!(calls[1]["args"]["cmd"], "make");
    assert_eq!(calls[2]["args"]["from"], "stdin");
    assert_eq!(got["messages"][1]["parts"][0]["text"], "from a file\n");
    // Two texts cannot both come from stdin.
    let out = session(
        &t.sb,
        &t.sb.work,
        &[
            "record", "--last", "--tool", "x", "--args", "-", "--result", "-",
        ],
    )
    .write_stdin("{}")
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_one_line_error(&out, "ollm-session");
    // A missing result file is an IO error, and nothing is recorded.
    let out = session(
        &t.sb,
        &t.sb.work,
        &[
            "record",
            "--last",
            "--tool",
            "x",
            "--result-file",
            "/nonexistent/out.txt",
        ],
    )
    .output()
    .unwrap();
    // A missing input file is "not found" (3) in every program.
    assert_eq!(out.status.code(), Some(3));
    assert_one_line_error(&out, "ollm-session");
    let again = json(&ok(session(&t.sb, &t.sb.work, &["get", &t.beta])));
    assert_eq!(again["toolCalls"].as_array().unwrap().len(), 3);
}

#[test]
fn compress_and_loopcheck_take_a_prefix_a_title_last_and_here() {
    let t = two();
    // alpha loops (the same tool call four times: a warning, then a stop); beta does not.
    for _ in 0..4 {
        ok(session(
            &t.sb,
            &t.sb.work,
            &[
                "record", &t.alpha, "--tool", "ls", "--args", "{}", "--result", "same",
            ],
        ));
    }
    ok(session(
        &t.sb,
        &t.sb.work,
        &["record", &t.beta, "--role", "assistant", "--text", "done"],
    ));
    let prefix = &t.alpha[..8];
    let forms: [(&[&str], bool, &Path); 5] = [
        (&["--session", prefix], true, &t.sb.work),
        (&["--session", "alpha"], true, &t.sb.work),
        (&["--last"], false, &t.sb.work),
        (&["--here"], true, &t.repo_sub),
        (&["--session", &t.beta[..6]], false, &t.sb.work),
    ];
    for (args, loops, dir) in forms {
        let out =
            t.sb.cmd("ollm-loopcheck")
                .current_dir(dir)
                .args(args)
                .output()
                .unwrap();
        assert_eq!(
            out.status.code(),
            Some(i32::from(loops)),
            "{args:?}: {}",
            stderr(&out)
        );
        let verdict = json(&out);
        assert_eq!(verdict["loop"], loops, "{args:?}");
        // compress reads the same session: alpha has 1 message, beta 2.
        let out =
            t.sb.cmd("ollm-compress")
                .current_dir(dir)
                .arg("count")
                .args(args)
                .output()
                .unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let messages = json(&out)["messages"].as_array().unwrap().len();
        assert_eq!(messages, if loops { 1 } else { 2 }, "{args:?}");
    }
    // A stored session and an input file at once is a usage error.
    let out =
        t.sb.cmd("ollm-loopcheck")
            .args(["--last", "events.ndjson"])
            .output()
            .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_one_line_error(&out, "ollm-loopcheck");
}

fn display_width(line: &str) -> usize {
    line.chars().count()
}

#[test]
fn tables_fit_80_and_120_columns_with_headers_previews_and_branches() {
    let t = two();
    let long =
        "a rather long title that describes the refactoring of the parser module in great detail";
    ok(session(&t.sb, &t.sb.work, &["rename", &t.alpha, long]));
    ok(session(
        &t.sb,
        &t.sb.work,
        &["branch", "--last", "--at", "1"],
    ));
    ok(session(
        &t.sb,
        &t.sb.work,
        &["snapshot", "create", &t.beta, "--summary", long],
    ));
    for columns in [80usize, 120] {
        let table = |args: &[&str]| -> String {
            let out = ok({
                let mut c = session(&t.sb, &t.sb.work, args);
                c.env("COLUMNS", columns.to_string())
                    .args(["--format", "table"]);
                c
            });
            let text = stdout(&out);
            for line in text.lines() {
                assert!(
                    display_width(line) <= columns,
                    "{args:?} at {columns}: {line:?} is {} wide",
                    display_width(line)
                );
            }
            text
        };
        let list = table(&["list"]);
        let lines: Vec<&str> = list.lines().collect();
        assert!(
            lines[0].starts_with("ID") && lines[0].contains("TITLE"),
            "{list}"
        );
        assert!(
            lines[0].contains("ACTIVE") && lines[0].contains("PROJECT"),
            "{list}"
        );
        // At 80 columns the local time and the model give way to the title.
        assert_eq!(lines[0].contains("LOCAL TIME"), columns == 120, "{list}");
        assert_eq!(lines[0].contains("MODEL"), columns == 120, "{list}");
        // The project: the workspace's last part (the git top level, not
        // the subdirectory alpha was made in).
        assert!(lines[2].contains("  other  "), "{list}");
        assert!(lines[3].contains("  repo  "), "{list}");
        assert_eq!(lines.len(), 4, "{list}");
        // The branch (newest) names its parent; beta, untitled, shows its
        // first user message; the long title is cut with `…`.
        assert!(lines[1].contains(&format!("↳ {}", &t.beta[..8])), "{list}");
        assert!(lines[1].contains("just now"), "{list}");
        assert!(lines[2].contains("\"beta words\""), "{list}");
        assert!(lines[3].starts_with(&t.alpha[..8]), "{list}");
        assert!(lines[3].ends_with('…'), "{list}");
        assert!(lines[3].contains(&long[..39]), "{list}");
        let hits = table(&["search", "words"]);
        assert!(hits.starts_with("SESSION"), "{hits}");
        assert!(
            hits.contains("beta words") && hits.contains("first words"),
            "{hits}"
        );
        let snaps = table(&["snapshot", "list", &t.beta]);
        assert!(snaps.starts_with("SNAPSHOT"), "{snaps}");
        if columns == 80 {
            assert!(snaps.contains('…'), "{snaps}");
        } else {
            // More of the summary fits in 120 columns.
            assert!(snaps.contains("describes the"), "{snaps}");
        }
        let branches = table(&["branches", &t.beta]);
        assert!(branches.starts_with("ID"), "{branches}");
    }
    // Piped output stays JSON: the same fields, plus workspace.
    let list = json(&ok(session(&t.sb, &t.sb.work, &["list"])));
    for key in [
        "sessionId",
        "startTime",
        "lastActivity",
        "model",
        "messageCount",
        "tokenCount",
        "workspace",
    ] {
        assert!(list[2].get(key).is_some(), "{key}: {}", list[2]);
    }
    // An empty listing says so at a terminal's width.
    let empty = Sandbox::new();
    let out = ok({
        let mut c = empty.cmd("ollm-session");
        c.args(["list", "--format", "table"]);
        c
    });
    assert_eq!(stdout(&out), "no sessions\n");
}

#[test]
fn hostile_titles_and_messages_are_escaped_in_tables() {
    let t = two();
    ok(session(
        &t.sb,
        &t.sb.work,
        &["rename", &t.alpha, "evil\u{1b}]0;PWNED\u{7}\u{202e}x"],
    ));
    ok(session(
        &t.sb,
        &t.sb.work,
        &[
            "record",
            &t.beta,
            "--role",
            "user",
            "--text",
            "\u{1b}[2Jwords",
        ],
    ));
    for args in [&["list"][..], &["search", "words"]] {
        let out = ok({
            let mut c = session(&t.sb, &t.sb.work, args);
            c.args(["--format", "table"]);
            c
        });
        let text = stdout(&out);
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{7}') && !text.contains('\u{202e}'),
            "{text:?}"
        );
    }
}

/// Runs `shell_command` under util-linux `script` (a pseudo-terminal as
/// stdin and stderr), types `keys` once the terminal shows `ready`, and
/// returns (what the terminal showed, exit code). `None` with a visible
/// SKIPPED where `script` is missing.
fn at_terminal_typing(
    sb: &Sandbox,
    shell_command: &str,
    ready: &str,
    keys: &[&str],
) -> Option<(String, Option<i32>)> {
    use std::io::{Read, Write};
    use std::process::Stdio;
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("SKIPPED: no `script` (util-linux) to give the picker a terminal");
        return None;
    }
    let mut child = std::process::Command::new("script")
        .args(["-qec", shell_command, "/dev/null"])
        .env_clear()
        .env("PATH", crate::support::test_path())
        .env("HOME", &sb.home)
        .env("OLLM_HOME", &sb.ollm_home)
        .env("LANG", "C.UTF-8")
        .env("TERM", "xterm")
        .env("NO_COLOR", "1")
        .current_dir(&sb.work)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = seen.clone();
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock().unwrap().extend_from_slice(&buf[..n]);
        }
    });
    let shows = |text: &str| String::from_utf8_lossy(&seen.lock().unwrap()).contains(text);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !shows(ready) {
        assert!(
            std::time::Instant::now() < deadline,
            "the picker never showed {ready:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let mut stdin = child.stdin.take().unwrap();
    for key in keys {
        stdin.write_all(key.as_bytes()).unwrap();
        stdin.flush().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
    let status = child.wait().unwrap();
    drop(stdin);
    reader.join().unwrap();
    let text = String::from_utf8_lossy(&seen.lock().unwrap()).into_owned();
    Some((text, status.code()))
}

#[test]
fn the_picker_chooses_by_typing_or_arrow_keys_through_a_real_terminal() {
    let t = two();
    ok(session(
        &t.sb,
        &t.sb.work,
        &["rename", &t.beta, "gamma docs"],
    ));
    // Type to filter, then Enter: the id goes to stdout (here a file, as
    // in `id=$(ollm-session resume)`), the picker to the terminal.
    let Some((screen, code)) = at_terminal_typing(
        &t.sb,
        "ollm-session resume > chosen.txt",
        "gamma docs",
        &["alph", "\r"],
    ) else {
        return;
    };
    assert_eq!(code, Some(0), "{screen}");
    // The whole hint at 80 columns; each session's project by its name.
    assert!(
        screen.contains(
            "Resume which session? Type to filter, ↑↓ to move, Enter to choose, Esc to leave"
        ),
        "{screen}"
    );
    assert!(screen.contains(" other "), "{screen}");
    assert!(
        !screen.contains(&*t.sb.work.to_string_lossy()),
        "a whole path: {screen}"
    );
    assert!(
        screen.contains("\"first words\"") || screen.contains("alpha"),
        "{screen}"
    );
    let chosen = std::fs::read_to_string(t.sb.work.join("chosen.txt")).unwrap();
    assert_eq!(chosen.trim(), t.alpha);
    // Newest first: one arrow down is the second newest (alpha).
    let (screen, code) = at_terminal_typing(
        &t.sb,
        "ollm-session resume > chosen.txt",
        "gamma docs",
        &["\u{1b}[B", "\r"],
    )
    .unwrap();
    assert_eq!(code, Some(0), "{screen}");
    let chosen = std::fs::read_to_string(t.sb.work.join("chosen.txt")).unwrap();
    assert_eq!(chosen.trim(), t.alpha);
    // Enter at once takes the newest, handed to --exec.
    let (screen, code) = at_terminal_typing(
        &t.sb,
        "ollm-session resume --exec 'echo started on' > started.txt",
        "gamma docs",
        &["\r"],
    )
    .unwrap();
    assert_eq!(code, Some(0), "{screen}");
    let started = std::fs::read_to_string(t.sb.work.join("started.txt")).unwrap();
    assert_eq!(started.trim(), format!("started on {}", t.beta));
    // Esc leaves with nothing chosen.
    let (screen, code) = at_terminal_typing(
        &t.sb,
        "ollm-session resume > chosen.txt",
        "gamma docs",
        &["\u{1b}"],
    )
    .unwrap();
    assert_eq!(code, Some(2), "{screen}");
    // A session with nothing in it yet says so rather than showing a blank.
    create_in(&t.sb, &t.sb.work, None);
    let (screen, code) =
        at_terminal_typing(&t.sb, "ollm-session resume", "no messages", &["\u{1b}"]).unwrap();
    assert_eq!(code, Some(2), "{screen}");
    assert!(screen.contains("(no messages yet)"), "{screen}");
}

#[test]
fn the_pickers_first_screen_comes_before_the_rest_of_the_listing_is_read() {
    let sb = Sandbox::new();
    let ids = sb.write_cli_sessions(150, "");
    sb.session_ok(&["reindex"]);
    // Ready once every session is in: the count beside the prompt.
    let Some((screen, code)) =
        at_terminal_typing(&sb, "ollm-session resume > chosen.txt", "150/150", &["\r"])
    else {
        return;
    };
    assert_eq!(code, Some(0), "{screen}");
    let all_in = screen.find("150/150").unwrap();
    // Before that the picker was on the screen with the newest sessions
    // and fewer than all of them: it did not wait for the whole listing.
    let newest = screen.find("session 149").unwrap();
    assert!(newest < all_in, "{screen}");
    let counts: Vec<(u32, u32)> = screen[..all_in]
        .split(|c: char| !c.is_ascii_digit() && c != '/')
        .filter_map(|word| {
            let (shown, total) = word.split_once('/')?;
            Some((shown.parse().ok()?, total.parse().ok()?))
        })
        .collect();
    assert!(
        counts
            .iter()
            .any(|&(shown, total)| shown == total && total < 150),
        "{counts:?} in {screen}"
    );
    let chosen = std::fs::read_to_string(sb.work.join("chosen.txt")).unwrap();
    assert_eq!(chosen.trim(), ids[0]);
}

#[test]
fn resume_off_a_terminal_needs_an_id_and_continue_takes_this_workspace() {
    let t = two();
    let out = session(&t.sb, &t.sb.work, &["resume"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_one_line_error(&out, "ollm-session");
    let out = ok(session(&t.sb, &t.repo_sub, &["resume", "--continue"]));
    assert_eq!(stdout(&out).trim(), t.alpha);
    let out = ok(session(&t.sb, &t.sb.work, &["resume", "--last"]));
    assert_eq!(stdout(&out).trim(), t.beta);
    let out = ok(session(&t.sb, &t.sb.work, &["resume", "alpha"]));
    assert_eq!(stdout(&out).trim(), t.alpha);
}

#[test]
fn get_at_a_terminal_pages_and_folds_long_tool_results_but_piped_output_is_json() {
    let t = two();
    let result: Vec<String> = (1..=50).map(|i| format!("test output line {i}")).collect();
    let file = t.sb.write("result.txt", &result.join("\n"));
    ok(session(
        &t.sb,
        &t.sb.work,
        &[
            "record",
            &t.alpha,
            "--tool",
            "run",
            "--result-file",
            file.to_str().unwrap(),
        ],
    ));
    // Plain Markdown where colour is off (NO_COLOR)...
    let pager = [
        ("PAGER", "sed 's/^/PAGED:/'"),
        ("TERM", "xterm"),
        ("NO_COLOR", "1"),
    ];
    let Some((screen, code)) =
        crate::support::terminal_bytes(&t.sb, "ollm-session get alpha", &pager)
    else {
        return;
    };
    let screen = String::from_utf8_lossy(&screen);
    assert_eq!(code, Some(0), "{screen}");
    assert!(screen.contains("PAGED:# alpha"), "{screen}");
    assert!(screen.contains("PAGED:test output line 10"), "{screen}");
    assert!(!screen.contains("test output line 11"), "{screen}");
    assert!(
        screen.contains("40 more lines (`--full` shows all)"),
        "{screen}"
    );
    let (screen, _) =
        crate::support::terminal_bytes(&t.sb, "ollm-session get alpha --full", &pager).unwrap();
    assert!(String::from_utf8_lossy(&screen).contains("PAGED:test output line 50"));
    // ...styled where it is on: headings bold without their marks, tool
    // output indented and dimmed without its fences.
    let colour = [("PAGER", "sed 's/^/PAGED:/'"), ("TERM", "xterm")];
    let (screen, _) =
        crate::support::terminal_bytes(&t.sb, "ollm-session get alpha", &colour).unwrap();
    let screen = String::from_utf8_lossy(&screen);
    assert!(screen.contains("PAGED:\u{1b}[1m\u{1b}[4malpha"), "{screen}");
    assert!(
        screen.contains("PAGED:    \u{1b}[2mtest output line 1\u{1b}[0m"),
        "{screen}"
    );
    assert!(!screen.contains("```"), "{screen}");
    // Piped: JSON, whole, never paged.
    let mut cmd = session(&t.sb, &t.sb.work, &["get", "alpha"]);
    cmd.env("PAGER", "sed 's/^/PAGED:/'");
    let got = json(&ok(cmd));
    assert_eq!(
        got["toolCalls"][0]["result"]["llmContent"]
            .as_str()
            .unwrap(),
        result.join("\n")
    );
}

#[test]
fn shells_complete_session_ids_with_titles_and_snapshot_ids() {
    let t = two();
    ok(session(
        &t.sb,
        &t.sb.work,
        &["snapshot", "create", &t.alpha, "--summary", "before"],
    ));
    let complete = |shell: &str, words: &[&str]| -> String {
        let mut cmd = t.sb.cmd("ollm-session");
        cmd.env("COMPLETE", shell).arg("--").args(words);
        stdout(&ok(cmd))
    };
    // fish's protocol: one candidate a line, `value<TAB>description`.
    let ids = complete("fish", &["ollm-session", "get", ""]);
    assert!(ids.contains(&format!("{}\talpha", t.alpha)), "{ids}");
    assert!(
        ids.contains(&format!("{}\t\"beta words\"", t.beta)),
        "{ids}"
    );
    let ids = complete("fish", &["ollm-session", "delete", &t.alpha[..4]]);
    assert!(ids.contains(&t.alpha), "{ids}");
    let snaps = complete("fish", &["ollm-session", "snapshot", "show", ""]);
    assert!(
        snaps.contains(&format!("\t{}: before", &t.alpha[..8])),
        "{snaps}"
    );
    // Each shell gets a registration script that calls back into the program.
    for shell in ["bash", "zsh", "fish"] {
        let mut cmd = t.sb.cmd("ollm-session");
        cmd.env("COMPLETE", shell);
        let script = stdout(&ok(cmd));
        assert!(script.contains("ollm-session"), "{shell}: {script}");
    }
}

#[test]
fn answering_no_to_clear_deletes_nothing_and_exits_0() {
    let t = two();
    let Some((shown, code)) =
        at_terminal_typing(&t.sb, "ollm-session clear --all", "[y/N]", &["n\r"])
    else {
        return;
    };
    assert_eq!(code, Some(0), "{shown}");
    assert!(
        shown.contains("nothing deleted: 2 sessions kept"),
        "{shown}"
    );
    let listed = json(&ok(session(&t.sb, &t.sb.work, &["list"])));
    assert_eq!(listed.as_array().unwrap().len(), 2);
}

#[test]
fn a_missing_input_file_for_record_is_not_found() {
    let t = two();
    let out = session(
        &t.sb,
        &t.sb.work,
        &["record", &t.beta, "/nonexistent/records.ndjson"],
    )
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-session");
}
