//! `import --watch` into a PostgreSQL store (`OLLM_TEST_PG_URL`; skipped
//! without a server, failed under `CI=true`, as every PostgreSQL test).

use std::path::Path;
use std::time::Duration;

use super::{
    Watcher, append, fixture, have_fixtures, lines_of, one_shot, store_of, wait_for_store,
    wait_until,
};
use crate::pg::TestPg;
use crate::support::Sandbox;

const TOOL_HEAVY: &str = "claude/spotter-tool-heavy/projects/-home-marco-projects-spotter/d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl";
const EXEC: &str = "codex/agent-history-exec/sessions/2026/06/05/rollout-2026-06-05T10-28-20-019e9625-802f-7e91-840a-cfe88d14117a.jsonl";

#[test]
fn a_watcher_into_postgresql_ends_as_a_one_shot_import_into_files() {
    if !have_fixtures() {
        return;
    }
    let mut sb = Sandbox::new();
    let Some(pg) = TestPg::new() else { return };
    sb.pg = Some(pg);
    let dir = sb
        .home
        .join(".claude/projects/-home-marco-projects-spotter");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(Path::new(TOOL_HEAVY).file_name().unwrap());
    let lines = lines_of(&fixture(TOOL_HEAVY));
    std::fs::write(&path, lines[..8].concat()).unwrap();
    let watcher = Watcher::start(&sb, &["--from", "claude", "--from", "codex"]);
    wait_until("the catch-up", || store_of(&sb).len() == 1);
    for (n, line) in lines[8..].iter().enumerate() {
        if n % 7 == 3 {
            let (head, tail) = line.split_at(line.len() / 2);
            append(&path, head);
            std::thread::sleep(Duration::from_millis(200));
            append(&path, tail);
        } else {
            append(&path, line);
        }
        std::thread::sleep(Duration::from_millis(30));
    }
    // A Codex rollout made meanwhile, in a new date directory.
    let rollout = sb
        .home
        .join(".codex/sessions/2026/06/05")
        .join(Path::new(EXEC).file_name().unwrap());
    std::fs::create_dir_all(rollout.parent().unwrap()).unwrap();
    for line in lines_of(&fixture(EXEC)) {
        append(&rollout, &line);
        std::thread::sleep(Duration::from_millis(30));
    }
    let mut expected = one_shot("claude", &[&dir]);
    expected.extend(one_shot("codex", &[&sb.home.join(".codex/sessions")]));
    assert_eq!(expected.len(), 2);
    wait_for_store(&sb, &expected);
    assert_eq!(std::fs::read(&path).unwrap(), lines.concat());
    let (status, events) = watcher.stop();
    assert!(status.success());
    assert!(
        events.iter().any(|e| e["status"] == "updated"),
        "the watcher never added to a session it had stored"
    );
}
