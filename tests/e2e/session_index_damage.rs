//! The file store's index damaged, replaced by something it never makes,
//! or impossible to write: every command still answers as the sessions'
//! files do, none waits, none fails for it, each says so once, and
//! `reindex` puts the index back.

use std::path::Path;
use std::time::Duration;

use crate::session_index::{found, hit_ids, listed_ids, record};
use crate::storage::mkfifo;
use crate::support::{Sandbox, json, stderr, tree};

/// Long enough for a debug build on a loaded machine; a command that
/// waits on a FIFO waits for ever.
const PATIENCE: Duration = Duration::from_secs(60);

/// `ollm-session ARGS`, which must end (within [`PATIENCE`]) and succeed
/// with at most one warning line; that line, if any.
pub(crate) fn answers(sb: &Sandbox, args: &[&str]) -> (std::process::Output, Option<String>) {
    let out = sb
        .cmd("ollm-session")
        .args(args)
        .timeout(PATIENCE)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines.len() <= 1, "{args:?}: more than one line: {err}");
    let warning = lines.first().map(|l| (*l).to_string());
    (out, warning)
}

/// Three sessions holding "zanzibar" (two journals, one in the OLLM CLI's
/// format) and one that does not, with the search's bits made.
fn three_of_four(sb: &Sandbox) -> Vec<String> {
    let mut holding = Vec::new();
    for format in ["journal", "cli", "journal"] {
        let id = sb.create_session_as(Some(format), &[]);
        record(sb, &id, &format!("we sailed to zanzibar in the {format}"));
        holding.push(id);
    }
    let other = sb.create_session_as(Some("journal"), &[]);
    record(sb, &other, "nothing to find here");
    holding.sort();
    assert_eq!(found(sb, "zanzibar", &[]), holding);
    holding
}

#[test]
fn a_search_over_bits_cut_to_half_finds_every_session_and_warns_once() {
    let sb = Sandbox::new();
    let mut holding = three_of_four(&sb);
    let grams = sb.sessions_dir().join(".index/grams");
    let len = std::fs::metadata(&grams).unwrap().len();
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(&grams)
        .unwrap();
    file.set_len(len / 2).unwrap();
    drop(file);
    let (out, warning) = answers(&sb, &["search", "zanzibar", "--format", "json"]);
    let warning = warning.expect("a warning about the damaged index");
    assert!(warning.contains("damaged"), "{warning}");
    assert_eq!(hit_ids(&out), holding);
    // Made again: a session recorded afterwards is found, with no warning.
    let later = sb.create_session_as(Some("journal"), &[]);
    record(&sb, &later, "zanzibar again, later");
    holding.push(later);
    holding.sort();
    let (_, warning) = answers(&sb, &["search", "zanzibar"]);
    assert_eq!(warning, None);
    assert_eq!(found(&sb, "zanzibar", &[]), holding);
}

#[test]
fn a_record_made_after_the_bits_were_cut_is_found_by_the_first_search() {
    let sb = Sandbox::new();
    let mut holding = three_of_four(&sb);
    let grams = sb.sessions_dir().join(".index/grams");
    let len = std::fs::metadata(&grams).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&grams)
        .unwrap()
        .set_len(len / 2)
        .unwrap();
    // Its bits are written past the cut, which grows the file back to
    // its length: the rows lost before it are still noticed.
    let later = sb.create_session_as(Some("journal"), &[]);
    record(&sb, &later, "zanzibar, after the damage");
    holding.push(later);
    holding.sort();
    assert_eq!(found(&sb, "zanzibar", &[]), holding);
}

/// Every file of the index in turn replaced by a FIFO.
#[test]
fn a_fifo_in_the_index_holds_up_no_command() {
    let sb = Sandbox::new();
    let holding = three_of_four(&sb);
    let index = sb.sessions_dir().join(".index");
    for name in ["log", "sessions.db", "grams", "lock"] {
        let listed = listed_ids(&sb);
        let path = index.join(name);
        std::fs::remove_file(&path).unwrap();
        mkfifo(&path);
        for args in [&["search", "zanzibar"][..], &["list"], &["get", "--last"]] {
            let (_, warning) = answers(&sb, args);
            let warning = warning.unwrap_or_else(|| panic!("{name}, {args:?}: no warning"));
            assert!(warning.contains("FIFO"), "{name}: {warning}");
        }
        assert_eq!(found(&sb, "zanzibar", &[]), holding, "{name}");
        assert_eq!(listed_ids(&sb), listed, "{name}");
        let (out, _) = answers(&sb, &["get", "--last"]);
        assert_eq!(json(&out)["sessionId"], listed[0].as_str(), "{name}");
        // A write goes on; `reindex` removes the FIFO and builds again.
        answers(
            &sb,
            &["record", &holding[0], "--role", "user", "--text", "more"],
        );
        let (out, warning) = answers(&sb, &["reindex"]);
        assert!(warning.is_some_and(|w| w.contains("FIFO")), "{name}");
        assert_eq!(json(&out)["sessions"], 4, "{name}");
        assert!(std::fs::symlink_metadata(&path).map_or(true, |m| m.is_file()));
        let (_, warning) = answers(&sb, &["search", "zanzibar"]);
        assert_eq!(warning, None, "{name}: still warned after reindex");
        assert_eq!(found(&sb, "zanzibar", &[]), holding, "{name}");
    }
}

/// What takes the index's place in each case: a link to a directory (the
/// index moved there), a link to a file, a file. Root, whom no mode stops,
/// cannot write through any of them either.
fn misplace(index: &Path, elsewhere: &Path, case: &str) {
    match case {
        "link to a directory" => {
            std::fs::rename(index, elsewhere.join("moved-index")).unwrap();
            std::os::unix::fs::symlink(elsewhere.join("moved-index"), index).unwrap();
        }
        "link to a file" => {
            std::fs::remove_dir_all(index).unwrap();
            std::fs::write(elsewhere.join("a-file"), "theirs").unwrap();
            std::os::unix::fs::symlink(elsewhere.join("a-file"), index).unwrap();
        }
        _ => {
            std::fs::remove_dir_all(index).unwrap();
            std::fs::write(index, "not a directory").unwrap();
        }
    }
}

#[test]
fn a_linked_or_misplaced_index_stops_no_write_and_reindex_replaces_it() {
    for case in ["link to a directory", "link to a file", "a file"] {
        let sb = Sandbox::new();
        let mut holding = three_of_four(&sb);
        let index = sb.sessions_dir().join(".index");
        let elsewhere = sb.work.join("elsewhere");
        std::fs::create_dir_all(&elsewhere).unwrap();
        misplace(&index, &elsewhere, case);
        let theirs = tree(&elsewhere);

        let (_, warning) = answers(
            &sb,
            &[
                "record",
                &holding[0],
                "--role",
                "user",
                "--text",
                "zanzibar once more",
            ],
        );
        assert!(warning.is_some_and(|w| w.contains("index")), "{case}");
        let made = sb.create_session_as(Some("journal"), &[]);
        record(&sb, &made, "a zanzibar of its own");
        let created_cli = sb.create_session_as(Some("cli"), &[]);
        holding.push(made.clone());
        holding.sort();
        // Read from the files meanwhile: every session, every record.
        assert_eq!(found(&sb, "zanzibar", &[]), holding, "{case}");
        assert_eq!(listed_ids(&sb).len(), 6, "{case}");
        let got = json(&sb.session_ok(&["get", &holding[0], "--format", "json"]));
        assert!(!got["messages"].as_array().unwrap().is_empty());
        assert!(listed_ids(&sb).contains(&created_cli));
        assert_eq!(tree(&elsewhere), theirs, "{case}: wrote through the link");

        let (out, warning) = answers(&sb, &["reindex"]);
        assert!(warning.is_some_and(|w| w.contains("removed")), "{case}");
        assert_eq!(json(&out)["sessions"], 6, "{case}");
        assert!(
            std::fs::symlink_metadata(&index).unwrap().is_dir(),
            "{case}"
        );
        assert_eq!(
            tree(&elsewhere),
            theirs,
            "{case}: reindex went through the link"
        );
        assert!(!sb.sessions_dir().join(".index-stale").exists(), "{case}");
        let (_, warning) = answers(&sb, &["list"]);
        assert_eq!(warning, None, "{case}");
        assert_eq!(found(&sb, "zanzibar", &[]), holding, "{case}");
    }
}

#[test]
fn a_change_the_index_missed_is_not_hidden_once_it_works_again() {
    let sb = Sandbox::new();
    let holding = three_of_four(&sb);
    let index = sb.sessions_dir().join(".index");
    let elsewhere = sb.work.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    misplace(&index, &elsewhere, "link to a directory");
    let id = &holding[1];
    let before = json(&sb.session_ok(&["get", id, "--format", "json"]))["messages"]
        .as_array()
        .unwrap()
        .len();
    answers(
        &sb,
        &[
            "record",
            id,
            "--role",
            "user",
            "--text",
            "missed by the index: quokka",
        ],
    );
    // The index comes back as it was, without `reindex`: it was not told
    // of the record, and must not answer as if there were none.
    std::fs::remove_file(&index).unwrap();
    std::fs::rename(elsewhere.join("moved-index"), &index).unwrap();
    let (out, warning) = answers(&sb, &["list"]);
    assert!(warning.is_some_and(|w| w.contains("missed")));
    let row = json(&out)
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["sessionId"] == id.as_str())
        .cloned()
        .unwrap();
    assert_eq!(row["messageCount"], before + 1);
    assert_eq!(found(&sb, "quokka", &[]), vec![id.clone()]);
    let (_, warning) = answers(&sb, &["list"]);
    assert_eq!(warning, None);
}

/// A user who is not root (root passes every permission check), by number:
/// the store's owner in the test below.
const USER: &str = "64000";

/// `ollm-session ARGS` run as [`USER`], which must end and succeed with at
/// most one warning line; that line, if any.
fn answers_as_user(sb: &Sandbox, args: &[&str]) -> (std::process::Output, Option<String>) {
    let out = sb
        .program("setpriv")
        .args([
            &format!("--reuid={USER}"),
            &format!("--regid={USER}"),
            "--clear-groups",
        ])
        .arg(crate::support::bin_path("ollm-session"))
        .args(args)
        .timeout(PATIENCE)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines.len() <= 1, "{args:?}: more than one line: {err}");
    (out, lines.first().map(|l| (*l).to_string()))
}

/// The sandbox's home and work tree, which [`USER`] must enter.
fn open_to_others(sb: &Sandbox) {
    use std::os::unix::fs::PermissionsExt;
    for dir in [sb.home.parent().unwrap(), &sb.home, &sb.work] {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

fn chown(owner: &str, path: &Path) {
    let status = std::process::Command::new("chown")
        .args(["-R", owner])
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

/// Another user (`nobody`) made the index, so the store's owner can read
/// it but not write it: `record` and `create` still succeed, saying so
/// once, search reads the files meanwhile, and `reindex` moves the index
/// aside, untouched, and builds the user's own.
/// As the user, with an index they cannot write: a record (which says
/// once that the index is not used), a create and a record into it; a
/// search then finds every session holding the word.
fn writes_and_searches_go_on_as_user(sb: &Sandbox, holding: &mut Vec<String>) {
    let again = [
        "record",
        &holding[0],
        "--role",
        "user",
        "--text",
        "zanzibar again",
    ];
    let (_, warning) = answers_as_user(sb, &again);
    assert!(warning.is_some_and(|w| w.contains("index")));
    let (out, _) = answers_as_user(sb, &["create", "--model", "m", "--provider", "p"]);
    let made = json(&out)["sessionId"].as_str().unwrap().to_string();
    answers_as_user(
        sb,
        &[
            "record",
            &made,
            "--role",
            "user",
            "--text",
            "a zanzibar of its own",
        ],
    );
    holding.push(made);
    holding.sort();
    let (out, _) = answers_as_user(sb, &["search", "zanzibar", "--format", "json"]);
    assert_eq!(&hit_ids(&out), holding);
}

/// A store of four sessions (three holding "zanzibar") that a second
/// user may read, or `None` (and a visible SKIPPED line) when not root:
/// the second user is played with setpriv.
fn store_open_to_a_second_user() -> Option<(Sandbox, Vec<String>)> {
    if !crate::support::is_root() {
        println!("SKIPPED: a second user is played with setpriv, which needs root");
        return None;
    }
    let sb = Sandbox::new();
    let holding = three_of_four(&sb);
    open_to_others(&sb);
    Some((sb, holding))
}

#[test]
fn an_index_another_user_made_stops_no_write_and_reindex_moves_it_aside() {
    use std::os::unix::fs::MetadataExt;
    let Some((sb, mut holding)) = store_open_to_a_second_user() else {
        return;
    };
    chown(&format!("{USER}:{USER}"), &sb.ollm_home);
    let index = sb.sessions_dir().join(".index");
    // As `nobody` leaves it, having made it while the data directory was
    // open to them: theirs, readable by all, writable by them alone.
    chown("nobody:nogroup", &index);
    let status = std::process::Command::new("chmod")
        .args(["-R", "u=rwX,go=rX"])
        .arg(&index)
        .status()
        .unwrap();
    assert!(status.success());
    let theirs = tree(&index);

    writes_and_searches_go_on_as_user(&sb, &mut holding);
    assert_eq!(tree(&index), theirs, "their index was written");

    let (out, warning) = answers_as_user(&sb, &["reindex"]);
    assert_eq!(json(&out)["sessions"], 5);
    let warning = warning.expect("reindex says what it did");
    assert!(warning.contains("aside"), "{warning}");
    let meta = std::fs::symlink_metadata(&index).unwrap();
    assert!(meta.is_dir());
    assert_eq!(meta.uid().to_string(), USER, "the new index is the user's");
    let aside: Vec<_> = std::fs::read_dir(sb.sessions_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(".index-not-writable")
        })
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert!(
        warning.contains(&aside[0].display().to_string()),
        "{warning}"
    );
    assert_eq!(tree(&aside[0]), theirs, "their index was changed");
    let (out, warning) = answers_as_user(&sb, &["search", "zanzibar", "--format", "json"]);
    assert_eq!(warning, None);
    assert_eq!(hit_ids(&out), holding);
}

/// The index's directory is the user's, but its files were left by root
/// (`sudo ollm-session list` once): the user's commands go on without it,
/// and `reindex` removes those files and builds the index anew.
#[test]
fn index_files_root_left_stop_no_write_and_reindex_replaces_them() {
    use std::os::unix::fs::MetadataExt;
    let Some((sb, mut holding)) = store_open_to_a_second_user() else {
        return;
    };
    let index = sb.sessions_dir().join(".index");
    let root_files: Vec<_> = std::fs::read_dir(&index)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    chown(&format!("{USER}:{USER}"), &sb.ollm_home);
    for file in &root_files {
        chown("root:root", file);
    }

    writes_and_searches_go_on_as_user(&sb, &mut holding);

    let (out, warning) = answers_as_user(&sb, &["reindex"]);
    assert_eq!(json(&out)["sessions"], 5);
    assert!(warning.is_some_and(|w| w.contains("removed")));
    for entry in std::fs::read_dir(&index).unwrap() {
        let path = entry.unwrap().path();
        let owner = std::fs::symlink_metadata(&path).unwrap().uid();
        assert_eq!(owner.to_string(), USER, "{}", path.display());
    }
    let (out, warning) = answers_as_user(&sb, &["search", "zanzibar", "--format", "json"]);
    assert_eq!(warning, None);
    assert_eq!(hit_ids(&out), holding);
}
