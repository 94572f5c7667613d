//! The store's bounds and sharing: two sessions in one tree, guards on
//! what is snapshotted, retention and the disk budget, deletion with the
//! session.

use super::Cp;
use crate::support::json;

/// Two sessions in one directory see each other's edits as conflicts; a
/// restore in a monorepo touches only its own session's paths.
#[test]
fn two_sessions_in_one_tree_never_lose_each_others_edits() {
    let a = Cp::new();
    let b_id = "7d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
    a.write("shared.txt", "v1\n");
    a.write("a-only.txt", "a1\n");
    let a_turn = a.snapshot();
    let b = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--session", b_id]);
        a.run(&all)
    };
    assert!(b(&["snapshot"]).status.success());
    a.write("a-only.txt", "a2\n");
    a.snapshot();
    a.write("shared.txt", "edited by session b\n");
    assert!(b(&["snapshot"]).status.success());

    let (code, report) = a.restore(a_turn, &[]);
    assert_eq!(code, 1, "{report}");
    assert_eq!(super::listed(&report, "conflicts"), ["shared.txt"]);
    assert_eq!(a.read("shared.txt").unwrap(), "edited by session b\n");
    assert_eq!(a.read("a-only.txt").unwrap(), "a2\n");
}

#[test]
fn a_restore_in_a_monorepo_touches_only_its_own_package() {
    let cp = Cp::new();
    cp.write("packages/web/index.js", "web 1\n");
    cp.write("packages/api/server.js", "api 1\n");
    let web = cp.path("packages/web");
    let web = web.to_str().unwrap();
    let snap = |cp: &Cp| {
        let out = cp.run(&["snapshot", "--session", &cp.id, "--dir", web]);
        assert!(out.status.success());
        json(&out)["turn"].as_u64().unwrap()
    };
    let turn = snap(&cp);
    cp.write("packages/web/index.js", "web 2\n");
    snap(&cp);
    cp.write("packages/api/server.js", "api 2, someone else's\n");
    cp.write("packages/api/new.js", "new elsewhere\n");
    let (code, report) = cp.restore(turn, &[]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(cp.read("packages/web/index.js").unwrap(), "web 1\n");
    assert_eq!(
        cp.read("packages/api/server.js").unwrap(),
        "api 2, someone else's\n"
    );
    assert_eq!(cp.read("packages/api/new.js").unwrap(), "new elsewhere\n");
}

/// A snapshot of `$HOME` or a huge tree is refused; large media files are
/// recorded by size only and reported as not restorable.
#[test]
fn home_and_oversized_trees_are_refused_and_media_files_are_capped() {
    let cp = Cp::new();
    let home = cp.sb.home.to_str().unwrap().to_string();
    let out = cp.run(&["snapshot", "--session", &cp.id, "--dir", &home]);
    assert_eq!(out.status.code(), Some(2));
    crate::support::assert_one_line_error(&out, "ollm-checkpoint");
    let sessions = cp.sb.ollm_home.join("checkpoints/sessions");
    assert!(!sessions.join(&cp.id).exists());
    // 500 MB of media, sparse: nothing is read or stored beyond stats.
    for n in 0..5 {
        std::fs::create_dir_all(cp.path("media")).unwrap();
        let file = std::fs::File::create(cp.path(&format!("media/clip{n}.mp4"))).unwrap();
        file.set_len(100 << 20).unwrap();
    }
    cp.write("code.rs", "fn main() {}\n");
    let out = cp.run(&["snapshot", "--session", &cp.id]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let taken = json(&out);
    assert_eq!(
        taken["notRestorable"].as_array().unwrap().len(),
        5,
        "{taken}"
    );
    assert!(taken["bytesStored"].as_u64().unwrap() < 1 << 20, "{taken}");
    // Over the configured tree limit: refused, unless --allow-large.
    let config = cp.sb.ollm_home.join("config.yaml");
    std::fs::write(
        &config,
        "services:\n  checkpoint:\n    maxTreeBytes: 100000000\n",
    )
    .unwrap();
    let out = cp.run(&["snapshot", "--session", &cp.id]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("maxTreeBytes"));
    let out = cp.run(&["snapshot", "--session", &cp.id, "--allow-large"]);
    assert!(out.status.success());
    // A media file changed after the snapshot cannot be restored: said so.
    std::fs::File::options()
        .write(true)
        .open(cp.path("media/clip0.mp4"))
        .unwrap()
        .set_len(1 << 20)
        .unwrap();
    let (code, report) = cp.restore(2, &[]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(super::listed(&report, "notRestorable"), ["media/clip0.mp4"]);
}

/// opencode users report 80–533 GB of snapshot data: after 1,000 turns
/// the store is within its budget and every kept turn still restores.
#[test]
fn after_a_thousand_turns_the_store_keeps_its_budget_and_every_kept_turn_restores() {
    let cp = Cp::new();
    std::fs::write(
        cp.sb.ollm_home.join("config.yaml"),
        "services:\n  checkpoint:\n    keepTurns: 0\n    budgetBytes: 200000\n",
    )
    .unwrap();
    // In a subdirectory: its tree object must survive the collector too.
    cp.write("lib/stable.txt", "never changes\n");
    for turn in 1..=1000u32 {
        // Incompressible-ish content, so the budget bites.
        let body: String = (0..40u64)
            .map(|i| {
                format!(
                    "{:x}",
                    (u64::from(turn) * 7919 + i).wrapping_mul(2_654_435_761)
                )
            })
            .collect();
        cp.write("changing.txt", &body);
        let out = cp.run(&["snapshot", "--session", &cp.id]);
        assert!(
            out.status.success(),
            "turn {turn}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let objects = cp.sb.ollm_home.join("checkpoints/objects");
    let size: u64 = walk_size(&objects);
    assert!(size <= 200_000, "objects hold {size} bytes");
    let list = json(&cp.run(&["list", "--session", &cp.id]));
    let turns: Vec<u64> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["turn"].as_u64().unwrap())
        .collect();
    assert!(
        turns.contains(&1000) && turns.len() > 10 && turns.len() < 1000,
        "{turns:?}"
    );
    for turn in &turns {
        let (code, report) = cp.restore(*turn, &["--dry-run"]);
        assert_eq!(code, 0, "{report}");
    }
    let (code, report) = cp.restore(turns[0], &[]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(cp.read("lib/stable.txt").unwrap(), "never changes\n");
}

fn walk_size(dir: &std::path::Path) -> u64 {
    let mut total = 0;
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let meta = entry.metadata().unwrap();
        total += if meta.is_dir() {
            walk_size(&entry.path())
        } else {
            meta.len()
        };
    }
    total
}

/// A session's checkpoints go with it.
#[test]
fn deleting_the_session_deletes_its_checkpoints() {
    let sb_cp = Cp::with_id("00000000-0000-4000-8000-000000000000");
    let id = sb_cp.sb.create_session();
    let cp = Cp { sb: sb_cp.sb, id };
    cp.write("a.txt", "x\n");
    cp.snapshot();
    let dir = cp.sb.ollm_home.join("checkpoints/sessions").join(&cp.id);
    assert!(dir.is_dir());
    cp.sb.session_ok(&["delete", &cp.id]);
    assert!(!dir.exists());
}

/// opencode's snapshot store grew to hundreds of GB: a turn that edits one
/// file in a large tree stores that file and the directories above it, not
/// a line per file of the whole tree.
#[test]
fn a_turn_editing_one_file_in_a_large_tree_stores_about_that_file_not_the_tree() {
    let cp = Cp::new();
    for top in 0..10 {
        for sub in 0..10 {
            for file in 0..30 {
                cp.write(
                    &format!("p{top}/m{sub}/f{file}.rs"),
                    &format!("// {top} {sub} {file}\n"),
                );
            }
        }
    }
    let first = cp.ok(&["snapshot", "--session", &cp.id]);
    assert_eq!(first["files"], 3000);
    cp.write("p3/m7/f12.rs", "// the agent's edit\n");
    let edit = cp.ok(&["snapshot", "--session", &cp.id]);
    assert_eq!(edit["changed"], 1);
    // The flat tree this turn would otherwise write holds 3,000 hashes
    // (over 90 KB however compressed); the edit's content and three
    // directory objects are a few KB.
    let stored = edit["bytesStored"].as_u64().unwrap();
    assert!(stored < 16_000, "the edit stored {stored} bytes");
    let (code, report) = cp.restore(1, &[]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(cp.read("p3/m7/f12.rs").unwrap(), "// 3 7 12\n");
}
