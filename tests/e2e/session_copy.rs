//! `ollm-session copy` between stores: the journal store, a directory
//! (of journals or the spec's plain `<id>.json` files) and PostgreSQL.

use std::path::Path;

use serde_json::Value;

use crate::on_each_store;
use crate::support::{Sandbox, SessionStore, json, stderr};

on_each_store!(copy_moves_sessions_with_branches_and_snapshots_idempotently);

const SPEC_ID: &str = "550e8400-e29b-41d4-a716-446655440000";

/// Runs `ollm-session` on `store` (`file`, a directory or a URL).
fn on(sb: &Sandbox, store: &str, args: &[&str]) -> Value {
    let mut cmd = sb.cmd("ollm-session");
    if store.contains("://") || store == "file" {
        cmd.args(["--store", store]);
    } else {
        cmd.args(["--store", "file", "--data-dir", store]);
    }
    let out = cmd.args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    json(&out)
}

fn sorted(value: &Value) -> Vec<String> {
    let mut ids: Vec<String> = value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    ids.sort();
    ids
}

fn copy_moves_sessions_with_branches_and_snapshots_idempotently(store: SessionStore) {
    let Some(sb) = Sandbox::on(store) else {
        return;
    };
    // The target: the sandbox's database, or a directory.
    let target = match &sb.pg {
        Some(pg) => pg.url.clone(),
        None => {
            std::fs::create_dir_all(sb.work.join("target")).unwrap();
            "target".to_string()
        }
    };
    let a = on(
        &sb,
        "file",
        &[
            "create",
            "--model",
            "m",
            "--provider",
            "p",
            "--title",
            "first",
        ],
    )["sessionId"]
        .as_str()
        .unwrap()
        .to_string();
    for (role, text) in [("user", "one"), ("assistant", "two"), ("user", "three")] {
        on(&sb, "file", &["record", &a, "--role", role, "--text", text]);
    }
    on(
        &sb,
        "file",
        &[
            "record",
            &a,
            "--tool",
            "read_file",
            "--args",
            "{\"path\":\"x\"}",
            "--result",
            "ok",
        ],
    );
    let b = on(&sb, "file", &["branch", &a, "--at", "2"])["sessionId"]
        .as_str()
        .unwrap()
        .to_string();
    on(&sb, "file", &["snapshot", "create", &a]);
    let mut both = vec![a.clone(), b.clone()];
    both.sort();

    let first = on(
        &sb,
        "file",
        &["copy", "--from", "file", "--to", &target, "--all"],
    );
    assert_eq!(sorted(&first["copied"]), both, "{first}");
    assert_eq!(sorted(&first["present"]), Vec::<String>::new());
    let again = on(
        &sb,
        "file",
        &["copy", "--from", "file", "--to", &target, "--all"],
    );
    assert_eq!(
        sorted(&again["copied"]),
        Vec::<String>::new(),
        "not idempotent: {again}"
    );
    assert_eq!(sorted(&again["present"]), both);

    for id in [&a, &b] {
        assert_eq!(
            on(&sb, &target, &["get", id]),
            on(&sb, "file", &["get", id])
        );
    }
    let list = on(&sb, &target, &["list"]);
    assert_eq!(list, on(&sb, "file", &["list"]), "the summaries differ");
    let branches = on(&sb, &target, &["branches", &a]);
    assert_eq!(branches[0]["sessionId"], b.as_str());
    assert_eq!(branches[0]["branchPoint"], 2);
    let snapshots = on(&sb, &target, &["snapshot", "list", &a]);
    assert_eq!(snapshots.as_array().unwrap().len(), 1);
    // Recording goes on in the copy.
    on(
        &sb,
        &target,
        &["record", &a, "--role", "assistant", "--text", "four"],
    );
    assert_eq!(
        on(&sb, &target, &["get", &a])["messages"]
            .as_array()
            .unwrap()
            .len(),
        4
    );

    // The spec's plain files import the same way.
    let plain = sb.work.join("plain");
    std::fs::create_dir_all(&plain).unwrap();
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spec-example-session.json");
    let original = std::fs::read_to_string(fixture).unwrap();
    std::fs::write(plain.join(format!("{SPEC_ID}.json")), &original).unwrap();
    let report = on(
        &sb,
        "file",
        &["copy", "--from", "plain", "--to", &target, SPEC_ID],
    );
    assert_eq!(sorted(&report["copied"]), [SPEC_ID]);
    let expected: Value = serde_json::from_str(&original).unwrap();
    assert_eq!(on(&sb, &target, &["get", SPEC_ID]), expected);

    // A session that is not there: reported, exit 3, nothing else changed.
    let missing = "00000000-0000-4000-8000-000000000000";
    let out = sb
        .cmd("ollm-session")
        .args([
            "--store", "file", "copy", "--from", "file", "--to", &target, missing,
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_eq!(json(&out)["failed"][0]["sessionId"], missing);
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
}
