//! opencode's and goose's SQLite databases written by another process (in
//! WAL mode, rows not yet checkpointed) while a watcher runs.

use std::path::{Path, PathBuf};

use rusqlite::Connection;
use rusqlite::types::Value as Sql;

use super::{Watcher, fixture, have_fixtures, one_shot, store_of, wait_for_store, wait_until};
use crate::support::Sandbox;

/// Rows taken out of a table, to be written back while the watcher runs.
struct Held {
    table: &'static str,
    rows: Vec<Vec<Sql>>,
}

fn hold_back(db: &Connection, table: &'static str, condition: &str) -> Held {
    let mut select = db
        .prepare(&format!("SELECT * FROM {table} WHERE {condition}"))
        .unwrap();
    let columns = select.column_count();
    let rows: Vec<Vec<Sql>> = select
        .query_map([], |row| {
            (0..columns).map(|i| row.get::<_, Sql>(i)).collect()
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(!rows.is_empty(), "{table} has rows where {condition}");
    db.execute(&format!("DELETE FROM {table} WHERE {condition}"), [])
        .unwrap();
    Held { table, rows }
}

fn put_back(db: &Connection, held: &Held) {
    for row in &held.rows {
        let marks = vec!["?"; row.len()].join(", ");
        db.execute(
            &format!("INSERT INTO {} VALUES ({marks})", held.table),
            rusqlite::params_from_iter(row.iter()),
        )
        .unwrap();
    }
}

/// A private copy of the fixture database `relative` at `to`, in WAL mode.
fn copied(relative: &str, to: PathBuf) -> (PathBuf, Connection) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(fixture(relative), &to).unwrap();
    let db = Connection::open(&to).unwrap();
    let mode: String = db
        .query_row("PRAGMA journal_mode=WAL", [], |row| row.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    (to, db)
}

/// Only the database and its WAL files in its directory: the watcher
/// wrote nothing beside it.
fn assert_nothing_beside(db: &Path) {
    let dir = db.parent().unwrap();
    let name = db.file_name().unwrap().to_string_lossy().to_string();
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap().file_name().to_string_lossy().to_string();
        assert!(
            [name.clone(), format!("{name}-wal"), format!("{name}-shm")].contains(&entry),
            "{entry} beside {name}"
        );
    }
}

#[test]
fn an_opencode_database_written_in_wal_mode_equals_a_one_shot_import() {
    if !have_fixtures() {
        return;
    }
    let sb = Sandbox::new();
    let (path, db) = copied(
        "opencode/synthetic-db/opencode.db",
        sb.home.join(".local/share/opencode/opencode.db"),
    );
    let last = "(SELECT id FROM message ORDER BY time_created DESC LIMIT 2)";
    let parts = hold_back(&db, "part", &format!("message_id IN {last}"));
    let messages = hold_back(&db, "message", &format!("id IN {last}"));
    let watcher = Watcher::start(&sb, &["--from", "opencode"]);
    wait_until("the catch-up", || store_of(&sb).len() == 1);
    let before = super::records(&store_of(&sb));
    put_back(&db, &messages);
    put_back(&db, &parts);
    let expected = one_shot("opencode", &[path.parent().unwrap()]);
    assert!(super::records(&expected) > before, "rows were added");
    wait_for_store(&sb, &expected);
    assert_nothing_beside(&path);
    assert!(watcher.stop().0.success());
    drop(db);
}

#[test]
fn a_goose_database_written_in_wal_mode_equals_a_one_shot_import() {
    if !have_fixtures() {
        return;
    }
    let sb = Sandbox::new();
    let (path, db) = copied(
        "goose/synthetic-db/sessions/sessions.db",
        sb.home.join(".local/share/goose/sessions/sessions.db"),
    );
    let messages = hold_back(&db, "messages", "id > (SELECT max(id) - 3 FROM messages)");
    let watcher = Watcher::start(&sb, &["--from", "goose"]);
    wait_until("the catch-up", || store_of(&sb).len() == 1);
    let before = super::records(&store_of(&sb));
    put_back(&db, &messages);
    let expected = one_shot("goose", &[path.parent().unwrap()]);
    assert!(super::records(&expected) > before, "rows were added");
    wait_for_store(&sb, &expected);
    assert_nothing_beside(&path);
    assert!(watcher.stop().0.success());
    drop(db);
}
