//! Issue 45: `maxSessions` never deletes what the user did not make here.
//! Imported sessions keep their original dates, so they were the oldest
//! and the first the next `create` deleted; they are outside its count.
//! What `create` does delete is in its JSON, not only on stderr.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::{Sandbox, SessionStore, json, stderr};

/// A real Claude Code transcript (see ../shared/importer-fixtures/README.md).
const TRANSCRIPT: &str = "claude/spotter-short/projects/-home-marco-projects-spotter/55604662-cf2a-4331-851a-ec234028f8ca.jsonl";
const TRANSCRIPT_ID: &str = "55604662-cf2a-4331-851a-ec234028f8ca";

/// `~/.claude` with `n` sessions: copies of the real transcript, each
/// under a session id of its own. `None` (SKIPPED) without the fixtures.
fn claude_home_with(sb: &Sandbox, n: usize) -> Option<PathBuf> {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/importer-fixtures");
    let Ok(transcript) = std::fs::read_to_string(fixtures.join(TRANSCRIPT)) else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true and no {}",
            fixtures.display()
        );
        eprintln!("SKIPPED: no importer fixtures at {}", fixtures.display());
        return None;
    };
    let root = sb.work.join("claude-home");
    let project = root.join("projects/-home-marco-projects-spotter");
    std::fs::create_dir_all(&project).unwrap();
    for i in 0..n {
        let id = format!("55604662-cf2a-4331-851a-{i:012}");
        let copy = transcript.replace(TRANSCRIPT_ID, &id);
        std::fs::write(project.join(format!("{id}.jsonl")), copy).unwrap();
    }
    Some(root)
}

fn ids_listed(sb: &Sandbox) -> BTreeSet<String> {
    crate::support::ids_of_listing(&sb.session_ok(&["list", "--format", "json"]))
        .into_iter()
        .collect()
}

fn create(sb: &Sandbox, extra: &[&str], env: &[(&str, &str)]) -> (Value, String) {
    let out = sb
        .cmd("ollm-session")
        .args(["create", "--model", "m", "--provider", "p"])
        .args(extra)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    (json(&out), stderr(&out))
}

fn imported_sessions_outlive_create(store: SessionStore) {
    let Some(sb) = Sandbox::on(store) else { return };
    let Some(claude) = claude_home_with(&sb, 150) else {
        return;
    };
    let out = sb
        .cmd("ollm-session")
        .args(["import", "--from", "claude"])
        .arg(&claude)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let (lines, summary) = crate::import::parse(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(summary["imported"], 150, "{summary}");
    // The import says, at its end, what retention does with them.
    let said = stderr(&out);
    assert!(
        said.lines()
            .last()
            .is_some_and(|l| l.contains("outside services.session.maxSessions (100)")),
        "{said}"
    );
    let imported: BTreeSet<String> = lines
        .iter()
        .map(|l| l["sessionId"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(imported.len(), 150);

    // Five creates with the default maxSessions (100), in both formats a
    // file store writes: 155 sessions, 5 of them counted.
    let mut ours = Vec::new();
    for n in 0..5 {
        let env: &[(&str, &str)] = if n % 2 == 0 {
            &[]
        } else {
            &[("OLLM_SESSION_FORMAT", "journal")]
        };
        let (created, said) = create(&sb, &[], env);
        assert!(created.get("removed").is_none(), "{created}");
        assert!(said.is_empty(), "{said}");
        ours.push(created["sessionId"].as_str().unwrap().to_string());
    }
    let listed = ids_listed(&sb);
    let gone: Vec<&String> = imported.difference(&listed).collect();
    assert!(
        gone.is_empty(),
        "{} imported sessions deleted: {gone:?}",
        gone.len()
    );

    // A limit below what ollm made deletes only what ollm made, and says
    // so in the JSON a pipe reads as well as on stderr.
    let (created, said) = create(&sb, &["--max-sessions", "3"], &[]);
    let removed: BTreeSet<String> = created["removed"]
        .as_array()
        .unwrap_or_else(|| panic!("no `removed` in {created}"))
        .iter()
        .map(|id| id.as_str().unwrap().to_string())
        .collect();
    let oldest: BTreeSet<String> = ours[..3].iter().cloned().collect();
    assert_eq!(removed, oldest, "{created}");
    assert!(said.contains("deleted the 3 oldest sessions"), "{said}");
    let listed = ids_listed(&sb);
    assert!(imported.is_subset(&listed));
    assert_eq!(listed.len(), 150 + 3);
}

crate::on_each_store!(imported_sessions_outlive_create);
