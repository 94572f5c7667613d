//! What an import could not read, it says: a database whose tables a
//! version this one does not know renamed (a one-line warning naming what
//! is missing, exit 4), a goose schema newer than the reader's (a warning,
//! the rest read), bytes that are not UTF-8 (counted), symbolic links not
//! followed (said once). Each case is derived at test time from the stores
//! of `shared/importer-fixtures`.

use std::path::{Path, PathBuf};

use rusqlite::Connection;

use super::real::fixtures;
use super::{import, parse};
use crate::support::{Sandbox, stderr, stdout};

/// A writable copy of the fixture database `relative` in `sb`, changed by
/// `sql`.
fn changed_copy(sb: &Sandbox, fixtures: &Path, relative: &str, sql: &str) -> PathBuf {
    let to = sb.home.join("copy").join(relative);
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(fixtures.join(relative), &to).unwrap();
    // The fixtures are read-only, and `copy` keeps the mode.
    let writable = std::os::unix::fs::PermissionsExt::from_mode(0o644);
    std::fs::set_permissions(&to, writable).unwrap();
    Connection::open(&to).unwrap().execute_batch(sql).unwrap();
    to
}

/// `ollm-session import --from tool PATH`: its exit code, stdout, stderr.
fn run(sb: &Sandbox, tool: &str, path: &Path) -> (Option<i32>, String, String) {
    // Owner-only already, so the store says nothing of its own on stderr.
    let private = std::os::unix::fs::PermissionsExt::from_mode(0o700);
    std::fs::set_permissions(&sb.ollm_home, private).unwrap();
    let out = sb
        .cmd("ollm-session")
        .args(["import", "--from", tool])
        .arg(path)
        .output()
        .unwrap();
    (out.status.code(), stdout(&out), stderr(&out))
}

#[test]
fn a_database_whose_tables_were_renamed_fails_with_one_line_naming_what_is_missing() {
    let Some(fixtures) = fixtures() else { return };
    for (tool, relative, sql, missing) in [
        (
            "goose",
            "goose/synthetic-db/sessions/sessions.db",
            "ALTER TABLE messages RENAME COLUMN content_json TO content;",
            "no messages.content_json",
        ),
        (
            "opencode",
            "opencode/synthetic-db/opencode.db",
            "ALTER TABLE part RENAME TO parts;",
            "no part.message_id, no part.data",
        ),
    ] {
        let sb = Sandbox::new();
        let db = changed_copy(&sb, &fixtures, relative, sql);
        let (code, out, err) = run(&sb, tool, db.parent().unwrap());
        assert_eq!(code, Some(4), "{tool}: {out}{err}");
        let warnings: Vec<&str> = err.lines().collect();
        assert_eq!(warnings.len(), 1, "{tool}: {err}");
        assert!(
            warnings[0].contains(&db.display().to_string())
                && warnings[0].contains(missing)
                && warnings[0].contains("schema"),
            "{tool}: {err}"
        );
        let (_, summary) = parse(&out);
        assert_eq!(
            (summary["failed"].as_u64(), summary["sessions"].as_u64()),
            (Some(1), Some(0))
        );
    }
}

#[test]
fn a_goose_schema_newer_than_known_is_read_after_a_warning() {
    let Some(fixtures) = fixtures() else { return };
    let sb = Sandbox::new();
    let relative = "goose/synthetic-db/sessions/sessions.db";
    let known = changed_copy(&sb, &fixtures, relative, "SELECT 1;");
    let (code, _, err) = run(&sb, "goose", known.parent().unwrap());
    assert_eq!(
        (code, warnings_but_retentions(&err)),
        (Some(0), 0),
        "the fixture's version is known: {err}"
    );

    let sb = Sandbox::new();
    let newer = changed_copy(
        &sb,
        &fixtures,
        relative,
        "INSERT INTO schema_version (version) VALUES (99);",
    );
    let (code, out, err) = run(&sb, "goose", newer.parent().unwrap());
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(warnings_but_retentions(&err), 1, "{err}");
    assert!(
        err.contains(&newer.display().to_string()) && err.contains("schema version 99"),
        "{err}"
    );
    let (lines, _) = parse(&out);
    assert!(!lines.is_empty(), "what is known is read: {out}");
}

#[test]
fn invalid_utf8_is_counted_and_the_prompt_kept() {
    let Some(fixtures) = fixtures() else { return };
    let sb = Sandbox::new();
    let from = fixtures.join("claude/spotter-short/projects");
    let file = std::fs::read_dir(from.join("-home-marco-projects-spotter"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .unwrap();
    let text = std::fs::read(&file).unwrap();
    let prompt = b"mix phx.server doesnt seem to start";
    let at = text
        .windows(prompt.len())
        .position(|w| w == prompt)
        .expect("the fixture's prompt");
    let mut bad = text.clone();
    bad[at + 3] = 0xFF; // `mix\xFFphx.server …`
    let to = sb
        .home
        .join("projects/-home-marco-projects-spotter")
        .join(file.file_name().unwrap());
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::write(&to, bad).unwrap();

    let (lines, summary) = import(
        &sb,
        &[
            "--from",
            "claude",
            &sb.home.join("projects").display().to_string(),
        ],
    );
    assert_eq!(summary["skipped"]["invalidUtf8"], 1, "{summary}");
    let session = super::get(&sb, lines[0]["sessionId"].as_str().unwrap());
    assert_eq!(
        session["messages"][0]["parts"][0]["text"],
        "mix\u{FFFD}phx.server doesnt seem to start"
    );
}

#[test]
fn symbolic_links_not_followed_are_said_once() {
    let Some(fixtures) = fixtures() else { return };
    let sb = Sandbox::new();
    let projects = sb.home.join("projects");
    std::fs::create_dir_all(&projects).unwrap();
    let store = fixtures.join("claude/agent-history-sdk/projects");
    for entry in std::fs::read_dir(&store).unwrap().flatten() {
        let to = projects.join(entry.file_name());
        std::fs::create_dir_all(&to).unwrap();
        for file in std::fs::read_dir(entry.path()).unwrap().flatten() {
            std::fs::copy(file.path(), to.join(file.file_name())).unwrap();
        }
    }
    let linked = fixtures.join("claude/spotter-short/projects/-home-marco-projects-spotter");
    std::os::unix::fs::symlink(&linked, projects.join("-linked-project")).unwrap();
    std::os::unix::fs::symlink(sb.home.join("gone"), projects.join("-gone")).unwrap();

    let (code, out, err) = run(&sb, "claude", &projects);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(warnings_but_retentions(&err), 1, "{err}");
    assert!(
        err.contains(&projects.display().to_string())
            && err.contains("2 symbolic links")
            && err.contains("not followed"),
        "{err}"
    );
    let (lines, _) = parse(&out);
    assert_eq!(lines.len(), 1, "the file itself is imported: {out}");
}

/// Lines of stderr other than the note on retention every import that
/// brought sessions in ends with.
fn warnings_but_retentions(err: &str) -> usize {
    err.lines()
        .filter(|line| !line.contains("outside services.session.maxSessions"))
        .count()
}
