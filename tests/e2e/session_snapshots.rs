//! Snapshots on each session store, and what sharing them through
//! PostgreSQL adds: a snapshot taken on one machine is listed, shown,
//! restored and deleted on another; `copy` carries snapshots between
//! stores; an older schema gains the snapshots table; concurrent and killed
//! snapshot writers lose nothing acknowledged.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use crate::on_each_store;
use crate::pg::TestPg;
use crate::support::{
    Sandbox, SessionStore, assert_one_line_error, bin_path, json, stderr, stdout, test_path,
};

on_each_store!(
    snapshots_are_created_listed_rolled_restored_and_deleted_with_their_session,
    concurrent_and_killed_snapshot_writers_lose_nothing_acknowledged,
);

fn ok(sb: &Sandbox, args: &[&str]) -> Value {
    let out = sb.session(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    json(&out)
}

/// Another machine: its own `OLLM_HOME` (and `snapshots.dir`), the same
/// database.
fn machine_b(a: &Sandbox) -> Sandbox {
    let mut b = Sandbox::new();
    b.pg = None;
    let url = a.pg.as_ref().map(|pg| pg.url.clone());
    std::fs::write(
        b.ollm_home.join("config.yaml"),
        format!(
            "services:\n  session:\n    store: '{}'\n",
            url.expect("a PostgreSQL sandbox")
        ),
    )
    .unwrap();
    b
}

fn conversation(sb: &Sandbox) -> String {
    let id = ok(sb, &["create", "--model", "m", "--provider", "p"])["sessionId"]
        .as_str()
        .unwrap()
        .to_string();
    for (role, text) in [("user", "one"), ("assistant", "two"), ("user", "three")] {
        ok(sb, &["record", &id, "--role", role, "--text", text]);
    }
    ok(
        sb,
        &[
            "record",
            &id,
            "--tool",
            "read_file",
            "--args",
            "{}",
            "--result",
            "ok",
        ],
    );
    id
}

/// A snapshot of session `id` taken through the file store (in
/// `snapshots.dir`, where the file store keeps them); its id.
fn file_store_snapshot(sb: &Sandbox, id: &str) -> String {
    ok(sb, &["--store", "file", "snapshot", "create", id])["id"]
        .as_str()
        .unwrap()
        .to_string()
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect()
}

/// The snapshot rows the database holds for `session`.
fn rows(pg: &TestPg, session: &str) -> i64 {
    pg.client()
        .query_one(
            "SELECT count(*) FROM ollm_snapshots WHERE session_id = $1",
            &[&session],
        )
        .unwrap()
        .get(0)
}

fn snapshots_are_created_listed_rolled_restored_and_deleted_with_their_session(
    store: SessionStore,
) {
    let Some(sb) = Sandbox::on(store) else { return };
    let id = conversation(&sb);
    let whole = ok(&sb, &["get", &id]);
    let mut taken = Vec::new();
    for n in 0..3 {
        let made = ok(
            &sb,
            &[
                "snapshot",
                "create",
                &id,
                "--summary",
                &format!("s{n}"),
                "--max-count",
                "2",
            ],
        );
        assert_eq!(made["summary"], format!("s{n}").as_str());
        assert_eq!(made["messageCount"], 3);
        taken.push(made["id"].as_str().unwrap().to_string());
        if n == 2 {
            // The rolling limit removed the oldest, and said so.
            assert_eq!(made["removed"], serde_json::json!([taken[0]]), "{made}");
        }
    }
    let listed = ok(&sb, &["snapshot", "list", &id]);
    assert_eq!(ids(&listed), [taken[2].as_str(), taken[1].as_str()]);
    let shown = ok(&sb, &["snapshot", "show", &taken[1]]);
    assert_eq!(shown["sessionId"], id.as_str());
    assert_eq!(shown["summary"], "s1");
    let restored = ok(&sb, &["snapshot", "restore", &taken[2]]);
    assert_eq!(restored["messages"], whole["messages"]);
    let made = ok(&sb, &["snapshot", "restore", &taken[2], "--as-session"]);
    let copy = ok(&sb, &["get", made["sessionId"].as_str().unwrap()]);
    assert_eq!(copy["messages"], whole["messages"]);
    assert_eq!(copy["toolCalls"], whole["toolCalls"]);
    assert_eq!(copy["parentSessionId"], id.as_str());

    ok(&sb, &["snapshot", "delete", &taken[1]]);
    assert_eq!(
        ids(&ok(&sb, &["snapshot", "list", &id])),
        [taken[2].as_str()]
    );
    let out = sb.session(&["snapshot", "show", &taken[1]]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-session");

    // Deleting the session deletes its snapshots.
    ok(&sb, &["delete", &id]);
    let out = sb.session(&["snapshot", "show", &taken[2]]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let out = sb.session(&["snapshot", "list", &id]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let local = sb.ollm_home.join("context-snapshots").join(&id);
    assert!(!local.exists(), "left in {}", local.display());
    if let Some(pg) = &sb.pg {
        assert_eq!(rows(pg, &id), 0, "snapshots outlived their session");
    }
}

#[test]
fn a_snapshot_taken_on_one_machine_is_listed_restored_and_deleted_on_another() {
    let Some(a) = Sandbox::on(SessionStore::Postgres) else {
        return;
    };
    let b = machine_b(&a);
    let id = conversation(&a);
    let whole = ok(&a, &["get", &id]);
    let snap = ok(&a, &["snapshot", "create", &id, "--summary", "on a"])["id"]
        .as_str()
        .unwrap()
        .to_string();
    // Nothing of it on machine A's disk: it is in the database.
    assert!(!a.ollm_home.join("context-snapshots").join(&id).exists());

    let listed = ok(&b, &["snapshot", "list", &id]);
    assert_eq!(ids(&listed), [snap.as_str()]);
    assert_eq!(listed[0]["summary"], "on a");
    assert_eq!(
        ok(&b, &["snapshot", "show", &snap])["sessionId"],
        id.as_str()
    );
    let restored = ok(&b, &["snapshot", "restore", &snap]);
    assert_eq!(restored["messages"], whole["messages"]);
    let made = ok(&b, &["snapshot", "restore", &snap, "--as-session"]);
    let copy = ok(&a, &["get", made["sessionId"].as_str().unwrap()]);
    assert_eq!(copy["messages"], whole["messages"]);

    // One taken on B is A's too; a delete on A is seen on B.
    let second = ok(&b, &["snapshot", "create", &id])["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        ids(&ok(&a, &["snapshot", "list", &id])),
        [second.as_str(), snap.as_str()]
    );
    ok(&a, &["snapshot", "delete", &snap]);
    assert_eq!(ids(&ok(&b, &["snapshot", "list", &id])), [second.as_str()]);
}

/// A snapshot machine A took before they were shared (in its own
/// `snapshots.dir`) is found there, not on B, until a copy of the store
/// to itself moves it into the database.
#[test]
fn snapshots_taken_locally_before_they_were_shared_stay_readable_and_copy_moves_them() {
    let Some(a) = Sandbox::on(SessionStore::Postgres) else {
        return;
    };
    let url = a.pg.as_ref().unwrap().url.clone();
    let b = machine_b(&a);
    let id = conversation(&a);
    // The same session in A's file store, so a file-store snapshot of it
    // lands in A's snapshots.dir as an older ollm would have put it.
    ok(&a, &["copy", "--from", &url, "--to", "file", &id]);
    let old = file_store_snapshot(&a, &id);
    assert!(a.ollm_home.join("context-snapshots").join(&id).is_dir());

    assert_eq!(ids(&ok(&a, &["snapshot", "list", &id])), [old.as_str()]);
    assert_eq!(ok(&a, &["snapshot", "show", &old])["id"], old.as_str());
    assert!(ids(&ok(&b, &["snapshot", "list", &id])).is_empty());

    let report = ok(&a, &["copy", "--from", &url, "--to", &url, "--all"]);
    assert_eq!(report["snapshotsCopied"], 1, "{report}");
    assert_eq!(ids(&ok(&b, &["snapshot", "list", &id])), [old.as_str()]);
    // Listed once on A although it is in both places.
    assert_eq!(ids(&ok(&a, &["snapshot", "list", &id])), [old.as_str()]);
    let again = ok(&a, &["copy", "--from", &url, "--to", &url, "--all"]);
    assert_eq!(again.get("snapshotsCopied"), None, "{again}");
}

/// `snapshots.dir` is shared by both stores under one `OLLM_HOME`: the
/// file store's snapshots, of a session only it holds and of one copied
/// between the stores, survive the PostgreSQL store's cleanup and delete.
#[test]
fn the_postgres_store_never_deletes_the_file_stores_snapshots() {
    let Some(a) = Sandbox::on(SessionStore::Postgres) else {
        return;
    };
    let url = a.pg.as_ref().unwrap().url.clone();
    let id = conversation(&a);
    ok(&a, &["copy", "--from", &url, "--to", "file", &id]);
    let snap = file_store_snapshot(&a, &id);
    let kept_only = ok(
        &a,
        &[
            "--store",
            "file",
            "create",
            "--model",
            "m",
            "--provider",
            "p",
        ],
    );
    let file_only = kept_only["sessionId"].as_str().unwrap().to_string();
    ok(
        &a,
        &[
            "--store", "file", "record", &file_only, "--role", "user", "--text", "x",
        ],
    );
    let file_snap = file_store_snapshot(&a, &file_only);

    let report = ok(&a, &["cleanup", "--keep", "0"]);
    assert_eq!(report.get("orphanedSnapshots"), None, "{report}");
    let out = a.session(&["delete", &id]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out)); // cleanup took it
    for (session_id, snapshot) in [(&id, &snap), (&file_only, &file_snap)] {
        assert_eq!(
            ids(&ok(
                &a,
                &["--store", "file", "snapshot", "list", session_id]
            )),
            [snapshot.as_str()],
            "the file store's snapshot of {session_id} was deleted"
        );
    }
}

/// file → PostgreSQL → another schema → file: every snapshot arrives once,
/// equal to the original, however often the copy runs.
#[test]
fn copy_carries_snapshots_between_stores_both_ways_idempotently() {
    let Some(a) = Sandbox::on(SessionStore::Postgres) else {
        return;
    };
    let Some(other) = TestPg::new() else { return };
    let url = a.pg.as_ref().unwrap().url.clone();
    let id = ok(
        &a,
        &[
            "--store",
            "file",
            "create",
            "--model",
            "m",
            "--provider",
            "p",
        ],
    )["sessionId"]
        .as_str()
        .unwrap()
        .to_string();
    ok(
        &a,
        &[
            "--store", "file", "record", &id, "--role", "user", "--text", "hi",
        ],
    );
    let mut snaps = Vec::new();
    for n in 0..2 {
        let made = ok(
            &a,
            &[
                "--store",
                "file",
                "snapshot",
                "create",
                &id,
                "--summary",
                &format!("f{n}"),
            ],
        );
        snaps.push(made["id"].as_str().unwrap().to_string());
    }
    snaps.reverse(); // newest first, as listed
    let original: Vec<Value> = snaps
        .iter()
        .map(|s| ok(&a, &["--store", "file", "snapshot", "show", s]))
        .collect();

    for round in 0..2 {
        let report = ok(&a, &["copy", "--from", "file", "--to", &url, "--all"]);
        let expected = if round == 0 {
            Some(&Value::from(2))
        } else {
            None
        };
        assert_eq!(report.get("snapshotsCopied"), expected, "{report}");
    }
    // In the database: machine B sees them.
    let b = machine_b(&a);
    assert_eq!(ids(&ok(&b, &["snapshot", "list", &id])), snaps);
    for (snap, original) in snaps.iter().zip(&original) {
        assert_eq!(&ok(&b, &["snapshot", "show", snap]), original);
    }
    assert_eq!(rows(a.pg.as_ref().unwrap(), &id), 2);

    // PostgreSQL to another schema, twice.
    for _ in 0..2 {
        ok(&b, &["copy", "--from", &url, "--to", &other.url, "--all"]);
    }
    assert_eq!(rows(&other, &id), 2);
    assert_eq!(
        ids(&ok(&b, &["--store", &other.url, "snapshot", "list", &id])),
        snaps
    );

    // And back to a machine's files (B has none yet), twice.
    for round in 0..2 {
        let report = ok(&b, &["copy", "--from", &other.url, "--to", "file", "--all"]);
        let expected = if round == 0 {
            Some(&Value::from(2))
        } else {
            None
        };
        assert_eq!(report.get("snapshotsCopied"), expected, "{report}");
    }
    let local = ok(&b, &["--store", "file", "snapshot", "list", &id]);
    assert_eq!(ids(&local), snaps);
    for (snap, original) in snaps.iter().zip(&original) {
        assert_eq!(
            &ok(&b, &["--store", "file", "snapshot", "show", snap]),
            original
        );
    }
    let restored = ok(&b, &["--store", "file", "snapshot", "restore", &snaps[0]]);
    let session = ok(&b, &["--store", "file", "get", &id]);
    assert_eq!(restored["messages"], session["messages"]);
    assert_eq!(session["messages"].as_array().unwrap().len(), 1);
}

/// A schema made by the previous version (1: no snapshots table) gains it
/// on first use, keeping its sessions; a later start changes nothing.
#[test]
fn a_schema_of_the_previous_version_is_migrated_on_first_use() {
    let Some(sb) = Sandbox::on(SessionStore::Postgres) else {
        return;
    };
    let pg = sb.pg.as_ref().unwrap();
    let id = conversation(&sb);
    // Version 2 is version 1 and the snapshots table: take it away.
    pg.client()
        .batch_execute(
            "DROP TABLE ollm_snapshots; DELETE FROM ollm_schema; \
             INSERT INTO ollm_schema (version) VALUES (1)",
        )
        .unwrap();
    // Processes starting at once: one migrates, the others wait for it.
    let racers: Vec<Child> = (0..4)
        .map(|_| {
            Command::new(bin_path("ollm-session"))
                .env_clear()
                .env("PATH", test_path())
                .env("HOME", &sb.home)
                .env("OLLM_HOME", &sb.ollm_home)
                .envs(sb.store_env())
                .args(["snapshot", "create", &id, "--max-count", "0"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for racer in racers {
        let out = racer.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
    assert_eq!(ids(&ok(&sb, &["snapshot", "list", &id])).len(), 4);
    assert_eq!(
        ok(&sb, &["get", &id])["messages"].as_array().unwrap().len(),
        3
    );
    let versions: Vec<i32> = pg
        .client()
        .query("SELECT version FROM ollm_schema ORDER BY version", &[])
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(versions, [1, 2]);
}

fn spawn_snapshot(sb: &Sandbox, id: &str, max_count: &str) -> Child {
    Command::new(bin_path("ollm-session"))
        .env_clear()
        .env("PATH", test_path())
        .env("HOME", &sb.home)
        .env("OLLM_HOME", &sb.ollm_home)
        .env("LANG", "C.UTF-8")
        .envs(sb.store_env())
        .args(["snapshot", "create", id, "--max-count", max_count])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// What the writers that finished acknowledged: the snapshots made and
/// those the rolling limit removed.
fn acknowledged(writers: Vec<Child>) -> (Vec<String>, Vec<String>) {
    let (mut made, mut removed) = (Vec::new(), Vec::new());
    for writer in writers {
        let out = writer.wait_with_output().unwrap();
        if out.status.success() {
            let ack: Value = serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|e| panic!("{e}: {}", stdout(&out)));
            made.push(ack["id"].as_str().unwrap().to_string());
            if let Some(gone) = ack["removed"].as_array() {
                removed.extend(gone.iter().map(|g| g.as_str().unwrap().to_string()));
            }
        }
    }
    (made, removed)
}

/// Rounds of 6 `snapshot create` at once on one session, half of them
/// killed with SIGKILL mid-way in every other round: every acknowledged
/// snapshot is listed and readable. Then 6 at once with a rolling limit of
/// 3 keep exactly 3, and every acknowledged one is kept or reported removed.
fn concurrent_and_killed_snapshot_writers_lose_nothing_acknowledged(store: SessionStore) {
    let Some(sb) = Sandbox::on(store) else { return };
    let id = conversation(&sb);
    let mut acked = Vec::new();
    let mut kills = 0;
    for round in 0..6 {
        let mut writers: Vec<Child> = (0..6).map(|_| spawn_snapshot(&sb, &id, "0")).collect();
        if round % 2 == 1 {
            std::thread::sleep(Duration::from_millis(20 + 15 * round));
            for writer in writers.iter_mut().step_by(2) {
                if writer.try_wait().unwrap().is_none() {
                    kills += 1;
                }
                let _ = writer.kill();
            }
        }
        acked.extend(acknowledged(writers).0);
        let listed = ids(&ok(&sb, &["snapshot", "list", &id]));
        for snap in &acked {
            assert!(
                listed.contains(snap),
                "acknowledged snapshot {snap} lost (round {round})"
            );
        }
        for snap in &listed {
            ok(&sb, &["snapshot", "show", snap, "--session", &id]);
        }
    }
    eprintln!(
        "snapshot soak: {} acknowledged, {kills} killed mid-way",
        acked.len()
    );
    assert!(acked.len() >= 18, "only {} acknowledged", acked.len());

    let writers: Vec<Child> = (0..6).map(|_| spawn_snapshot(&sb, &id, "3")).collect();
    let (made, removed) = acknowledged(writers);
    assert_eq!(made.len(), 6);
    let listed = ids(&ok(&sb, &["snapshot", "list", &id]));
    assert_eq!(listed.len(), 3, "{listed:?}");
    for snap in &made {
        assert!(
            listed.contains(snap) || removed.contains(snap),
            "acknowledged snapshot {snap} neither kept nor reported removed"
        );
    }
}
